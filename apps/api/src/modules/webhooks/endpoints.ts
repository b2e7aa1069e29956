import {
  AppError,
  msg,
  WEBHOOK_PING_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
  type WebhookEndpointInput,
  type WebhookEndpointListQuery,
  type WebhookEndpointUpdate,
  type WebhookEntityOptions,
  type WebhookSubscribableEvent,
} from '@aporta/domain';
import { aliasedTable, and, asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { municipalEntities, users, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { ExportColumn } from '../../platform/export.ts';
import { keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { scopedEntityOr404 } from '../../platform/scope.ts';
import { checkWebhookUrl, enqueueWebhook, newWebhookSecret, sealWebhookSecret } from '../../platform/webhooks.ts';
import { getWebhookDelivery } from './deliveries.ts';

/**
 * «Webhooks» (issue 30): the URLs an entity's systems (or the institution's, for every entity) are told of
 * events at. A holder of `webhooks` manages the endpoints of the entities in that permission's scope (an
 * entity's own administrator: their entity only; institution-wide endpoints need scope ALL); the signing
 * secret is answered once, at creation. Each change is audited in its transaction. Deliveries: deliveries.ts.
 */

const creators = aliasedTable(users, 'webhook_creators');

const rowColumns = {
  id: webhookEndpoints.id,
  name: webhookEndpoints.name,
  entityId: webhookEndpoints.entityId,
  entityName: municipalEntities.name,
  url: webhookEndpoints.url,
  events: webhookEndpoints.events,
  isActive: webhookEndpoints.isActive,
  createdById: webhookEndpoints.createdBy,
  createdByEmail: creators.email,
  createdAt: webhookEndpoints.createdAt,
  updatedAt: webhookEndpoints.updatedAt,
};

const selectRows = (db: Db) =>
  db
    .select(rowColumns)
    .from(webhookEndpoints)
    .leftJoin(municipalEntities, eq(municipalEntities.id, webhookEndpoints.entityId))
    .leftJoin(creators, eq(creators.id, webhookEndpoints.createdBy));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

const toRow = (r: RawRow): WebhookEndpoint => ({
  id: r.id,
  name: r.name,
  entityId: r.entityId,
  entityName: r.entityName ?? null,
  url: r.url,
  events: r.events as WebhookSubscribableEvent[],
  isActive: r.isActive,
  createdById: r.createdById,
  createdByEmail: r.createdByEmail ?? null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

function whereOf(ctx: RequestContext, q: Partial<WebhookEndpointListQuery>): SQL | undefined {
  // An institution-wide endpoint (no entity) is reached only by scope ALL (inScope is then undefined).
  const conds: (SQL | undefined)[] = [ctx.inScope(webhookEndpoints.entityId)];
  if (q.entityId) conds.push(eq(webhookEndpoints.entityId, q.entityId));
  if (q.isActive) conds.push(eq(webhookEndpoints.isActive, q.isActive === 'true'));
  if (q.q) {
    const p = likePattern(q.q);
    conds.push(or(ilike(webhookEndpoints.name, p), ilike(webhookEndpoints.url, p), ilike(municipalEntities.name, p)));
  }
  return and(...conds);
}

const sortable = { id: webhookEndpoints.id, name: webhookEndpoints.name, createdAt: webhookEndpoints.createdAt };

export async function findWebhookEndpoints(ctx: RequestContext, query: WebhookEndpointListQuery) {
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
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .leftJoin(municipalEntities, eq(municipalEntities.id, webhookEndpoints.entityId))
        .where(where),
  });
  return { ...page, items: page.items.map(toRow) };
}

/** The export with the list's filters (files stay in Spanish: docs/decisions.md). */
export function webhookEndpointsExport(ctx: RequestContext, query: Partial<WebhookEndpointListQuery>) {
  const where = whereOf(ctx, query);
  const keyset = keysetOf(query.sort, sortable, '-id', webhookEndpoints.id);
  const columns: ExportColumn<WebhookEndpoint>[] = [
    { header: 'N.º', value: (r) => r.id, width: 8 },
    { header: 'Nombre', value: (r) => r.name, width: 30 },
    { header: 'Entidad', value: (r) => r.entityName ?? 'Todas (institución)', width: 30 },
    { header: 'URL', value: (r) => r.url, width: 50 },
    { header: 'Eventos', value: (r) => r.events.join(', '), width: 50 },
    { header: 'Activo', value: (r) => (r.isActive ? 'Sí' : 'No'), width: 8 },
    { header: 'Creado', value: (r) => new Date(r.createdAt), width: 20 },
    { header: 'Creado por', value: (r) => r.createdByEmail ?? '', width: 30 },
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

/** One endpoint of the scope (404 otherwise, as for one that does not exist). */
export async function getWebhookEndpoint(ctx: RequestContext, input: { id: number }, db: Db = ctx.db): Promise<WebhookEndpoint> {
  const [row] = await selectRows(db).where(and(eq(webhookEndpoints.id, input.id), ctx.inScope(webhookEndpoints.entityId)));
  if (!row) throw new AppError('NOT_FOUND', msg('webhooks.notFound'));
  return toRow(row);
}

/** The entities the caller may register endpoints for, and whether institution-wide ones (scope ALL). */
export async function webhookEntityOptions(ctx: RequestContext): Promise<WebhookEntityOptions> {
  const entities = await ctx.db
    .select({ id: municipalEntities.id, code: municipalEntities.code, name: municipalEntities.name })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.isActive, true), ctx.inScope(municipalEntities.id)))
    .orderBy(asc(municipalEntities.name), asc(municipalEntities.id));
  return { institutionWide: ctx.scope === 'ALL', entities };
}

/**
 * Registers an endpoint for an entity in scope (404 otherwise) or, with scope ALL, for the institution
 * (`entityId` null; 403 otherwise). The URL is checked (400 naming «url»). Answers the secret this once.
 */
export async function createWebhookEndpoint(ctx: RequestContext, input: WebhookEndpointInput): Promise<WebhookEndpointCreated> {
  if (input.entityId === null) {
    if (ctx.scope !== 'ALL') throw new AppError('FORBIDDEN', msg('webhooks.institutionWideNotAllowed'));
  } else {
    await scopedEntityOr404(ctx, input.entityId);
  }
  const url = checkWebhookUrl(input.url);
  const secret = newWebhookSecret();
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        name: input.name,
        entityId: input.entityId,
        url,
        events: input.events,
        secret: sealWebhookSecret(secret),
        createdBy: ctx.user.id,
      })
      .returning({ id: webhookEndpoints.id });
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'webhook_endpoint',
        entityId: row.id,
        after: { name: input.name, entityId: input.entityId, url, events: input.events, isActive: true },
        scopeEntityId: input.entityId,
      },
      tx,
    );
    return row.id;
  });
  return { endpoint: await getWebhookEndpoint(ctx, { id }), secret };
}

