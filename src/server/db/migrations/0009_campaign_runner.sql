ALTER TABLE "campaign_logs" ADD COLUMN "contact_id" uuid;--> statement-breakpoint
ALTER TABLE "campaign_logs" ADD COLUMN "delivery_state" text DEFAULT 'sent' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_logs" ADD COLUMN "error_code" integer;--> statement-breakpoint
ALTER TABLE "campaign_logs" ADD COLUMN "replied_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaign_logs" ADD COLUMN "updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "campaign_id" uuid;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_runs" ADD COLUMN "snapshot_done" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "scheduled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "deployed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "deployed_rf" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "trigger_key_hash" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "trigger_key_hint" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "opted_out_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "opt_out_keywords" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "opt_out_confirmation" text DEFAULT 'You will no longer receive campaign messages from us. Reply START to subscribe again.' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_logs_contact_idx" ON "campaign_logs" USING btree ("workspace_id","contact_id","created_at");--> statement-breakpoint
CREATE INDEX "campaign_recipients_due_idx" ON "campaign_recipients" USING btree ("next_at") WHERE "campaign_recipients"."status" in ('pending', 'waiting', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_trigger_key_uq" ON "campaigns" USING btree ("trigger_key_hash");--> statement-breakpoint
CREATE INDEX "campaigns_due_idx" ON "campaigns" USING btree ("scheduled_at") WHERE "campaigns"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "campaigns_resume_idx" ON "campaigns" USING btree ("resume_at") WHERE "campaigns"."status" = 'paused';--> statement-breakpoint
-- Log lines written before delivery states existed: a failed one is failed.
UPDATE "campaign_logs" SET "delivery_state" = 'failed' WHERE "message_status" = 'failed';--> statement-breakpoint
-- Opted-out contacts of a workspace (the contacts filter and the runners' skip look them up).
CREATE INDEX "contacts_opted_out_idx" ON "contacts" USING btree ("workspace_id") WHERE "opted_out_at" IS NOT NULL;
