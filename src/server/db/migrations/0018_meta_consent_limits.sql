ALTER TABLE "contacts" ADD COLUMN "marketing_consent" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "marketing_consent_source" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "marketing_consent_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "skip_us_marketing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "halt_code" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "halt_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "halted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "portfolio_messaging_limit" text;