/** Changes an endpoint of the scope: name, URL (checked), events, active. Its entity and secret never change. */
export async function updateWebhookEndpoint(
  ctx: RequestContext,
  input: { id: number } & WebhookEndpointUpdate,
): Promise<WebhookEndpoint> {
  const { id, ...change } = input;
  const url = change.url === undefined ? undefined : checkWebhookUrl(change.url);
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        name: webhookEndpoints.name,
        url: webhookEndpoints.url,
        events: webhookEndpoints.events,
        isActive: webhookEndpoints.isActive,
        entityId: webhookEndpoints.entityId,
      })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), ctx.inScope(webhookEndpoints.entityId)))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND', msg('webhooks.notFound'));
    const set = {
      ...(change.name !== undefined && { name: change.name }),
      ...(url !== undefined && { url }),
      ...(change.events !== undefined && { events: change.events }),
      ...(change.isActive !== undefined && { isActive: change.isActive }),
    };
    if (Object.keys(set).length === 0) return;
    await tx
      .update(webhookEndpoints)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(webhookEndpoints.id, id));
    const { entityId, ...shown } = before;
    await ctx.audit(
      {
        action: change.isActive === false && before.isActive ? 'DEACTIVATE' : 'UPDATE',
        entityType: 'webhook_endpoint',
        entityId: id,
        before: shown,
        after: { ...shown, ...set },
        scopeEntityId: entityId,
      },
      tx,
    );
  });
  return getWebhookEndpoint(ctx, { id });
}

/** «Probar»: queues a `ping` delivery to an active endpoint of the scope (409 when inactive) and answers it. */
export async function pingWebhookEndpoint(ctx: RequestContext, input: { id: number }): Promise<WebhookDelivery> {
  const deliveryId = await ctx.db.transaction(async (tx) => {
    const [ep] = await tx
      .select({ id: webhookEndpoints.id, entityId: webhookEndpoints.entityId, isActive: webhookEndpoints.isActive })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, input.id), ctx.inScope(webhookEndpoints.entityId)))
      .for('update');
    if (!ep) throw new AppError('NOT_FOUND', msg('webhooks.notFound'));
    if (!ep.isActive) throw new AppError('CONFLICT', msg('webhooks.endpointInactive'));
    const record = `ping:${Date.now()}:${Math.random().toString(36).slice(2, 10)}`;
    await enqueueWebhook(tx, WEBHOOK_PING_EVENT, ep.entityId, {
      record,
      endpointId: ep.id,
      data: { entityId: ep.entityId, message: msg('webhooks.pingMessage').text },
    });
    // The delivery just written (its record key is this request's own).
    const [d] = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, ep.id), eq(webhookDeliveries.recordKey, record)));
    await ctx.audit(
      {
        action: 'PING',
        entityType: 'webhook_endpoint',
        entityId: ep.id,
        after: { deliveryId: Number(d?.id) },
        scopeEntityId: ep.entityId,
      },
      tx,
    );
    return Number(d?.id);
  });
  return getWebhookDelivery(ctx, { id: deliveryId });
}
