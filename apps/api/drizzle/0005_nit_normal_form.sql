-- One NIT, one stored form (issue 9): zeros before the body do not change the check character, so
-- 576937-K, 0576937-K and 000576937-K are the same NIT. Rewrites the rows stored before normalizeNit
-- dropped those zeros (packages/domain/src/nit.ts). Contributors keep body + check character without
-- a dash (576937K); municipal entities keep the dashed form (576937-K).
UPDATE "contributors"
SET "nit" = regexp_replace(upper(regexp_replace("nit", '[[:space:].-]', '', 'g')), '^0+([0-9]+[0-9K])$', '\1')
WHERE "nit" IS NOT NULL
  AND upper(regexp_replace("nit", '[[:space:].-]', '', 'g')) ~ '^[0-9]+[0-9K]$'
  AND "nit" IS DISTINCT FROM regexp_replace(upper(regexp_replace("nit", '[[:space:].-]', '', 'g')), '^0+([0-9]+[0-9K])$', '\1');
--> statement-breakpoint
UPDATE "municipal_entities"
SET "nit" = regexp_replace(
  regexp_replace(upper(regexp_replace("nit", '[[:space:].-]', '', 'g')), '^0+([0-9]+[0-9K])$', '\1'),
  '^([0-9]+)([0-9K])$', '\1-\2')
WHERE "nit" IS NOT NULL
  AND upper(regexp_replace("nit", '[[:space:].-]', '', 'g')) ~ '^[0-9]+[0-9K]$'
  AND "nit" IS DISTINCT FROM regexp_replace(
    regexp_replace(upper(regexp_replace("nit", '[[:space:].-]', '', 'g')), '^0+([0-9]+[0-9K])$', '\1'),
    '^([0-9]+)([0-9K])$', '\1-\2');
--> statement-breakpoint
-- Validated uploads not yet confirmed keep their rows' data: their NITs take the same form.
UPDATE "contributor_import_rows"
SET "data" = jsonb_set("data", '{nit}', to_jsonb(regexp_replace("data"->>'nit', '^0+([0-9]+[0-9K])$', '\1')))
WHERE "data" IS NOT NULL AND "data"->>'nit' ~ '^0+[0-9]+[0-9K]$';
