import {
  AppError,
  detail,
  type FlowDefinition,
  type FlowDetail,
  type FlowSave,
  type FlowSummary,
  type FlowVersion,
  type FormField,
  type FormVersionState,
  flowProblems,
  type ListQuery,
  msg,
  SYSTEM_INSTITUTION,
} from '@aporta/domain';
import { and, asc, desc, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, sigRequests, wfFlows, wfFlowVersions, wfForms, wfFormVersions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { likePattern, listPage } from '../../platform/list.ts';
import { settingsAt } from '../settings/service.ts';
import { moduleActions } from './actions.ts';

type FlowVersionRow = typeof wfFlowVersions.$inferSelect;

/**
 * The outer flow's id, always qualified: in a one-table select (the list's count) Drizzle writes
 * `${wfFlows.id}` as a bare `"id"`, which inside a subquery names the subquery's own row.
 */
const flowId = sql`${wfFlows}.${sql.identifier('id')}`;
const latest = sql<number>`(select max(v.version) from ${wfFlowVersions} v where v.flow_id = ${flowId})`;
const latestState = sql<FormVersionState>`(select v.state from ${wfFlowVersions} v where v.flow_id = ${flowId} order by v.version desc limit 1)`;
const published = sql<
  number | null
>`(select v.version from ${wfFlowVersions} v where v.flow_id = ${flowId} and v.state = 'PUBLICADA' order by v.version desc limit 1)`;
const openRequests = sql<number>`(select count(*)::int from ${sigRequests} r where r.flow_id = ${flowId} and r.closed_at is null)`;

const summaryColumns = {
  id: wfFlows.id,
  title: wfFlows.title,
  description: wfFlows.description,
  formId: wfFlows.formId,
  formTitle: wfForms.title,
  updatedAt: wfFlows.updatedAt,
  latestVersion: latest,
  latestState,
  publishedVersion: published,
  openRequests,
};
type SummaryRow = {
  id: number;
  title: string;
  description: string;
  formId: number;
  formTitle: string;
  updatedAt: Date;
  latestVersion: number;
  latestState: FormVersionState;
  publishedVersion: number | null;
  openRequests: number;
};

const toSummary = (r: SummaryRow): FlowSummary => ({
  id: r.id,
  title: r.title,
  description: r.description,
  formId: r.formId,
  formTitle: r.formTitle,
  latestVersion: Number(r.latestVersion ?? 0),
  latestState: r.latestState ?? 'BORRADOR',
  publishedVersion: r.publishedVersion == null ? null : Number(r.publishedVersion),
  openRequests: Number(r.openRequests ?? 0),
  updatedAt: new Date(r.updatedAt).toISOString(),
});

/** Flows. Callers: flow READ. */
export async function findFlows(ctx: RequestContext, query: ListQuery & { state?: FormVersionState }) {
  const where = and(
    query.q ? ilike(wfFlows.title, likePattern(query.q)) : undefined,
    query.state ? sql`${latestState} = ${query.state}` : undefined,
  );
  const page = await listPage(ctx.db, {
    query,
    sortable: { id: wfFlows.id, title: wfFlows.title, updatedAt: wfFlows.updatedAt },
    defaultSort: '-updatedAt',
    rows: (c) =>
      ctx.db
        .select(summaryColumns)
        .from(wfFlows)
        .innerJoin(wfForms, eq(wfForms.id, wfFlows.formId))
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: wfFlows.id }).from(wfFlows).where(where),
  });
  return { ...page, items: page.items.map(toSummary) };
}

const toVersion = (v: FlowVersionRow, requests: number): FlowVersion => ({
  id: v.id,
  version: v.version,
  state: v.state,
  definition: v.definition as FlowDefinition,
  createdAt: v.createdAt.toISOString(),
  publishedAt: v.publishedAt?.toISOString() ?? null,
  requests,
});

