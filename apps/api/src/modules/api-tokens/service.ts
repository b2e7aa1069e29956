import {
  API_TOKEN_MAX_DAYS,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenEntity,
  type ApiTokenInput,
  type ApiTokenListQuery,
  type ApiTokenState,
  AppError,
  addDays,
  detail,
  guatemalaToday,
  INTEGRATION_PERMISSION_NAMES,
  INTEGRATION_PERMISSIONS,
  type IntegrationPermission,
  msg,
} from '@aporta/domain';
import { aliasedTable, and, asc, eq, gt, ilike, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { apiTokens, municipalEntities, users } from '../../db/schema/index.ts';
import { type RequestContext, withPermission } from '../../platform/context.ts';
import type { ExportColumn } from '../../platform/export.ts';
import { keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { isEntityInScope, scopedEntityOr404 } from '../../platform/scope.ts';
import { newApiToken } from '../../platform/session.ts';

/**
 * «Tokens de integración» (issue 30): tokens a municipality's payroll software calls the API with. A holder of
 * api-tokens creates one for an entity in that permission's scope (an entity's own administrator: their entity
 * only), with integration permissions they hold themselves over that entity (the privilege ceiling); the token
 * is answered once, only its hash is kept. Lists never carry the hash. Revoking is immediate in every process
 * (the table's trigger notifies 'aporta_auth'). Each change is audited in its transaction. How a token is used
 * is platform/session.ts (`authenticateApiToken`) and platform/access.ts.
 */

/** Guatemala keeps UTC−6 all year: a token valid "until" a day works to the end of that day there. */
const endOfDay = (d: string) => new Date(new Date(`${d}T00:00:00-06:00`).getTime() + 86_400_000);

const creators = aliasedTable(users, 'api_token_creators');

const rowColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  entityId: apiTokens.entityId,
  entityName: municipalEntities.name,
  entityCode: municipalEntities.code,
  permissions: apiTokens.permissions,
  prefix: apiTokens.prefix,
  createdById: apiTokens.createdBy,
  createdByEmail: creators.email,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
  revokedAt: apiTokens.revokedAt,
};

const selectRows = (ctx: RequestContext) =>
  ctx.db
    .select(rowColumns)
    .from(apiTokens)
    .innerJoin(municipalEntities, eq(municipalEntities.id, apiTokens.entityId))
    .leftJoin(creators, eq(creators.id, apiTokens.createdBy));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

const stateOf = (r: Pick<RawRow, 'revokedAt' | 'expiresAt'>, now = new Date()): ApiTokenState =>
  r.revokedAt ? 'REVOKED' : r.expiresAt <= now ? 'EXPIRED' : 'ACTIVE';

const toRow = (r: RawRow): ApiToken => ({
  id: r.id,
  name: r.name,
  entityId: r.entityId,
  entityName: r.entityName,
  entityCode: r.entityCode,
  permissions: r.permissions as IntegrationPermission[],
  prefix: r.prefix,
  createdById: r.createdById,
  createdByEmail: r.createdByEmail ?? null,
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
  lastUsedAt: r.lastUsedAt ? r.lastUsedAt.toISOString() : null,
  revokedAt: r.revokedAt ? r.revokedAt.toISOString() : null,
  state: stateOf(r),
});

const stateCondition: Record<ApiTokenState, () => SQL | undefined> = {
  ACTIVE: () => and(isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, sql`now()`)),
  EXPIRED: () => and(isNull(apiTokens.revokedAt), lte(apiTokens.expiresAt, sql`now()`)),
  REVOKED: () => isNotNull(apiTokens.revokedAt),
};

function whereOf(ctx: RequestContext, q: Partial<ApiTokenListQuery>): SQL | undefined {
  const conds: (SQL | undefined)[] = [ctx.inScope(apiTokens.entityId)];
  if (q.entityId) conds.push(eq(apiTokens.entityId, q.entityId));
  if (q.state) conds.push(stateCondition[q.state]());
  if (q.q) {
    const p = likePattern(q.q);
    conds.push(
      or(
        ilike(apiTokens.name, p),
        ilike(apiTokens.prefix, p),
        ilike(municipalEntities.name, p),
        ilike(municipalEntities.code, p),
      ),
    );
  }
  return and(...conds);
}

const sortable = {
  id: apiTokens.id,
  name: apiTokens.name,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
};

/** The tokens of the entities in scope, newest first; filters: entity, state and a search (name, prefix, entity). */
export async function findApiTokens(ctx: RequestContext, query: ApiTokenListQuery) {
  const where = whereOf(ctx, query);
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
    count: () =>
      ctx.db
        .select({ id: apiTokens.id })
        .from(apiTokens)
        .innerJoin(municipalEntities, eq(municipalEntities.id, apiTokens.entityId))
        .where(where),
  });
  return { ...page, items: page.items.map(toRow) };
}

const STATE_NAMES: Record<ApiTokenState, string> = { ACTIVE: 'Vigente', EXPIRED: 'Vencido', REVOKED: 'Revocado' };

