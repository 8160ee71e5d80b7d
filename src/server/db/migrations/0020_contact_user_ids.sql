ALTER TABLE "contacts" ALTER COLUMN "phone_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "parent_user_id" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "username" text;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_workspace_user_id_uq" ON "contacts" USING btree ("workspace_id","user_id");--> statement-breakpoint
CREATE TABLE "contact_identity_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"previous" text,
	"current" text,
	"changed_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "contact_identity_changes" ADD CONSTRAINT "contact_identity_changes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_identity_changes" ADD CONSTRAINT "contact_identity_changes_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_identity_changes_contact_idx" ON "contact_identity_changes" USING btree ("workspace_id","contact_id","changed_at");
