ALTER TABLE "messages" ADD COLUMN "sent_from_phone" boolean DEFAULT false NOT NULL;
