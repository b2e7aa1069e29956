CREATE TABLE "pension_amounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"pension_id" integer NOT NULL,
	"monthly_amount" numeric(14, 2) NOT NULL,
	"effective_from" date NOT NULL,
	"reason" text NOT NULL,
	"created_by" integer,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pension_beneficiaries" (
	"id" serial PRIMARY KEY NOT NULL,
	"pension_id" integer NOT NULL,
	"cui" text NOT NULL,
	"full_name" text NOT NULL,
	"birth_date" date NOT NULL,
	"relationship" text NOT NULL,
	"share" numeric(7, 4) NOT NULL,
	"study_certificate_until" date,
	"end_date" date
);
--> statement-breakpoint
CREATE TABLE "pension_owed_months" (
	"id" serial PRIMARY KEY NOT NULL,
	"pension_id" integer NOT NULL,
	"suspension_id" integer,
	"period" text NOT NULL,
	"days" integer NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"paid_payroll_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pension_payroll_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"payroll_id" integer NOT NULL,
	"pension_id" integer NOT NULL,
	"kind" text NOT NULL,
	"for_period" text NOT NULL,
	"days" integer NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"bank_account" text NOT NULL,
	"cui" text NOT NULL,
	"full_name" text NOT NULL,
	"type" text NOT NULL,
	"entity_id" integer
);
--> statement-breakpoint
CREATE TABLE "pension_payrolls" (
	"id" serial PRIMARY KEY NOT NULL,
	"period" text NOT NULL,
	"state" text DEFAULT 'BORRADOR' NOT NULL,
	"lines" integer DEFAULT 0 NOT NULL,
	"pensions" integer DEFAULT 0 NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"owed_total" numeric(14, 2) NOT NULL,
	"excluded_suspended" integer DEFAULT 0 NOT NULL,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"generated_by" text,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	CONSTRAINT "pension_payrolls_period_unique" UNIQUE("period")
);
--> statement-breakpoint
CREATE TABLE "pension_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"pension_id" integer NOT NULL,
	"death_date" date NOT NULL,
	"state" text DEFAULT 'ABIERTA' NOT NULL,
	"resolution" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" text
);
--> statement-breakpoint
CREATE TABLE "pension_suspensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"pension_id" integer NOT NULL,
	"reason" text NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"contributor_id" integer NOT NULL,
	"cui" text NOT NULL,
	"full_name" text NOT NULL,
	"birth_date" date NOT NULL,
	"type" text NOT NULL,
	"resolution_number" text NOT NULL,
	"resolution_date" date NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"monthly_amount" numeric(14, 2) NOT NULL,
	"bank_account" text NOT NULL,
	"state" text DEFAULT 'ACTIVA' NOT NULL,
	"entity_id" integer,
	"survival_due" date,
	"last_check_date" date,
	"source_beneficiary_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survival_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"pension_id" integer NOT NULL,
	"check_date" date NOT NULL,
	"method" text NOT NULL,
	"covers_due" date NOT NULL,
	"attachment_file_id" integer,
	"notes" text,
	"reactivated" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pension_amounts" ADD CONSTRAINT "pension_amounts_pension_id_pensions_id_fk" FOREIGN KEY ("pension_id") REFERENCES "public"."pensions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_amounts" ADD CONSTRAINT "pension_amounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_beneficiaries" ADD CONSTRAINT "pension_beneficiaries_pension_id_pensions_id_fk" FOREIGN KEY ("pension_id") REFERENCES "public"."pensions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_owed_months" ADD CONSTRAINT "pension_owed_months_pension_id_pensions_id_fk" FOREIGN KEY ("pension_id") REFERENCES "public"."pensions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_owed_months" ADD CONSTRAINT "pension_owed_months_suspension_id_pension_suspensions_id_fk" FOREIGN KEY ("suspension_id") REFERENCES "public"."pension_suspensions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_payroll_lines" ADD CONSTRAINT "pension_payroll_lines_payroll_id_pension_payrolls_id_fk" FOREIGN KEY ("payroll_id") REFERENCES "public"."pension_payrolls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_payroll_lines" ADD CONSTRAINT "pension_payroll_lines_pension_id_pensions_id_fk" FOREIGN KEY ("pension_id") REFERENCES "public"."pensions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_reviews" ADD CONSTRAINT "pension_reviews_pension_id_pensions_id_fk" FOREIGN KEY ("pension_id") REFERENCES "public"."pensions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pension_suspensions" ADD CONSTRAINT "pension_suspensions_pension_id_pensions_id_fk" FOREIGN KEY ("pension_id") REFERENCES "public"."pensions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pensions" ADD CONSTRAINT "pensions_contributor_id_contributors_id_fk" FOREIGN KEY ("contributor_id") REFERENCES "public"."contributors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pensions" ADD CONSTRAINT "pensions_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pensions" ADD CONSTRAINT "pensions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survival_checks" ADD CONSTRAINT "survival_checks_pension_id_pensions_id_fk" FOREIGN KEY ("pension_id") REFERENCES "public"."pensions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survival_checks" ADD CONSTRAINT "survival_checks_attachment_file_id_stored_files_id_fk" FOREIGN KEY ("attachment_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survival_checks" ADD CONSTRAINT "survival_checks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pension_amounts_from_key" ON "pension_amounts" USING btree ("pension_id","effective_from");--> statement-breakpoint
