import { createHash } from 'node:crypto';
import { addDays, type Grant, guatemalaToday, periodOf, previousPeriod } from '@aporta/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, auditLog, planillas, rateLimitHits, roleGrants, userRoles, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

/**
 * Issue 30, "Done when": a token created for Mixco uploads, validates and submits Mixco's planilla through the
 * API and gets 404 for any other entity's records, though its creator sees every entity; expired, revoked or
 * orphaned tokens answer 401; a route outside the integration list 403; the privilege ceiling at creation and
 * at use; the per-token rate limit 429 with Retry-After.
 */

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
let mixco: { id: number; name: string };
let other: { id: number; name: string };

const today = guatemalaToday();
const period = previousPeriod(previousPeriod(periodOf(today)));
const ALL_PERMISSIONS = [
  'planillas.upload',
  'planillas.submit',
  'orders.read',
  'payments.read',
  'receipts.read',
  'statement.read',
] as const;

const operatorGrants: Grant[] = [
  ...(['READ', 'CREATE', 'UPDATE'] as const).map((action) => ({
    resource: 'planillas' as const,
    action,
    scope: 'ENTITY' as const,
  })),
  ...(['READ', 'CREATE'] as const).map((action) => ({ resource: 'planilla-upload' as const, action, scope: 'ENTITY' as const })),
  ...(['READ', 'CREATE', 'DELETE'] as const).map((action) => ({
    resource: 'api-tokens' as const,
    action,
    scope: 'ENTITY' as const,
  })),
];

beforeAll(async () => {
  t = await createTestApp({ API_TOKEN_RATE_PER_MINUTE: '1000' });
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  mixco = fx.entityB;
  other = fx.entityA;
  await t.app.jobs.start();
});
afterAll(() => t.close());

async function createToken(token: string, over: Record<string, unknown> = {}) {
  return t.request({
    method: 'POST',
    url: '/api/api-tokens',
    token,
    payload: {
      name: 'Nómina Mixco',
      entityId: mixco.id,
      permissions: [...ALL_PERMISSIONS],
      expiresOn: addDays(today, 30),
      ...over,
    },
  });
}

