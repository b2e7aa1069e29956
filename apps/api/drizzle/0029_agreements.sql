CREATE TABLE "payment_agreement_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"agreement_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"role" text NOT NULL,
	"schedule" integer DEFAULT 0 NOT NULL,
	"number" integer,
	"principal_due" numeric(14, 2) NOT NULL,
	"interest_due" numeric(14, 2) NOT NULL,
	"released_at" timestamp with time zone,
	"replaced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_agreements" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"entity_id" integer NOT NULL,
	"agreement_date" date NOT NULL,
	"state" text DEFAULT 'VIGENTE' NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"interest" numeric(14, 2) NOT NULL,
	"admin_charge" numeric(14, 2) NOT NULL,
	"debt" numeric(14, 2) NOT NULL,
	"down_payment" numeric(14, 2) NOT NULL,
	"instalment_count" integer NOT NULL,
	"restructurings" integer DEFAULT 0 NOT NULL,
	"settings_used" jsonb NOT NULL,
	"defaulted_on" date,
	"completed_on" date,
	"void_reason" text,
	"voided_by" integer,
	"voided_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_agreements_money_chk" CHECK (debt > 0 and down_payment > 0 and down_payment < debt and instalment_count >= 1)
);
--> statement-breakpoint
CREATE TABLE "solvency_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"entity_id" integer NOT NULL,
	"entity_name" text NOT NULL,
	"entity_code" text NOT NULL,
	"issued_on" date NOT NULL,
	"valid_until" date NOT NULL,
	"basis" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_agreement_orders" ADD CONSTRAINT "payment_agreement_orders_agreement_id_payment_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."payment_agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_agreement_orders" ADD CONSTRAINT "payment_agreement_orders_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_agreements" ADD CONSTRAINT "payment_agreements_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_agreements" ADD CONSTRAINT "payment_agreements_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_agreements" ADD CONSTRAINT "payment_agreements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solvency_certificates" ADD CONSTRAINT "solvency_certificates_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solvency_certificates" ADD CONSTRAINT "solvency_certificates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_agreement_orders_live_key" ON "payment_agreement_orders" USING btree ("order_id") WHERE released_at is null and role = 'CONSOLIDADA';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_agreement_orders_instalment_key" ON "payment_agreement_orders" USING btree ("order_id") WHERE role = 'CUOTA';--> statement-breakpoint
CREATE INDEX "payment_agreement_orders_agreement_idx" ON "payment_agreement_orders" USING btree ("agreement_id","role","schedule","number");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_agreements_number_key" ON "payment_agreements" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_agreements_entity_current_key" ON "payment_agreements" USING btree ("entity_id") WHERE state = 'VIGENTE';--> statement-breakpoint
CREATE INDEX "payment_agreements_entity_idx" ON "payment_agreements" USING btree ("entity_id","id");--> statement-breakpoint
CREATE INDEX "payment_agreements_state_idx" ON "payment_agreements" USING btree ("state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "solvency_certificates_code_key" ON "solvency_certificates" USING btree ("code");--> statement-breakpoint
CREATE INDEX "solvency_certificates_entity_idx" ON "solvency_certificates" USING btree ("entity_id","id");