import {
  AppError,
  conditionHolds,
  type conditionOps,
  decimalToCents,
  type FlowCondition,
  type FlowDefinition,
  formatCui,
  formatDay,
  formatMoney,
  isFinalFlowState,
  type MessageKey,
  msg,
} from '@aporta/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documentFolders, roles, sigRequestEvents, sigRequests, wfFormVersions } from '../../db/schema/index.ts';
import { createContext, type RequestContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { formatGuatemalaDateTime, generateReportPdf } from '../../platform/pdf.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { addDocument } from '../documents/filing.ts';
import { notifyUsers } from '../notifications/service.ts';
import { moduleAction } from './actions.ts';
import { roleIdsOf } from './flows.ts';
import { actorsOf, getRequest } from './request-detail.ts';
import { dueFor, machineOf, type Row, requestRow, SIG_ENTITY_TYPE, stateLabel } from './request-list.ts';

/**
 * A request's move through its flow (transitionRequest) and what a move does: notify who acts next, file the
 * request as a PDF in Documentos, run a module's action, all in the move's transaction.
 */

/**
 * Notifies who is now expected to act on the request (assignment) and the requester of the move, in words a
 * person would write: the state reached by its name, the step taken quoted as a name (`step`: the
 * transition's label, null when the request was just filed), never "Aprobar por …".
 */
export async function notifyMove(
  tx: Db,
  ctx: RequestContext,
  req: { id: number; number: string; entityId: number | null; requesterId: number | null; flowTitle: string },
  def: FlowDefinition,
  state: string,
  step: string | null,
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
      title: `Solicitud ${req.number} espera su acción (${stateLabel(def, state)})`,
      body: `${req.flowTitle}: la solicitud le fue asignada.`,
      link,
      // Issue 29: who must act now also hears of it by mail.
      mail: { event: 'workflow.assigned', params: { request: req.number, flow: req.flowTitle, step: stateLabel(def, state) } },
    });
  }
  if (req.requesterId && req.requesterId !== ctx.user.id && !expected.has(req.requesterId)) {
    await notifyUsers({
      db: tx,
      userIds: [req.requesterId],
      type: 'info',
      title: step ? `Solicitud ${req.number}: ${stateLabel(def, state)}` : `Solicitud ${req.number} presentada`,
      body: step ? `${req.flowTitle}: se realizó el paso «${step}» (${ctx.actor.email}).` : `${req.flowTitle}.`,
      link,
    });
  }
}

export interface TransitionEnv {
  files: FileStore;
  appTitle: string;
  /** Where a reader checks a generated constancia's code (its QR): the public verification page of the request's origin. */
  verifyUrl?: (code: string) => string;
}

/** A field of the request's form as its JSON Schema property: its title, and what its value is (money, a date, a CUI, a choice). */
interface FieldSchema {
  title?: string;
  type?: string;
  format?: string;
  oneOf?: { const: unknown; title?: string }[];
}

/** A request's value as printed on paper: money `Q 1,234.50`, dates dd/mm/aaaa, CUIs grouped, a choice by its label, numbers grouped. */
export function printedValue(p: FieldSchema | undefined, v: unknown): string {
  if (v == null || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'Sí' : 'No';
  const choice = p?.oneOf?.find((o) => o.const === v);
  if (choice?.title) return choice.title;
  if (typeof v === 'number') return p?.type === 'integer' ? String(v) : v.toLocaleString('en-US', { maximumFractionDigits: 6 });
  const s = String(v);
  if (p?.format === 'money' && /^-?\d+(\.\d{1,2})?$/.test(s)) return formatMoney(decimalToCents(s));
  if (p?.format === 'cui' && /^\d{13}$/.test(s)) return formatCui(s);
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return formatDay(s);
  if (/^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s))) return formatGuatemalaDateTime(new Date(s));
  return s;
}

