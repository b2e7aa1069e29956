DROP INDEX "planilla_lines_planilla_cui_idx";--> statement-breakpoint
CREATE INDEX "planilla_lines_planilla_cui_id_idx" ON "planilla_lines" USING btree ("planilla_id","cui","id");--> statement-breakpoint
CREATE INDEX "planilla_lines_planilla_name_id_idx" ON "planilla_lines" USING btree ("planilla_id","full_name","id");--> statement-breakpoint
CREATE INDEX "planilla_lines_planilla_salary_id_idx" ON "planilla_lines" USING btree ("planilla_id","salary","id");--> statement-breakpoint
CREATE INDEX "planillas_period_id_idx" ON "planillas" USING btree ("period","id");--> statement-breakpoint
CREATE INDEX "planillas_submitted_id_idx" ON "planillas" USING btree ("submitted_at","id");--> statement-breakpoint
CREATE INDEX "signing_requests_title_id_idx" ON "signing_requests" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "signing_requests_created_id_idx" ON "signing_requests" USING btree ("created_at","id");