-- A job queued in one API process wakes the job workers of every process (issue 30, month-end bench): the
-- worker of the process that queued it may be full, and another's only looked again after its poll (1 s).
-- NOTIFY is delivered at the commit, when the row can be claimed; the processes listen on aporta_jobs.
CREATE OR REPLACE FUNCTION aporta_jobs_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('aporta_jobs', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS jobs_queued ON jobs;
--> statement-breakpoint
CREATE TRIGGER jobs_queued AFTER INSERT ON jobs FOR EACH STATEMENT EXECUTE FUNCTION aporta_jobs_queued();
