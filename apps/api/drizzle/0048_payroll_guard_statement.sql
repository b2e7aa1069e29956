-- The guard of a closed pension payroll's lines (migration 0019) once per statement instead of once per row
-- (issue 30, month-end bench): a payroll of 100 000 lines ran 100 000 look-ups of its own payroll's state,
-- 0.56 s of the 1.78 s its lines took to write. Same refusal (check_violation, constraint pension_payroll_closed),
-- now after the statement, over the rows it wrote (changed_new) or removed or replaced (changed_old). One function
-- for the three triggers: each branch reads only the transition tables its event has.
DROP TRIGGER IF EXISTS pension_payroll_lines_closed ON "pension_payroll_lines";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pension_payroll_lines_closed_check() RETURNS trigger AS $$
DECLARE touched boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT EXISTS (SELECT 1 FROM pension_payrolls p JOIN changed_new n ON n.payroll_id = p.id WHERE p.state = 'CERRADA') INTO touched;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT EXISTS (SELECT 1 FROM pension_payrolls p JOIN changed_old o ON o.payroll_id = p.id WHERE p.state = 'CERRADA') INTO touched;
  ELSE
    SELECT EXISTS (SELECT 1 FROM pension_payrolls p WHERE p.state = 'CERRADA'
                     AND (p.id IN (SELECT payroll_id FROM changed_new) OR p.id IN (SELECT payroll_id FROM changed_old))) INTO touched;
  END IF;
  IF touched THEN
    RAISE EXCEPTION 'lines of a closed pension payroll are immutable' USING ERRCODE = 'check_violation', CONSTRAINT = 'pension_payroll_closed';
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER pension_payroll_lines_closed_insert AFTER INSERT ON "pension_payroll_lines"
  REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION pension_payroll_lines_closed_check();
--> statement-breakpoint
CREATE TRIGGER pension_payroll_lines_closed_update AFTER UPDATE ON "pension_payroll_lines"
  REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION pension_payroll_lines_closed_check();
--> statement-breakpoint
CREATE TRIGGER pension_payroll_lines_closed_delete AFTER DELETE ON "pension_payroll_lines"
  REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION pension_payroll_lines_closed_check();
--> statement-breakpoint
DROP FUNCTION IF EXISTS pension_payroll_lines_closed_guard();
