CREATE TABLE "pension_payroll_exceptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"payroll_id" integer NOT NULL,
	"pension_id" integer NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"cui" text NOT NULL,
	"full_name" text NOT NULL,
	"type" text NOT NULL,
	"message_key" text NOT NULL,
	"message_params" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pension_payroll_exceptions" ADD CONSTRAINT "pension_payroll_exceptions_payroll_id_pension_payrolls_id_fk" FOREIGN KEY ("payroll_id") REFERENCES "public"."pension_payrolls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_payroll_exceptions" ADD CONSTRAINT "pension_payroll_exceptions_pension_id_pensions_id_fk" FOREIGN KEY ("pension_id") REFERENCES "public"."pensions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pension_payroll_exceptions_payroll_idx" ON "pension_payroll_exceptions" USING btree ("payroll_id","id");