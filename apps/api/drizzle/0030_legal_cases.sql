CREATE TABLE "legal_case_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"action_date" date NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"lawyer_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "legal_case_deadlines" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"description" text NOT NULL,
	"responsible_id" integer,
	"done" boolean DEFAULT false NOT NULL,
	"done_at" timestamp with time zone,
	"reminded_on" date,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "legal_case_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"title" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "legal_case_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"order_id" integer,
	"agreement_id" integer,
	"amount_at_opening" numeric(14, 2) NOT NULL,
	CONSTRAINT "legal_case_items_one_chk" CHECK ((order_id is null) <> (agreement_id is null))
);
--> statement-breakpoint
CREATE TABLE "legal_cases" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"entity_id" integer NOT NULL,
	"state" text DEFAULT 'ABIERTO' NOT NULL,
	"opened_on" date NOT NULL,
	"amount_at_opening" numeric(14, 2) NOT NULL,
	"lawyer_id" integer,
	"closed_on" date,
	"close_reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "legal_case_actions" ADD CONSTRAINT "legal_case_actions_case_id_legal_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."legal_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_actions" ADD CONSTRAINT "legal_case_actions_lawyer_id_users_id_fk" FOREIGN KEY ("lawyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_actions" ADD CONSTRAINT "legal_case_actions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_deadlines" ADD CONSTRAINT "legal_case_deadlines_case_id_legal_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."legal_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_deadlines" ADD CONSTRAINT "legal_case_deadlines_responsible_id_users_id_fk" FOREIGN KEY ("responsible_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_deadlines" ADD CONSTRAINT "legal_case_deadlines_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_documents" ADD CONSTRAINT "legal_case_documents_case_id_legal_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."legal_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_documents" ADD CONSTRAINT "legal_case_documents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_documents" ADD CONSTRAINT "legal_case_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_items" ADD CONSTRAINT "legal_case_items_case_id_legal_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."legal_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_items" ADD CONSTRAINT "legal_case_items_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_case_items" ADD CONSTRAINT "legal_case_items_agreement_id_payment_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."payment_agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_cases" ADD CONSTRAINT "legal_cases_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_cases" ADD CONSTRAINT "legal_cases_lawyer_id_users_id_fk" FOREIGN KEY ("lawyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_cases" ADD CONSTRAINT "legal_cases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "legal_case_actions_case_idx" ON "legal_case_actions" USING btree ("case_id","action_date");--> statement-breakpoint
CREATE INDEX "legal_case_deadlines_due_idx" ON "legal_case_deadlines" USING btree ("due_date","id") WHERE not done;--> statement-breakpoint
CREATE INDEX "legal_case_documents_case_idx" ON "legal_case_documents" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "legal_case_items_case_idx" ON "legal_case_items" USING btree ("case_id");--> statement-breakpoint
CREATE UNIQUE INDEX "legal_cases_number_key" ON "legal_cases" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "legal_cases_entity_open_key" ON "legal_cases" USING btree ("entity_id") WHERE state <> 'CERRADO';--> statement-breakpoint
CREATE INDEX "legal_cases_state_idx" ON "legal_cases" USING btree ("state","id");