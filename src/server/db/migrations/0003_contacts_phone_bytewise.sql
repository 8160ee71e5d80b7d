DROP INDEX "contacts_phone_prefix_idx";--> statement-breakpoint
ALTER TABLE "contacts" ALTER COLUMN "phone_number" SET DATA TYPE text COLLATE "C";