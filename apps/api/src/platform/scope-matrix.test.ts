import {
  type Action,
  formatCui,
  grantsSchema,
  type Resource,
  resourceScopability,
  resources,
  type Scope,
  validScopes,
} from '@aporta/domain';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delegates, institutions, regionDelegates, regions, userInstitutions } from '../db/schema/index.ts';
import { seedRoles } from '../db/seed/accounts.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../modules/contributors/fixtures.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';

/**
 * The generated scope test. For every route whose permission's resource the domain declares
 * scopable, a user holding that resource with a REGION grant (a delegate of the region of entity A)
 * and one with an ENTITY grant (member of entity A's ENTIDAD institution) must see and change only
 * entity A's rows: lists, exports, gets by id (404 outside), history, statistics, search. Entity B's
 * rows, and rows about no entity (roles, central users), never show. A route added later for a
 * scopable resource without a case here fails the coverage test, naming it.
 */

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
let regionId: number;

/** What the cases look at: one row of each kind in entity A (in scope) and in entity B (out). */
interface Side {
  entityName: string;
  cui: string;
  contributorId: number;
  requestId: number;
  userEmail: string;
  entityRegionId: number;
  assignmentId: number;
  salary: string;
}
let A: Side;
let B: Side;
/** Markers of rows about no entity: visible only with ALL. */
let centralEmail: string;
const ROLE_MARKER = 'ROL-MARCADOR-ALCANCE';

type Ctx = { user: TestUser; scope: Scope };
type Check = (ctx: Ctx) => Promise<void>;
/** A route's case: how it proves the scope, or why it has no rows to scope (named, reviewed). */
type Case = { check: Check } | { exempt: string };

const get = (token: string, url: string) => t.request({ method: 'GET', url, token });

/** The text of an answer (JSON/CSV as is, xlsx cell by cell), with CUIs unformatted ("3180 20343 0904"). */
async function textOf(res: LightMyRequestResponse): Promise<string> {
  return (await rawTextOf(res)).replace(/(\d) (?=\d)/g, '$1');
}

async function rawTextOf(res: LightMyRequestResponse): Promise<string> {
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('spreadsheetml')) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => cells.push(String(c.text)))));
    return cells.join('\n');
  }
  return res.body;
}

/** 200, and the answer shows every `inside` marker and no `outside` one. */
function shows(url: (ctx: Ctx) => string, inside: () => string[], outside: () => string[]): Check {
  return async (ctx) => {
    const res = await get(ctx.user.token, url(ctx));
    expect(res.statusCode, `${url(ctx)}: ${res.body.slice(0, 300)}`).toBe(200);
    const text = await textOf(res);
    for (const m of inside()) expect(text, `${url(ctx)} must show ${m}`).toContain(m);
    for (const m of outside()) expect(text, `${url(ctx)} must not show ${m}`).not.toContain(m);
  };
}

/** By id: the in-scope row answers 200, the out-of-scope one 404. */
function byId(url: (s: Side) => string): Check {
  return async (ctx) => {
    expect((await get(ctx.user.token, url(A))).statusCode, url(A)).toBe(200);
    const out = await get(ctx.user.token, url(B));
    expect(out.statusCode, url(B)).toBe(404);
  };
}

const cuiMarkers = (s: Side) => [s.cui];
const outsideAudit = () => [B.cui, ROLE_MARKER, centralEmail];

