import {
  AppError,
  isMailPreferenceEvent,
  MAIL_DIGEST_EVENT,
  type MailTemplatePreview,
  type MailTemplatePreviewQuery,
  msg,
  OUTBOX_STATES,
  type OutboxEvent,
  type OutboxListQuery,
  type OutboxMessage,
  type OutboxRow,
  type OutboxState,
  type OutboxStatus,
} from '@aporta/domain';
import { and, asc, count, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { mailDigestItems, mailOutbox } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { ExportColumn } from '../../platform/export.ts';
import { keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { mailWakeups } from '../../platform/mail.ts';
import { MAIL_TEMPLATE_EXAMPLES, renderMailTemplate } from '../../platform/mail-templates.ts';

/**
 * «Correo saliente» (issue 29): the outbox as administrators read it (holders of `mail`, scope ALL: a message
 * is not data of one entity), its counts per state, a failed message sent again, and the templates' preview.
 * The rows are written by platform/mail.ts (`enqueueMail`) and sent by the dispatcher; nothing here sends.
 */

/** Guatemala keeps UTC−6 all year: a date filter covers that local day. */
const dayStart = (d: string) => new Date(`${d}T00:00:00-06:00`);
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 86_400_000);

const sortable = {
  id: mailOutbox.id,
  createdAt: mailOutbox.createdAt,
  state: mailOutbox.state,
  event: mailOutbox.event,
  attempts: mailOutbox.attempts,
};

/** The addresses of a message as one text, for the recipient filter and the search. */
const recipients = sql<string>`array_to_string(${mailOutbox.to}, ' ')`;

function whereOf(q: Partial<OutboxListQuery>): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (q.state) conds.push(eq(mailOutbox.state, q.state));
  if (q.event) conds.push(eq(mailOutbox.event, q.event));
  if (q.recipient) conds.push(ilike(recipients, likePattern(q.recipient)));
  if (q.from) conds.push(gte(mailOutbox.createdAt, dayStart(q.from)));
  if (q.to) conds.push(lt(mailOutbox.createdAt, nextDay(q.to)));
  if (q.q) {
    const p = likePattern(q.q);
    conds.push(or(ilike(mailOutbox.subject, p), ilike(recipients, p), ilike(mailOutbox.messageId, p)));
  }
  return conds.length ? and(...conds) : undefined;
}

/** The list's columns: everything but the content (text, HTML), with the digest that carried a DIGEST row. */
const rowColumns = {
  id: mailOutbox.id,
  event: mailOutbox.event,
  userId: mailOutbox.userId,
  to: mailOutbox.to,
  language: mailOutbox.language,
  subject: mailOutbox.subject,
  state: mailOutbox.state,
  attempts: mailOutbox.attempts,
  nextAttemptAt: mailOutbox.nextAttemptAt,
  lastError: mailOutbox.lastError,
  messageId: mailOutbox.messageId,
  createdAt: mailOutbox.createdAt,
  sentAt: mailOutbox.sentAt,
  digestId: mailDigestItems.digestId,
};
const selectRows = (ctx: RequestContext) =>
  ctx.db.select(rowColumns).from(mailOutbox).leftJoin(mailDigestItems, eq(mailDigestItems.outboxId, mailOutbox.id));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toRow = (r: RawRow): OutboxRow => ({
  id: r.id,
  event: r.event as OutboxEvent,
  userId: r.userId,
  to: r.to,
  language: r.language,
  subject: r.subject,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.nextAttemptAt.toISOString(),
  lastError: r.lastError,
  messageId: r.messageId,
  createdAt: r.createdAt.toISOString(),
  sentAt: iso(r.sentAt),
  digestId: r.digestId ?? null,
});

/** The outbox, newest first by default, filtered by state, event, recipient, day queued and a search. */
export async function findOutbox(ctx: RequestContext, query: OutboxListQuery) {
  const where = whereOf(query);
  const page = await listPage(ctx.db, {
    query,
    sortable,
    defaultSort: '-id',
    rows: (c) =>
      selectRows(ctx)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: mailOutbox.id }).from(mailOutbox).where(where),
    estimateTable: where ? undefined : mailOutbox,
  });
  return { ...page, items: page.items.map(toRow) };
}

