CREATE TABLE "bank_file_rows" (
	"id" serial PRIMARY KEY NOT NULL,
	"file_id" integer NOT NULL,
	"row_number" integer NOT NULL,
	"pay_date" date,
	"reference" text NOT NULL,
	"amount" numeric(14, 2),
	"state" text NOT NULL,
	"message" text,
	"order_id" integer,
	"entity_id" integer,
	"payment_id" integer,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bank_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"bank" text NOT NULL,
	"office" text NOT NULL,
	"file_name" text NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"interest" numeric(14, 2) NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"interest_fixed" numeric(14, 2) NOT NULL,
	"prev_accrued_to" date NOT NULL,
	"prev_last_payment_date" date
);
--> statement-breakpoint
CREATE TABLE "payment_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"entity_id" integer,
	"contributor_id" integer,
	"planilla_id" integer,
	"period" text NOT NULL,
	"periods" text[] NOT NULL,
	"salary" numeric(14, 2),
	"reference" text NOT NULL,
	"issue_date" date NOT NULL,
	"due_date" date NOT NULL,
	"state" text DEFAULT 'EMITIDA' NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"principal_paid" numeric(14, 2) DEFAULT 0 NOT NULL,
	"interest_accrued" numeric(14, 2) DEFAULT 0 NOT NULL,
	"interest_paid" numeric(14, 2) DEFAULT 0 NOT NULL,
	"accrued_to" date NOT NULL,
	"last_payment_date" date,
	"paid_at" timestamp with time zone,
	"void_reason" text,
	"voided_by" integer,
	"voided_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_orders_owner_chk" CHECK ((entity_id is not null) or (contributor_id is not null)),
	CONSTRAINT "payment_orders_paid_chk" CHECK (principal_paid >= 0 and principal_paid <= principal and interest_paid >= 0 and interest_paid <= interest_accrued)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"entity_id" integer,
	"contributor_id" integer,
	"bank" text NOT NULL,
	"pay_date" date NOT NULL,
	"bank_reference" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"office" text NOT NULL,
	"state" text DEFAULT 'REGISTRADO' NOT NULL,
	"reverse_reason" text,
	"reversed_by" integer,
	"reversed_at" timestamp with time zone,
	"bank_file_row_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_amount_chk" CHECK (amount > 0)
);
--> statement-breakpoint
CREATE TABLE "receipt_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"office" text NOT NULL,
	"series" text NOT NULL,
	"first_number" integer NOT NULL,
	"last_number" integer NOT NULL,
	"next_number" integer NOT NULL,
	"authorization_ref" text NOT NULL,
	"authorization_date" date NOT NULL,
	"state" text DEFAULT 'ACTIVO' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipt_ranges_numbers_chk" CHECK (first_number >= 1 and last_number >= first_number and next_number between first_number and last_number + 1)
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"range_id" integer NOT NULL,
	"series" text NOT NULL,
	"number" integer NOT NULL,
	"payment_id" integer NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text DEFAULT 'EMITIDO' NOT NULL,
	"void_reason" text,
	"voided_by" integer,
	"voided_at" timestamp with time zone,
	"created_by" integer,
	CONSTRAINT "receipts_void_chk" CHECK ((state = 'ANULADO') = (void_reason is not null))
);
--> statement-breakpoint
ALTER TABLE "bank_file_rows" ADD CONSTRAINT "bank_file_rows_file_id_bank_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."bank_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_file_rows" ADD CONSTRAINT "bank_file_rows_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_file_rows" ADD CONSTRAINT "bank_file_rows_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_file_rows" ADD CONSTRAINT "bank_file_rows_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_files" ADD CONSTRAINT "bank_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_contributor_id_contributors_id_fk" FOREIGN KEY ("contributor_id") REFERENCES "public"."contributors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_planilla_id_planillas_id_fk" FOREIGN KEY ("planilla_id") REFERENCES "public"."planillas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_contributor_id_contributors_id_fk" FOREIGN KEY ("contributor_id") REFERENCES "public"."contributors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversed_by_users_id_fk" FOREIGN KEY ("reversed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_ranges" ADD CONSTRAINT "receipt_ranges_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_range_id_receipt_ranges_id_fk" FOREIGN KEY ("range_id") REFERENCES "public"."receipt_ranges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_file_rows_file_row_key" ON "bank_file_rows" USING btree ("file_id","row_number");--> statement-breakpoint
CREATE INDEX "bank_file_rows_state_idx" ON "bank_file_rows" USING btree ("file_id","state","row_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_allocations_payment_order_key" ON "payment_allocations" USING btree ("payment_id","order_id");--> statement-breakpoint
CREATE INDEX "payment_allocations_order_idx" ON "payment_allocations" USING btree ("order_id","payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_reference_key" ON "payment_orders" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_planilla_kind_key" ON "payment_orders" USING btree ("planilla_id","kind") WHERE planilla_id is not null and state <> 'ANULADA';--> statement-breakpoint
CREATE INDEX "payment_orders_entity_idx" ON "payment_orders" USING btree ("entity_id","period");--> statement-breakpoint
CREATE INDEX "payment_orders_contributor_idx" ON "payment_orders" USING btree ("contributor_id");--> statement-breakpoint
CREATE INDEX "payment_orders_open_due_idx" ON "payment_orders" USING btree ("due_date","id") WHERE state = 'EMITIDA';--> statement-breakpoint
CREATE INDEX "payment_orders_period_idx" ON "payment_orders" USING btree ("period","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key" ON "payments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_bank_reference_key" ON "payments" USING btree ("bank_reference");--> statement-breakpoint
CREATE INDEX "payments_entity_idx" ON "payments" USING btree ("entity_id","pay_date");--> statement-breakpoint
CREATE INDEX "payments_contributor_idx" ON "payments" USING btree ("contributor_id");--> statement-breakpoint
CREATE INDEX "payments_date_idx" ON "payments" USING btree ("pay_date","id");--> statement-breakpoint
CREATE INDEX "receipt_ranges_office_idx" ON "receipt_ranges" USING btree ("office","state","first_number");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_series_number_key" ON "receipts" USING btree ("series","number");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_payment_live_key" ON "receipts" USING btree ("payment_id") WHERE state = 'EMITIDO';--> statement-breakpoint
CREATE INDEX "receipts_range_idx" ON "receipts" USING btree ("range_id","number");--> statement-breakpoint
CREATE INDEX "receipts_issued_idx" ON "receipts" USING btree ("issued_at","id");