CREATE TABLE "import_rejections" (
	"workspace_id" uuid NOT NULL,
	"import_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"value" text NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "import_rejections_workspace_id_import_id_row_number_pk" PRIMARY KEY("workspace_id","import_id","row_number")
);
--> statement-breakpoint
ALTER TABLE "import_histories" ADD COLUMN "processed_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "import_histories" ADD COLUMN "default_country" text;--> statement-breakpoint
ALTER TABLE "import_histories" ADD COLUMN "error_report_key" text;--> statement-breakpoint
ALTER TABLE "import_histories" ADD COLUMN "finished_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "import_rejections" ADD CONSTRAINT "import_rejections_import_id_import_histories_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import_histories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contacts_phone_prefix_idx" ON "contacts" USING btree ("workspace_id","phone_number" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "contacts_name_prefix_idx" ON "contacts" USING btree ("workspace_id",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "contacts_email_prefix_idx" ON "contacts" USING btree ("workspace_id",lower("email") text_pattern_ops);