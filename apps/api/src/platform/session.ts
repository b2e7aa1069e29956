import { createHash, randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  AppError,
  allPermissions,
  type CurrentUser,
  type EffectivePermissions,
  type Grant,
  INTEGRATION_PERMISSIONS,
  type IntegrationPermission,
  integrationPermissionKeys,
  mergeGrants,
  msg,
  type Scope,
  SYSTEM_INSTITUTION,
  scopeFor,
  tokenPermissions,
} from '@aporta/domain';
import { and, asc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { type Db, preparedPerDb, rowsOf } from '../db/client.ts';
import {
  apiTokens,
  institutionRoles,
  institutions,
  roleGrants,
  sessions,
  userInstitutions,
  userRoles,
  users,
} from '../db/schema/index.ts';
import type { Actor } from './audit.ts';
import { scopedEntityIds } from './scope.ts';

/**
 * The session core: what the access guard needs to turn a bearer token into a user, and the session
 * rows every module that signs in, signs out or locks an account out writes. Only the SHA-256 of a
 * token is stored, so a copy of the database opens no session.
 */

export interface AuthPolicy {
  sessionIdleHours: number;
  sessionAbsoluteDays: number;
  maxFailures: number;
  lockMinutes: number;
}

/** What a request knows about its signed-in user. */
export interface AuthContext {
  /** The session behind the request; null for a request made with an integration token. */
  sessionId: number | null;
  user: CurrentUser;
  actor: Actor;
  /** Set when the request came with an integration token (`apt_…`) instead of a session. */
  apiToken?: ApiTokenAuth;
}

/** The integration token behind a request: its id, its one entity and its name. */
export interface ApiTokenAuth {
  id: number;
  entityId: number;
  name: string;
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The columns of a user that code outside sign-in reads (with `loadCurrentUser`): never the password
 * hash, which only sign-in and the password change read.
 */
export const userFields = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
  mustChangePassword: users.mustChangePassword,
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
};

type UserFields = Pick<typeof users.$inferSelect, 'id' | 'email' | 'firstName' | 'lastName' | 'mustChangePassword'>;

interface InstitutionRef {
  id: number;
  code: string;
  name: string;
}

/** The CurrentUser of a user, their institutions (ordered) and their grants: SISTEMA holds everything. */
function currentUserOf(user: UserFields, insts: InstitutionRef[], grants: Grant[]): CurrentUser {
  const permissions: EffectivePermissions = insts.some((i) => i.code === SYSTEM_INSTITUTION)
    ? allPermissions()
    : mergeGrants(grants);
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    institucion: insts.map((i) => i.code),
    institutionName: insts[0]?.name ?? '',
    institutions: insts,
    permissions: permissions as CurrentUser['permissions'],
    mustChangePassword: user.mustChangePassword,
  };
}

/** Institutions (ordered) and effective permissions of a user: SISTEMA holds everything. */
export async function loadCurrentUser(db: Db, user: UserFields): Promise<CurrentUser> {
  const insts = await db
    .select({ id: institutions.id, code: institutions.code, name: institutions.name })
    .from(userInstitutions)
    .innerJoin(institutions, eq(institutions.id, userInstitutions.institutionId))
    .where(eq(userInstitutions.userId, user.id))
    .orderBy(asc(userInstitutions.position), asc(institutions.id));
  if (insts.some((i) => i.code === SYSTEM_INSTITUTION)) return currentUserOf(user, insts, []);
  const roleIds = db
    .select({ id: userRoles.roleId })
    .from(userRoles)
    .where(eq(userRoles.userId, user.id))
    .union(
      db
        .select({ id: institutionRoles.roleId })
        .from(institutionRoles)
        .where(
          inArray(
            institutionRoles.institutionId,
            insts.map((i) => i.id),
          ),
        ),
    );
  const grants = await db
    .select({ resource: roleGrants.resource, action: roleGrants.action, scope: roleGrants.scope })
    .from(roleGrants)
    .where(inArray(roleGrants.roleId, roleIds));
  return currentUserOf(user, insts, grants as Grant[]);
}

