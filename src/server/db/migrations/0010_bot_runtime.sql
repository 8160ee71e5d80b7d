CREATE TABLE "bot_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"rf_instance" jsonb NOT NULL,
	"draft_revision" integer NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_attributes" (
	"conversation_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD COLUMN "bot_version_id" uuid;--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD COLUMN "step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD COLUMN "invalid_answers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD COLUMN "no_answer_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD COLUMN "handled_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "published_version_id" uuid;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "draft_revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "published_revision" integer;--> statement-breakpoint
ALTER TABLE "bot_versions" ADD CONSTRAINT "bot_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_versions" ADD CONSTRAINT "bot_versions_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_attributes" ADD CONSTRAINT "conversation_attributes_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_attributes" ADD CONSTRAINT "conversation_attributes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bot_versions_bot_version_uq" ON "bot_versions" USING btree ("bot_id","version");--> statement-breakpoint
CREATE INDEX "bot_versions_workspace_idx" ON "bot_versions" USING btree ("workspace_id","bot_id");--> statement-breakpoint
CREATE INDEX "conversation_attributes_workspace_idx" ON "conversation_attributes" USING btree ("workspace_id");--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD CONSTRAINT "bot_sessions_bot_version_id_bot_versions_id_fk" FOREIGN KEY ("bot_version_id") REFERENCES "public"."bot_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_sessions_no_answer_idx" ON "bot_sessions" USING btree ("no_answer_at") WHERE "bot_sessions"."status" = 'active' AND "bot_sessions"."no_answer_at" IS NOT NULL;--> statement-breakpoint
-- Hand-written: before one active bot per number is enforced, keep only the newest active bot of each number.
UPDATE "bots" SET "is_active" = false WHERE "is_active" AND "whatsapp_account_id" IS NOT NULL AND "id" NOT IN (SELECT DISTINCT ON ("whatsapp_account_id") "id" FROM "bots" WHERE "is_active" AND "whatsapp_account_id" IS NOT NULL ORDER BY "whatsapp_account_id", "created_at" DESC, "id" DESC);--> statement-breakpoint
CREATE UNIQUE INDEX "bots_active_account_uq" ON "bots" USING btree ("whatsapp_account_id") WHERE "bots"."is_active" AND "bots"."whatsapp_account_id" IS NOT NULL;