CREATE TABLE "name_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "contributors_cui_state_idx";--> statement-breakpoint
DROP INDEX "contributors_updated_idx";--> statement-breakpoint
DROP INDEX "audit_at_idx";--> statement-breakpoint
ALTER TABLE "contributors" ADD COLUMN "search_words" text[] GENERATED ALWAYS AS (string_to_array(search_name, ' ')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "contributors_search_words_idx" ON "contributors" USING gin ("search_words");--> statement-breakpoint
CREATE INDEX "contributors_nit_idx" ON "contributors" USING btree ("nit");--> statement-breakpoint
CREATE INDEX "contributors_cui_state_id_idx" ON "contributors" USING btree ("cui_state","id");--> statement-breakpoint
CREATE INDEX "contributors_updated_id_idx" ON "contributors" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "contributors_created_id_idx" ON "contributors" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "contributors_search_name_id_idx" ON "contributors" USING btree ("search_name","id");--> statement-breakpoint
CREATE INDEX "contributors_first_surname_id_idx" ON "contributors" USING btree ("first_surname","id");--> statement-breakpoint
CREATE INDEX "contributors_birth_date_id_idx" ON "contributors" USING btree ("birth_date","id");--> statement-breakpoint
CREATE INDEX "contributors_state_id_idx" ON "contributors" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "audit_at_id_idx" ON "audit_log" USING btree ("at","id");