/**
 * Opens a session for a user who just proved who they are; returns the token, shown to the client once.
 * Pass the sign-in's transaction so the session exists only if the rest of the sign-in commits.
 */
export async function createSession(
  db: Db,
  opts: { userId: number; policy: Pick<AuthPolicy, 'sessionAbsoluteDays'>; ip: string | null; userAgent: string | null },
): Promise<{ id: number; token: string }> {
  let token = randomBytes(32).toString('base64url');
  // Never one the access guard would read as an integration token (1 in 16 million would start "apt_").
  while (isApiToken(token)) token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + opts.policy.sessionAbsoluteDays * 86_400_000);
  const [session] = await db
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      userId: opts.userId,
      expiresAt,
      ip: opts.ip,
      userAgent: opts.userAgent?.slice(0, 300),
    })
    .returning({ id: sessions.id });
  return { id: session.id, token };
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/**
 * The session, its user (without the password hash), the user's institutions and grants: one prepared
 * statement per database handle, whatever the number of roles.
 */
const sessionStatementOf = preparedPerDb((db: Db) =>
  db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isActive: users.isActive,
      mustChangePassword: users.mustChangePassword,
      institutions: sql<unknown>`(select coalesce(json_agg(json_build_object('id', i.id, 'code', i.code, 'name', i.name) order by ui.position, i.id), '[]'::json)
        from ${userInstitutions} ui join ${institutions} i on i.id = ui.institution_id where ui.user_id = ${users.id})`,
      grants: sql<unknown>`(select coalesce(json_agg(json_build_object('resource', g.resource, 'action', g.action, 'scope', g.scope)), '[]'::json)
        from ${roleGrants} g where g.role_id in (
          select ur.role_id from ${userRoles} ur where ur.user_id = ${users.id}
          union select ir.role_id from ${institutionRoles} ir join ${userInstitutions} ui on ui.institution_id = ir.institution_id
          where ui.user_id = ${users.id}))`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('hash')), isNull(sessions.revokedAt)))
    .limit(1)
    .prepare('aporta_session'),
);

interface CachedSession {
  auth: Omit<AuthContext, 'actor'> & { actorEmail?: string };
  expiresAt: Date;
  lastSeenAt: Date;
  cachedAt: number;
}

/**
 * Resolved sessions kept for `ttlSeconds` (0: none), by token hash. `clear()` empties it and makes every
 * read already under way unable to store what it read (a generation count): the access guard clears it
 * after any change made through the API in this process, and the 'aporta_auth' notification (triggers on
 * sessions, users, roles, grants and institutions, migration 0021) clears it in every process.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private generation = 0;
  /** False while the notification channel is down: then nothing is cached (another process could change a session unseen). */
  enabled = true;

  constructor(
    readonly ttlSeconds: number,
    readonly maxEntries = 10_000,
  ) {}

  get size() {
    return this.entries.size;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get(hash: string): CachedSession | undefined {
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (Date.now() - hit.cachedAt > this.ttlSeconds * 1000) {
      this.entries.delete(hash);
      return undefined;
    }
    return hit;
  }

  /** A token for `set`: what was read after this call may be stored if nothing cleared the cache since. */
  mark(): number {
    return this.generation;
  }

  set(hash: string, entry: CachedSession, mark: number): void {
    if (!this.enabled || this.ttlSeconds <= 0 || mark !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(hash, entry);
  }
}

/**
 * Resolves a bearer token to its session and user, enforcing the absolute and idle expiry. Called by
 * the access guard on every authenticated request: one prepared statement, or none when `cache` holds
 * the session (the idle-time touch is then the only write, once a minute).
 */
export async function authenticate(opts: {
  db: Db;
  policy: AuthPolicy;
  token: string;
  ip: string | null;
  cache?: SessionCache;
}): Promise<AuthContext> {
  const { db, policy, token, cache } = opts;
  const now = new Date();
  const hash = hashToken(token);
  let entry = cache?.get(hash);
  if (!entry) {
    const mark = cache?.mark() ?? 0;
    const [row] = await sessionStatementOf(db).execute({ hash });
    if (!row?.isActive) throw new AppError('UNAUTHENTICATED');
    const user = currentUserOf(row, json<InstitutionRef[]>(row.institutions), json<Grant[]>(row.grants));
    entry = {
      auth: { sessionId: row.sessionId, user },
      expiresAt: row.expiresAt,
      lastSeenAt: row.lastSeenAt,
      cachedAt: Date.now(),
    };
    cache?.set(hash, entry, mark);
  }
  const idleLimit = new Date(now.getTime() - policy.sessionIdleHours * 3_600_000);
  if (entry.expiresAt <= now || entry.lastSeenAt <= idleLimit) throw new AppError('SESSION_EXPIRED');
  // Touch at most once a minute: enough precision for an idle timeout counted in hours.
  if (now.getTime() - entry.lastSeenAt.getTime() > 60_000) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(eq(sessions.id, entry.auth.sessionId as number));
    entry.lastSeenAt = now;
  }
  const { user } = entry.auth;
  return { sessionId: entry.auth.sessionId, user, actor: { id: user.id, email: user.email, ip: opts.ip } };
}

