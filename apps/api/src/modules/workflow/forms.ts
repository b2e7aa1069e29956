import {
  AppError,
  compileForm,
  detail,
  type FormDetail,
  type FormField,
  type FormSave,
  type FormSummary,
  type FormVersion,
  type FormVersionState,
  type ListQuery,
  msg,
} from '@aporta/domain';
import { and, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sigRequests, wfFlows, wfForms, wfFormVersions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { likePattern, listPage } from '../../platform/list.ts';
import { schemaProblem } from './validate.ts';

type VersionRow = typeof wfFormVersions.$inferSelect;

/**
 * The outer form's id, always qualified: in a one-table select Drizzle writes `${wfForms.id}` as a bare
 * `"id"`, which inside a subquery names the subquery's own row (`v.id`), so every form showed the state
 * of some other form's version (a draft listed as PUBLICADA).
 */
const formId = sql`${wfForms}.${sql.identifier('id')}`;
const latest = sql<number>`(select max(v.version) from ${wfFormVersions} v where v.form_id = ${formId})`;
const latestState = sql<FormVersionState>`(select v.state from ${wfFormVersions} v where v.form_id = ${formId} order by v.version desc limit 1)`;
const published = sql<
  number | null
>`(select v.version from ${wfFormVersions} v where v.form_id = ${formId} and v.state = 'PUBLICADA' order by v.version desc limit 1)`;

const summaryColumns = {
  id: wfForms.id,
  title: wfForms.title,
  description: wfForms.description,
  updatedAt: wfForms.updatedAt,
  latestVersion: latest,
  latestState,
  publishedVersion: published,
};

const toSummary = (r: {
  id: number;
  title: string;
  description: string;
  updatedAt: Date;
  latestVersion: number;
  latestState: FormVersionState;
  publishedVersion: number | null;
}): FormSummary => ({
  id: r.id,
  title: r.title,
  description: r.description,
  latestVersion: Number(r.latestVersion ?? 0),
  latestState: r.latestState ?? 'BORRADOR',
  publishedVersion: r.publishedVersion == null ? null : Number(r.publishedVersion),
  updatedAt: new Date(r.updatedAt).toISOString(),
});

/** The forms library. Forms are the institution's, not entity data. Callers: forms READ. */
export async function findForms(ctx: RequestContext, query: ListQuery & { state?: FormVersionState }) {
  const where = and(
    query.q ? ilike(wfForms.title, likePattern(query.q)) : undefined,
    query.state ? sql`${latestState} = ${query.state}` : undefined,
  );
  const page = await listPage(ctx.db, {
    query,
    sortable: { id: wfForms.id, title: wfForms.title, updatedAt: wfForms.updatedAt },
    defaultSort: '-updatedAt',
    rows: (c) =>
      ctx.db
        .select(summaryColumns)
        .from(wfForms)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: wfForms.id }).from(wfForms).where(where),
  });
  return { ...page, items: page.items.map(toSummary) };
}

const toVersion = (v: VersionRow, requests: number): FormVersion => ({
  id: v.id,
  version: v.version,
  state: v.state,
  fields: (v.fields as FormField[] | null) ?? null,
  schema: v.schema as Record<string, unknown>,
  uiSchema: v.uiSchema as Record<string, unknown>,
  createdAt: v.createdAt.toISOString(),
  publishedAt: v.publishedAt?.toISOString() ?? null,
  requests,
});

/**
 * A form with its versions. Its latest version, latest state and published version are read from the
 * same version rows it lists, so the answer of a save, the library's row and the detail agree.
 */
export async function getForm(ctx: RequestContext, input: { id: number }): Promise<FormDetail> {
  const [f] = await ctx.db.select(summaryColumns).from(wfForms).where(eq(wfForms.id, input.id));
  if (!f) throw new AppError('NOT_FOUND', msg('workflow.formNotFound'));
  const rows = await ctx.db
    .select({
      v: wfFormVersions,
      requests: sql<number>`(select count(*)::int from ${sigRequests} r where r.form_version_id = ${wfFormVersions}.${sql.identifier('id')})`,
    })
    .from(wfFormVersions)
    .where(eq(wfFormVersions.formId, input.id))
    .orderBy(desc(wfFormVersions.version));
  const versions = rows.map((r) => toVersion(r.v, Number(r.requests)));
  return {
    ...toSummary(f),
    latestVersion: versions[0]?.version ?? 0,
    latestState: versions[0]?.state ?? 'BORRADOR',
    publishedVersion: versions.find((v) => v.state === 'PUBLICADA')?.version ?? null,
    versions,
  };
}

/** The stored definition of a save: compiled from the builder's fields, or a JSON Schema checked against the meta-schema. */
function definitionOf(input: FormSave) {
  if (input.fields) {
    const compiled = compileForm(input.title, input.fields);
    return { fields: input.fields, ...compiled };
  }
  const schema = input.schema as Record<string, unknown>;
  const problem = schemaProblem(schema);
  if (problem) throw new AppError('VALIDATION', problem, [{ path: 'schema', ...detail(problem) }]);
  return { fields: null, schema, uiSchema: input.uiSchema ?? {} };
}

/** A new form with its first version (a draft). Callers: forms CREATE. */
export async function createForm(ctx: RequestContext, input: FormSave) {
  const def = definitionOf(input);
  const id = await ctx.db.transaction(async (tx) => {
    const [form] = await tx
      .insert(wfForms)
      .values({ title: input.title, description: input.description ?? '', createdBy: ctx.user.id || null })
      .returning();
    await tx.insert(wfFormVersions).values({ formId: form.id, version: 1, ...def, createdBy: ctx.user.id || null });
    await ctx.audit(
      { action: 'CREATE', entityType: 'wf_form', entityId: form.id, after: { title: input.title, version: 1 } },
      tx,
    );
    return form.id;
  });
  return getForm(ctx, { id });
}

