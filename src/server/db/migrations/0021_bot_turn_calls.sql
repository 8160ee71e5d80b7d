CREATE TABLE "bot_calls" (
	"workspace_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"node_id" text NOT NULL,
	"step" integer NOT NULL,
	"request" jsonb NOT NULL,
	"guard" jsonb,
	"outcome" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"attempted_at" timestamp (3) with time zone,
	"done_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bot_calls_workspace_id_key_pk" PRIMARY KEY("workspace_id","key")
);
--> statement-breakpoint
ALTER TABLE "bot_calls" ADD CONSTRAINT "bot_calls_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_calls" ADD CONSTRAINT "bot_calls_session_id_bot_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."bot_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_calls_session_idx" ON "bot_calls" USING btree ("workspace_id","session_id");--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "bot_email_from" text;
