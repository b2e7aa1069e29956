CREATE TABLE "planilla_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"planilla_id" integer NOT NULL,
	"line_id" integer,
	"body" text NOT NULL,
	"transition" text,
	"author_id" integer,
	"author_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "planilla_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"planilla_id" integer NOT NULL,
	"row_number" integer NOT NULL,
	"period" text NOT NULL,
	"entity_id" integer NOT NULL,
	"cui" text NOT NULL,
	"full_name" text NOT NULL,
	"budget_line_code" text NOT NULL,
	"salary" numeric(14, 2),
	"salary_text" text,
	"days_worked" smallint,
	"movement" text,
	"movement_date" date,
	"subject" boolean DEFAULT false NOT NULL,
	"employee_amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	"employer_amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	"errors" jsonb,
	"warnings" jsonb,
	"has_errors" boolean DEFAULT false NOT NULL,
	"has_warnings" boolean DEFAULT false NOT NULL,
	"contributor_id" integer
);
--> statement-breakpoint
CREATE TABLE "planillas" (
	"id" serial PRIMARY KEY NOT NULL,
	"entity_id" integer NOT NULL,
	"period" text NOT NULL,
	"type" text NOT NULL,
	"state" text DEFAULT 'BORRADOR' NOT NULL,
	"line_count" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"warning_count" integer DEFAULT 0 NOT NULL,
	"total_salary" numeric(14, 2) DEFAULT 0 NOT NULL,
	"total_employee" numeric(14, 2) DEFAULT 0 NOT NULL,
	"total_employer" numeric(14, 2) DEFAULT 0 NOT NULL,
	"settings" jsonb,
	"calculated_at" timestamp with time zone,
	"import_id" uuid,
	"copied_from_id" integer,
	"back_pay_resolution" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_by" integer,
	"submitted_at" timestamp with time zone,
	"reviewer_id" integer,
	"decided_at" timestamp with time zone,
	CONSTRAINT "planillas_period_check" CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
--> statement-breakpoint
ALTER TABLE "planilla_comments" ADD CONSTRAINT "planilla_comments_planilla_id_planillas_id_fk" FOREIGN KEY ("planilla_id") REFERENCES "public"."planillas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planilla_comments" ADD CONSTRAINT "planilla_comments_line_id_planilla_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."planilla_lines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planilla_comments" ADD CONSTRAINT "planilla_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planilla_lines" ADD CONSTRAINT "planilla_lines_planilla_id_planillas_id_fk" FOREIGN KEY ("planilla_id") REFERENCES "public"."planillas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planilla_lines" ADD CONSTRAINT "planilla_lines_contributor_id_contributors_id_fk" FOREIGN KEY ("contributor_id") REFERENCES "public"."contributors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planillas" ADD CONSTRAINT "planillas_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planillas" ADD CONSTRAINT "planillas_import_id_import_batches_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."import_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planillas" ADD CONSTRAINT "planillas_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planillas" ADD CONSTRAINT "planillas_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planillas" ADD CONSTRAINT "planillas_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "planilla_comments_planilla_idx" ON "planilla_comments" USING btree ("planilla_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "planilla_lines_planilla_row_key" ON "planilla_lines" USING btree ("planilla_id","row_number");--> statement-breakpoint
CREATE INDEX "planilla_lines_planilla_cui_idx" ON "planilla_lines" USING btree ("planilla_id","cui");--> statement-breakpoint
CREATE INDEX "planilla_lines_cui_period_idx" ON "planilla_lines" USING btree ("cui","period");--> statement-breakpoint
CREATE INDEX "planilla_lines_issues_idx" ON "planilla_lines" USING btree ("planilla_id","row_number") WHERE has_errors or has_warnings;--> statement-breakpoint
CREATE UNIQUE INDEX "planillas_one_ordinary" ON "planillas" USING btree ("entity_id","period") WHERE type = 'ORDINARIA' and state not in ('ANULADA', 'RECHAZADA');--> statement-breakpoint
CREATE INDEX "planillas_entity_period_idx" ON "planillas" USING btree ("entity_id","period");--> statement-breakpoint
CREATE INDEX "planillas_period_state_idx" ON "planillas" USING btree ("period","state");--> statement-breakpoint
CREATE INDEX "planillas_state_submitted_idx" ON "planillas" USING btree ("state","submitted_at");