/** The export with the list's filters and order (files stay in Spanish: docs/decisions.md). */
export function apiTokensExport(ctx: RequestContext, query: Partial<ApiTokenListQuery>) {
  const where = whereOf(ctx, query);
  const keyset = keysetOf(query.sort, sortable, '-id', apiTokens.id);
  const columns: ExportColumn<ApiToken>[] = [
    { header: 'N.º', value: (r) => r.id, width: 8 },
    { header: 'Nombre', value: (r) => r.name, width: 30 },
    { header: 'Código', value: (r) => `${r.prefix}…`, width: 14 },
    { header: 'Entidad', value: (r) => `${r.entityCode} ${r.entityName}`, width: 36 },
    { header: 'Permisos', value: (r) => r.permissions.map((p) => INTEGRATION_PERMISSION_NAMES[p] ?? p).join(', '), width: 50 },
    { header: 'Estado', value: (r) => STATE_NAMES[r.state], width: 12 },
    { header: 'Creado', value: (r) => new Date(r.createdAt), width: 20 },
    { header: 'Creado por', value: (r) => r.createdByEmail ?? '', width: 30 },
    { header: 'Vence', value: (r) => new Date(r.expiresAt), width: 20 },
    { header: 'Último uso', value: (r) => (r.lastUsedAt ? new Date(r.lastUsedAt) : ''), width: 20 },
    { header: 'Revocado', value: (r) => (r.revokedAt ? new Date(r.revokedAt) : ''), width: 20 },
  ];
  return {
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

/** The active municipal entities the caller may create tokens for (the scope of api-tokens CREATE), by name. */
export async function apiTokenEntities(ctx: RequestContext): Promise<ApiTokenEntity[]> {
  return ctx.db
    .select({ id: municipalEntities.id, code: municipalEntities.code, name: municipalEntities.name })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.isActive, true), ctx.inScope(municipalEntities.id)))
    .orderBy(asc(municipalEntities.name), asc(municipalEntities.id));
}

/**
 * The integration permissions of `names` the caller does not hold over `entityId` (every permission key of
 * each, with a scope that reaches the entity): what the privilege ceiling refuses.
 */
async function permissionsBeyond(ctx: RequestContext, entityId: number, names: readonly IntegrationPermission[]) {
  const beyond: IntegrationPermission[] = [];
  for (const n of names) {
    for (const p of INTEGRATION_PERMISSIONS[n]) {
      const scope = ctx.scopeFor(p.resource, p.action);
      if (!scope || !(await isEntityInScope(withPermission(ctx, p.resource, p.action), entityId))) {
        beyond.push(n);
        break;
      }
    }
  }
  return beyond;
}

/**
 * Creates a token for an entity in scope (404 otherwise, as for one that does not exist) with permissions the
 * caller holds over it (403 naming the others) and a last day after today and at most API_TOKEN_MAX_DAYS away
 * (400 naming «expiresOn»). Answers the token once.
 */
export async function createApiToken(ctx: RequestContext, input: ApiTokenInput): Promise<ApiTokenCreated> {
  const entity = await scopedEntityOr404(ctx, input.entityId);
  const today = guatemalaToday();
  const max = addDays(today, API_TOKEN_MAX_DAYS);
  if (input.expiresOn <= today) {
    throw new AppError('VALIDATION', msg('integrations.expiresNotAfterToday', { today }), [
      { path: 'expiresOn', ...detail(msg('integrations.expiresNotAfterToday', { today })) },
    ]);
  }
  if (input.expiresOn > max) {
    const m = msg('integrations.expiresTooFar', { days: API_TOKEN_MAX_DAYS, max });
    throw new AppError('VALIDATION', m, [{ path: 'expiresOn', ...detail(m) }]);
  }
  const beyond = await permissionsBeyond(ctx, entity.id, input.permissions);
  if (beyond.length) {
    throw new AppError(
      'FORBIDDEN',
      msg('integrations.permissionsNotHeld', { names: beyond.map((n) => INTEGRATION_PERMISSION_NAMES[n]).join(', ') }),
    );
  }
  const secret = newApiToken();
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({
        name: input.name,
        entityId: entity.id,
        permissions: input.permissions,
        tokenHash: secret.hash,
        prefix: secret.prefix,
        createdBy: ctx.user.id,
        expiresAt: endOfDay(input.expiresOn),
      })
      .returning({ id: apiTokens.id, expiresAt: apiTokens.expiresAt });
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'api_token',
        entityId: row.id,
        after: {
          name: input.name,
          entityId: entity.id,
          permissions: input.permissions,
          prefix: secret.prefix,
          expiresAt: row.expiresAt.toISOString(),
        },
        scopeEntityId: entity.id,
      },
      tx,
    );
    return row.id;
  });
  return { apiToken: await getApiToken(ctx, id), token: secret.token };
}

async function getApiToken(ctx: RequestContext, id: number): Promise<ApiToken> {
  const [row] = await selectRows(ctx).where(and(eq(apiTokens.id, id), ctx.inScope(apiTokens.entityId)));
  if (!row) throw new AppError('NOT_FOUND', msg('integrations.notFound'));
  return toRow(row);
}

/**
 * Revokes a token of an entity in scope (404 otherwise; 409 when already revoked): refused at once by every
 * process, since the update notifies 'aporta_auth' and every session cache is emptied.
 */
export async function revokeApiToken(ctx: RequestContext, input: { id: number }): Promise<ApiToken> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: apiTokens.id, entityId: apiTokens.entityId, revokedAt: apiTokens.revokedAt, name: apiTokens.name })
      .from(apiTokens)
      .where(and(eq(apiTokens.id, input.id), ctx.inScope(apiTokens.entityId)))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND', msg('integrations.notFound'));
    if (row.revokedAt) throw new AppError('CONFLICT', msg('integrations.alreadyRevoked'));
    const now = new Date();
    await tx.update(apiTokens).set({ revokedAt: now, revokedBy: ctx.user.id }).where(eq(apiTokens.id, row.id));
    await ctx.audit(
      {
        action: 'REVOKE',
        entityType: 'api_token',
        entityId: row.id,
        before: { name: row.name, revokedAt: null },
        after: { name: row.name, revokedAt: now.toISOString() },
        scopeEntityId: row.entityId,
      },
      tx,
    );
  });
  return getApiToken(ctx, input.id);
}
