CREATE TABLE "campaign_counts" (
	"workspace_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"folded" boolean DEFAULT false NOT NULL,
	"recipients" bigint DEFAULT 0 NOT NULL,
	"pending" bigint DEFAULT 0 NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	"delivered" bigint DEFAULT 0 NOT NULL,
	"read" bigint DEFAULT 0 NOT NULL,
	"replied" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"unknown" bigint DEFAULT 0 NOT NULL,
	"opted_out" bigint DEFAULT 0 NOT NULL,
	"capped" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- No foreign keys: a delta's insert would then lock its campaign (FOR KEY SHARE) from statements that never did
-- (a status webhook's update of log lines), and wait in a cycle with the campaign's delete. A campaign's delete
-- takes its rows instead (campaigns_count_delete below, also through a workspace's delete).
CREATE INDEX "campaign_counts_campaign_idx" ON "campaign_counts" USING btree ("workspace_id","campaign_id");
--> statement-breakpoint
CREATE INDEX "campaign_counts_unfolded_idx" ON "campaign_counts" USING btree ("campaign_id") WHERE not "campaign_counts"."folded";
--> statement-breakpoint
-- A statement's changes to campaign_recipients as one row of deltas per campaign, in its own transaction. Rows of a
-- campaign being deleted (its cascade) add nothing: the campaign's counts go with it.
CREATE FUNCTION campaign_recipients_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_counts (workspace_id, campaign_id, recipients, pending)
    SELECT d.workspace_id, d.campaign_id, sum(d.n), sum(d.p)
      FROM (SELECT workspace_id, campaign_id, 1 AS n, (status in ('pending', 'waiting', 'sending'))::int AS p FROM new_rows) d
     WHERE d.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.workspace_id, d.campaign_id
    HAVING sum(d.n) <> 0 OR sum(d.p) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO campaign_counts (workspace_id, campaign_id, recipients, pending)
    SELECT d.workspace_id, d.campaign_id, sum(d.n), sum(d.p)
      FROM (SELECT workspace_id, campaign_id, -1 AS n, -(status in ('pending', 'waiting', 'sending'))::int AS p FROM old_rows) d
     WHERE d.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.workspace_id, d.campaign_id
    HAVING sum(d.n) <> 0 OR sum(d.p) <> 0;
  ELSE
    INSERT INTO campaign_counts (workspace_id, campaign_id, recipients, pending)
    SELECT d.workspace_id, d.campaign_id, sum(d.n), sum(d.p)
      FROM (SELECT workspace_id, campaign_id, 1 AS n, (status in ('pending', 'waiting', 'sending'))::int AS p FROM new_rows UNION ALL SELECT workspace_id, campaign_id, -1 AS n, -(status in ('pending', 'waiting', 'sending'))::int AS p FROM old_rows) d
     WHERE d.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.workspace_id, d.campaign_id
    HAVING sum(d.n) <> 0 OR sum(d.p) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The same for campaign_logs (the webhooks' delivery states and replies included).
CREATE FUNCTION campaign_logs_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_counts (workspace_id, campaign_id, sent, delivered, read, replied, failed, unknown, opted_out, capped)
    SELECT d.workspace_id, d.campaign_id, sum(d.sent), sum(d.delivered), sum(d.read), sum(d.replied), sum(d.failed), sum(d.unknown), sum(d.opted_out), sum(d.capped)
      FROM (SELECT workspace_id, campaign_id, (delivery_state in ('sent', 'delivered', 'read'))::int AS sent, (delivery_state in ('delivered', 'read'))::int AS delivered, (delivery_state = 'read')::int AS read, (replied_at is not null)::int AS replied, (delivery_state = 'failed')::int AS failed, (delivery_state = 'unknown')::int AS unknown, (delivery_state = 'optedOut')::int AS opted_out, (delivery_state = 'capped')::int AS capped FROM new_rows) d
     WHERE EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.workspace_id, d.campaign_id
    HAVING sum(d.sent) <> 0 OR sum(d.delivered) <> 0 OR sum(d.read) <> 0 OR sum(d.replied) <> 0 OR sum(d.failed) <> 0 OR sum(d.unknown) <> 0 OR sum(d.opted_out) <> 0 OR sum(d.capped) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO campaign_counts (workspace_id, campaign_id, sent, delivered, read, replied, failed, unknown, opted_out, capped)
    SELECT d.workspace_id, d.campaign_id, sum(d.sent), sum(d.delivered), sum(d.read), sum(d.replied), sum(d.failed), sum(d.unknown), sum(d.opted_out), sum(d.capped)
      FROM (SELECT workspace_id, campaign_id, -(delivery_state in ('sent', 'delivered', 'read'))::int AS sent, -(delivery_state in ('delivered', 'read'))::int AS delivered, -(delivery_state = 'read')::int AS read, -(replied_at is not null)::int AS replied, -(delivery_state = 'failed')::int AS failed, -(delivery_state = 'unknown')::int AS unknown, -(delivery_state = 'optedOut')::int AS opted_out, -(delivery_state = 'capped')::int AS capped FROM old_rows) d
     WHERE EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.workspace_id, d.campaign_id
    HAVING sum(d.sent) <> 0 OR sum(d.delivered) <> 0 OR sum(d.read) <> 0 OR sum(d.replied) <> 0 OR sum(d.failed) <> 0 OR sum(d.unknown) <> 0 OR sum(d.opted_out) <> 0 OR sum(d.capped) <> 0;
  ELSE
    INSERT INTO campaign_counts (workspace_id, campaign_id, sent, delivered, read, replied, failed, unknown, opted_out, capped)
    SELECT d.workspace_id, d.campaign_id, sum(d.sent), sum(d.delivered), sum(d.read), sum(d.replied), sum(d.failed), sum(d.unknown), sum(d.opted_out), sum(d.capped)
      FROM (SELECT workspace_id, campaign_id, (delivery_state in ('sent', 'delivered', 'read'))::int AS sent, (delivery_state in ('delivered', 'read'))::int AS delivered, (delivery_state = 'read')::int AS read, (replied_at is not null)::int AS replied, (delivery_state = 'failed')::int AS failed, (delivery_state = 'unknown')::int AS unknown, (delivery_state = 'optedOut')::int AS opted_out, (delivery_state = 'capped')::int AS capped FROM new_rows UNION ALL SELECT workspace_id, campaign_id, -(delivery_state in ('sent', 'delivered', 'read'))::int AS sent, -(delivery_state in ('delivered', 'read'))::int AS delivered, -(delivery_state = 'read')::int AS read, -(replied_at is not null)::int AS replied, -(delivery_state = 'failed')::int AS failed, -(delivery_state = 'unknown')::int AS unknown, -(delivery_state = 'optedOut')::int AS opted_out, -(delivery_state = 'capped')::int AS capped FROM old_rows) d
     WHERE EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.workspace_id, d.campaign_id
    HAVING sum(d.sent) <> 0 OR sum(d.delivered) <> 0 OR sum(d.read) <> 0 OR sum(d.replied) <> 0 OR sum(d.failed) <> 0 OR sum(d.unknown) <> 0 OR sum(d.opted_out) <> 0 OR sum(d.capped) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "campaign_recipients_count_insert" AFTER INSERT ON "campaign_recipients" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_recipients_count();
--> statement-breakpoint
CREATE TRIGGER "campaign_recipients_count_update" AFTER UPDATE ON "campaign_recipients" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_recipients_count();
--> statement-breakpoint
CREATE TRIGGER "campaign_recipients_count_delete" AFTER DELETE ON "campaign_recipients" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_recipients_count();
--> statement-breakpoint
CREATE TRIGGER "campaign_logs_count_insert" AFTER INSERT ON "campaign_logs" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_logs_count();
--> statement-breakpoint
CREATE TRIGGER "campaign_logs_count_update" AFTER UPDATE ON "campaign_logs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_logs_count();
--> statement-breakpoint
CREATE TRIGGER "campaign_logs_count_delete" AFTER DELETE ON "campaign_logs" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_logs_count();
--> statement-breakpoint
-- A deleted campaign's rows go with it (its recipients' and log lines' cascade adds none: see above).
CREATE FUNCTION campaigns_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM campaign_counts c USING old_rows o WHERE c.campaign_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "campaigns_count_delete" AFTER DELETE ON "campaigns" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION campaigns_count_delete();
--> statement-breakpoint
-- The campaigns already there: their counts now, one folded row each.
INSERT INTO campaign_counts (workspace_id, campaign_id, folded, recipients, pending)
SELECT workspace_id, campaign_id, true, count(*), count(*) FILTER (WHERE status in ('pending', 'waiting', 'sending'))
  FROM campaign_recipients WHERE campaign_id IS NOT NULL GROUP BY workspace_id, campaign_id;
--> statement-breakpoint
INSERT INTO campaign_counts (workspace_id, campaign_id, folded, sent, delivered, read, replied, failed, unknown, opted_out, capped)
SELECT workspace_id, campaign_id, true, count(*) FILTER (WHERE delivery_state in ('sent', 'delivered', 'read')), count(*) FILTER (WHERE delivery_state in ('delivered', 'read')), count(*) FILTER (WHERE delivery_state = 'read'), count(*) FILTER (WHERE replied_at is not null), count(*) FILTER (WHERE delivery_state = 'failed'), count(*) FILTER (WHERE delivery_state = 'unknown'), count(*) FILTER (WHERE delivery_state = 'optedOut'), count(*) FILTER (WHERE delivery_state = 'capped')
  FROM campaign_logs GROUP BY workspace_id, campaign_id;