function upload(token: string, entityId: number, csv: string) {
  const boundary = '----integracion';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="planilla.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return t.request({
    method: 'POST',
    url: `/api/planilla-uploads?entityId=${entityId}&period=${period}`,
    token,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

/** GETs `url` until `done` holds of its answer (a background job ended). */
async function until(url: string, token: string, done: (body: Record<string, unknown>) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await t.request({ method: 'GET', url, token });
    if (res.statusCode !== 200 || done(res.json()) || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a token for Mixco', () => {
  let token = '';
  let tokenId = 0;
  let otherPlanillaId = 0;

  it('is created by an administrator and answered once, with the apt_ prefix; lists carry no hash', async () => {
    const res = await createToken(admin.token);
    expect(res.statusCode, res.body).toBe(201);
    token = res.json().token;
    tokenId = res.json().apiToken.id;
    expect(token).toMatch(/^apt_[A-Za-z0-9_-]{43}$/);
    expect(res.json().apiToken).toMatchObject({
      name: 'Nómina Mixco',
      entityId: mixco.id,
      state: 'ACTIVE',
      prefix: token.slice(0, 10),
      createdById: admin.id,
      lastUsedAt: null,
    });
    const hash = createHash('sha256').update(token).digest('hex');
    const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, tokenId));
    expect(row.tokenHash).toBe(hash);
    const list = await t.request({ method: 'GET', url: '/api/api-tokens', token: admin.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((i: { id: number }) => i.id)).toContain(tokenId);
    expect(list.body).not.toContain(hash);
    expect(list.body).not.toContain(token);
    const csv = await t.request({ method: 'GET', url: '/api/api-tokens/export?format=csv', token: admin.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Nómina Mixco');
    expect(csv.body).not.toContain(token);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'api_token'), eq(auditLog.entityId, String(tokenId)), eq(auditLog.action, 'CREATE')));
    expect(audit).toMatchObject({ actorId: admin.id, scopeEntityId: mixco.id });
    expect(JSON.stringify(audit.after)).not.toContain(token);
  });

  it('uploads, validates and submits Mixco’s planilla through the API', async () => {
    const rows = ['CUI;NOMBRE;RENGLON;SALARIO', `${newCui()};Pedro Pérez;011;4000.00`, `${newCui()};Luisa Gómez;011;3500.00`];
    const up = await upload(token, mixco.id, rows.join('\r\n'));
    expect(up.statusCode, up.body).toBe(201);
    const batchId = up.json().id;
    const validated = await until(`/api/planilla-uploads/${batchId}`, token, (b) => b.status !== 'VALIDANDO');
    expect(validated.json()).toMatchObject({ status: 'VALIDADO', validRows: 2, errorRows: 0 });
    const commit = await t.request({ method: 'POST', url: `/api/planilla-uploads/${batchId}/commit`, token });
    expect(commit.statusCode, commit.body).toBe(202);
    const committed = await until(`/api/planilla-uploads/${batchId}`, token, (b) => b.status !== 'CONFIRMANDO');
    expect(committed.json()).toMatchObject({ status: 'CONFIRMADO', planillaId: expect.any(Number) });
    const planillaId = committed.json().planillaId;
    const submit = await t.request({
      method: 'POST',
      url: `/api/planillas/${planillaId}/transitions`,
      token,
      payload: { to: 'ENVIANDO' },
    });
    expect(submit.statusCode, submit.body).toBe(200);
    const sent = await until(`/api/planillas/${planillaId}`, token, (p) => p.state !== 'ENVIANDO');
    expect(sent.json()).toMatchObject({ state: 'ENVIADA', entityId: mixco.id, lineCount: 2 });
    // Audited as the creator, naming the token.
    const [p] = await t.database.db.select().from(planillas).where(eq(planillas.id, planillaId));
    expect(p.entityId).toBe(mixco.id);
    const trail = await t.database.db
      .select({ actorId: auditLog.actorId, actorEmail: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'planilla'), eq(auditLog.entityId, String(planillaId))));
    expect(trail.some((a) => a.actorId === admin.id && a.actorEmail === `${admin.email} (token #${tokenId})`)).toBe(true);
    // last_used_at recorded.
    const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, tokenId));
    expect(row.lastUsedAt).not.toBeNull();
  });

  it('gets 404 for another entity’s records, and sees only Mixco’s in lists, though its creator sees every entity', async () => {
    const draft = await t.request({
      method: 'POST',
      url: '/api/planillas',
      token: admin.token,
      payload: { entityId: other.id, period },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    otherPlanillaId = draft.json().id;
    expect((await t.request({ method: 'GET', url: `/api/planillas/${otherPlanillaId}`, token: admin.token })).statusCode).toBe(
      200,
    );
    for (const url of [
      `/api/planillas/${otherPlanillaId}`,
      `/api/planillas/${otherPlanillaId}/lines`,
      `/api/planillas/${otherPlanillaId}/comments`,
      `/api/financial/statement?entityId=${other.id}`,
    ]) {
      const res = await t.request({ method: 'GET', url, token });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
    }
    const move = await t.request({
      method: 'POST',
      url: `/api/planillas/${otherPlanillaId}/transitions`,
      token,
      payload: { to: 'ENVIANDO' },
    });
    expect(move.statusCode, move.body).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/financial/statement?entityId=${mixco.id}`, token })).statusCode).toBe(
      200,
    );
    const list = await t.request({ method: 'GET', url: '/api/planillas?pageSize=200', token });
    expect(list.statusCode).toBe(200);
    const entities = new Set(list.json().items.map((p: { entityId: number }) => p.entityId));
    expect([...entities]).toEqual([mixco.id]);
    // Uploading for another entity is refused before reading the file.
    const up = await upload(token, other.id, 'CUI;NOMBRE;RENGLON;SALARIO\r\n');
    expect([403, 404]).toContain(up.statusCode);
    for (const url of ['/api/payment-orders', '/api/payments', '/api/receipts']) {
      const res = await t.request({ method: 'GET', url, token });
      expect(res.statusCode, url).toBe(200);
      for (const item of res.json().items as { entityId?: number }[]) expect(item.entityId).toBe(mixco.id);
    }
  });

  it('answers 403 naming the route outside the integration routes', async () => {
    for (const url of ['/api/contributors', '/api/auth/me', '/api/api-tokens', '/api/planillas/export']) {
      const res = await t.request({ method: 'GET', url, token });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toMatchObject({ key: 'integrations.routeNotAllowed', params: { method: 'GET' } });
    }
    const create = await t.request({ method: 'POST', url: '/api/planillas', token, payload: { entityId: mixco.id, period } });
    expect(create.statusCode).toBe(403);
  });

  it('answers 429 with Retry-After beyond its requests a minute', async () => {
    // The counter lives in the shared rate-limit table: the token has used up its minute.
    await t.database.db
      .insert(rateLimitHits)
      .values({ key: `*|api-token:${tokenId}`, hits: 1000, windowEndsAt: sql`now() + interval '30 seconds'` })
      .onConflictDoUpdate({ target: rateLimitHits.key, set: { hits: 1000, windowEndsAt: sql`now() + interval '30 seconds'` } });
    const res = await t.request({ method: 'GET', url: '/api/planillas', token });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json().error).toMatchObject({ code: 'RATE_LIMITED', key: 'integrations.rateLimited' });
    await t.database.db.delete(rateLimitHits).where(eq(rateLimitHits.key, `*|api-token:${tokenId}`));
    expect((await t.request({ method: 'GET', url: '/api/planillas', token })).statusCode).toBe(200);
  });

  it('answers 401 once revoked; revoking again is 409 and is audited once', async () => {
    const revoke = await t.request({ method: 'POST', url: `/api/api-tokens/${tokenId}/revoke`, token: admin.token });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(revoke.json()).toMatchObject({ state: 'REVOKED', revokedAt: expect.any(String) });
    const res = await t.request({ method: 'GET', url: '/api/planillas', token });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.key).toBe('integrations.invalid');
    expect((await t.request({ method: 'POST', url: `/api/api-tokens/${tokenId}/revoke`, token: admin.token })).statusCode).toBe(
      409,
    );
    expect((await t.request({ method: 'POST', url: '/api/api-tokens/2147483647/revoke', token: admin.token })).statusCode).toBe(
      404,
    );
    const revokes = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'api_token'), eq(auditLog.entityId, String(tokenId)), eq(auditLog.action, 'REVOKE')));
    expect(revokes).toHaveLength(1);
  });
});

describe('tokens that no longer open anything', () => {
  it('an expired token and an unknown one answer 401', async () => {
    const res = await createToken(admin.token, { permissions: ['orders.read'] });
    const { token, apiToken } = res.json();
    expect((await t.request({ method: 'GET', url: '/api/payment-orders', token })).statusCode).toBe(200);
    await t.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, apiToken.id));
    const expired = await t.request({ method: 'GET', url: '/api/payment-orders', token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.key).toBe('integrations.expired');
    const list = await t.request({ method: 'GET', url: '/api/api-tokens?state=EXPIRED', token: admin.token });
    expect(list.json().items.map((i: { id: number }) => i.id)).toContain(apiToken.id);
    const unknown = await t.request({ method: 'GET', url: '/api/payment-orders', token: `apt_${'x'.repeat(43)}` });
    expect(unknown.statusCode).toBe(401);
  });

  it('a deactivated creator disables the token; a permission the creator lost is refused (403)', async () => {
    const creator = await t.createUser({ grants: operatorGrants });
    await attachUserToEntity(t.database.db, creator.id, mixco.id);
    const res = await createToken(creator.token, { permissions: ['planillas.upload', 'planillas.submit'] });
    expect(res.statusCode, res.body).toBe(201);
    const { token } = res.json();
    expect((await t.request({ method: 'GET', url: '/api/planilla-uploads', token })).statusCode).toBe(200);
    // The creator loses planilla-upload: the upload routes refuse, the planillas routes still answer.
    const [ur] = await t.database.db.select().from(userRoles).where(eq(userRoles.userId, creator.id));
    await t.database.db
      .delete(roleGrants)
      .where(and(eq(roleGrants.roleId, ur.roleId), eq(roleGrants.resource, 'planilla-upload')));
    expect((await t.request({ method: 'GET', url: '/api/planilla-uploads', token })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/planillas', token })).statusCode).toBe(200);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, creator.id));
    const refused = await t.request({ method: 'GET', url: '/api/planillas', token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.key).toBe('integrations.creatorInactive');
  });
});

describe('the privilege ceiling at creation', () => {
  let operator: TestUser;
  beforeAll(async () => {
    operator = await t.createUser({ grants: operatorGrants });
    await attachUserToEntity(t.database.db, operator.id, mixco.id);
  });

  it('an entity’s own administrator creates tokens for their entity only, with permissions they hold', async () => {
    const ok = await createToken(operator.token, { permissions: ['planillas.upload'] });
    expect(ok.statusCode, ok.body).toBe(201);
    const beyond = await createToken(operator.token, { permissions: ['planillas.upload', 'statement.read', 'orders.read'] });
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().error).toMatchObject({ key: 'integrations.permissionsNotHeld' });
    expect(beyond.json().error.params.names).toContain('estado de cuenta');
    const otherEntity = await createToken(operator.token, { entityId: other.id, permissions: ['planillas.upload'] });
    expect(otherEntity.statusCode).toBe(404);
    const entities = await t.request({ method: 'GET', url: '/api/api-tokens/entities', token: operator.token });
    expect(entities.json().map((e: { id: number }) => e.id)).toEqual([mixco.id]);
    // Their list shows their entity's tokens only.
    await createToken(admin.token, { entityId: other.id, name: 'Token de otra entidad' });
    const list = await t.request({ method: 'GET', url: '/api/api-tokens?pageSize=200', token: operator.token });
    expect(new Set(list.json().items.map((i: { entityId: number }) => i.entityId))).toEqual(new Set([mixco.id]));
  });

  it('refuses an expiry not after today or beyond a year, and unknown or repeated permissions (400 naming the field)', async () => {
    for (const [over, path] of [
      [{ expiresOn: today }, 'expiresOn'],
      [{ expiresOn: addDays(today, 366) }, 'expiresOn'],
      [{ permissions: ['planillas.approve'] }, 'permissions.0'],
      [{ permissions: [] }, 'permissions'],
      [{ permissions: ['orders.read', 'orders.read'] }, 'permissions'],
      [{ name: '' }, 'name'],
    ] as const) {
      const res = await createToken(admin.token, over);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await createToken(admin.token, { expiresOn: addDays(today, 365) })).statusCode).toBe(201);
    // No entity picked (the form sends 0) or not an id: the field says what to do, not "identificador no válido".
    for (const entityId of [0, null, 'Mixco', 1.5]) {
      const res = await createToken(admin.token, { entityId });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toContainEqual(
        expect.objectContaining({ path: 'entityId', message: 'Entidad: elija la entidad cuyo sistema usará el token.' }),
      );
    }
  });
});

describe('OpenAPI', () => {
  it('lists the integration routes under «Integraciones» with the token’s security scheme', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/planilla-uploads'].post.tags).toContain('Integraciones');
    expect(doc.paths['/api/planillas/{id}/transitions'].post.security).toEqual([{ bearer: [] }, { apiToken: [] }]);
    expect(doc.paths['/api/contributors'].get.tags).not.toContain('Integraciones');
  });
});