/** Spanish names of the events, for the export (files stay in Spanish: docs/decisions.md). */
const EVENT_NAMES: Record<OutboxEvent, string> = {
  'planilla.observed': 'Planilla observada',
  'planilla.approved': 'Planilla aprobada',
  'planilla.returned': 'Planilla devuelta',
  'order.issued': 'Orden de pago emitida',
  'order.dueSoon': 'Orden de pago por vencer',
  'agreement.instalmentDueSoon': 'Cuota de convenio por vencer',
  'agreement.default': 'Convenio en incumplimiento',
  'payment.registered': 'Pago registrado',
  'survival.dueSoon': 'Supervivencia por vencer',
  'survival.overdue': 'Supervivencia vencida',
  'signing.waiting': 'Documento por firmar',
  'signing.reminder': 'Recordatorio de firma',
  'workflow.assigned': 'Solicitud asignada',
  'job.finished': 'Proceso terminado',
  'arrears.notice': 'Aviso de mora',
  'auth.passwordReset': 'Restablecimiento de contraseña',
  [MAIL_DIGEST_EVENT]: 'Resumen diario',
};
const STATE_NAMES: Record<OutboxState, string> = {
  PENDING: 'Pendiente',
  SENDING: 'Enviándose',
  SENT: 'Enviado',
  FAILED: 'Fallido',
  DIGEST: 'Para el resumen diario',
};

/** The export of the outbox with the list's filters and order (no content: subject and addresses). */
export function outboxExport(ctx: RequestContext, query: Partial<OutboxListQuery>) {
  const where = whereOf(query);
  const keyset = keysetOf(query.sort, sortable, '-id', mailOutbox.id);
  const columns: ExportColumn<OutboxRow>[] = [
    { header: 'N.º', value: (r) => r.id, width: 10 },
    { header: 'Creado', value: (r) => new Date(r.createdAt), width: 20 },
    { header: 'Evento', value: (r) => EVENT_NAMES[r.event] ?? r.event, width: 28 },
    { header: 'Destinatarios', value: (r) => r.to.join(', '), width: 36 },
    { header: 'Asunto', value: (r) => r.subject, width: 50 },
    { header: 'Idioma', value: (r) => r.language, width: 8 },
    { header: 'Estado', value: (r) => STATE_NAMES[r.state] ?? r.state, width: 20 },
    { header: 'Intentos', value: (r) => r.attempts, width: 10 },
    { header: 'Último error', value: (r) => r.lastError ?? '', width: 40 },
    { header: 'Enviado', value: (r) => (r.sentAt ? new Date(r.sentAt) : ''), width: 20 },
    { header: 'Incluido en el resumen N.º', value: (r) => r.digestId ?? '', width: 14 },
    { header: 'Message-ID', value: (r) => r.messageId ?? '', width: 36 },
  ];
  return {
    filename: 'correo-saliente',
    columns,
    batches: keysetBatches(
      keyset,
      async (c) =>
        (
          await selectRows(ctx)
            .where(and(where, c.after))
            .orderBy(...c.order)
            .limit(c.limit)
        ).map(toRow),
      (r) => r.id,
    ),
  };
}

/**
 * A single-use secret in a message (the token of a password-reset link) is never shown: whoever reads the
 * outbox could otherwise take over the account it was sent for. Applied to every message's text, HTML and link.
 */
