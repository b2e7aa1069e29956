CREATE TABLE "sig_request_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"kind" text NOT NULL,
	"comment" text,
	"document_id" integer,
	"actor_id" integer,
	"actor_email" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sig_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"flow_id" integer NOT NULL,
	"flow_version_id" integer NOT NULL,
	"form_version_id" integer NOT NULL,
	"state" text NOT NULL,
	"data" jsonb NOT NULL,
	"entity_id" integer,
	"requester_id" integer,
	"summary" text DEFAULT '' NOT NULL,
	"state_since" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"result_label" text,
	"result_link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sig_requests_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "wf_flow_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"flow_id" integer NOT NULL,
	"version" integer NOT NULL,
	"state" text DEFAULT 'BORRADOR' NOT NULL,
	"definition" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "wf_flow_versions_key" UNIQUE("flow_id","version")
);
--> statement-breakpoint
CREATE TABLE "wf_flows" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"form_id" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wf_form_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"version" integer NOT NULL,
	"state" text DEFAULT 'BORRADOR' NOT NULL,
	"fields" jsonb,
	"schema" jsonb NOT NULL,
	"ui_schema" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "wf_form_versions_key" UNIQUE("form_id","version")
);
--> statement-breakpoint
CREATE TABLE "wf_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sig_request_events" ADD CONSTRAINT "sig_request_events_request_id_sig_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."sig_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sig_request_events" ADD CONSTRAINT "sig_request_events_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sig_request_events" ADD CONSTRAINT "sig_request_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sig_requests" ADD CONSTRAINT "sig_requests_flow_id_wf_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."wf_flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sig_requests" ADD CONSTRAINT "sig_requests_flow_version_id_wf_flow_versions_id_fk" FOREIGN KEY ("flow_version_id") REFERENCES "public"."wf_flow_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sig_requests" ADD CONSTRAINT "sig_requests_form_version_id_wf_form_versions_id_fk" FOREIGN KEY ("form_version_id") REFERENCES "public"."wf_form_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sig_requests" ADD CONSTRAINT "sig_requests_entity_id_municipal_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."municipal_entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sig_requests" ADD CONSTRAINT "sig_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wf_flow_versions" ADD CONSTRAINT "wf_flow_versions_flow_id_wf_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."wf_flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wf_flow_versions" ADD CONSTRAINT "wf_flow_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wf_flows" ADD CONSTRAINT "wf_flows_form_id_wf_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."wf_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wf_flows" ADD CONSTRAINT "wf_flows_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wf_form_versions" ADD CONSTRAINT "wf_form_versions_form_id_wf_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."wf_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wf_form_versions" ADD CONSTRAINT "wf_form_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wf_forms" ADD CONSTRAINT "wf_forms_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sig_request_events_request_idx" ON "sig_request_events" USING btree ("request_id","at");--> statement-breakpoint
CREATE INDEX "sig_requests_flow_state_idx" ON "sig_requests" USING btree ("flow_id","state");--> statement-breakpoint
CREATE INDEX "sig_requests_entity_idx" ON "sig_requests" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "sig_requests_created_idx" ON "sig_requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "sig_requests_due_idx" ON "sig_requests" USING btree ("due_at") WHERE closed_at is null;