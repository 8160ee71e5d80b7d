-- A one-time run's snapshot walks the workspace's contacts in (created_at, id) order, the index
-- contacts_workspace_created_idx, and keeps where it stopped on the run: each chunk reads only its own contacts,
-- whatever the statistics say of the segment. Written in the chunk's transaction, so a re-run after a crash goes on
-- from the last committed chunk. Null: nothing written yet.
ALTER TABLE "campaign_runs" ADD COLUMN "snapshot_after_created_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaign_runs" ADD COLUMN "snapshot_after_id" uuid;
