import {
  AppError,
  conditionHolds,
  conditionText,
  defineMachine,
  type FlowDefinition,
  type FlowTransition,
  type FormCatalog,
  type FormField,
  isFinalFlowState,
  requestNumber,
  type Scope,
  type SigEvent,
  type SigRequest,
  type SigRequestCreate,
  type SigRequestDetail,
  type SigRequestListQuery,
  type StateMachine,
  scopeRank,
} from '@aporta/domain';
import { and, asc, desc, eq, getTableColumns, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  budgetLines,
  classifications,
  departments,
  documentFolders,
  documents,
  documentVersions,
  municipalEntities,
  regions,
  roles,
  sigRequestEvents,
  sigRequests,
  users,
  wfFlows,
  wfFlowVersions,
  wfFormVersions,
} from '../../db/schema/index.ts';
import { createContext, type RequestContext, routeScope } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { EXPORT_CHUNK_ROWS, type KeysetChunk, keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { generateReportPdf } from '../../platform/pdf.ts';
import { entityInScope, isEntityInScope } from '../../platform/scope.ts';
import { applyTransition, findTransitionHistory } from '../../platform/transitions.ts';
import { addDocument } from '../documents/filing.ts';
import { currentVersion, documentContent } from '../documents/library.ts';
import { notifyUsers } from '../notifications/service.ts';
import { settingsAt } from '../settings/service.ts';
import { moduleAction } from './actions.ts';
import { roleIdsOf } from './flows.ts';
import { validateFormData } from './validate.ts';

export const SIG_ENTITY_TYPE = 'sig_request';

// ─── The flow version as a state machine ──────────────────────────────────────────────────────────

const machines = new Map<number, StateMachine>();

/**
 * A published flow version as a machine of the platform: `applyTransition` then checks the state,
 * the permission (sig-items UPDATE) and its data scope, settles races and writes history and audit.
 * The role (or the requester) a transition names is checked here before.
 */
export function machineOf(versionId: number, def: FlowDefinition): StateMachine {
  let m = machines.get(versionId);
  if (!m) {
    m = defineMachine({
      entityType: SIG_ENTITY_TYPE,
      label: 'La solicitud',
      states: def.states.map((s) => s.key),
      stateLabels: Object.fromEntries(def.states.map((s) => [s.key, s.label])),
      initial: def.initial,
      transitions: def.transitions.map((t) => ({
        key: t.key,
        from: t.from,
        to: t.to,
        label: t.label,
        commentRequired: !!t.commentRequired,
        permission: { resource: 'sig-items', action: 'UPDATE' },
      })),
    });
    machines.set(versionId, m);
  }
  return m;
}

const stateLabel = (def: FlowDefinition, key: string) => def.states.find((s) => s.key === key)?.label ?? key;

/** When a request entering `state` falls due: the state's own SLA, else the setting; none for a final state. */
async function dueFor(db: Db, def: FlowDefinition, state: string, from = new Date()): Promise<Date | null> {
  if (isFinalFlowState(def, state)) return null;
  const own = def.states.find((s) => s.key === state)?.slaDays;
  const days = own ?? (await settingsAt(db, from.toISOString().slice(0, 10))).values['sig.slaDays'];
  return new Date(from.getTime() + days * 86_400_000);
}

// ─── Reading ───────────────────────────────────────────────────────────────────────────────────────

const requesterName = sql<string>`coalesce((select trim(u.first_name || ' ' || u.last_name) from ${users} u where u.id = ${sigRequests.requesterId}), '')`;
const overdueSql = sql<boolean>`(${sigRequests.closedAt} is null and ${sigRequests.dueAt} < now())`;

const listColumns = {
  ...getTableColumns(sigRequests),
  flowTitle: wfFlows.title,
  flowVersion: wfFlowVersions.version,
  definition: wfFlowVersions.definition,
  formVersion: wfFormVersions.version,
  entityName: municipalEntities.name,
  requesterName,
  overdue: overdueSql,
};

const baseQuery = (db: Db) =>
  db
    .select(listColumns)
    .from(sigRequests)
    .innerJoin(wfFlows, eq(wfFlows.id, sigRequests.flowId))
    .innerJoin(wfFlowVersions, eq(wfFlowVersions.id, sigRequests.flowVersionId))
    .innerJoin(wfFormVersions, eq(wfFormVersions.id, sigRequests.formVersionId))
    .leftJoin(municipalEntities, eq(municipalEntities.id, sigRequests.entityId));

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

const toRequest = (r: Row): SigRequest => {
  const def = r.definition as FlowDefinition;
  return {
    id: r.id,
    number: r.number,
    flowId: r.flowId,
    flowTitle: r.flowTitle,
    flowVersion: r.flowVersion,
    formVersion: r.formVersion,
    state: r.state,
    stateLabel: stateLabel(def, r.state),
    final: r.closedAt != null,
    entityId: r.entityId,
    entityName: r.entityName ?? null,
    requesterId: r.requesterId,
    requesterName: r.requesterName,
    createdAt: r.createdAt.toISOString(),
    stateSince: r.stateSince.toISOString(),
    dueAt: r.dueAt?.toISOString() ?? null,
    overdue: !!r.overdue,
    closedAt: r.closedAt?.toISOString() ?? null,
    summary: r.summary,
  };
};

/** Requests the user is expected to act on: an outgoing transition of a role they hold, or theirs as requester. */
function waitingFor(userId: number, roleIds: number[] | null): SQL {
  const byRole =
    roleIds === null ? sql`(t->>'roleId') is not null` : roleIds.length ? sql`(t->>'roleId')::int in ${roleIds}` : sql`false`;
  return sql`(${sigRequests.closedAt} is null and exists (
    select 1 from jsonb_array_elements(${wfFlowVersions.definition}->'transitions') t
     where t->>'from' = ${sigRequests.state}
       and (${byRole} or (coalesce((t->>'requester')::boolean, false) and ${sigRequests.requesterId} = ${userId}))))`;
}

async function filters(ctx: RequestContext, q: Partial<SigRequestListQuery>): Promise<SQL | undefined> {
  const text = q.q?.trim();
  let waiting: SQL | undefined;
  if (q.waiting === 'true') {
    const scope = ctx.scopeFor('sig-items', 'UPDATE');
    waiting = scope
      ? and(
          waitingFor(ctx.user.id, await roleIdsOf(ctx.db, ctx.user.id)),
          entityInScope(ctx.user.id, scope, sigRequests.entityId),
        )
      : sql`false`;
  }
  const gt = (col: SQL | typeof sigRequests.createdAt) => sql`(${col} at time zone 'America/Guatemala')::date`;
  return and(
    ctx.inScope(sigRequests.entityId),
    text ? or(ilike(sigRequests.number, likePattern(text)), ilike(sigRequests.summary, likePattern(text))) : undefined,
    q.flowId ? eq(sigRequests.flowId, q.flowId) : undefined,
    q.state ? eq(sigRequests.state, q.state) : undefined,
    q.entityId ? eq(sigRequests.entityId, q.entityId) : undefined,
    q.requester ? sql`${requesterName} ilike ${likePattern(q.requester)}` : undefined,
    q.from ? sql`${gt(sigRequests.createdAt)} >= ${q.from}` : undefined,
    q.to ? sql`${gt(sigRequests.createdAt)} <= ${q.to}` : undefined,
    q.overdue === 'true' ? overdueSql : q.overdue === 'false' ? sql`not ${overdueSql}` : undefined,
    q.open === 'true' ? isNull(sigRequests.closedAt) : q.open === 'false' ? sql`${sigRequests.closedAt} is not null` : undefined,
    waiting,
  );
}

const sortable = {
  id: sigRequests.id,
  number: sigRequests.number,
  createdAt: sigRequests.createdAt,
  stateSince: sigRequests.stateSince,
  dueAt: sigRequests.dueAt,
  state: sigRequests.state,
};

/** Requests within the route's scope (Consulta SIG, the requests list). Callers: sig-query READ, sig-items READ. */
export async function findRequests(ctx: RequestContext, query: SigRequestListQuery) {
  const where = await filters(ctx, query);
  const page = await listPage(ctx.db, {
    query,
    sortable,
    defaultSort: '-id',
    rows: (c) =>
      baseQuery(ctx.db)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () =>
      ctx.db
        .select({ id: sigRequests.id })
        .from(sigRequests)
        .innerJoin(wfFlowVersions, eq(wfFlowVersions.id, sigRequests.flowVersionId))
        .where(where),
  });
  return { ...page, items: page.items.map(toRequest) };
}

/** The export of Consulta SIG, in keyset chunks. Callers: sig-query EXPORT. */
export async function exportRequestBatches(ctx: RequestContext, query: Partial<SigRequestListQuery>) {
  const where = await filters(ctx, query);
  return keysetBatches(
    keysetOf(query.sort, sortable, 'id'),
    async (c: KeysetChunk) =>
      (
        await baseQuery(ctx.db)
          .where(and(where, c.after))
          .orderBy(...c.order)
          .limit(c.limit)
      ).map(toRequest),
    (r) => r.id,
    EXPORT_CHUNK_ROWS,
  );
}

/** Counts by flow and state (and how many overdue), with the same filters and scope. Callers: sig-query READ. */
export async function countRequests(ctx: RequestContext, query: Partial<SigRequestListQuery>) {
  const where = await filters(ctx, query);
  const rows = await ctx.db
    .select({
      flowId: sigRequests.flowId,
      flowTitle: wfFlows.title,
      state: sigRequests.state,
      definition: sql<FlowDefinition>`(select v.definition from ${wfFlowVersions} v where v.id = max(${sigRequests.flowVersionId}))`,
      count: sql<number>`count(*)::int`,
      overdue: sql<number>`count(*) filter (where ${overdueSql})::int`,
    })
    .from(sigRequests)
    .innerJoin(wfFlows, eq(wfFlows.id, sigRequests.flowId))
    .innerJoin(wfFlowVersions, eq(wfFlowVersions.id, sigRequests.flowVersionId))
    .where(where)
    .groupBy(sigRequests.flowId, wfFlows.title, sigRequests.state)
    .orderBy(asc(wfFlows.title), asc(sigRequests.state));
  return {
    items: rows.map((r) => ({
      flowId: r.flowId,
      flowTitle: r.flowTitle,
      state: r.state,
      stateLabel: stateLabel(r.definition, r.state),
      count: Number(r.count),
      overdue: Number(r.overdue),
    })),
  };
}

async function requestRow(ctx: RequestContext, id: number) {
  const [r] = await baseQuery(ctx.db).where(and(eq(sigRequests.id, id), ctx.inScope(sigRequests.entityId)));
  if (!r) throw new AppError('NOT_FOUND', 'La solicitud no existe o no está dentro de su alcance.');
  return r;
}

/** Users who may take `t` on a request: holders of its role whose sig-items UPDATE reaches the entity, or the requester. */
async function actorsOf(db: Db, t: FlowTransition, req: { entityId: number | null; requesterId: number | null }) {
  if (t.requester) {
    if (!req.requesterId) return [];
    const [u] = await db
      .select({ id: users.id, name: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})` })
      .from(users)
      .where(eq(users.id, req.requesterId));
    return u ? [u] : [];
  }
  if (!t.roleId) return [];
  const candidates = rowsOf<{ id: number; name: string }>(
    await db.execute(sql`
      select u.id, trim(u.first_name || ' ' || u.last_name) as name from users u
       where u.is_active and (u.id in (select user_id from user_roles where role_id = ${t.roleId})
          or u.id in (select ui.user_id from institution_roles ir join user_institutions ui on ui.institution_id = ir.institution_id
                       where ir.role_id = ${t.roleId}))
       order by u.id limit 50`),
  );
  const out: { id: number; name: string }[] = [];
  for (const c of candidates) {
    const grants = rowsOf<{ scope: Scope }>(
      await db.execute(sql`
        select g.scope from role_grants g where g.resource = 'sig-items' and g.action = 'UPDATE' and g.role_id in (
          select role_id from user_roles where user_id = ${c.id}
          union select ir.role_id from institution_roles ir join user_institutions ui on ui.institution_id = ir.institution_id
                 where ui.user_id = ${c.id})`),
    );
    if (!grants.length) continue;
    const scope = grants.map((g) => g.scope).sort((a, b) => scopeRank[b] - scopeRank[a])[0];
    if (scope !== 'ALL') {
      if (req.entityId == null) continue;
      const cond = entityInScope(c.id, scope, sql`${req.entityId}::int`);
      if (!rowsOf(await db.execute(sql`select 1 as ok where ${cond}`)).length) continue;
    }
    out.push({ id: Number(c.id), name: c.name });
  }
  return out;
}

/** Notifies who is now expected to act on the request (assignment) and the requester of the move. */
async function notifyMove(
  tx: Db,
  ctx: RequestContext,
  req: { id: number; number: string; entityId: number | null; requesterId: number | null; flowTitle: string },
  def: FlowDefinition,
  state: string,
  what: string,
) {
  const link = `/sig/item/${req.id}`;
  const expected = new Set<number>();
  for (const t of def.transitions.filter((x) => x.from === state)) {
    for (const u of await actorsOf(tx, t, req)) if (u.id !== ctx.user.id) expected.add(u.id);
  }
  if (expected.size) {
    await notifyUsers({
      db: tx,
      userIds: [...expected],
      type: 'info',
      title: `Solicitud ${req.number} asignada: ${stateLabel(def, state)}`,
      body: `${req.flowTitle}: espera su acción.`,
      link,
    });
  }
  if (req.requesterId && req.requesterId !== ctx.user.id && !expected.has(req.requesterId)) {
    await notifyUsers({
      db: tx,
      userIds: [req.requesterId],
      type: 'info',
      title: `Solicitud ${req.number}: ${what}`,
      body: req.flowTitle,
      link,
    });
  }
}

/** What a transition does, for the button's confirmation: the module action's key, or the kind. */
const actionNameOf = (t: FlowTransition) => (t.action?.kind === 'module' ? (t.action.module ?? null) : (t.action?.kind ?? null));

/** The page of one request: data, state, actions the user may take now, who is expected, timeline. Callers: sig-items READ. */
export async function getRequest(ctx: RequestContext, input: { id: number }): Promise<SigRequestDetail> {
  const r = await requestRow(ctx, input.id);
  const def = r.definition as FlowDefinition;
  const [form] = await ctx.db.select().from(wfFormVersions).where(eq(wfFormVersions.id, r.formVersionId));
  const data = r.data as Record<string, unknown>;
  // Actions: declared from the state, the role held (or the requester), the permission's scope, the condition.
  const roleIds = await roleIdsOf(ctx.db, ctx.user.id);
  const updateScope = ctx.scopeFor('sig-items', 'UPDATE');
  const reachable =
    !!updateScope &&
    (updateScope === 'ALL' ||
      (r.entityId != null &&
        rowsOf(
          await ctx.db.execute(sql`select 1 as ok where ${entityInScope(ctx.user.id, updateScope, sql`${r.entityId}::int`)}`),
        ).length > 0));
  const outgoing = r.closedAt ? [] : def.transitions.filter((t) => t.from === r.state);
  const mayTake = (t: FlowTransition) =>
    reachable &&
    (t.requester ? r.requesterId === ctx.user.id : roleIds === null ? !!t.roleId : !!t.roleId && roleIds.includes(t.roleId)) &&
    conditionHolds(t.condition, data);
  const roleNames = new Map(
    (await ctx.db.select({ id: roles.id, name: roles.name }).from(roles)).map((x) => [x.id, x.name] as [number, string]),
  );
  const expected = [];
  for (const t of outgoing) {
    const who = await actorsOf(ctx.db, t, r);
    expected.push({
      label: t.label,
      role: t.requester ? 'Solicitante' : (roleNames.get(t.roleId ?? 0) ?? 'Rol eliminado'),
      users: who.slice(0, 8).map((u) => u.name),
    });
  }
  const history = await findTransitionHistory(ctx.db, machineOf(r.flowVersionId, def), r.id);
  const events = await ctx.db
    .select({ e: sigRequestEvents, filename: documentVersions.filename })
    .from(sigRequestEvents)
    .leftJoin(documents, eq(documents.id, sigRequestEvents.documentId))
    .leftJoin(documentVersions, currentVersion())
    .where(eq(sigRequestEvents.requestId, r.id))
    .orderBy(asc(sigRequestEvents.at));
  const timeline: SigEvent[] = [
    {
      id: 'c',
      kind: 'CREATED' as const,
      at: r.createdAt.toISOString(),
      actor: r.requesterName || null,
      label: `Solicitud presentada: ${stateLabel(def, def.initial)}`,
      comment: null,
      documentId: null,
      filename: null,
    },
    ...history.map(
      (h): SigEvent => ({
        id: `t${h.id}`,
        kind: 'TRANSITION',
        at: h.at,
        actor: h.actorEmail,
        label: `${h.label}: ${stateLabel(def, h.from)} → ${stateLabel(def, h.to)}`,
        comment: h.comment,
        documentId: null,
        filename: null,
      }),
    ),
    ...events.map(
      (x): SigEvent => ({
        id: `e${x.e.id}`,
        kind: x.e.kind,
        at: x.e.at.toISOString(),
        actor: x.e.actorEmail,
        label: x.e.kind === 'COMMENT' ? 'Comentario' : x.e.kind === 'ATTACHMENT' ? 'Adjunto' : 'Acción',
        comment: x.e.comment,
        documentId: x.e.documentId,
        filename: x.filename ?? null,
      }),
    ),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const state = def.states.find((s) => s.key === r.state);
  const fileFields = ((form.fields as FormField[] | null) ?? []).filter(
    (f) => f.type === 'file' && typeof data[f.name] === 'number',
  );
  const fileDocs = fileFields.length
    ? await ctx.db
        .select({ id: documents.id, filename: documentVersions.filename })
        .from(documents)
        .innerJoin(documentVersions, currentVersion())
        .where(
          and(
            inArray(
              documents.id,
              fileFields.map((f) => data[f.name] as number),
            ),
            eq(documents.sourceType, SIG_ENTITY_TYPE),
            eq(documents.sourceId, r.id),
          ),
        )
    : [];
  const files = fileFields.flatMap((f) => {
    const d = fileDocs.find((x) => x.id === data[f.name]);
    return d ? [{ field: f.name, documentId: d.id, filename: d.filename }] : [];
  });
  return {
    ...toRequest(r),
    data,
    fields: (form.fields as FormField[] | null) ?? null,
    schema: form.schema as Record<string, unknown>,
    uiSchema: form.uiSchema as Record<string, unknown>,
    editable: !r.closedAt && !!state?.editable && r.requesterId === ctx.user.id,
    transitions: outgoing.filter(mayTake).map((t) => ({
      key: t.key,
      to: t.to,
      toLabel: stateLabel(def, t.to),
      label: t.label,
      commentRequired: !!t.commentRequired,
      action: actionNameOf(t),
    })),
    expected,
    timeline,
    files,
    states: def.states.map((s) => ({ key: s.key, label: s.label })),
    result: r.resultLabel && r.resultLink ? { label: r.resultLabel, link: r.resultLink } : null,
  };
}

// ─── Options ───────────────────────────────────────────────────────────────────────────────────────

/** Published flows (with their form's published version) and the entities a new request may name. Callers: sig-items READ. */
export async function sigOptions(ctx: RequestContext, opts: { withForms: boolean }) {
  const flows = await ctx.db
    .select({ id: wfFlows.id, title: wfFlows.title, formId: wfFlows.formId, definition: wfFlowVersions.definition })
    .from(wfFlows)
    .innerJoin(wfFlowVersions, and(eq(wfFlowVersions.flowId, wfFlows.id), eq(wfFlowVersions.state, 'PUBLICADA')))
    .orderBy(asc(wfFlows.title));
  const out = [];
  for (const f of flows) {
    const def = f.definition as FlowDefinition;
    const base = { id: f.id, title: f.title, states: def.states.map((s) => ({ key: s.key, label: s.label })) };
    if (!opts.withForms) {
      out.push(base);
      continue;
    }
    const [v] = await ctx.db
      .select()
      .from(wfFormVersions)
      .where(and(eq(wfFormVersions.formId, f.formId), eq(wfFormVersions.state, 'PUBLICADA')))
      .orderBy(desc(wfFormVersions.version))
      .limit(1);
    if (!v) continue;
    out.push({
      ...base,
      schema: v.schema as Record<string, unknown>,
      uiSchema: v.uiSchema as Record<string, unknown>,
      fields: (v.fields as FormField[] | null) ?? null,
    });
  }
  const createScope = ctx.scopeFor('sig-items', 'CREATE');
  const entities = createScope
    ? await ctx.db
        .select({ id: municipalEntities.id, name: municipalEntities.name })
        .from(municipalEntities)
        .where(and(eq(municipalEntities.isActive, true), entityInScope(ctx.user.id, createScope, municipalEntities.id)))
        .orderBy(asc(municipalEntities.name))
        .limit(500)
    : [];
  return { flows: out, entities, anyEntity: createScope === 'ALL' };
}

const catalogTables = { departments, regions, 'budget-lines': budgetLines, classifications } as const;

/** The code and label of a catalogue's rows (every one has `code` and `name`). */
async function catalogRows(db: Db, catalog: FormCatalog, code?: string) {
  const t = catalogTables[catalog];
  return rowsOf<{ value: string; label: string }>(
    await db.execute(sql`select ${t.code}::text as value, ${t.code} || ' — ' || ${t.name} as label from ${t}
      ${code === undefined ? sql`` : sql`where ${t.code}::text = ${code}`} order by ${t.code} limit 1000`),
  );
}

/** The options of a catalogue a form's select uses (reference data). Callers: any signed-in user. */
export async function catalogOptions(ctx: RequestContext, catalog: FormCatalog) {
  return { items: (await catalogRows(ctx.db, catalog)).map((r) => ({ value: String(r.value), label: String(r.label) })) };
}

// ─── Writing ───────────────────────────────────────────────────────────────────────────────────────

/**
 * References of the data checked against the database: entities within the caller's scope, catalogue
 * codes that exist, files that are the caller's own uploads (or already this request's).
 */
async function checkReferences(
  ctx: RequestContext,
  fields: FormField[] | null,
  data: Record<string, unknown>,
  requestId?: number,
) {
  if (!fields) return [] as number[];
  const files: number[] = [];
  const bad: { path: string; message: string }[] = [];
  for (const f of fields) {
    const v = data[f.name];
    if (v === undefined) continue;
    if (f.type === 'entity') {
      const [e] = await ctx.db
        .select({ id: municipalEntities.id })
        .from(municipalEntities)
        .where(eq(municipalEntities.id, Number(v)));
      if (!e) bad.push({ path: `data.${f.name}`, message: `${f.label}: la entidad no existe.` });
    }
    if (f.type === 'select' && f.catalog) {
      const [x] = await catalogRows(ctx.db, f.catalog, String(v));
      if (!x) bad.push({ path: `data.${f.name}`, message: `${f.label}: «${String(v)}» no está en el catálogo.` });
    }
    if (f.type === 'file') {
      const [d] = await ctx.db
        .select({ id: documents.id })
        .from(documents)
        .where(
          and(
            eq(documents.id, Number(v)),
            or(
              and(eq(documents.sourceType, 'sig_upload'), eq(documents.createdBy, ctx.user.id)),
              requestId ? and(eq(documents.sourceType, SIG_ENTITY_TYPE), eq(documents.sourceId, requestId)) : undefined,
            ),
          ),
        );
      if (!d) bad.push({ path: `data.${f.name}`, message: `${f.label}: el archivo no es uno que usted haya subido.` });
      else files.push(d.id);
    }
  }
  if (bad.length) throw new AppError('VALIDATION', bad.map((b) => b.message).join(' '), bad);
  return files;
}

const summaryOf = (fields: FormField[] | null, data: Record<string, unknown>) => {
  const names = fields
    ? fields.filter((f) => ['text', 'cui', 'select', 'date', 'money', 'number'].includes(f.type)).map((f) => f.name)
    : Object.keys(data);
  return names
    .map((n) => data[n])
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .slice(0, 3)
    .join(' · ')
    .slice(0, 200);
};

/** Files a request's data names become the request's documents. */
async function linkFiles(tx: Db, ids: number[], requestId: number) {
  for (const id of ids) {
    await tx.update(documents).set({ sourceType: SIG_ENTITY_TYPE, sourceId: requestId }).where(eq(documents.id, id));
  }
}

/**
 * Files a request on a published flow, with the flow's form's published version; the data is validated
 * by the server against that form. The entity must lie in the caller's sig-items CREATE scope (required
 * unless the scope is ALL). The request starts in the flow's initial state; whoever is expected to act is
 * notified. Callers: sig-items CREATE.
 */
export async function createRequest(ctx: RequestContext, input: SigRequestCreate) {
  const [flow] = await ctx.db
    .select({
      id: wfFlows.id,
      title: wfFlows.title,
      formId: wfFlows.formId,
      versionId: wfFlowVersions.id,
      definition: wfFlowVersions.definition,
    })
    .from(wfFlows)
    .innerJoin(wfFlowVersions, and(eq(wfFlowVersions.flowId, wfFlows.id), eq(wfFlowVersions.state, 'PUBLICADA')))
    .where(eq(wfFlows.id, input.flowId));
  if (!flow) {
    throw new AppError('VALIDATION', 'Flujo: no existe o no está publicado.', [
      { path: 'flowId', message: 'Elija un flujo publicado.' },
    ]);
  }
  const [form] = await ctx.db
    .select()
    .from(wfFormVersions)
    .where(and(eq(wfFormVersions.formId, flow.formId), eq(wfFormVersions.state, 'PUBLICADA')))
    .orderBy(desc(wfFormVersions.version))
    .limit(1);
  if (!form) throw new AppError('CONFLICT', 'El formulario del flujo no tiene una versión publicada: no recibe solicitudes.');
  const scope = routeScope(ctx);
  const entityId = input.entityId ?? null;
  if (entityId == null && scope !== 'ALL') {
    throw new AppError('VALIDATION', 'Entidad: indique la entidad de la solicitud.', [
      { path: 'entityId', message: 'Elija la entidad.' },
    ]);
  }
  if (entityId != null && !(await isEntityInScope(ctx, entityId))) {
    throw new AppError('VALIDATION', 'Entidad: no existe o está fuera de su alcance.', [
      { path: 'entityId', message: 'La entidad no existe o está fuera de su alcance.' },
    ]);
  }
  const fields = (form.fields as FormField[] | null) ?? null;
  const data = validateFormData({ id: form.id, schema: form.schema as Record<string, unknown>, fields }, input.data);
  const files = await checkReferences(ctx, fields, data);
  const def = flow.definition as FlowDefinition;
  const now = new Date();
  const dueAt = await dueFor(ctx.db, def, def.initial, now);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sigRequests)
      .values({
        number: `TMP-${ctx.user.id}-${now.getTime()}-${Math.random()}`,
        flowId: flow.id,
        flowVersionId: flow.versionId,
        formVersionId: form.id,
        state: def.initial,
        data,
        entityId,
        requesterId: ctx.user.id || null,
        summary: summaryOf(fields, data),
        stateSince: now,
        dueAt,
      })
      .returning();
    const number = requestNumber(row.id, now.toISOString());
    await tx.update(sigRequests).set({ number }).where(eq(sigRequests.id, row.id));
    await linkFiles(tx as unknown as Db, files, row.id);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: SIG_ENTITY_TYPE,
        entityId: row.id,
        after: { number, flow: flow.title, state: def.initial, data },
        scopeEntityId: entityId,
      },
      tx,
    );
    await notifyMove(
      tx as unknown as Db,
      ctx,
      { id: row.id, number, entityId, requesterId: row.requesterId, flowTitle: flow.title },
      def,
      def.initial,
      'presentada',
    );
    return row.id;
  });
  return getRequest(ctx, { id });
}

/** The requester corrects the data while the request is in an editable state (recepción, observada). Callers: sig-items UPDATE. */
export async function updateRequestData(
  ctx: RequestContext,
  input: { id: number; data: Record<string, unknown>; expected?: string },
) {
  const r = await requestRow(ctx, input.id);
  const def = r.definition as FlowDefinition;
  if (input.expected && input.expected !== r.state) {
    throw new AppError('CONFLICT', 'La solicitud cambió de estado mientras la editaba. Vuelva a cargarla.');
  }
  if (r.closedAt || !def.states.find((s) => s.key === r.state)?.editable) {
    throw new AppError('CONFLICT', `La solicitud está en «${stateLabel(def, r.state)}»: sus datos ya no se modifican.`);
  }
  if (r.requesterId !== ctx.user.id) throw new AppError('FORBIDDEN', 'Solo quien presentó la solicitud corrige sus datos.');
  const [form] = await ctx.db.select().from(wfFormVersions).where(eq(wfFormVersions.id, r.formVersionId));
  const fields = (form.fields as FormField[] | null) ?? null;
  const data = validateFormData({ id: form.id, schema: form.schema as Record<string, unknown>, fields }, input.data);
  const files = await checkReferences(ctx, fields, data, r.id);
  await ctx.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(sigRequests)
      .set({ data, summary: summaryOf(fields, data), updatedAt: new Date() })
      .where(and(eq(sigRequests.id, r.id), eq(sigRequests.state, r.state)))
      .returning({ id: sigRequests.id });
    if (!moved) throw new AppError('CONFLICT', 'La solicitud cambió de estado mientras la editaba. Vuelva a cargarla.');
    await linkFiles(tx as unknown as Db, files, r.id);
    await ctx.audit(
      {
        action: 'UPDATE',
        entityType: SIG_ENTITY_TYPE,
        entityId: r.id,
        before: { data: r.data },
        after: { data },
        scopeEntityId: r.entityId,
      },
      tx,
    );
  });
  return getRequest(ctx, { id: r.id });
}

export interface TransitionEnv {
  files: FileStore;
  appTitle: string;
}

/**
 * Moves a request: the transition must leave its state toward `to`, be named for a role the user holds
 * (or the requester), its condition must hold on the data, and the platform's applyTransition checks
 * the sig-items UPDATE permission and scope, the comment and the race. The transition's action (notify,
 * a PDF document, a module action such as creating the pension) runs in the same transaction: when it
 * fails, the request stays where it was. Callers: sig-items UPDATE.
 */
export async function transitionRequest(
  ctx: RequestContext,
  env: TransitionEnv,
  input: { id: number; to: string; comment?: string | null; expected?: string },
) {
  const r = await requestRow(ctx, input.id);
  const def = r.definition as FlowDefinition;
  const machine = machineOf(r.flowVersionId, def);
  const t = def.transitions.find((x) => x.from === r.state && x.to === input.to);
  if (t && !(input.expected && input.expected !== r.state)) {
    const roleIds = await roleIdsOf(ctx.db, ctx.user.id);
    const allowed = t.requester ? r.requesterId === ctx.user.id : !!t.roleId && (roleIds === null || roleIds.includes(t.roleId));
    if (!allowed) {
      let who = 'quien presentó la solicitud';
      if (!t.requester) {
        const [role] = await ctx.db
          .select({ name: roles.name })
          .from(roles)
          .where(eq(roles.id, t.roleId ?? 0));
        who = `el rol «${role?.name ?? 'eliminado'}»`;
      }
      throw new AppError('FORBIDDEN', `«${t.label}» lo toma ${who}; usted no puede tomarla.`);
    }
    if (!conditionHolds(t.condition, r.data as Record<string, unknown>)) {
      throw new AppError('CONFLICT', `«${t.label}» requiere que ${conditionText(t.condition!)}.`);
    }
  }
  await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const now = new Date();
    const final = isFinalFlowState(def, input.to);
    const dueAt = await dueFor(tx, def, input.to, now);
    const applied = await applyTransition(ctx, {
      tx,
      machine,
      table: sigRequests,
      id: r.id,
      to: input.to,
      expected: input.expected,
      comment: input.comment,
      entityId: sigRequests.entityId,
      set: () => ({ stateSince: now, dueAt, closedAt: final ? now : null, updatedAt: now }),
    });
    const taken = def.transitions.find((x) => x.key === applied.transition.key);
    const txCtx = createContext({ db: tx, user: ctx.user, actor: ctx.actor, sessionId: ctx.sessionId, scope: ctx.scope });
    const action = taken?.action;
    const req = {
      id: r.id,
      number: r.number,
      data: r.data as Record<string, unknown>,
      entityId: r.entityId,
      requesterId: r.requesterId,
    };
    if (action?.kind === 'module') {
      const a = moduleAction(action.module ?? '');
      if (!a) throw new AppError('CONFLICT', `La acción «${action.module}» ya no existe; el flujo debe corregirse.`);
      const result = await a.run(txCtx, req);
      if (result)
        await tx.update(sigRequests).set({ resultLabel: result.label, resultLink: result.link }).where(eq(sigRequests.id, r.id));
      await tx.insert(sigRequestEvents).values({
        requestId: r.id,
        kind: 'ACTION',
        comment: `${a.label}${result ? `: ${result.label}` : ''}`,
        actorId: ctx.user.id || null,
        actorEmail: ctx.actor.email,
      });
    }
    if (action?.kind === 'document') {
      const docId = await documentOfRequest(txCtx, env, r, def, input.to);
      await tx.insert(sigRequestEvents).values({
        requestId: r.id,
        kind: 'ATTACHMENT',
        comment: 'Constancia generada',
        documentId: docId,
        actorId: ctx.user.id || null,
        actorEmail: ctx.actor.email,
      });
    }
    if (action?.kind === 'notify' && r.requesterId && r.requesterId !== ctx.user.id) {
      await notifyUsers({
        db: tx,
        userIds: [r.requesterId],
        type: 'success',
        title: `Solicitud ${r.number}: ${stateLabel(def, input.to)}`,
        body: action.message || `${r.flowTitle}: ${applied.transition.label}.`,
        link: `/sig/item/${r.id}`,
      });
    }
    await notifyMove(
      tx,
      ctx,
      { ...req, flowTitle: r.flowTitle },
      def,
      input.to,
      `${applied.transition.label} (${stateLabel(def, input.to)})`,
    );
  });
  return getRequest(ctx, { id: r.id });
}

/** The folder of request documents (the institution's), created on first use. */
async function sigFolder(db: Db): Promise<number> {
  await db.insert(documentFolders).values({ name: 'Solicitudes (SIG)', entityId: null }).onConflictDoNothing();
  const [f] = await db
    .select({ id: documentFolders.id })
    .from(documentFolders)
    .where(and(isNull(documentFolders.parentId), sql`lower(${documentFolders.name}) = lower('Solicitudes (SIG)')`));
  return f.id;
}

/** A context for the document library on a file of a request the caller already reached through sig-items. */
const libraryContext = (ctx: RequestContext) =>
  createContext({ db: ctx.db, user: ctx.user, actor: ctx.actor, sessionId: ctx.sessionId, scope: 'ALL' });

async function documentOfRequest(ctx: RequestContext, env: TransitionEnv, r: Row, def: FlowDefinition, to: string) {
  const data = r.data as Record<string, unknown>;
  const [form] = await ctx.db.select().from(wfFormVersions).where(eq(wfFormVersions.id, r.formVersionId));
  const props = ((form.schema as { properties?: Record<string, { title?: string }> }).properties ?? {}) as Record<
    string,
    { title?: string }
  >;
  const rows = Object.entries(data)
    .filter(([, v]) => typeof v !== 'object')
    .map(([k, v]) => [props[k]?.title ?? k, String(v)]);
  const pdf = await generateReportPdf(
    ctx,
    {
      kind: 'sig-constancia',
      title: `${r.flowTitle} — ${r.number}`,
      filters: [
        { label: 'Solicitud', value: r.number },
        { label: 'Estado', value: stateLabel(def, to) },
      ],
      tables: [{ headers: ['Dato', 'Valor'], rows }],
    },
    { fallbackInstitution: env.appTitle },
  );
  const doc = await addDocument(libraryContext(ctx), env.files, {
    folderId: await sigFolder(ctx.db),
    title: `Constancia ${r.number}`,
    docType: 'CONSTANCIA',
    sourceType: SIG_ENTITY_TYPE,
    sourceId: r.id,
    file: { bytes: new Uint8Array(pdf.pdf), filename: `constancia-${r.number}.pdf` },
  });
  return doc.id;
}

/** A comment on the timeline. Callers: sig-items READ (anyone who reaches the request may comment). */
export async function addComment(ctx: RequestContext, input: { id: number; comment: string }) {
  const r = await requestRow(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    await tx.insert(sigRequestEvents).values({
      requestId: r.id,
      kind: 'COMMENT',
      comment: input.comment,
      actorId: ctx.user.id || null,
      actorEmail: ctx.actor.email,
    });
    await ctx.audit(
      {
        action: 'COMMENT',
        entityType: SIG_ENTITY_TYPE,
        entityId: r.id,
        after: { comment: input.comment },
        scopeEntityId: r.entityId,
      },
      tx,
    );
  });
  return getRequest(ctx, { id: r.id });
}

/**
 * Stores a file in the document library's request folder: on a request (`requestId`, shown in its
 * timeline) or, before the request exists, as the caller's upload for a file field of the form.
 * Callers: sig-items CREATE (upload) and sig-items READ (attachment of a request in scope).
 */
export async function uploadFile(
  ctx: RequestContext,
  files: FileStore,
  input: { requestId?: number; filename: string; bytes: Uint8Array },
) {
  const r = input.requestId ? await requestRow(ctx, input.requestId) : null;
  const lib = libraryContext(ctx);
  const doc = await addDocument(lib, files, {
    folderId: await sigFolder(ctx.db),
    title: input.filename.slice(0, 200),
    docType: 'ADJUNTO',
    sourceType: r ? SIG_ENTITY_TYPE : 'sig_upload',
    sourceId: r?.id,
    file: { bytes: input.bytes, filename: input.filename },
  });
  if (r) {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(sigRequestEvents).values({
        requestId: r.id,
        kind: 'ATTACHMENT',
        documentId: doc.id,
        actorId: ctx.user.id || null,
        actorEmail: ctx.actor.email,
      });
      await ctx.audit(
        {
          action: 'ATTACH',
          entityType: SIG_ENTITY_TYPE,
          entityId: r.id,
          after: { documentId: doc.id, filename: input.filename },
          scopeEntityId: r.entityId,
        },
        tx,
      );
    });
  }
  return { documentId: doc.id, filename: input.filename };
}

/** A document of a request (an attachment, a file field, a generated constancia). Callers: sig-items READ. */
export async function requestDocument(ctx: RequestContext, files: FileStore, input: { id: number; documentId: number }) {
  const r = await requestRow(ctx, input.id);
  const [d] = await ctx.db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, input.documentId), eq(documents.sourceType, SIG_ENTITY_TYPE), eq(documents.sourceId, r.id)));
  if (!d) throw new AppError('NOT_FOUND', 'El documento no pertenece a la solicitud.');
  return documentContent(libraryContext(ctx), files, d.id);
}

/** The home queue: requests waiting for the user (role or requester), within sig-items UPDATE scope. */
export async function waitingCount(ctx: RequestContext): Promise<number> {
  const roleIds = await roleIdsOf(ctx.db, ctx.user.id);
  const [{ n }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sigRequests)
    .innerJoin(wfFlowVersions, eq(wfFlowVersions.id, sigRequests.flowVersionId))
    .where(and(waitingFor(ctx.user.id, roleIds), ctx.inScope(sigRequests.entityId)));
  return Number(n);
}
