ALTER TABLE "campaigns" ADD COLUMN "hold_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "held_until" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "outbound_sends_template_reach_idx" ON "outbound_sends" USING btree ("workspace_id","claimed_at","contact_id","status") WHERE "outbound_sends"."message_type" = 'template';
