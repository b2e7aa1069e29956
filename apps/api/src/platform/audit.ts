import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

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
