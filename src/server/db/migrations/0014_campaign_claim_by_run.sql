DROP INDEX "campaign_recipients_due_idx";--> statement-breakpoint
CREATE INDEX "campaign_recipients_run_due_idx" ON "campaign_recipients" USING btree ("run_id","next_at") WHERE "campaign_recipients"."status" in ('pending', 'waiting', 'sending');--> statement-breakpoint
CREATE INDEX "campaign_runs_running_idx" ON "campaign_runs" USING btree ("id") WHERE "campaign_runs"."status" = 'running';