/** Revokes one session of a user; false when it is not theirs or already closed. */
export async function revokeSession(db: Db, opts: { userId: number; sessionId: number }): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, opts.sessionId), eq(sessions.userId, opts.userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Revokes every open session of a user (deactivation, password reset); returns how many. */
export async function revokeAllSessions(db: Db, userId: number, exceptSessionId?: number | null): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

/** Open sessions of a user (not revoked, not expired), most recently used first. */
export async function openSessionsOf(db: Db, userId: number) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(sql`${sessions.lastSeenAt} desc`);
}

/** How many open sessions a user has left. */
export async function countActiveSessions(db: Db, userId: number): Promise<number> {
  return (await openSessionsOf(db, userId)).length;
}

// ─── Integration tokens (issue 30) ─────────────────────────────────────────────────────────────────

/** True for a bearer token that is an integration token (`apt_…`), not a session's. */
export const isApiToken = (token: string): boolean => token.startsWith(API_TOKEN_PREFIX);

/** A new integration token: the token (shown once), its SHA-256 (stored) and the first characters kept to recognise it. */
export function newApiToken(): { token: string; hash: string; prefix: string } {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 6) };
}

/** The token, its creator (as the session statement reads a user) and the creator's grants: one prepared statement. */
const apiTokenStatementOf = preparedPerDb((db: Db) =>
  db
    .select({
      tokenId: apiTokens.id,
      tokenName: apiTokens.name,
      entityId: apiTokens.entityId,
      permissions: apiTokens.permissions,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isActive: users.isActive,
      mustChangePassword: users.mustChangePassword,
      institutions: sql<unknown>`(select coalesce(json_agg(json_build_object('id', i.id, 'code', i.code, 'name', i.name) order by ui.position, i.id), '[]'::json)
        from ${userInstitutions} ui join ${institutions} i on i.id = ui.institution_id where ui.user_id = ${users.id})`,
      grants: sql<unknown>`(select coalesce(json_agg(json_build_object('resource', g.resource, 'action', g.action, 'scope', g.scope)), '[]'::json)
        from ${roleGrants} g where g.role_id in (
          select ur.role_id from ${userRoles} ur where ur.user_id = ${users.id}
          union select ir.role_id from ${institutionRoles} ir join ${userInstitutions} ui on ui.institution_id = ir.institution_id
          where ui.user_id = ${users.id}))`,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.createdBy))
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('aporta_api_token'),
);

/**
 * The integration permissions of a token its creator still holds today, each with a scope that reaches the
 * token's entity (the privilege ceiling at use time): one query for the creator's REGION and ENTITY reach.
 */
