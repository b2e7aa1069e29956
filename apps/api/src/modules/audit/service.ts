import {
  type AuditChainStatus,
  type AuditEntry,
  type AuditFacets,
  type AuditQuery,
  PLANILLA_ENTITY_TYPE,
  type RecordHistoryEntry,
  type RecordHistoryQuery,
  text,
} from '@aporta/domain';
import { and, eq, getTableColumns, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { auditLog } from '../../db/schema/index.ts';
import { auditHistoryPage, auditInScope } from '../../platform/audit.ts';
import { auditAtUtc, sealAuditChain, verifyAuditChain } from '../../platform/audit-chain.ts';
import { type RequestContext, requireAllScope } from '../../platform/context.ts';
import type { ExportColumn } from '../../platform/export.ts';
import { keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';

/** Guatemala keeps UTC−6 all year: a date filter covers that local day. */
const dayStart = (d: string) => new Date(`${d}T00:00:00-06:00`);
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 86_400_000);

const sortable = {
  id: auditLog.id,
  at: auditLog.at,
  action: auditLog.action,
  entityType: auditLog.entityType,
  entityId: auditLog.entityId,
  actorEmail: auditLog.actorEmail,
};

/** Which audit rows a view shows: the general view, or one fixed entity type (planillas). */
export type AuditView = { fixedEntityType?: string };

/**
 * The data scope of the trail, from the route's grant (the view's resource): a REGION or ENTITY grant
 * sees only rows about records of its entities (`scope_entity_id`, filled by the writer; a record that moved
 * to another entity takes its rows with it); rows about users, roles, catalogues (null) only an ALL grant sees.
 */
const inScope = (ctx: RequestContext) => auditInScope(ctx);

function whereOf(ctx: RequestContext, q: Partial<AuditQuery>, view: AuditView): SQL | undefined {
  const conds: (SQL | undefined)[] = [inScope(ctx)];
  const entityType = view.fixedEntityType ?? q.entityType;
  if (entityType) conds.push(eq(auditLog.entityType, entityType));
  if (q.actorId) conds.push(eq(auditLog.actorId, q.actorId));
  if (q.actor) conds.push(ilike(auditLog.actorEmail, likePattern(q.actor)));
  if (q.entityId) conds.push(eq(auditLog.entityId, q.entityId));
  if (q.action) conds.push(eq(auditLog.action, q.action));
  if (q.from) conds.push(gte(auditLog.at, dayStart(q.from)));
  if (q.to) conds.push(lt(auditLog.at, nextDay(q.to)));
  if (q.q) {
    const p = likePattern(q.q);
    conds.push(
      or(ilike(auditLog.actorEmail, p), ilike(auditLog.entityType, p), ilike(auditLog.entityId, p), ilike(auditLog.action, p)),
    );
  }
  return and(...conds);
}

type AuditRow = typeof auditLog.$inferSelect;

/** A row as the list answers it: the scope column and the hash chain's columns stay out (the export has them). */
const toEntry = ({ scopeEntityId: _s, seq: _q, prevId: _p, prevHash: _ph, hash: _h, ...r }: AuditRow): AuditEntry => ({
  ...r,
  at: r.at.toISOString(),
});

/** Audit rows filtered by user, entity type, record, action and date range. Callers hold `audit` or `planilla-audit-logs` READ. */
export async function findAudit(ctx: RequestContext, input: { query: AuditQuery; view?: AuditView }) {
  const { db } = ctx;
  const { query, view = {} } = input;
  const where = whereOf(ctx, query, view);
  const page = await listPage(db, {
    query,
    sortable,
    defaultSort: '-at',
    rows: (c) =>
      db
        .select()
        .from(auditLog)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => db.select({ id: auditLog.id }).from(auditLog).where(where),
    estimateTable: where ? undefined : auditLog,
  });
  return { ...page, items: page.items.map(toEntry) };
}

/** Distinct entity types and actions present, for the filter selects of a view. */
export async function auditFacets(ctx: RequestContext, input: { view?: AuditView }): Promise<AuditFacets> {
  const { db } = ctx;
  const { view = {} } = input;
  const where = and(inScope(ctx), view.fixedEntityType ? eq(auditLog.entityType, view.fixedEntityType) : undefined);
  const [types, actions] = await Promise.all([
    db.selectDistinct({ v: auditLog.entityType }).from(auditLog).where(where).orderBy(auditLog.entityType),
    db.selectDistinct({ v: auditLog.action }).from(auditLog).where(where).orderBy(auditLog.action),
  ]);
  return { entityTypes: types.map((t) => t.v), actions: actions.map((a) => a.v) };
}

/**
 * A row as the export writes it: the chain's columns, and the fields the hash covers exactly as it covers
 * them (the time in UTC to the microsecond, before/after as PostgreSQL's jsonb text), so an auditor can
 * recompute every hash from the file (docs/decisions.md, "A tamper-evident audit log").
 */
const exportFields = {
  ...getTableColumns(auditLog),
  atUtc: auditAtUtc,
  beforeText: sql<string | null>`${auditLog.before}::text`,
  afterText: sql<string | null>`${auditLog.after}::text`,
};
type ExportRow = AuditRow & { atUtc: string; beforeText: string | null; afterText: string | null };

/** Export plan of an audit view with the same filters. Callers hold EXPORT on the view's resource. */
export function auditExport(ctx: RequestContext, input: { query: Partial<AuditQuery>; view?: AuditView }) {
  const { db } = ctx;
  const { query, view = {} } = input;
  const where = whereOf(ctx, query, view);
  const keyset = keysetOf(query.sort, sortable, '-at', auditLog.id);
  const columns: ExportColumn<ExportRow>[] = [
    { header: 'ID', value: (r) => r.id, width: 10 },
    { header: 'Fecha y hora', value: (r) => r.at, width: 22 },
    { header: 'Usuario', value: (r) => r.actorEmail ?? '', width: 30 },
    { header: 'Acción', value: (r) => r.action, width: 16 },
    { header: 'Tipo de registro', value: (r) => r.entityType, width: 22 },
    { header: 'Registro', value: (r) => r.entityId ?? '', width: 12 },
    { header: 'Antes', value: (r) => r.beforeText ?? '', width: 50 },
    { header: 'Después', value: (r) => r.afterText ?? '', width: 50 },
    { header: 'IP', value: (r) => r.ip ?? '', width: 16 },
    { header: 'ID de usuario', value: (r) => r.actorId ?? '', width: 12 },
    { header: 'Entidad', value: (r) => r.scopeEntityId ?? '', width: 10 },
    { header: 'Marca de tiempo (UTC)', value: (r) => r.atUtc, width: 30 },
    { header: 'Posición en la cadena', value: (r) => r.seq ?? '', width: 12 },
    { header: 'Registro anterior en la cadena', value: (r) => r.prevId ?? '', width: 12 },
    { header: 'Hash anterior', value: (r) => r.prevHash ?? '', width: 68 },
    { header: 'Hash', value: (r) => r.hash ?? '', width: 68 },
  ];
  return {
    filename: view.fixedEntityType === PLANILLA_ENTITY_TYPE ? 'bitacora-planillas' : 'bitacora',
    columns,
    batches: keysetBatches(
      keyset,
      async (c) =>
        (await db
          .select(exportFields)
          .from(auditLog)
          .where(and(where, c.after))
          .orderBy(...c.order)
          .limit(c.limit)) as ExportRow[],
      (r) => r.id,
    ),
  };
}

/**
 * Seals what is waiting, then walks the whole hash chain (platform/audit-chain.ts): «intact up to row N» or
 * the first row changed, deleted or inserted out of band. The chain is the whole institution's: only an
 * ALL grant of `audit` READ verifies it.
 */
export async function verifyAuditTrail(ctx: RequestContext): Promise<AuditChainStatus> {
  requireAllScope(ctx, text('accounts.auditVerifyRequiresAllScope'));
  await sealAuditChain(ctx.db, { untilNow: true, timeoutMs: 5_000 });
  const verdict = await verifyAuditChain(ctx.db);
  return { ...verdict, checkedAt: new Date().toISOString() };
}

export const PLANILLA_VIEW: AuditView = { fixedEntityType: PLANILLA_ENTITY_TYPE };

/**
 * The history of one record (entity type and id as the audit log writes them), newest first, with each
 * change as field lines. Callers hold `audit` READ; its scope limits the rows as on the audit list
 * (`scope_entity_id`), so a REGION or ENTITY grant never sees another entity's records, nor records of
 * no entity (users, roles, catalogues).
 */
export async function findRecordHistory(
  ctx: RequestContext,
  input: { entityType: string; entityId: string } & RecordHistoryQuery,
): Promise<{ items: RecordHistoryEntry[]; total: number }> {
  const where = and(eq(auditLog.entityType, input.entityType), eq(auditLog.entityId, input.entityId));
  return auditHistoryPage(ctx, where, input);
}
