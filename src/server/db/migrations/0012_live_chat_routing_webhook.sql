CREATE TABLE "webhook_verifications" (
	"channel" text PRIMARY KEY NOT NULL,
	"verified_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_members" ADD COLUMN "available" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD COLUMN "chat_capacity" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD COLUMN "last_auto_assigned_at" timestamp (3) with time zone;