const collectionCases = (name: 'municipal-entities' | 'entity-regions' | 'entity-assignment'): Record<string, Case> => {
  const idOf = (s: Side) =>
    name === 'municipal-entities'
      ? fx[s === A ? 'entityA' : 'entityB'].id
      : name === 'entity-regions'
        ? s.entityRegionId
        : s.assignmentId;
  const base = `/api/collections/${name}`;
  const names = () => [A.entityName];
  const outNames = () => [B.entityName];
  return {
    [`GET ${base}`]: { check: shows(() => `${base}?pageSize=100`, names, outNames) },
    [`GET ${base}/export`]: { check: shows(() => `${base}/export?format=csv`, names, outNames) },
    [`GET ${base}/schema`]: { exempt: 'field metadata of the collection, no rows' },
    [`GET ${base}/options/:field`]:
      name === 'municipal-entities'
        ? { exempt: 'municipal entities reference only catalogues (classification, municipality), no entity rows' }
        : { check: shows(() => `${base}/options/entityId`, names, outNames) },
    [`GET ${base}/:id`]: { check: byId((s) => `${base}/${idOf(s)}`) },
    [`GET ${base}/:id/history`]: {
      check: async (ctx) => {
        await byId((s) => `${base}/${idOf(s)}/history`)(ctx);
      },
    },
    [`POST ${base}`]:
      name === 'municipal-entities'
        ? { exempt: 'creating an entity needs scope ALL (collections service refuses others with 403)' }
        : {
            check: async (ctx) => {
              const payload =
                name === 'entity-regions' ? { entityId: fx.entityB.id, regionId } : { entityId: fx.entityB.id, delegateId: 1 };
              const res = await t.request({ method: 'POST', url: base, token: ctx.user.token, payload });
              expect([400, 403], res.body).toContain(res.statusCode);
            },
          },
    [`PATCH ${base}/:id`]: {
      check: async (ctx) => {
        const res = await t.request({ method: 'PATCH', url: `${base}/${idOf(B)}`, token: ctx.user.token, payload: {} });
        expect(res.statusCode, res.body).toBe(404);
      },
    },
    [`DELETE ${base}/:id`]: {
      check: async (ctx) => {
        const res = await t.request({ method: 'DELETE', url: `${base}/${idOf(B)}`, token: ctx.user.token });
        expect(res.statusCode, res.body).toBe(404);
      },
    },
  };
};

const reportCases = (kind: string): Record<string, Case> => ({
  [`GET /api/contributor-reports/${kind}`]: {
    check: shows(
      () => `/api/contributor-reports/${kind}`,
      () => [A.salary],
      () => [B.salary],
    ),
  },
  [`GET /api/contributor-reports/${kind}/export`]: {
    check: shows(
      () => `/api/contributor-reports/${kind}/export?format=xlsx`,
      () => [],
      () => [B.salary.replace(/\.\d+$/, '')],
    ),
  },
});

const auditCases = (base: string): Record<string, Case> => ({
  [`GET ${base}`]: {
    check: shows(
      () => `${base}?pageSize=100`,
      () => (base === '/api/audit' ? cuiMarkers(A) : []),
      outsideAudit,
    ),
  },
  [`GET ${base}/facets`]: {
    check: shows(
      () => `${base}/facets`,
      () => [],
      () => (base === '/api/audit' ? ['"role"', '"user"'] : []),
    ),
  },
  [`GET ${base}/export`]: {
    check: shows(
      () => `${base}/export?format=csv`,
      () => (base === '/api/audit' ? cuiMarkers(A) : []),
      outsideAudit,
    ),
  },
});

