-- A recipient is written a million times for a one-time run's snapshot and a thousand per trigger call, and each
-- foreign key was a check per new row (the contact's locked its contact row FOR KEY SHARE: a write per row). Three
-- of them and one index were half of a snapshot chunk's time (docs/benchmarks.md). What they kept is kept otherwise:
-- - workspace and campaign: a recipient's run belongs to both, their deletes cascade to the run, and the run's
--   delete to its recipients (run_id keeps its foreign key);
-- - contact: a contact's delete takes its recipients (contacts_recipients_delete below). Writers of recipients
--   (snapshot chunks, trigger calls) hold a shared advisory lock of the workspace (class "PRCR") and a contact's
--   delete waits for the exclusive one before its first row, so no recipient is written for a contact deleted
--   after the writer read it.
-- The index on (workspace_id, run_id, status) served no query the unique (workspace_id, run_id, contact_id) and the
-- claim's (run_id, next_at) of open recipients do not.
ALTER TABLE "campaign_recipients" DROP CONSTRAINT "campaign_recipients_workspace_id_workspaces_id_fk";--> statement-breakpoint
ALTER TABLE "campaign_recipients" DROP CONSTRAINT "campaign_recipients_campaign_id_campaigns_id_fk";--> statement-breakpoint
ALTER TABLE "campaign_recipients" DROP CONSTRAINT "campaign_recipients_contact_id_contacts_id_fk";--> statement-breakpoint
DROP INDEX "campaign_recipients_run_status_idx";--> statement-breakpoint
CREATE FUNCTION contacts_recipients_lock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1347568466, hashtext(OLD.workspace_id::text));
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE FUNCTION contacts_recipients_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM campaign_recipients r USING old_rows o WHERE r.workspace_id = o.workspace_id AND r.contact_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_recipients_lock" BEFORE DELETE ON "contacts" FOR EACH ROW EXECUTE FUNCTION contacts_recipients_lock();
--> statement-breakpoint
CREATE TRIGGER "contacts_recipients_delete" AFTER DELETE ON "contacts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contacts_recipients_delete();