export async function getFlow(ctx: RequestContext, input: { id: number }): Promise<FlowDetail> {
  const [f] = await ctx.db
    .select(summaryColumns)
    .from(wfFlows)
    .innerJoin(wfForms, eq(wfForms.id, wfFlows.formId))
    .where(eq(wfFlows.id, input.id));
  if (!f) throw new AppError('NOT_FOUND', msg('workflow.flowNotFound'));
  const versions = await ctx.db
    .select({
      v: wfFlowVersions,
      requests: sql<number>`(select count(*)::int from ${sigRequests} r where r.flow_version_id = ${wfFlowVersions}.${sql.identifier('id')} and r.closed_at is null)`,
    })
    .from(wfFlowVersions)
    .where(eq(wfFlowVersions.flowId, input.id))
    .orderBy(desc(wfFlowVersions.version));
  return { ...toSummary(f as SummaryRow), versions: versions.map((r) => toVersion(r.v, Number(r.requests))) };
}

async function formExists(db: Db, formId: number) {
  const [f] = await db.select({ id: wfForms.id }).from(wfForms).where(eq(wfForms.id, formId));
  if (!f)
    throw new AppError('VALIDATION', msg('workflow.formNotFoundField'), [
      { path: 'formId', ...detail(msg('workflow.formNotFound')) },
    ]);
}

/** A new flow with its first version (a draft). Drafts may be incomplete; publishing validates. Callers: flow CREATE. */
export async function createFlow(ctx: RequestContext, input: FlowSave) {
  await formExists(ctx.db, input.formId);
  const id = await ctx.db.transaction(async (tx) => {
    const [flow] = await tx
      .insert(wfFlows)
      .values({ title: input.title, description: input.description ?? '', formId: input.formId, createdBy: ctx.user.id || null })
      .returning();
    await tx
      .insert(wfFlowVersions)
      .values({ flowId: flow.id, version: 1, definition: input.definition, createdBy: ctx.user.id || null });
    await ctx.audit(
      { action: 'CREATE', entityType: 'wf_flow', entityId: flow.id, after: { title: input.title, version: 1 } },
      tx,
    );
    return flow.id;
  });
  return getFlow(ctx, { id });
}

/** Saves the latest draft, or opens a new draft version after a published one. Callers: flow UPDATE. */
export async function saveFlow(ctx: RequestContext, input: { id: number; data: FlowSave }) {
  await formExists(ctx.db, input.data.formId);
  await ctx.db.transaction(async (tx) => {
    const [flow] = await tx.select().from(wfFlows).where(eq(wfFlows.id, input.id)).for('update');
    if (!flow) throw new AppError('NOT_FOUND', msg('workflow.flowNotFound'));
    if (flow.formId !== input.data.formId) {
      const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(sigRequests).where(eq(sigRequests.flowId, input.id));
      if (Number(used.n) > 0) {
        const refusal = msg('workflow.flowFormChangeWithRequests');
        throw new AppError('CONFLICT', refusal, [{ path: 'formId', ...detail(refusal) }]);
      }
    }
    const [last] = await tx
      .select()
      .from(wfFlowVersions)
      .where(eq(wfFlowVersions.flowId, input.id))
      .orderBy(desc(wfFlowVersions.version))
      .limit(1);
    let version = last.version;
    if (last.state === 'BORRADOR') {
      await tx.update(wfFlowVersions).set({ definition: input.data.definition }).where(eq(wfFlowVersions.id, last.id));
    } else {
      version += 1;
      await tx
        .insert(wfFlowVersions)
        .values({ flowId: input.id, version, definition: input.data.definition, createdBy: ctx.user.id || null });
    }
    await tx
      .update(wfFlows)
      .set({
        title: input.data.title,
        description: input.data.description ?? flow.description,
        formId: input.data.formId,
        updatedAt: new Date(),
      })
      .where(eq(wfFlows.id, input.id));
    await ctx.audit(
      {
        action: 'UPDATE',
        entityType: 'wf_flow',
        entityId: input.id,
        before: { title: flow.title },
        after: { title: input.data.title, version },
      },
      tx,
    );
  });
  return getFlow(ctx, { id: input.id });
}

