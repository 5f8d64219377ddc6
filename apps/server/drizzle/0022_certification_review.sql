ALTER TABLE "user_certifications" ADD COLUMN "review_by" varchar(30);--> statement-breakpoint
ALTER TABLE "user_certifications" ADD COLUMN "review_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_certifications" ADD COLUMN "review_reason" varchar(200) DEFAULT '' NOT NULL;