import {
  AppError,
  msg,
  type WebhookDelivery,
  type WebhookDeliveryListQuery,
  type WebhookDeliveryState,
  type WebhookEvent,
  type WebhookPayload,
} from '@aporta/domain';
import { and, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { ExportColumn } from '../../platform/export.ts';
import { keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { webhookWakeups } from '../../platform/webhooks.ts';

/**
 * The webhooks' delivery log (issue 30): each delivery of the endpoints in scope (the scope is the endpoint's
 * entity: an entity's administrator reads its own endpoints' deliveries, never those of an institution-wide
 * endpoint), with the receiver's answer and the last error; «Reenviar» queues a delivery again.
 */

/** Guatemala keeps UTC−6 all year: a date filter covers that local day. */
const dayStart = (d: string) => new Date(`${d}T00:00:00-06:00`);
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 86_400_000);

const rowColumns = {
  id: webhookDeliveries.id,
  endpointId: webhookDeliveries.endpointId,
  endpointName: webhookEndpoints.name,
  url: webhookEndpoints.url,
  entityId: webhookDeliveries.entityId,
  event: webhookDeliveries.event,
  state: webhookDeliveries.state,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  responseStatus: webhookDeliveries.responseStatus,
  responseBody: webhookDeliveries.responseBody,
  lastError: webhookDeliveries.lastError,
  createdAt: webhookDeliveries.createdAt,
  deliveredAt: webhookDeliveries.deliveredAt,
  payload: webhookDeliveries.payload,
};

const selectRows = (db: Db) =>
  db
    .select(rowColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toRow = (r: RawRow): WebhookDelivery => ({
  id: r.id,
  endpointId: r.endpointId,
  endpointName: r.endpointName,
  url: r.url,
  entityId: r.entityId,
  event: r.event as WebhookEvent,
  state: r.state as WebhookDeliveryState,
  attempts: r.attempts,
  nextAttemptAt: r.nextAttemptAt.toISOString(),
  responseStatus: r.responseStatus,
  responseBody: r.responseBody,
  lastError: r.lastError,
  createdAt: r.createdAt.toISOString(),
  deliveredAt: iso(r.deliveredAt),
  payload: r.payload as WebhookPayload,
});

function whereOf(ctx: RequestContext, q: Partial<WebhookDeliveryListQuery>): SQL | undefined {
  const conds: (SQL | undefined)[] = [ctx.inScope(webhookEndpoints.entityId)];
  if (q.endpointId) conds.push(eq(webhookDeliveries.endpointId, q.endpointId));
  if (q.event) conds.push(eq(webhookDeliveries.event, q.event));
  if (q.state) conds.push(eq(webhookDeliveries.state, q.state));
  if (q.from) conds.push(gte(webhookDeliveries.createdAt, dayStart(q.from)));
  if (q.to) conds.push(lt(webhookDeliveries.createdAt, nextDay(q.to)));
  if (q.q) {
    const p = likePattern(q.q);
    conds.push(
      or(
        ilike(webhookEndpoints.name, p),
        ilike(webhookEndpoints.url, p),
        ilike(webhookDeliveries.lastError, p),
        ilike(sql`${webhookDeliveries.payload}::text`, p),
      ),
    );
  }
  return and(...conds);
}

const sortable = {
  id: webhookDeliveries.id,
  createdAt: webhookDeliveries.createdAt,
  state: webhookDeliveries.state,
  event: webhookDeliveries.event,
  attempts: webhookDeliveries.attempts,
};

export async function findWebhookDeliveries(ctx: RequestContext, query: WebhookDeliveryListQuery) {
  const where = whereOf(ctx, query);
  const page = await listPage(ctx.db, {
    query,
    sortable,
    defaultSort: '-id',
    rows: (c) =>
      selectRows(ctx.db)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () =>
      ctx.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(where),
  });
  return { ...page, items: page.items.map(toRow) };
}

const STATE_NAMES: Record<WebhookDeliveryState, string> = {
  PENDING: 'Pendiente',
  SENDING: 'Enviándose',
  SENT: 'Enviado',
  FAILED: 'Fallido',
};

/** The export of the log with the list's filters (no payload: the event, the answer and the error). */
export function webhookDeliveriesExport(ctx: RequestContext, query: Partial<WebhookDeliveryListQuery>) {
  const where = whereOf(ctx, query);
  const keyset = keysetOf(query.sort, sortable, '-id', webhookDeliveries.id);
  const columns: ExportColumn<WebhookDelivery>[] = [
    { header: 'N.º', value: (r) => r.id, width: 10 },
    { header: 'Webhook', value: (r) => r.endpointName, width: 30 },
    { header: 'URL', value: (r) => r.url, width: 50 },
    { header: 'Evento', value: (r) => r.event, width: 22 },
    { header: 'Estado', value: (r) => STATE_NAMES[r.state], width: 12 },
    { header: 'Intentos', value: (r) => r.attempts, width: 10 },
    { header: 'Respuesta', value: (r) => r.responseStatus ?? '', width: 10 },
    { header: 'Último error', value: (r) => r.lastError ?? '', width: 40 },
    { header: 'Creado', value: (r) => new Date(r.createdAt), width: 20 },
    { header: 'Entregado', value: (r) => (r.deliveredAt ? new Date(r.deliveredAt) : ''), width: 20 },
  ];
  return {
    columns,
    batches: keysetBatches(
      keyset,
      async (c) =>
        (
          await selectRows(ctx.db)
            .where(and(where, c.after))
            .orderBy(...c.order)
            .limit(c.limit)
        ).map(toRow),
      (r) => r.id,
    ),
  };
}

/** One delivery of an endpoint in scope (404 otherwise). */
export async function getWebhookDelivery(ctx: RequestContext, input: { id: number }): Promise<WebhookDelivery> {
  const [row] = await selectRows(ctx.db).where(and(eq(webhookDeliveries.id, input.id), ctx.inScope(webhookEndpoints.entityId)));
  if (!row) throw new AppError('NOT_FOUND', msg('webhooks.deliveryNotFound'));
  return toRow(row);
}

/**
 * «Reenviar»: a delivery of an endpoint in scope back to PENDING, due now, with its attempts counted afresh
 * (the same body and X-Aporta-Delivery; a new timestamp and signature). 409 while it is being sent or when the
 * endpoint is inactive. Audited.
 */
export async function resendWebhookDelivery(ctx: RequestContext, input: { id: number }): Promise<WebhookDelivery> {
  await ctx.db.transaction(async (tx) => {
    const [d] = await tx
      .select({
        id: webhookDeliveries.id,
        state: webhookDeliveries.state,
        attempts: webhookDeliveries.attempts,
        event: webhookDeliveries.event,
        endpointId: webhookDeliveries.endpointId,
        isActive: webhookEndpoints.isActive,
        entityId: webhookEndpoints.entityId,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(and(eq(webhookDeliveries.id, input.id), ctx.inScope(webhookEndpoints.entityId)))
      .for('update', { of: webhookDeliveries });
    if (!d) throw new AppError('NOT_FOUND', msg('webhooks.deliveryNotFound'));
    if (d.state === 'SENDING') throw new AppError('CONFLICT', msg('webhooks.deliverySending'));
    if (!d.isActive) throw new AppError('CONFLICT', msg('webhooks.endpointInactive'));
    await tx
      .update(webhookDeliveries)
      .set({ state: 'PENDING', attempts: 0, nextAttemptAt: sql`now()`, leaseUntil: null })
      .where(eq(webhookDeliveries.id, d.id));
    await ctx.audit(
      {
        action: 'RESEND',
        entityType: 'webhook_delivery',
        entityId: d.id,
        before: { state: d.state, attempts: d.attempts },
        after: { state: 'PENDING', attempts: 0, event: d.event, endpointId: d.endpointId },
        scopeEntityId: d.entityId,
      },
      tx,
    );
  });
  webhookWakeups.emit('enqueued');
  return getWebhookDelivery(ctx, input);
}
