import { historyChanges, type RecordHistoryEntry } from '@aporta/domain';
import { and, count, desc, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { auditLog, contributors, cuiApprovalRequests } from '../db/schema/index.ts';
import type { RequestContext } from './context.ts';
import { pageOf } from './list.ts';

/** Who did something: a signed-in user, or the system itself (seeds, CLI). */
export interface Actor {
  id: number | null;
  email: string;
  ip?: string | null;
}

export const systemActor: Actor = { id: null, email: 'sistema' };

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  /** The municipal entity the record belongs to (see audit_log.scope_entity_id); omit for non-entity data. */
  scopeEntityId?: number | null;
}

/** Writes one audit row; pass the transaction of the change so both commit or neither does. */
export async function writeAudit(db: Db, actor: Actor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: actor.ip ?? null,
    scopeEntityId: entry.scopeEntityId ?? null,
  });
}

/** The audit log's record id as the integer id of its table (null when it is not one: no cast can fail). */
const recordId = sql`(case when ${auditLog.entityId} ~ '^[0-9]{1,9}$' then ${auditLog.entityId}::int end)`;

/**
 * The audit rows the caller's scope reaches (undefined for ALL): rows about records of the entities in scope
 * (`scope_entity_id`, the record's entity when the row was written; rows about no entity only ALL sees) — and,
 * for a record that can move to another entity (a contributor, and its CUI requests), only while the record
 * itself is still in scope: its history goes with it, so the entity it left no longer reads its data, before
 * or after. Every audit read applies it: the audit views, their exports and facets, and every record history
 * (`auditHistoryPage`).
 */
export function auditInScope(ctx: RequestContext): SQL | undefined {
  const stamped = ctx.inScope(auditLog.scopeEntityId);
  if (!stamped) return undefined;
  const contributorInScope = ctx.inScope(contributors.entityId);
  return and(
    stamped,
    sql`(${auditLog.entityType} <> 'contributor' or exists (
          select 1 from ${contributors} where ${contributors.id} = ${recordId} and ${contributorInScope}))`,
    sql`(${auditLog.entityType} <> 'cui_approval_request' or exists (
          select 1 from ${cuiApprovalRequests} join ${contributors} on ${contributors.id} = ${cuiApprovalRequests.contributorId}
           where ${cuiApprovalRequests.id} = ${recordId} and ${contributorInScope}))`,
  );
}

/**
 * A page of the audit rows matching `where`, newest first, each as history lines (field: before → after)
 * without the fields in `hidden`. The one reader behind every record's history (the audit module's
 * per-record route, the contributor page…); the caller puts the record in `where`, the scope of the rows is
 * applied here (`auditInScope`), so no history shows another entity's rows.
 */
export async function auditHistoryPage(
  ctx: RequestContext,
  record: SQL | undefined,
  page: { page: number; pageSize: number },
  hidden: ReadonlySet<string> = new Set(),
): Promise<{ items: RecordHistoryEntry[]; total: number }> {
  const { db } = ctx;
  const where = and(record, auditInScope(ctx));
  const { limit, offset } = pageOf(page);
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(auditLog).where(where).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actorEmail: r.actorEmail,
      action: r.action,
      changes: historyChanges(r.before, r.after).filter((c) => !hidden.has(c.field)),
    })),
    total: Number(n),
  };
}
