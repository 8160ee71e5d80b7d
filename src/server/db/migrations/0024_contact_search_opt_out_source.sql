ALTER TABLE "contacts" ADD COLUMN "opted_out_source" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "opted_out_by_member_id" uuid;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_opted_out_by_member_id_members_id_fk" FOREIGN KEY ("opted_out_by_member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contacts_username_prefix_idx" ON "contacts" USING btree ("workspace_id",lower("username") text_pattern_ops) WHERE "username" IS NOT NULL;
