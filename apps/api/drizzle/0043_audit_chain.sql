CREATE TABLE "audit_chain_head" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"sealed_through" bigint DEFAULT 0 NOT NULL,
	"last_row_id" bigint,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"last_hash" text DEFAULT '0000000000000000000000000000000000000000000000000000000000000000' NOT NULL,
	"fence_id" bigint,
	"fence_xid" "xid8",
	"sealed_at" timestamp with time zone,
	CONSTRAINT "audit_chain_head_one_row" CHECK ("audit_chain_head"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_id" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
-- The id's default takes the transaction's id before drawing from the sequence (docs/decisions.md,
-- "A tamper-evident audit log"): the sealer's proof that no unfinished transaction holds an id at or below
-- its fence rests on it. Drizzle's snapshot still says bigserial: the sequence is the same one.
ALTER TABLE "audit_log" ALTER COLUMN "id" SET DEFAULT (CASE WHEN pg_current_xact_id() IS NOT NULL THEN nextval('audit_log_id_seq'::regclass) END);--> statement-breakpoint
INSERT INTO "audit_chain_head" ("id") VALUES (1) ON CONFLICT DO NOTHING;
