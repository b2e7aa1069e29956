import {
  AppError,
  type DefinitionProblem,
  detail,
  type FlowDefinition,
  type FormField,
  msg,
  requestNumber,
  type SigRequestCreate,
} from '@aporta/domain';
import { and, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  documents,
  municipalEntities,
  sigRequestEvents,
  sigRequests,
  wfFlows,
  wfFlowVersions,
  wfFormVersions,
} from '../../db/schema/index.ts';
import { type RequestContext, routeScope } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { isEntityInScope } from '../../platform/scope.ts';
import { addDocument } from '../documents/filing.ts';
import { documentContent } from '../documents/library.ts';
import { getRequest } from './request-detail.ts';
import { dueFor, requestRow, SIG_ENTITY_TYPE, stateLabel } from './request-list.ts';
import { catalogRows } from './request-options.ts';
import { libraryContext, notifyMove, sigFolder } from './request-transition.ts';
import { validateFormData } from './validate.ts';

/**
 * Workflow requests (SIG) as a requester works them: creating one from a published form, changing its data
 * while its state allows, comments, attached files and documents.
 */

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
  const bad: DefinitionProblem[] = [];
  for (const f of fields) {
    const v = data[f.name];
    if (v === undefined) continue;
    if (f.type === 'entity') {
      const [e] = await ctx.db
        .select({ id: municipalEntities.id })
        .from(municipalEntities)
        .where(eq(municipalEntities.id, Number(v)));
      if (!e) bad.push({ path: `data.${f.name}`, ...detail(msg('workflow.fieldEntityMissing', { label: f.label })) });
    }
    if (f.type === 'select' && f.catalog) {
      const [x] = await catalogRows(ctx.db, f.catalog, String(v));
      if (!x)
        bad.push({ path: `data.${f.name}`, ...detail(msg('workflow.fieldNotInCatalog', { label: f.label, value: String(v) })) });
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
      if (!d) bad.push({ path: `data.${f.name}`, ...detail(msg('workflow.fieldFileNotOwn', { label: f.label })) });
      else files.push(d.id);
    }
  }
  if (bad.length)
    throw new AppError('VALIDATION', msg('workflow.problemList', { problems: bad.map((b) => b.message).join(' ') }), bad);
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
    throw new AppError('VALIDATION', msg('workflow.flowNotPublishedField'), [
      { path: 'flowId', ...detail(msg('workflow.choosePublishedFlow')) },
    ]);
  }
  const [form] = await ctx.db
    .select()
    .from(wfFormVersions)
    .where(and(eq(wfFormVersions.formId, flow.formId), eq(wfFormVersions.state, 'PUBLICADA')))
    .orderBy(desc(wfFormVersions.version))
    .limit(1);
  if (!form) throw new AppError('CONFLICT', msg('workflow.formNotPublished'));
  const scope = routeScope(ctx);
  const entityId = input.entityId ?? null;
  if (entityId == null && scope !== 'ALL') {
    throw new AppError('VALIDATION', msg('workflow.entityRequiredField'), [
      { path: 'entityId', ...detail(msg('workflow.chooseEntity')) },
    ]);
  }
  if (entityId != null && !(await isEntityInScope(ctx, entityId))) {
    throw new AppError('VALIDATION', msg('workflow.entityOutOfScopeField'), [
      { path: 'entityId', ...detail(msg('workflow.entityOutOfScope')) },
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
      null,
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
    throw new AppError('CONFLICT', msg('workflow.requestChangedWhileEditing'));
  }
  if (r.closedAt || !def.states.find((s) => s.key === r.state)?.editable) {
    throw new AppError('CONFLICT', msg('workflow.requestNotEditable', { state: stateLabel(def, r.state) }));
  }
  if (r.requesterId !== ctx.user.id) throw new AppError('FORBIDDEN', msg('workflow.requesterOnlyEdits'));
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
    if (!moved) throw new AppError('CONFLICT', msg('workflow.requestChangedWhileEditing'));
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
  if (!d) throw new AppError('NOT_FOUND', msg('workflow.documentNotInRequest'));
  return documentContent(libraryContext(ctx), files, d.id);
}
