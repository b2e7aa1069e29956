import { historyChanges, type RecordHistoryEntry } from '@aporta/domain';
import { count, desc, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';
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

/**
 * A page of the audit rows matching `where`, newest first, each as history lines (field: before → after)
 * without the fields in `hidden`. The one reader behind every record's history (the audit module's
 * per-record route, the contributor page…); the caller puts the record and the scope in `where`.
 */
export async function auditHistoryPage(
  db: Db,
  where: SQL | undefined,
  page: { page: number; pageSize: number },
  hidden: ReadonlySet<string> = new Set(),
): Promise<{ items: RecordHistoryEntry[]; total: number }> {
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
