-- The catalogue's NIT field uses the shared NIT schema (packages/domain/src/fields.ts, issue 10): one stored
-- form for every NIT, body + check character without a dash or leading zeros (576937K), as contributors
-- since migration 0005. Municipal entities stored the dashed form (576937-K); rewrite them. Values that are
-- not a NIT's shape are left as they are (the form refuses them on the next edit).
UPDATE "municipal_entities"
SET "nit" = regexp_replace(upper(regexp_replace("nit", '[[:space:].-]', '', 'g')), '^0+([0-9]+[0-9K])$', '\1')
WHERE "nit" IS NOT NULL
  AND upper(regexp_replace("nit", '[[:space:].-]', '', 'g')) ~ '^[0-9]+[0-9K]$'
  AND "nit" IS DISTINCT FROM regexp_replace(upper(regexp_replace("nit", '[[:space:].-]', '', 'g')), '^0+([0-9]+[0-9K])$', '\1');
