import {
  type Action,
  AppError,
  actions,
  type CurrentUser,
  type Resource,
  resourceKeys,
  type Scope,
  scopeFor,
} from '@aporta/domain';
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type Actor, type AuditEntry, systemActor, writeAudit } from './audit.ts';
import { entityInScope, scopedEntityIdSet } from './scope.ts';

/**
 * What a service receives instead of the HTTP request: the database, who acts, and the data scope the
 * route's permission grants them. The access guard builds it once per request (`request.ctx`); a
 * background job builds one for the user who started it. Services take `(ctx, input)` and never see
 * Fastify objects, so they are called the same way from a route, a job, a CLI command or a test.
 */
export interface RequestContext {
  db: Db;
  user: CurrentUser;
  /** Who is written in the audit log (user id, e-mail, address). */
  actor: Actor;
  /** The session behind the request; null for a job or a CLI command. */
  sessionId: number | null;
  /**
   * The scope the route's own permission grants (ALL, REGION, ENTITY); null on routes open to every
   * signed-in user, where there is no permission and so no data scope to apply.
   */
  scope: Scope | null;
  /**
   * WHERE condition limiting `entityIdColumn` to the municipal entities in the route's scope;
   * undefined for ALL. Fails closed (FORBIDDEN) on a route without a permission.
   */
  inScope(entityIdColumn: AnyColumn | SQL): SQL | undefined;
  /** The scope another permission grants this user (a service that also reads another resource). */
  scopeFor(resource: Resource, action: Action): Scope | null;
  /** One audit row by this actor; pass the transaction of the change so both commit or neither does. */
  audit(entry: AuditEntry, tx?: Db): Promise<void>;
}

export function createContext(opts: {
  db: Db;
  user: CurrentUser;
  actor: Actor;
  sessionId?: number | null;
  scope: Scope | null;
}): RequestContext {
  const { db, user, actor, scope } = opts;
  return {
    db,
    user,
    actor,
    sessionId: opts.sessionId ?? null,
    scope,
    inScope(column) {
      if (!scope) throw new AppError('FORBIDDEN');
      return entityInScope(user.id, scope, column);
    },
    scopeFor: (resource, action) => scopeFor(user.permissions, resource, action),
    audit: (entry, tx) => writeAudit(tx ?? db, actor, entry),
  };
}

/**
 * The scope of the route's own permission. Fails closed (FORBIDDEN) on a route open to every signed-in
 * user, which has no permission and therefore no data scope.
 */
export function routeScope(ctx: RequestContext): Scope {
  if (!ctx.scope) throw new AppError('FORBIDDEN');
  return ctx.scope;
}

/**
 * Institution-wide data (rows about no municipal entity: the pension payroll, bank files, receipt
 * ranges, voluntary contributors): only an ALL grant reaches it; REGION and ENTITY answer 403 with `why`.
 */
export function requireAllScope(ctx: RequestContext, why: string): void {
  if (routeScope(ctx) !== 'ALL') throw new AppError('FORBIDDEN', why);
}

/**
 * The same caller seen through another permission: its scope replaces the route's. For work that
 * reads another resource on the caller's behalf (a home queue, a statistics panel, a form's choices);
 * FORBIDDEN when the caller does not hold it.
 */
export function withPermission(ctx: RequestContext, resource: Resource, action: Action): RequestContext {
  const scope = ctx.scopeFor(resource, action);
  if (!scope) throw new AppError('FORBIDDEN');
  return createContext({ db: ctx.db, user: ctx.user, actor: ctx.actor, sessionId: ctx.sessionId, scope });
}

/** The entity ids the route's scope reaches, to check an entity chosen in a form; null means any (ALL). */
export function entityIdsInScope(ctx: RequestContext): Promise<Set<number> | null> {
  return scopedEntityIdSet(ctx.db, ctx.user.id, routeScope(ctx));
}

/**
 * The context of work the application does by itself (a scheduled job, the demo seed): the system actor
 * (audit rows by "sistema", no user id), every permission with scope ALL. Never built from a request.
 */
export function systemContext(db: Db): RequestContext {
  const all = Object.fromEntries(actions.map((a) => [a, 'ALL' as const]));
  const user: CurrentUser = {
    id: 0,
    email: systemActor.email,
    firstName: 'Sistema',
    lastName: '',
    institucion: [],
    institutionName: 'Sistema',
    institutions: [],
    permissions: Object.fromEntries(resourceKeys.map((r) => [r, all])),
    mustChangePassword: false,
  };
  return createContext({ db, user, actor: systemActor, scope: 'ALL' });
}
