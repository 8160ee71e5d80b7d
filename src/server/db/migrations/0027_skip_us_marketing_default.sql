-- Meta refuses every marketing template to a US number (131049, since April 2025): skipping them before sending is
-- the default, and a workspace turns it off only if Meta lifts the rule. The column came with the wrong default,
-- so the workspaces that got it take the right one.
ALTER TABLE "workspaces" ALTER COLUMN "skip_us_marketing" SET DEFAULT true;--> statement-breakpoint
UPDATE "workspaces" SET "skip_us_marketing" = true;
