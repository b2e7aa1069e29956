-- A closed pension payroll never changes (issue 15): corrections go in the next month. The service
-- refuses it with a Spanish message; these triggers make it true for any writer.
CREATE OR REPLACE FUNCTION pension_payroll_closed_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.state = 'CERRADA' THEN
    IF OLD.state = 'CERRADA' THEN
      RAISE EXCEPTION 'closed pension payroll % is immutable', OLD.period USING ERRCODE = 'check_violation', CONSTRAINT = 'pension_payroll_closed';
    END IF;
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER pension_payrolls_closed BEFORE UPDATE OR DELETE ON "pension_payrolls"
  FOR EACH ROW EXECUTE FUNCTION pension_payroll_closed_guard();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pension_payroll_lines_closed_guard() RETURNS trigger AS $$
DECLARE st text;
BEGIN
  SELECT state INTO st FROM pension_payrolls WHERE id = COALESCE(NEW.payroll_id, OLD.payroll_id);
  IF st = 'CERRADA' THEN
    RAISE EXCEPTION 'lines of a closed pension payroll are immutable' USING ERRCODE = 'check_violation', CONSTRAINT = 'pension_payroll_closed';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER pension_payroll_lines_closed BEFORE INSERT OR UPDATE OR DELETE ON "pension_payroll_lines"
  FOR EACH ROW EXECUTE FUNCTION pension_payroll_lines_closed_guard();
