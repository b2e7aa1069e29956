-- Fuzzy name search (pg_trgm) and CUI prefix search for contributors. Idempotent.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS contributors_search_name_trgm_idx ON contributors USING gin (search_name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS contributors_cui_prefix_idx ON contributors (cui text_pattern_ops);
