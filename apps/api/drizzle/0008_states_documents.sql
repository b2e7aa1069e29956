CREATE TABLE "generated_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"sha256" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"filters" jsonb NOT NULL,
	"pages" integer NOT NULL,
	"bytes" integer NOT NULL,
	"generated_by" integer,
	"generated_by_email" text NOT NULL,
	"generated_by_name" text NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "generated_documents_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "state_transitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"transition" text NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"comment" text,
	"actor_id" integer,
	"actor_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"scope_entity_id" integer
);
--> statement-breakpoint
ALTER TABLE "generated_documents" ADD CONSTRAINT "generated_documents_generated_by_users_id_fk" FOREIGN KEY ("generated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "state_transitions" ADD CONSTRAINT "state_transitions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generated_documents_at_idx" ON "generated_documents" USING btree ("generated_at");--> statement-breakpoint
CREATE INDEX "state_transitions_entity_idx" ON "state_transitions" USING btree ("entity_type","entity_id","at");--> statement-breakpoint
CREATE INDEX "state_transitions_at_idx" ON "state_transitions" USING btree ("at");