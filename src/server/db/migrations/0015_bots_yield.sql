ALTER TABLE "conversations" ADD COLUMN "needs_person" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "bot_email_from" text;--> statement-breakpoint
ALTER TABLE "bot_sessions" ADD COLUMN "walked_since_answer" integer DEFAULT 0 NOT NULL;