const cases: Record<string, Case> = {
  // Users: the members of the ENTIDAD institutions of the entities in scope.
  'GET /api/users': {
    check: shows(
      () => '/api/users?pageSize=100',
      () => [A.userEmail],
      () => [B.userEmail, centralEmail],
    ),
  },
  'GET /api/users/export': {
    check: shows(
      () => '/api/users/export?format=csv',
      () => [A.userEmail],
      () => [B.userEmail, centralEmail],
    ),
  },
  'GET /api/users/options': { exempt: 'roles and institutions that can be assigned (the privilege ceiling decides)' },
  'GET /api/users/:id': {
    check: async (ctx) => {
      const ids = await userIds();
      expect((await get(ctx.user.token, `/api/users/${ids.a}`)).statusCode).toBe(200);
      expect((await get(ctx.user.token, `/api/users/${ids.b}`)).statusCode).toBe(404);
      expect((await get(ctx.user.token, `/api/users/${ids.central}`)).statusCode).toBe(404);
    },
  },
  'POST /api/users': { exempt: 'which institutions a new account may get is the privilege ceiling (roles/users services)' },
  ...Object.fromEntries(
    ['PUT /api/users/:id', 'POST /api/users/:id/activate', 'POST /api/users/:id/deactivate'].map((key) => [
      key,
      {
        check: async (ctx: Ctx) => {
          const { b } = await userIds();
          const [method, path] = key.split(' ');
          const res = await t.request({
            method: method as 'PUT',
            url: path.replace(':id', String(b)),
            token: ctx.user.token,
            payload: method === 'PUT' ? { email: B.userEmail, firstName: 'X', lastName: 'Y' } : undefined,
          });
          expect([400, 404], `${key}: ${res.body}`).toContain(res.statusCode);
        },
      },
    ]),
  ),
  'POST /api/users/:id/reset-password': {
    check: async (ctx) => {
      const { b } = await userIds();
      const res = await t.request({ method: 'POST', url: `/api/users/${b}/reset-password`, token: ctx.user.token });
      expect(res.statusCode, res.body).toBe(404);
    },
  },
  'POST /api/users/:id/revoke-sessions': {
    check: async (ctx) => {
      const { b } = await userIds();
      const res = await t.request({ method: 'POST', url: `/api/users/${b}/revoke-sessions`, token: ctx.user.token });
      expect(res.statusCode, res.body).toBe(404);
    },
  },
  ...collectionCases('municipal-entities'),
  ...collectionCases('entity-regions'),
  ...collectionCases('entity-assignment'),
  ...auditCases('/api/audit'),
  ...auditCases('/api/audit/planillas'),
  'GET /api/statistics': {
    check: shows(
      () => '/api/statistics',
      () => [],
      () => [B.entityName],
    ),
  },
  'GET /api/renap/lookups': {
    check: shows(
      () => '/api/renap/lookups?pageSize=100',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'GET /api/renap/:cui': {
    check: async (ctx) => {
      expect((await get(ctx.user.token, `/api/renap/${A.cui}`)).json().contributor?.id).toBe(A.contributorId);
      expect((await get(ctx.user.token, `/api/renap/${B.cui}`)).json().contributor).toBeNull();
    },
  },
  'GET /api/contributors': {
    check: shows(
      () => '/api/contributors?pageSize=100',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'GET /api/contributors/export': {
    check: shows(
      () => '/api/contributors/export?format=csv',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'POST /api/contributors/export-jobs': {
    // The background export runs with the starter's scope: its file holds the same rows as the direct one.
    check: async (ctx) => {
      const start = await t.request({ method: 'POST', url: '/api/contributors/export-jobs?format=csv', token: ctx.user.token });
      expect(start.statusCode, start.body).toBe(202);
      const { jobId } = start.json();
      await t.app.jobs.start();
      try {
        for (let i = 0; ; i++) {
          const job = (await get(ctx.user.token, `/api/jobs/${jobId}`)).json();
          if (job.state === 'DONE') break;
          expect(['QUEUED', 'RUNNING'], JSON.stringify(job)).toContain(job.state);
          expect(i).toBeLessThan(600);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        await t.app.jobs.stop();
      }
      const text = await textOf(await get(ctx.user.token, `/api/jobs/${jobId}/file`));
      expect(text).toContain(A.cui);
      expect(text).not.toContain(B.cui);
    },
  },
  'GET /api/contributors/search': {
    check: shows(
      () => '/api/contributors/search?q=Alcance',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'GET /api/contributors/overview': {
    check: async (ctx) => {
      const res = await get(ctx.user.token, '/api/contributors/overview');
      expect(res.statusCode).toBe(200);
      expect(res.json().total).toBe(1);
      expect(res.body).not.toContain(B.cui);
    },
  },
  'GET /api/contributors/options': {
    check: shows(
      () => '/api/contributors/options',
      () => [A.entityName],
      () => [B.entityName],
    ),
  },
  'GET /api/contributors/renap/:cui': {
    check: async (ctx) => {
      expect((await get(ctx.user.token, `/api/contributors/renap/${A.cui}`)).json().contributor?.id).toBe(A.contributorId);
      expect((await get(ctx.user.token, `/api/contributors/renap/${B.cui}`)).json().contributor).toBeNull();
    },
  },
  'GET /api/contributors/:id': { check: byId((s) => `/api/contributors/${s.contributorId}`) },
  'GET /api/contributors/:id/history': { check: byId((s) => `/api/contributors/${s.contributorId}/history`) },
  'POST /api/contributors': {
    check: async (ctx) => {
      // An out-of-scope entity is refused naming the field.
      const outEntity = await t.request({
        method: 'POST',
        url: '/api/contributors',
        token: ctx.user.token,
        payload: contributorBody({ entityId: fx.entityB.id }),
      });
      expect(outEntity.statusCode, outEntity.body).toBe(400);
      expect(outEntity.json().error.details[0].path).toBe('entityId');
      // Without an entity the row would belong to nobody's scope.
      const noEntity = await t.request({
        method: 'POST',
        url: '/api/contributors',
        token: ctx.user.token,
        payload: contributorBody({ entityId: null }),
      });
      expect(noEntity.statusCode, noEntity.body).toBe(400);
      // A CUI registered in another entity: refused without its number, holder or link.
      const dup = await t.request({
        method: 'POST',
        url: '/api/contributors',
        token: ctx.user.token,
        payload: contributorBody({ cui: B.cui }),
      });
      expect(dup.statusCode, dup.body).toBe(409);
      for (const leak of [B.cui, formatCui(B.cui), `/contributors/${B.contributorId}`, 'Fuera']) {
        expect(dup.body).not.toContain(leak);
      }
    },
  },
  'PUT /api/contributors/:id': {
    check: async (ctx) => {
      const put = (id: number, over: Record<string, unknown>) =>
        t.request({ method: 'PUT', url: `/api/contributors/${id}`, token: ctx.user.token, payload: contributorBody(over) });
      expect((await put(B.contributorId, { cui: B.cui })).statusCode).toBe(404);
      const empty = await put(A.contributorId, { cui: A.cui, entityId: null });
      expect(empty.statusCode, empty.body).toBe(400);
      expect(empty.json().error.details[0]).toMatchObject({ path: 'entityId' });
      const away = await put(A.contributorId, { cui: A.cui, entityId: fx.entityB.id });
      expect(away.statusCode, away.body).toBe(400);
      const dup = await put(A.contributorId, { cui: B.cui });
      expect(dup.statusCode, dup.body).toBe(409);
      expect(dup.body).not.toContain(formatCui(B.cui));
      expect(dup.body).not.toContain(String(B.contributorId));
    },
  },
  'GET /api/cui-approvals': {
    check: shows(
      () => '/api/cui-approvals?pageSize=100',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'GET /api/cui-approvals/:id': { check: byId((s) => `/api/cui-approvals/${s.requestId}`) },
  'GET /api/cui-approvals/:id/review': { check: byId((s) => `/api/cui-approvals/${s.requestId}/review`) },
  'POST /api/cui-approvals/:id/decision': {
    check: async (ctx) => {
      const res = await t.request({
        method: 'POST',
        url: `/api/cui-approvals/${B.requestId}/decision`,
        token: ctx.user.token,
        payload: { decision: 'RECHAZADO', reason: 'prueba de alcance' },
      });
      expect(res.statusCode, res.body).toBe(404);
    },
  },
  'GET /api/contributor-imports/template': { exempt: 'an empty template, no rows' },
  'POST /api/contributor-imports': {
    exempt: 'rows of an entity outside scope are exceptions (contributor-imports tests); an upload is its uploader’s only',
  },
  'GET /api/contributor-imports': { exempt: 'lists only the requester’s own unfinished uploads (contributor-imports tests)' },
  'GET /api/contributor-imports/:id': { exempt: 'an upload is visible only to its uploader (contributor-imports tests)' },
  'GET /api/contributor-imports/:id/rows': { exempt: 'an upload is visible only to its uploader' },
  'GET /api/contributor-imports/:id/exceptions': { exempt: 'an upload is visible only to its uploader' },
  'POST /api/contributor-imports/:id/commit': { exempt: 'an upload is visible only to its uploader' },
  'POST /api/contributor-imports/:id/discard': { exempt: 'an upload is visible only to its uploader' },
  ...reportCases('general'),
  ...reportCases('by-municipality'),
  ...reportCases('by-type'),
};

let ids: { a: number; b: number; central: number } | undefined;
async function userIds() {
  if (ids) return ids;
  const byEmail = async (email: string) => {
    const res = await get(admin.token, `/api/users?q=${encodeURIComponent(email)}`);
    return res.json().items[0].id as number;
  };
  ids = { a: await byEmail(A.userEmail), b: await byEmail(B.userEmail), central: await byEmail(centralEmail) };
  return ids;
}

const contributorBody = (over: Record<string, unknown> = {}) => ({
  cui: newCui(),
  firstName: 'Ana',
  firstSurname: 'Alcance',
  birthDate: '1990-05-01',
  sex: 'F',
  typeId: fx.typeId,
  entityId: fx.entityA.id,
  municipalityId: fx.municipality.id,
  budgetLineCode: '011',
  salary: '3500.00',
  ...over,
});

async function side(entity: { id: number; name: string }, surname: string, salary: string): Promise<Side> {
  const db = t.database.db;
  const cui = newCui();
  const res = await t.request({
    method: 'POST',
    url: '/api/contributors',
    token: admin.token,
    payload: contributorBody({ cui, firstSurname: surname, entityId: entity.id, salary }),
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  const contributorId = res.json().contributor.id as number;
  const approvals = await get(admin.token, `/api/cui-approvals?pageSize=100`);
  const requestId = approvals.json().items.find((r: { contributorId: number }) => r.contributorId === contributorId).id;
  const member = await t.createUser();
  await attachUserToEntity(db, member.id, entity.id);
  const reg = await t.request({
    method: 'POST',
    url: '/api/collections/entity-regions',
    token: admin.token,
    payload: { entityId: entity.id, regionId: surname === 'Alcance' ? regionId : otherRegionId },
  });
  if (reg.statusCode !== 201) throw new Error(reg.body);
  const asg = await t.request({
    method: 'POST',
    url: '/api/collections/entity-assignment',
    token: admin.token,
    payload: { entityId: entity.id, delegateId: otherDelegateId },
  });
  if (asg.statusCode !== 201) throw new Error(asg.body);
  return {
    entityName: entity.name,
    cui,
    contributorId,
    requestId,
    userEmail: member.email,
    entityRegionId: reg.json().id,
    assignmentId: asg.json().id,
    salary,
  };
}

let otherRegionId: number;
let otherDelegateId: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(db);
  [{ id: regionId }] = await db.insert(regions).values({ code: 'R-ALC', name: 'Región del alcance' }).returning();
  [{ id: otherRegionId }] = await db.insert(regions).values({ code: 'R-OTRA', name: 'Otra región' }).returning();
  // A delegate of nobody in the test: holds the entity assignments of both entities.
  const other = await t.createUser();
  [{ id: otherDelegateId }] = await db.insert(delegates).values({ userId: other.id, cui: newCui() }).returning();
  A = await side(fx.entityA, 'Alcance', '1111.11');
  B = await side(fx.entityB, 'Fuera', '7777.77');
  // Rows about no entity: a role (audit) and a central user (no ENTIDAD institution).
  const role = await t.request({ method: 'POST', url: '/api/roles', token: admin.token, payload: { name: ROLE_MARKER } });
  expect(role.statusCode, role.body).toBe(201);
  centralEmail = (await t.createUser()).email;
  const [central] = await db
    .insert(institutions)
    .values({ code: 'CENTRAL-ALC', name: 'Oficina central', kind: 'INSTITUCION' })
    .returning();
  await db.insert(userInstitutions).values({ userId: ids?.central ?? (await userIds()).central, institutionId: central.id });
}, 120_000);
afterAll(() => t.close());

/** A signed-in user holding every action of `resource` with `scope`, linked so that it reaches entity A. */
async function scopedUser(resource: Resource, scope: Scope): Promise<TestUser> {
  const grants = (resources[resource] as readonly Action[]).map((action) => ({ resource, action, scope }));
  const user = await t.createUser({ grants });
  const db = t.database.db;
  if (scope === 'REGION') {
    const [d] = await db.insert(delegates).values({ userId: user.id, cui: newCui() }).returning();
    await db.insert(regionDelegates).values({ regionId, delegateId: d.id });
  } else {
    await attachUserToEntity(db, user.id, fx.entityA.id);
  }
  return user;
}

const scopedRoutes = () =>
  t.app.routeTable.filter((r) => typeof r.access === 'object' && resourceScopability[r.access.resource] !== 'none') as {
    method: string;
    url: string;
    access: { resource: Resource; action: Action };
  }[];

describe('scope matrix', () => {
  it('has a case for every route of a scopable resource', () => {
    const missing = scopedRoutes()
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !cases[key]);
    expect(missing, 'routes of scopable resources without a scope case').toEqual([]);
    const stale = Object.keys(cases).filter((key) => !scopedRoutes().some((r) => `${r.method} ${r.url}` === key));
    expect(stale, 'scope cases of routes that no longer exist').toEqual([]);
  });

  it('the fixture is visible in full to scope ALL (so the scoped checks below prove something)', async () => {
    const list = await get(admin.token, '/api/contributors?pageSize=100');
    expect(list.body).toContain(A.cui);
    expect(list.body).toContain(B.cui);
    const audit = await get(admin.token, '/api/audit?pageSize=200');
    for (const m of [A.cui, B.cui, ROLE_MARKER]) expect(audit.body).toContain(m);
    const users = await get(admin.token, '/api/users?pageSize=100');
    for (const m of [A.userEmail, B.userEmail, centralEmail]) expect(users.body).toContain(m);
  });

  for (const scope of ['REGION', 'ENTITY'] as const) {
    it(`${scope} grants see and change only in-scope rows on every scopable route`, async () => {
      const users = new Map<Resource, TestUser>();
      let checked = 0;
      for (const r of scopedRoutes()) {
        const c = cases[`${r.method} ${r.url}`];
        if (!c || 'exempt' in c) continue;
        let user = users.get(r.access.resource);
        if (!user) {
          user = await scopedUser(r.access.resource, scope);
          users.set(r.access.resource, user);
        }
        await c.check({ user, scope });
        checked += 1;
      }
      expect(checked).toBeGreaterThan(40);
      console.info(`[scope matrix] ${scope}: ${checked} routes checked over ${users.size} scopable resources`);
    }, 300_000);
  }
});

describe('scopes a role may grant', () => {
  it('the role API refuses a scope the resource does not admit, naming the resource', async () => {
    for (const grant of [
      { resource: 'roles', action: 'READ', scope: 'REGION' },
      { resource: 'municipalities', action: 'UPDATE', scope: 'ENTITY' },
    ]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/roles',
        token: admin.token,
        payload: { name: 'Rol inválido', grants: [grant] },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(grant.resource);
    }
    const ok = await t.request({
      method: 'POST',
      url: '/api/roles',
      token: admin.token,
      payload: { name: 'Rol de región', grants: [{ resource: 'contributors', action: 'READ', scope: 'REGION' }] },
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('the seeded roles grant only valid scopes', () => {
    for (const role of seedRoles) {
      expect(grantsSchema.safeParse(role.grants).success, role.name).toBe(true);
      for (const g of role.grants) expect(validScopes(g.resource)).toContain(g.scope);
    }
  });
});