CREATE UNIQUE INDEX "pension_beneficiaries_cui_key" ON "pension_beneficiaries" USING btree ("pension_id","cui");--> statement-breakpoint
CREATE INDEX "pension_beneficiaries_cui_idx" ON "pension_beneficiaries" USING btree ("cui");--> statement-breakpoint
CREATE UNIQUE INDEX "pension_owed_months_key" ON "pension_owed_months" USING btree ("pension_id","period");--> statement-breakpoint
CREATE INDEX "pension_owed_months_open_idx" ON "pension_owed_months" USING btree ("pension_id") WHERE paid_payroll_id is null;--> statement-breakpoint
CREATE INDEX "pension_payroll_lines_payroll_idx" ON "pension_payroll_lines" USING btree ("payroll_id","id");--> statement-breakpoint
CREATE INDEX "pension_payroll_lines_pension_idx" ON "pension_payroll_lines" USING btree ("pension_id","for_period");--> statement-breakpoint
CREATE UNIQUE INDEX "pension_reviews_one_open" ON "pension_reviews" USING btree ("pension_id") WHERE state = 'ABIERTA';--> statement-breakpoint
CREATE INDEX "pension_reviews_state_idx" ON "pension_reviews" USING btree ("state","opened_at");--> statement-breakpoint
CREATE INDEX "pension_suspensions_pension_idx" ON "pension_suspensions" USING btree ("pension_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pension_suspensions_one_open" ON "pension_suspensions" USING btree ("pension_id") WHERE to_date is null;--> statement-breakpoint
CREATE UNIQUE INDEX "pensions_one_open_per_type" ON "pensions" USING btree ("cui","type") WHERE state <> 'FINALIZADA';--> statement-breakpoint
CREATE INDEX "pensions_state_due_idx" ON "pensions" USING btree ("state","survival_due");--> statement-breakpoint
CREATE INDEX "pensions_entity_idx" ON "pensions" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "pensions_contributor_idx" ON "pensions" USING btree ("contributor_id");--> statement-breakpoint
CREATE INDEX "pensions_cui_idx" ON "pensions" USING btree ("cui");--> statement-breakpoint
CREATE INDEX "pensions_updated_idx" ON "pensions" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "survival_checks_pension_idx" ON "survival_checks" USING btree ("pension_id","check_date");--> statement-breakpoint
CREATE INDEX "survival_checks_date_idx" ON "survival_checks" USING btree ("check_date");