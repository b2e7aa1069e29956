ALTER TABLE "audit_log" ADD COLUMN "scope_entity_id" integer;--> statement-breakpoint
CREATE INDEX "audit_scope_entity_idx" ON "audit_log" USING btree ("scope_entity_id");--> statement-breakpoint
-- Back-fill: rows written before the column concern the entity of their record (today's value).
UPDATE "audit_log" a SET "scope_entity_id" = c."entity_id"
  FROM "contributors" c WHERE a."entity_type" = 'contributor' AND a."entity_id" = c."id"::text;--> statement-breakpoint
UPDATE "audit_log" a SET "scope_entity_id" = c."entity_id"
  FROM "cui_approval_requests" r JOIN "contributors" c ON c."id" = r."contributor_id"
  WHERE a."entity_type" = 'cui_approval_request' AND a."entity_id" = r."id"::text;--> statement-breakpoint
UPDATE "audit_log" SET "scope_entity_id" = "entity_id"::int
  WHERE "entity_type" = 'municipal-entities' AND "entity_id" ~ '^[0-9]{1,9}$';--> statement-breakpoint
UPDATE "audit_log" SET "scope_entity_id" = (coalesce("after", "before") ->> 'entityId')::int
  WHERE "entity_type" IN ('entity-regions', 'entity-assignment')
    AND coalesce("after", "before") ->> 'entityId' ~ '^[0-9]{1,9}$';
