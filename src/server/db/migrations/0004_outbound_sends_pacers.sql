CREATE TABLE "outbound_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"whatsapp_account_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"conversation_id" uuid,
	"actor_type" text NOT NULL,
	"actor_id" uuid,
	"message_type" text NOT NULL,
	"status" text DEFAULT 'claimed' NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"throttled" integer DEFAULT 0 NOT NULL,
	"message_id" uuid,
	"wa_message_id" text,
	"error_code" integer,
	"failure_reason" text,
	"claimed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "send_pacers" (
	"whatsapp_account_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"next_at" double precision DEFAULT 0 NOT NULL,
	"backoffs" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "throughput_per_second" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbound_sends" ADD CONSTRAINT "outbound_sends_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_pacers" ADD CONSTRAINT "send_pacers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_sends_key_uq" ON "outbound_sends" USING btree ("workspace_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "outbound_sends_status_idx" ON "outbound_sends" USING btree ("workspace_id","status","claimed_at");--> statement-breakpoint
CREATE INDEX "send_pacers_workspace_idx" ON "send_pacers" USING btree ("workspace_id");--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD CONSTRAINT "whatsapp_accounts_throughput_range" CHECK ("whatsapp_accounts"."throughput_per_second" between 1 and 1000);