/**
 * Saves a form's definition: the latest version when it is still a draft, otherwise a new draft
 * version (published versions never change: requests keep the version they were filled with).
 * Callers: forms UPDATE.
 */
export async function saveForm(ctx: RequestContext, input: { id: number; data: FormSave }) {
  const def = definitionOf(input.data);
  await ctx.db.transaction(async (tx) => {
    const [form] = await tx.select().from(wfForms).where(eq(wfForms.id, input.id)).for('update');
    if (!form) throw new AppError('NOT_FOUND', msg('workflow.formNotFound'));
    const [last] = await tx
      .select()
      .from(wfFormVersions)
      .where(eq(wfFormVersions.formId, input.id))
      .orderBy(desc(wfFormVersions.version))
      .limit(1);
    let version = last.version;
    if (last.state === 'BORRADOR') {
      await tx.update(wfFormVersions).set(def).where(eq(wfFormVersions.id, last.id));
    } else {
      version = last.version + 1;
      await tx.insert(wfFormVersions).values({ formId: input.id, version, ...def, createdBy: ctx.user.id || null });
    }
    await tx
      .update(wfForms)
      .set({ title: input.data.title, description: input.data.description ?? form.description, updatedAt: new Date() })
      .where(eq(wfForms.id, input.id));
    await ctx.audit(
      {
        action: 'UPDATE',
        entityType: 'wf_form',
        entityId: input.id,
        before: { title: form.title },
        after: { title: input.data.title, version },
      },
      tx,
    );
  });
  return getForm(ctx, { id: input.id });
}

async function versionRow(db: Db, formId: number, version: number) {
  const [v] = await db
    .select()
    .from(wfFormVersions)
    .where(and(eq(wfFormVersions.formId, formId), eq(wfFormVersions.version, version)));
  if (!v) throw new AppError('NOT_FOUND', msg('workflow.formVersionNotFound'));
  return v;
}

/** Publishes a draft version; the version published before it is retired. Callers: forms UPDATE. */
export async function publishForm(ctx: RequestContext, input: { id: number; version: number }) {
  await ctx.db.transaction(async (tx) => {
    const v = await versionRow(tx as unknown as Db, input.id, input.version);
    if (v.state !== 'BORRADOR') {
      throw new AppError(
        'CONFLICT',
        msg(v.state === 'PUBLICADA' ? 'workflow.versionAlreadyPublished' : 'workflow.versionAlreadyRetired', {
          version: v.version,
        }),
      );
    }
    await tx
      .update(wfFormVersions)
      .set({ state: 'RETIRADA' })
      .where(and(eq(wfFormVersions.formId, input.id), eq(wfFormVersions.state, 'PUBLICADA')));
    await tx.update(wfFormVersions).set({ state: 'PUBLICADA', publishedAt: new Date() }).where(eq(wfFormVersions.id, v.id));
    await tx.update(wfForms).set({ updatedAt: new Date() }).where(eq(wfForms.id, input.id));
    await ctx.audit(
      {
        action: 'PUBLISH',
        entityType: 'wf_form',
        entityId: input.id,
        before: { state: v.state },
        after: { version: v.version, state: 'PUBLICADA' },
      },
      tx,
    );
  });
  return getForm(ctx, { id: input.id });
}

/**
 * Retires a published version: no new request can use it (a flow of this form cannot take requests
 * until another version is published); requests filled with it keep it. Callers: forms UPDATE.
 */
export async function retireForm(ctx: RequestContext, input: { id: number; version: number }) {
  await ctx.db.transaction(async (tx) => {
    const v = await versionRow(tx as unknown as Db, input.id, input.version);
    if (v.state !== 'PUBLICADA') throw new AppError('CONFLICT', msg('workflow.versionNotPublished', { version: v.version }));
    await tx.update(wfFormVersions).set({ state: 'RETIRADA' }).where(eq(wfFormVersions.id, v.id));
    await tx.update(wfForms).set({ updatedAt: new Date() }).where(eq(wfForms.id, input.id));
    await ctx.audit(
      {
        action: 'RETIRE',
        entityType: 'wf_form',
        entityId: input.id,
        before: { state: 'PUBLICADA' },
        after: { version: v.version, state: 'RETIRADA' },
      },
      tx,
    );
  });
  return getForm(ctx, { id: input.id });
}

/** Deletes a form no flow uses and no request was filled with. Callers: forms DELETE. */
export async function deleteForm(ctx: RequestContext, input: { id: number }) {
  await ctx.db.transaction(async (tx) => {
    const [f] = await tx.select().from(wfForms).where(eq(wfForms.id, input.id));
    if (!f) throw new AppError('NOT_FOUND', msg('workflow.formNotFound'));
    const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(wfFlows).where(eq(wfFlows.formId, input.id));
    if (Number(used.n) > 0) {
      throw new AppError('CONFLICT', msg('workflow.formUsedByFlows', { count: Number(used.n) }));
    }
    await tx.delete(wfForms).where(eq(wfForms.id, input.id));
    await ctx.audit({ action: 'DELETE', entityType: 'wf_form', entityId: input.id, before: { title: f.title } }, tx);
  });
}

/** The published version of a form (what a new request is filled with). */
export async function publishedFormVersion(db: Db, formId: number) {
  const [v] = await db
    .select()
    .from(wfFormVersions)
    .where(and(eq(wfFormVersions.formId, formId), eq(wfFormVersions.state, 'PUBLICADA')))
    .orderBy(desc(wfFormVersions.version))
    .limit(1);
  return v as VersionRow | undefined;
}
