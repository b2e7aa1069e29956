DROP INDEX "contributors_nit_idx";--> statement-breakpoint
CREATE INDEX "contributors_nit_idx" ON "contributors" USING btree ("nit" text_pattern_ops);