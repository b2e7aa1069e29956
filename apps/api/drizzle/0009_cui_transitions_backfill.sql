-- CUI requests decided before the transition history existed get their one step (PENDIENTE → decision)
-- from their own decision columns, so every decided request shows who decided it, when and why.
INSERT INTO "state_transitions" ("entity_type", "entity_id", "transition", "from_state", "to_state", "comment", "actor_id", "actor_email", "at", "scope_entity_id")
SELECT 'cui_approval_request', r."id",
       CASE r."state" WHEN 'APROBADO' THEN 'CUI_APPROVE' ELSE 'CUI_REJECT' END,
       'PENDIENTE', r."state", r."reason", r."decided_by", coalesce(u."email", 'sistema'),
       coalesce(r."decided_at", r."requested_at"), c."entity_id"
FROM "cui_approval_requests" r
JOIN "contributors" c ON c."id" = r."contributor_id"
LEFT JOIN "users" u ON u."id" = r."decided_by"
WHERE r."state" <> 'PENDIENTE';
