ALTER TABLE "release_step_runs" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
-- runs already running when this release starts were taken under the old rule: a hello without them ends them, as before
UPDATE "release_step_runs" SET "accepted_at" = "started_at" WHERE "status" = 'RUNNING';
