ALTER TABLE "whatsapp_accounts" ADD COLUMN "quality_rating" text;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "messaging_limit_tier" text;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "throughput_level" text;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "quality_event" text;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "health_updated_at" timestamp (3) with time zone;
