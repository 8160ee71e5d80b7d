ALTER TABLE "messages" ADD COLUMN "campaign_id" uuid;
