ALTER TABLE "conversations" ADD COLUMN "needs_person" boolean DEFAULT false NOT NULL;