async function permissionsStillHeld(
  db: Db,
  creator: CurrentUser,
  entityId: number,
  names: readonly IntegrationPermission[],
): Promise<IntegrationPermission[]> {
  const scopeOf = (r: (typeof INTEGRATION_PERMISSIONS)[IntegrationPermission][number]) =>
    scopeFor(creator.permissions as EffectivePermissions, r.resource, r.action);
  const needed = new Set<Scope>();
  for (const n of names) for (const p of INTEGRATION_PERMISSIONS[n]) needed.add(scopeOf(p) ?? 'ALL');
  const reach: Record<Scope, boolean> = { ALL: true, REGION: false, ENTITY: false };
  const partial = (['REGION', 'ENTITY'] as const).filter((s) => needed.has(s));
  if (partial.length) {
    const cols = partial.map((s) => sql`${entityId}::int in ${scopedEntityIds(creator.id, s)} as ${sql.raw(s.toLowerCase())}`);
    const [row] = rowsOf<{ region?: boolean; entity?: boolean }>(await db.execute(sql`select ${sql.join(cols, sql`, `)}`));
    reach.REGION = !!row?.region;
    reach.ENTITY = !!row?.entity;
  }
  return names.filter((n) =>
    INTEGRATION_PERMISSIONS[n].every((p) => {
      const s = scopeOf(p);
      return !!s && reach[s];
    }),
  );
}

/**
 * Resolves an integration token (`apt_…`) to the context it acts in: its creator, with only the token's
 * permissions that the creator still holds over the token's entity, each at scope ENTITY (the access guard pins
 * that scope to the token's entity). 401 when unknown, revoked, expired, when the creator is no longer active
 * or holds none of them. Cached with the sessions (emptied by the same 'aporta_auth' notification, which a
 * revocation raises); `last_used_at` is written at most once a minute.
 */
export async function authenticateApiToken(opts: {
  db: Db;
  token: string;
  ip: string | null;
  cache?: SessionCache;
}): Promise<AuthContext> {
  const { db, token, cache } = opts;
  const now = new Date();
  const hash = hashToken(token);
  const key = `apt:${hash}`;
  let entry = cache?.get(key);
  if (!entry) {
    const mark = cache?.mark() ?? 0;
    const [row] = await apiTokenStatementOf(db).execute({ hash });
    if (!row || row.revokedAt) throw new AppError('UNAUTHENTICATED', msg('integrations.invalid'));
    if (!row.isActive) throw new AppError('UNAUTHENTICATED', msg('integrations.creatorInactive'));
    const creator = currentUserOf(row, json<InstitutionRef[]>(row.institutions), json<Grant[]>(row.grants));
    const names = row.permissions.filter((p): p is IntegrationPermission => (integrationPermissionKeys as string[]).includes(p));
    const held = await permissionsStillHeld(db, creator, row.entityId, names);
    if (!held.length) throw new AppError('UNAUTHENTICATED', msg('integrations.noPermissionLeft'));
    const user: CurrentUser = {
      ...creator,
      permissions: tokenPermissions(held) as CurrentUser['permissions'],
      mustChangePassword: false,
    };
    entry = {
      auth: {
        sessionId: null,
        user,
        apiToken: { id: row.tokenId, entityId: row.entityId, name: row.tokenName },
        actorEmail: `${creator.email} (token #${row.tokenId})`,
      },
      expiresAt: row.expiresAt,
      lastSeenAt: row.lastUsedAt ?? new Date(0),
      cachedAt: Date.now(),
    };
    cache?.set(key, entry, mark);
  }
  if (entry.expiresAt <= now) throw new AppError('UNAUTHENTICATED', msg('integrations.expired'));
  const apiToken = entry.auth.apiToken as ApiTokenAuth;
  // Last used, to the minute: one UPDATE a minute at most per token (no notification: not an auth change).
  if (now.getTime() - entry.lastSeenAt.getTime() > 60_000) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, apiToken.id));
    entry.lastSeenAt = now;
  }
  const { user } = entry.auth;
  return {
    sessionId: null,
    user,
    apiToken,
    actor: { id: user.id, email: entry.auth.actorEmail ?? user.email, ip: opts.ip },
  };
}
