import {
  conditionHolds,
  type FlowDefinition,
  type FlowTransition,
  type FormField,
  type Scope,
  type SigEvent,
  type SigRequestDetail,
  scopeRank,
} from '@aporta/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { documents, documentVersions, roles, sigRequestEvents, users, wfFormVersions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { entityInScope } from '../../platform/scope.ts';
import { findTransitionHistory } from '../../platform/transitions.ts';
import { currentVersion } from '../documents/library.ts';
import { roleIdsOf } from './flows.ts';
import { machineOf, requestRow, SIG_ENTITY_TYPE, stateLabel, toRequest } from './request-list.ts';

/** One workflow request as its screen shows it: data, the steps the user may take, who else may, its timeline and files. */

/** Users who may take `t` on a request: holders of its role whose sig-items UPDATE reaches the entity, or the requester. */
export async function actorsOf(db: Db, t: FlowTransition, req: { entityId: number | null; requesterId: number | null }) {
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
