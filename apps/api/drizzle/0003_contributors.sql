CREATE TABLE "contributor_import_rows" (
	"import_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"is_valid" boolean NOT NULL,
	"cui" text DEFAULT '' NOT NULL,
	"data" jsonb,
	"raw" jsonb,
	"errors" jsonb
);
--> statement-breakpoint
CREATE TABLE "contributor_imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"status" text NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"valid_rows" integer DEFAULT 0 NOT NULL,
	"error_rows" integer DEFAULT 0 NOT NULL,
	"committed_rows" integer DEFAULT 0 NOT NULL,
	"message" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"committed_by" integer,
	"committed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contributor_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"sort_order" smallint DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contributor_types_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "contributors" (
	"id" serial PRIMARY KEY NOT NULL,
	"cui" text NOT NULL,
	"nit" text,
	"first_name" text NOT NULL,
	"second_name" text,
	"third_name" text,
	"first_surname" text NOT NULL,
	"second_surname" text,
	"married_surname" text,
	"search_name" text DEFAULT '' NOT NULL,
	"birth_date" date NOT NULL,
	"sex" text NOT NULL,
	"marital_status" text,
	"address" text,
	"municipality_id" integer,
	"phone" text,
	"email" text,
	"type_id" integer NOT NULL,
	"state" text DEFAULT 'ACTIVO' NOT NULL,
	"entity_id" integer,
	"budget_line_code" text,
	"hire_date" date,
	"salary" numeric(14, 2),
	"cui_state" text DEFAULT 'PENDIENTE' NOT NULL,
	"renap_checked_at" timestamp with time zone,
	"renap_result" text,
	"import_id" uuid,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cui_approval_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"contributor_id" integer NOT NULL,
	"kind" text NOT NULL,
	"current_cui" text,
	"proposed_cui" text NOT NULL,
	"state" text DEFAULT 'PENDIENTE' NOT NULL,
	"requested_by" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "renap_lookups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"user_email" text,
	"cui" text NOT NULL,
	"source" text NOT NULL,
	"result" text NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"purpose" text
);
--> statement-breakpoint
CREATE TABLE "renap_people" (
	"cui" text PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"second_name" text,
	"third_name" text,
	"first_surname" text NOT NULL,
	"second_surname" text,
	"married_surname" text,
	"birth_date" date NOT NULL,
	"sex" text NOT NULL,
	"death_date" date
);
--> statement-breakpoint
ALTER TABLE "contributor_import_rows" ADD CONSTRAINT "contributor_import_rows_import_id_contributor_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."contributor_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributor_imports" ADD CONSTRAINT "contributor_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributor_imports" ADD CONSTRAINT "contributor_imports_committed_by_users_id_fk" FOREIGN KEY ("committed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributors" ADD CONSTRAINT "contributors_municipality_id_municipalities_id_fk" FOREIGN KEY ("municipality_id") REFERENCES "public"."municipalities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributors" ADD CONSTRAINT "contributors_type_id_contributor_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."contributor_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributors" ADD CONSTRAINT "contributors_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributors" ADD CONSTRAINT "contributors_budget_line_code_budget_lines_code_fk" FOREIGN KEY ("budget_line_code") REFERENCES "public"."budget_lines"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributors" ADD CONSTRAINT "contributors_import_id_contributor_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."contributor_imports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributors" ADD CONSTRAINT "contributors_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cui_approval_requests" ADD CONSTRAINT "cui_approval_requests_contributor_id_contributors_id_fk" FOREIGN KEY ("contributor_id") REFERENCES "public"."contributors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cui_approval_requests" ADD CONSTRAINT "cui_approval_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cui_approval_requests" ADD CONSTRAINT "cui_approval_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renap_lookups" ADD CONSTRAINT "renap_lookups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contributor_import_rows_pk" ON "contributor_import_rows" USING btree ("import_id","row_number");--> statement-breakpoint
CREATE INDEX "contributor_import_rows_valid_idx" ON "contributor_import_rows" USING btree ("import_id","is_valid");--> statement-breakpoint
CREATE INDEX "contributor_imports_created_by_idx" ON "contributor_imports" USING btree ("created_by","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "contributors_cui_key" ON "contributors" USING btree ("cui");--> statement-breakpoint
CREATE INDEX "contributors_entity_idx" ON "contributors" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "contributors_municipality_idx" ON "contributors" USING btree ("municipality_id");--> statement-breakpoint
CREATE INDEX "contributors_type_state_idx" ON "contributors" USING btree ("type_id","state");--> statement-breakpoint
CREATE INDEX "contributors_cui_state_idx" ON "contributors" USING btree ("cui_state");--> statement-breakpoint
CREATE INDEX "contributors_updated_idx" ON "contributors" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "cui_approval_requests_state_idx" ON "cui_approval_requests" USING btree ("state","requested_at");--> statement-breakpoint
CREATE INDEX "cui_approval_requests_contributor_idx" ON "cui_approval_requests" USING btree ("contributor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cui_approval_requests_one_open" ON "cui_approval_requests" USING btree ("contributor_id") WHERE state = 'PENDIENTE';--> statement-breakpoint
CREATE INDEX "renap_lookups_at_idx" ON "renap_lookups" USING btree ("at");--> statement-breakpoint
CREATE INDEX "renap_lookups_cui_idx" ON "renap_lookups" USING btree ("cui");