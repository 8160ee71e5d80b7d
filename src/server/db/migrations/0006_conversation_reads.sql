CREATE TABLE "conversation_reads" (
	"workspace_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"read_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "conversation_reads_workspace_id_member_id_conversation_id_pk" PRIMARY KEY("workspace_id","member_id","conversation_id")
);
--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;