-- Message search stores each message's words: the search's check of a message then reads the stored vector instead
-- of parsing its text again (same configuration as the index it replaces, so the same messages match).
ALTER TABLE "messages" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(text, ''))) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS "messages_text_search_idx";--> statement-breakpoint
CREATE INDEX "messages_text_search_idx" ON "messages" USING gin ("search_vector");
