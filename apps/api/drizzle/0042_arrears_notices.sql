CREATE TABLE "arrears_notice_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"as_of" date NOT NULL,
	"issued_on" date NOT NULL,
	"min_total" numeric(14, 2),
	"state" text DEFAULT 'EN_CURSO' NOT NULL,
	"failure" text,
	"job_id" integer,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "arrears_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"entity_id" integer NOT NULL,
	"as_of" date NOT NULL,
	"issued_on" date NOT NULL,
	"outcome" text DEFAULT 'PENDIENTE' NOT NULL,
	"amount" numeric(14, 2),
	"orders" integer,
	"document_id" integer,
	"outbox_id" bigint,
	"addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"prior_notice_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "municipal_entities" ADD COLUMN "notice_emails" text;--> statement-breakpoint
ALTER TABLE "arrears_notice_campaigns" ADD CONSTRAINT "arrears_notice_campaigns_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "arrears_notice_campaigns" ADD CONSTRAINT "arrears_notice_campaigns_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "arrears_notices" ADD CONSTRAINT "arrears_notices_campaign_id_arrears_notice_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."arrears_notice_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "arrears_notices" ADD CONSTRAINT "arrears_notices_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "arrears_notices" ADD CONSTRAINT "arrears_notices_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "arrears_notices" ADD CONSTRAINT "arrears_notices_outbox_id_mail_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."mail_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "arrears_notice_campaigns_state_idx" ON "arrears_notice_campaigns" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "arrears_notices_campaign_idx" ON "arrears_notices" USING btree ("campaign_id","id");--> statement-breakpoint
CREATE INDEX "arrears_notices_entity_idx" ON "arrears_notices" USING btree ("entity_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "arrears_notices_entity_day_key" ON "arrears_notices" USING btree ("entity_id","issued_on") WHERE "arrears_notices"."outcome" in ('PENDIENTE', 'NOTIFICADA', 'SIN_DIRECCION');