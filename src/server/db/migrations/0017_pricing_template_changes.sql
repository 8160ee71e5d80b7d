ALTER TABLE "messages" ADD COLUMN "pricing" jsonb;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "quality_score" text;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "previous_quality_score" text;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "quality_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "category_change" jsonb;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "category_change_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE TABLE "rate_cards" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"rates" jsonb NOT NULL,
	"ignored_markets" jsonb NOT NULL,
	"member_id" uuid NOT NULL,
	"uploaded_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rate_cards" ADD CONSTRAINT "rate_cards_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
