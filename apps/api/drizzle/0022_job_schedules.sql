CREATE TABLE "job_schedules" (
	"key" text PRIMARY KEY NOT NULL,
	"last_slot" text NOT NULL,
	"last_run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_finished_at" timestamp with time zone,
	"last_result" jsonb,
	"last_error" text
);
