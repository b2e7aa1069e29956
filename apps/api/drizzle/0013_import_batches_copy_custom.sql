-- The contributors' bulk uploads move onto the one import pipeline (issue 10): every upload and its rows
-- are copied into import_batches / import_rows as kind 'contributors', keeping their ids, so a validated
-- upload can still be committed or discarded and contributors.import_id keeps pointing at its batch.
INSERT INTO "import_batches" ("id", "kind", "file_name", "format", "status", "total_rows", "processed_rows", "valid_rows",
  "error_rows", "committed_rows", "message", "created_by", "created_at", "updated_at", "committed_by", "committed_at")
SELECT "id", 'contributors', "file_name", "format", "status", "total_rows", "processed_rows", "valid_rows",
  "error_rows", "committed_rows", "message", "created_by", "created_at", coalesce("committed_at", "created_at"),
  "committed_by", "committed_at"
FROM "contributor_imports";
--> statement-breakpoint
INSERT INTO "import_rows" ("batch_id", "row_number", "is_valid", "key", "entity_id", "raw", "data", "errors")
SELECT "import_id", "row_number", "is_valid", nullif("cui", ''),
  CASE WHEN "data" ? 'entityId' AND jsonb_typeof("data" -> 'entityId') = 'number' THEN ("data" ->> 'entityId')::int END,
  "raw", "data", "errors"
FROM "contributor_import_rows";
