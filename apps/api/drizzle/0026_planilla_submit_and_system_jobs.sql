ALTER TABLE "jobs" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "job_schedules" ADD COLUMN "last_job_id" integer;--> statement-breakpoint
ALTER TABLE "planillas" ADD COLUMN "submit_job_id" integer;--> statement-breakpoint
ALTER TABLE "planillas" ADD COLUMN "submit_from" text;--> statement-breakpoint
ALTER TABLE "planillas" ADD COLUMN "submit_message" text;