/** The refusal of a transition whose condition does not hold on the request's data, by the condition's operator. */
const conditionKeys = {
  eq: 'workflow.conditionRequiresEq',
  neq: 'workflow.conditionRequiresNeq',
  gt: 'workflow.conditionRequiresGt',
  gte: 'workflow.conditionRequiresGte',
  lt: 'workflow.conditionRequiresLt',
  lte: 'workflow.conditionRequiresLte',
} as const satisfies Record<Exclude<(typeof conditionOps)[number], 'filled'>, MessageKey>;

function conditionRefusal(label: string, c: FlowCondition) {
  return c.op === 'filled'
    ? msg('workflow.conditionRequiresFilled', { label, field: c.field })
    : msg(conditionKeys[c.op], { label, field: c.field, value: String(c.value) });
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
      if (t.requester) throw new AppError('FORBIDDEN', msg('workflow.transitionRequesterOnly', { label: t.label }));
      const [role] = await ctx.db
        .select({ name: roles.name })
        .from(roles)
        .where(eq(roles.id, t.roleId ?? 0));
      throw new AppError(
        'FORBIDDEN',
        role
          ? msg('workflow.transitionRoleOnly', { label: t.label, role: role.name })
          : msg('workflow.transitionDeletedRoleOnly', { label: t.label }),
      );
    }
    if (!conditionHolds(t.condition, r.data as Record<string, unknown>)) {
      throw new AppError('CONFLICT', conditionRefusal(t.label, t.condition!));
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
      if (!a) throw new AppError('CONFLICT', msg('workflow.moduleActionGone', { action: String(action.module) }));
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
        body: action.message || `${r.flowTitle}: se realizó el paso «${applied.transition.label}».`,
        link: `/sig/item/${r.id}`,
      });
    }
    await notifyMove(tx, ctx, { ...req, flowTitle: r.flowTitle }, def, input.to, applied.transition.label);
  });
  return getRequest(ctx, { id: r.id });
}

/** The folder of request documents (the institution's), created on first use. */
export async function sigFolder(db: Db): Promise<number> {
  await db.insert(documentFolders).values({ name: 'Solicitudes (SIG)', entityId: null }).onConflictDoNothing();
  const [f] = await db
    .select({ id: documentFolders.id })
    .from(documentFolders)
    .where(and(isNull(documentFolders.parentId), sql`lower(${documentFolders.name}) = lower('Solicitudes (SIG)')`));
  return f.id;
}

/** A context for the document library on a file of a request the caller already reached through sig-items. */
export const libraryContext = (ctx: RequestContext) =>
  createContext({ db: ctx.db, user: ctx.user, actor: ctx.actor, sessionId: ctx.sessionId, scope: 'ALL' });

async function documentOfRequest(ctx: RequestContext, env: TransitionEnv, r: Row, def: FlowDefinition, to: string) {
  const data = r.data as Record<string, unknown>;
  const [form] = await ctx.db.select().from(wfFormVersions).where(eq(wfFormVersions.id, r.formVersionId));
  const props = ((form.schema as { properties?: Record<string, FieldSchema> }).properties ?? {}) as Record<string, FieldSchema>;
  const rows = Object.entries(data)
    .filter(([, v]) => typeof v !== 'object' || v === null)
    .map(([k, v]) => [props[k]?.title ?? k, printedValue(props[k], v)]);
  // A constancia is a document (its own data under the title, no filters heading), with its verification QR.
  const pdf = await generateReportPdf(
    ctx,
    {
      kind: 'sig-constancia',
      title: `Constancia: ${r.flowTitle}`,
      layout: 'document',
      filters: [],
      fields: [
        { label: 'Solicitud', value: r.number },
        ...(r.entityName ? [{ label: 'Entidad', value: r.entityName }] : []),
        ...(r.requesterName ? [{ label: 'Solicitante', value: r.requesterName }] : []),
        { label: 'Presentada el', value: formatGuatemalaDateTime(r.createdAt) },
        { label: 'Estado', value: stateLabel(def, to) },
      ],
      tables: [{ headers: ['Dato', 'Valor'], rows, widths: ['auto', '*'] }],
    },
    { fallbackInstitution: env.appTitle, verifyUrl: env.verifyUrl },
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
