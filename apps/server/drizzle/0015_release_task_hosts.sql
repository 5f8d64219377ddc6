ALTER TABLE "release_tasks" ADD COLUMN "targets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "release_tasks" ADD COLUMN "only_clients" jsonb;--> statement-breakpoint
-- tasks started before this: they ran on their one agent
UPDATE "release_tasks" SET "targets" = jsonb_build_array("client_id") WHERE "client_id" IS NOT NULL;