/** The field names of the form a flow uses (its published version, else its latest). */
async function formFieldNames(db: Db, formId: number): Promise<string[] | null> {
  const [v] = await db
    .select({ schema: wfFormVersions.schema })
    .from(wfFormVersions)
    .where(eq(wfFormVersions.formId, formId))
    .orderBy(sql`${wfFormVersions.state} = 'PUBLICADA' desc`, desc(wfFormVersions.version))
    .limit(1);
  const props = (v?.schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : null;
}

/**
 * Validates a flow definition against its form, the roles and the module actions registered by code:
 * the problems listed, or none.
 */
export async function checkFlow(db: Db, formId: number, def: FlowDefinition) {
  const roleRows = await db.select({ id: roles.id }).from(roles);
  return flowProblems(def, {
    formFields: await formFieldNames(db, formId),
    moduleActions: moduleActions().map((a) => a.key),
    roleIds: roleRows.map((r) => r.id),
  });
}

/**
 * Publishes a draft version of a flow after validating it (reachable final state, no orphan). The open
 * requests of the flow's older versions move onto it; when one of them sits in a state the new version
 * no longer has, nothing is published and the answer lists those requests (409). Callers: flow APPROVE.
 */
export async function publishFlow(ctx: RequestContext, input: { id: number; version: number }) {
  await ctx.db.transaction(async (tx) => {
    const [flow] = await tx.select().from(wfFlows).where(eq(wfFlows.id, input.id)).for('update');
    if (!flow) throw new AppError('NOT_FOUND', msg('workflow.flowNotFound'));
    const [v] = await tx
      .select()
      .from(wfFlowVersions)
      .where(and(eq(wfFlowVersions.flowId, input.id), eq(wfFlowVersions.version, input.version)));
    if (!v) throw new AppError('NOT_FOUND', msg('workflow.flowVersionNotFound'));
    if (v.state !== 'BORRADOR')
      throw new AppError(
        'CONFLICT',
        msg(v.state === 'PUBLICADA' ? 'workflow.versionAlreadyPublished' : 'workflow.versionAlreadyRetired', {
          version: v.version,
        }),
      );
    const def = v.definition as FlowDefinition;
    const problems = await checkFlow(tx as unknown as Db, flow.formId, def);
    if (problems.length) {
      throw new AppError(
        'VALIDATION',
        msg('workflow.flowNotPublishable', { problems: problems.map((p) => p.message).join(' ') }),
        problems,
      );
    }
    const keys = def.states.map((s) => s.key);
    const stranded = await tx
      .select({ number: sigRequests.number, state: sigRequests.state })
      .from(sigRequests)
      .where(and(eq(sigRequests.flowId, input.id), isNull(sigRequests.closedAt), sql`${sigRequests.state} not in ${keys}`))
      .orderBy(asc(sigRequests.id))
      .limit(200);
    if (stranded.length) {
      const list = stranded.map((r) => `${r.number} (${r.state})`).join(', ');
      throw new AppError(
        'CONFLICT',
        msg('workflow.flowStatesInUse', { version: v.version, requests: list }),
        stranded.map((r) => ({
          path: 'states',
          ...detail(msg('workflow.requestInState', { number: r.number, state: r.state })),
        })),
      );
    }
    await tx
      .update(wfFlowVersions)
      .set({ state: 'RETIRADA' })
      .where(and(eq(wfFlowVersions.flowId, input.id), eq(wfFlowVersions.state, 'PUBLICADA')));
    await tx.update(wfFlowVersions).set({ state: 'PUBLICADA', publishedAt: new Date() }).where(eq(wfFlowVersions.id, v.id));
    const moved = await tx
      .update(sigRequests)
      .set({ flowVersionId: v.id, updatedAt: new Date() })
      .where(and(eq(sigRequests.flowId, input.id), isNull(sigRequests.closedAt)))
      .returning({ id: sigRequests.id });
    await tx.update(wfFlows).set({ updatedAt: new Date() }).where(eq(wfFlows.id, input.id));
    await ctx.audit(
      {
        action: 'PUBLISH',
        entityType: 'wf_flow',
        entityId: input.id,
        before: { state: 'BORRADOR' },
        after: { version: v.version, state: 'PUBLICADA', movedRequests: moved.length },
      },
      tx,
    );
  });
  return getFlow(ctx, { id: input.id });
}

/** Validates the latest draft without publishing: the designer's "Validar". Callers: flow READ. */
export async function validateFlow(ctx: RequestContext, input: { formId: number; definition: FlowDefinition }) {
  return { problems: await checkFlow(ctx.db, input.formId, input.definition) };
}

/** Deletes a flow with no request. Callers: flow DELETE. */
export async function deleteFlow(ctx: RequestContext, input: { id: number }) {
  await ctx.db.transaction(async (tx) => {
    const [f] = await tx.select().from(wfFlows).where(eq(wfFlows.id, input.id));
    if (!f) throw new AppError('NOT_FOUND', msg('workflow.flowNotFound'));
    const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(sigRequests).where(eq(sigRequests.flowId, input.id));
    if (Number(used.n) > 0) throw new AppError('CONFLICT', msg('workflow.flowHasRequests', { count: Number(used.n) }));
    await tx.delete(wfFlows).where(eq(wfFlows.id, input.id));
    await ctx.audit({ action: 'DELETE', entityType: 'wf_flow', entityId: input.id, before: { title: f.title } }, tx);
  });
}

/** What the designer offers: roles, forms with their fields, module actions, the default SLA. Callers: flow READ. */
export async function flowOptions(ctx: RequestContext) {
  const roleRows = await ctx.db.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.name));
  const forms = await ctx.db.select({ id: wfForms.id, title: wfForms.title }).from(wfForms).orderBy(asc(wfForms.title));
  const versions = forms.length
    ? await ctx.db
        .select({
          formId: wfFormVersions.formId,
          version: wfFormVersions.version,
          state: wfFormVersions.state,
          fields: wfFormVersions.fields,
          schema: wfFormVersions.schema,
        })
        .from(wfFormVersions)
        .where(
          inArray(
            wfFormVersions.formId,
            forms.map((f) => f.id),
          ),
        )
        .orderBy(desc(wfFormVersions.version))
    : [];
  const settings = await settingsAt(ctx.db, new Date().toISOString().slice(0, 10));
  return {
    roles: roleRows,
    forms: forms.map((f) => {
      const published = versions.find((x) => x.formId === f.id && x.state === 'PUBLICADA');
      const last = versions.find((x) => x.formId === f.id);
      const v = published ?? last;
      const fields = (v?.fields as FormField[] | null) ?? null;
      const props = Object.entries((v?.schema as { properties?: Record<string, { title?: string }> })?.properties ?? {});
      return {
        id: f.id,
        title: f.title,
        fields: fields
          ? fields.filter((x) => x.type !== 'section').map((x) => ({ name: x.name, label: x.label }))
          : props.map(([name, p]) => ({ name, label: p.title ?? name })),
        publishedVersion: published?.version ?? null,
        latestVersion: last?.version ?? 0,
        latestState: last?.state ?? 'BORRADOR',
      };
    }),
    moduleActions: moduleActions(),
    defaultSlaDays: settings.values['sig.slaDays'],
  };
}

/** Role ids the user holds (own and through institutions); null for SISTEMA, who holds them all. */
export async function roleIdsOf(db: Db, userId: number): Promise<number[] | null> {
  const r = await db.execute(sql`
    select exists (select 1 from user_institutions ui join institutions i on i.id = ui.institution_id
                    where ui.user_id = ${userId} and i.code = ${SYSTEM_INSTITUTION}) as system,
           coalesce((select array_agg(distinct role_id) from (
              select role_id from user_roles where user_id = ${userId}
              union select ir.role_id from institution_roles ir join user_institutions ui on ui.institution_id = ir.institution_id
                     where ui.user_id = ${userId}) x), '{}') as ids`);
  const row = (r as unknown as { rows: { system: boolean; ids: number[] | string }[] }).rows[0];
  if (row.system) return null;
  const ids =
    typeof row.ids === 'string' ? row.ids.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number) : row.ids.map(Number);
  return ids;
}