const hideSecrets = <T extends string | null>(s: T): T =>
  (s == null ? s : s.replace(/([?&](?:amp;)?token=)[^&\s"'<>]+/gi, '$1[oculto]')) as T;

/** One message with its content (secrets hidden); a digest with the messages it carries. 404 when it does not exist. */
export async function getOutboxMessage(ctx: RequestContext, input: { id: number }): Promise<OutboxMessage> {
  const { db } = ctx;
  const [row] = await db
    .select({ m: mailOutbox, digestId: mailDigestItems.digestId })
    .from(mailOutbox)
    .leftJoin(mailDigestItems, eq(mailDigestItems.outboxId, mailOutbox.id))
    .where(eq(mailOutbox.id, input.id));
  if (!row) throw new AppError('NOT_FOUND', msg('mail.outboxNotFound'));
  const m = row.m;
  const items =
    m.event === (MAIL_DIGEST_EVENT as string)
      ? await db
          .select({ id: mailOutbox.id, event: mailOutbox.event, subject: mailOutbox.subject, createdAt: mailOutbox.createdAt })
          .from(mailDigestItems)
          .innerJoin(mailOutbox, eq(mailOutbox.id, mailDigestItems.outboxId))
          .where(eq(mailDigestItems.digestId, m.id))
          .orderBy(asc(mailOutbox.id))
      : [];
  return {
    ...toRow({ ...m, digestId: row.digestId }),
    text: hideSecrets(m.text),
    html: hideSecrets(m.html),
    link: hideSecrets(m.link),
    attachments: m.attachments.map((a) =>
      a.kind === 'render'
        ? { kind: 'render' as const, name: `${a.renderer} ${a.id}` }
        : { kind: 'blob' as const, name: a.filename },
    ),
    dedupeKey: m.dedupeKey,
    leaseUntil: iso(m.leaseUntil),
    digestItems: items.map((i) => ({ ...i, event: i.event as OutboxEvent, createdAt: i.createdAt.toISOString() })),
  };
}

/**
 * Sends a FAILED message again: back to PENDING, due now, with its attempts counted from zero so the
 * dispatcher gives it its whole series of retries. What it had (attempts, last error) stays in the audit
 * row written in the same transaction. 409 when it is no longer FAILED (sent meanwhile, or retried by
 * someone else), 404 when it does not exist.
 */
export async function retryOutboxMessage(ctx: RequestContext, input: { id: number }): Promise<OutboxMessage> {
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ state: mailOutbox.state, attempts: mailOutbox.attempts, lastError: mailOutbox.lastError })
      .from(mailOutbox)
      .where(eq(mailOutbox.id, input.id))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND', msg('mail.outboxNotFound'));
    if (before.state !== 'FAILED') throw new AppError('CONFLICT', msg('mail.retryNotFailed'));
    await tx
      .update(mailOutbox)
      .set({ state: 'PENDING', attempts: 0, nextAttemptAt: sql`now()`, leaseUntil: null, lastError: null })
      .where(and(eq(mailOutbox.id, input.id), eq(mailOutbox.state, 'FAILED')));
    await ctx.audit(
      {
        action: 'MAIL_RETRY',
        entityType: 'mail_outbox',
        entityId: input.id,
        before,
        after: { state: 'PENDING', attempts: 0 },
      },
      tx,
    );
  });
  mailWakeups.emit('enqueued');
  return getOutboxMessage(ctx, input);
}

/** How many messages are in each state, and whether this server sends them (SMTP_URL) or only keeps them. */
export async function outboxStatus(ctx: RequestContext, input: { sending: boolean; sender: string }): Promise<OutboxStatus> {
  const rows = await ctx.db.select({ state: mailOutbox.state, n: count() }).from(mailOutbox).groupBy(mailOutbox.state);
  const counts = Object.fromEntries(OUTBOX_STATES.map((s) => [s, 0])) as OutboxStatus['counts'];
  for (const r of rows) if (r.state in counts) counts[r.state] = r.n;
  return { sending: input.sending, sender: input.sender, counts };
}

/** An event's template in a language, filled with its example data (MAIL_TEMPLATE_EXAMPLES): nobody's real data. */
export function previewMailTemplate(query: MailTemplatePreviewQuery): MailTemplatePreview {
  const rendered = renderMailTemplate(query.event, query.language, MAIL_TEMPLATE_EXAMPLES[query.event], {
    link: '/',
    withPreferences: isMailPreferenceEvent(query.event),
  });
  return { event: query.event, language: query.language, ...rendered };
}
