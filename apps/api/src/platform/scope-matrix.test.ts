import {
  type Action,
  formatCui,
  type Grant,
  grantsSchema,
  guatemalaToday,
  type Resource,
  resourceScopability,
  resources,
  type Scope,
  validScopes,
} from '@aporta/domain';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  arrearsNoticeCampaigns,
  arrearsNotices,
  contributors,
  delegates,
  institutions,
  jobs,
  municipalEntities,
  planillas,
  regionDelegates,
  regions,
  roles,
  solvencyCertificates,
  userInstitutions,
} from '../db/schema/index.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../modules/contributors/fixtures.ts';
import { insertOrder, issuePlanillaOrders } from '../modules/payments/orders.ts';
import { seedRoles } from '../seed/accounts.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { multipartBody, samplePdf } from '../test/pdfs.ts';
import { systemContext } from './context.ts';

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
  planillaId: number;
  lineId: number;
  pensionId: number;
  /** A request (SIG item) of the entity, whose data carries the side's CUI (issue 17). */
  sigId?: number;
  /** The planilla's employee-share payment order, a partial payment of it and its 7-B receipt (issue 13). */
  orderId: number;
  paymentId: number;
  receiptId: number;
  /** A payment agreement over an extra overdue order of the entity (issue 14). */
  agreementId?: number;
  /** A solvency certificate of the entity (inserted: the fixture's entities are in arrears). */
  certificateId?: number;
  /** A legal case over the entity's arrears, with one deadline (issue 14). */
  caseId?: number;
  deadlineId?: number;
  /** A campaign of arrears notices to the entity alone (issue 29). */
  campaignId?: number;
}
let A: Side;
let B: Side;
/** Markers of rows about no entity: visible only with ALL. */
let centralEmail: string;
const ROLE_MARKER = 'ROL-MARCADOR-ALCANCE';
const PLANILLA_PERIOD = '2025-01';
/** The issuing office of the fixture's receipt range, and the name of a voluntary contributor (no entity). */
const OFFICE = 'ALCANCE';
let voluntaryName = '';

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

/** A change to entity B's record answers 404, as if it did not exist. */
function outOfScope(method: 'PUT' | 'POST', url: (s: Side) => string, payload: unknown): Check {
  return async (ctx) => {
    const res = await t.request({ method, url: url(B), token: ctx.user.token, payload: payload as never });
    expect(res.statusCode, `${url(B)}: ${res.body}`).toBe(404);
  };
}

/**
 * Institution-wide data (the pension payroll, bank files, receipt ranges, voluntary contributors): only
 * an ALL grant reaches it. A POST carries a valid body, so the 403 is the scope's and not the schema's.
 */
function allOnly(method: 'GET' | 'POST', url: string, payload?: unknown): Check {
  return async (ctx) => {
    const res = await t.request({ method, url, token: ctx.user.token, payload: payload as never });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
  };
}

// A disability pension: the fixture's contributor (born 1990) is under the retirement age (pension eligibility).
const pensionBody = (cui: string) => ({
  cui,
  type: 'INVALIDEZ',
  resolutionNumber: 'RES-ALC',
  resolutionDate: '2020-01-01',
  startDate: '2020-01-01',
  monthlyAmount: '1500.00',
  bankAccount: '3010-000000-1',
});

const cuiMarkers = (s: Side) => [s.cui];
/**
 * A contributor registered and changed in entity A, then moved to entity B (issue 25): its history went with it,
 * so A's users no longer read its rows — neither those written while it was A's nor the move.
 */
let moved = { id: 0, cui: '' };
const outsideAudit = () => [B.cui, ROLE_MARKER, centralEmail, moved.cui];

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
  // Requests (SIG items) and Consulta SIG (issue 17): a request belongs to the entity it names.
  'GET /api/sig/items': {
    check: shows(
      () => '/api/sig/items?pageSize=200',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'GET /api/sig/query': {
    check: shows(
      () => '/api/sig/query?pageSize=200',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'GET /api/sig/query/export': {
    check: shows(
      () => '/api/sig/query/export?format=csv',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'GET /api/sig/query/counts': {
    check: async (ctx) => {
      const res = await get(ctx.user.token, '/api/sig/query/counts');
      expect(res.json().items.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(1);
    },
  },
  'GET /api/sig/query/flows': { exempt: 'the published flows and their states: the institution’s definitions, not entity rows' },
  'GET /api/sig/options': {
    check: shows(
      () => '/api/sig/options',
      () => [A.entityName],
      () => [B.entityName],
    ),
  },
  'POST /api/sig/items': {
    check: async (ctx) => {
      const flowId = (await get(admin.token, '/api/sig/options')).json().flows[0].id;
      const res = await t.request({
        method: 'POST',
        url: '/api/sig/items',
        token: ctx.user.token,
        payload: { flowId, entityId: fx.entityB.id, data: { marcador: 'x' } },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details[0].path).toBe('entityId');
    },
  },
  'POST /api/sig/uploads': {
    exempt: 'an upload is its uploader’s file; a request names it only when it is theirs (workflow tests)',
  },
  'GET /api/sig/items/:id': { check: byId((s) => `/api/sig/items/${s.sigId}`) },
  'PUT /api/sig/items/:id': { check: outOfScope('PUT', (s) => `/api/sig/items/${s.sigId}`, { data: { marcador: 'y' } }) },
  'POST /api/sig/items/:id/transitions': {
    check: outOfScope('POST', (s) => `/api/sig/items/${s.sigId}/transitions`, { to: 'CERRADA' }),
  },
  'POST /api/sig/items/:id/comments': {
    check: outOfScope('POST', (s) => `/api/sig/items/${s.sigId}/comments`, { comment: 'Hola' }),
  },
  'POST /api/sig/items/:id/attachments': {
    exempt: 'multipart: the request is read with the caller’s scope before the file is stored (uploadFile → requestRow)',
  },
  'GET /api/sig/items/:id/documents/:documentId': {
    check: async (ctx) => {
      expect((await get(ctx.user.token, `/api/sig/items/${B.sigId}/documents/1`)).statusCode).toBe(404);
    },
  },
  // Pensions and survival checks (issue 15): a pension belongs to its contributor's entity.
  'GET /api/pensions': {
    check: shows(
      () => '/api/pensions?pageSize=200',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'GET /api/pensions/export': {
    check: shows(
      () => '/api/pensions/export?format=csv',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'POST /api/pensions': {
    check: async (ctx) => {
      const res = await t.request({ method: 'POST', url: '/api/pensions', token: ctx.user.token, payload: pensionBody(B.cui) });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details[0].path).toBe('cui');
    },
  },
  'POST /api/pensions/eligibility': {
    check: async (ctx) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/pensions/eligibility',
        token: ctx.user.token,
        payload: { cui: B.cui, type: 'INVALIDEZ', startDate: '2020-01-01' },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details[0].path).toBe('cui');
    },
  },
  'GET /api/pensions/:id': { check: byId((s) => `/api/pensions/${s.pensionId}`) },
  'GET /api/pensions/:id/history': { check: byId((s) => `/api/pensions/${s.pensionId}/history`) },
  'GET /api/pensions/:id/transitions': { check: byId((s) => `/api/pensions/${s.pensionId}/transitions`) },
  'GET /api/pensions/:id/payments': {
    check: async (ctx) => {
      const out = await get(ctx.user.token, `/api/pensions/${B.pensionId}/payments`);
      expect(out.json().total).toBe(0);
    },
  },
  'GET /api/pensions/:id/checks': { check: byId((s) => `/api/pensions/${s.pensionId}/checks`) },
  'PUT /api/pensions/:id': { check: outOfScope('PUT', (s) => `/api/pensions/${s.pensionId}`, { bankAccount: '1111-2222-33' }) },
  'POST /api/pensions/:id/amounts': {
    check: outOfScope('POST', (s) => `/api/pensions/${s.pensionId}/amounts`, {
      monthlyAmount: '10',
      effectiveFrom: '2030-01-01',
      reason: 'Prueba de alcance',
    }),
  },
  'POST /api/pensions/:id/transition': {
    check: outOfScope('POST', (s) => `/api/pensions/${s.pensionId}/transition`, {
      to: 'SUSPENDIDA',
      comment: 'Prueba de alcance',
    }),
  },
  'GET /api/pension-payrolls': { check: allOnly('GET', '/api/pension-payrolls') },
  'GET /api/pension-payrolls/:period': { check: allOnly('GET', '/api/pension-payrolls/2020-01') },
  'GET /api/pension-payrolls/:period/lines': { check: allOnly('GET', '/api/pension-payrolls/2020-01/lines') },
  'POST /api/pension-payrolls/:period/generate': { check: allOnly('POST', '/api/pension-payrolls/2020-01/generate') },
  'POST /api/pension-payrolls/:period/close': { check: allOnly('POST', '/api/pension-payrolls/2020-01/close') },
  'GET /api/pension-payrolls/:period/bank-file': { check: allOnly('GET', '/api/pension-payrolls/2020-01/bank-file') },
  'GET /api/pension-payrolls/:period/summary': { check: allOnly('GET', '/api/pension-payrolls/2020-01/summary') },
  'GET /api/pension-payrolls/:period/exceptions': { check: allOnly('GET', '/api/pension-payrolls/2020-01/exceptions') },
  'GET /api/survival': {
    check: shows(
      () => '/api/survival?kind=overdue&asOf=2030-01-01&pageSize=200',
      () => [A.cui],
      () => [B.cui],
    ),
  },
  'POST /api/survival/attachments': {
    exempt: 'an upload is its uploader’s file, linked to a pension only by a check (pensions tests)',
  },
  'POST /api/pensions/:id/survival-checks': {
    check: outOfScope('POST', (s) => `/api/pensions/${s.pensionId}/survival-checks`, {
      checkDate: '2020-06-01',
      method: 'PRESENCIAL',
    }),
  },
  'GET /api/survival-checks/:id/attachment': {
    exempt: 'read through the check’s pension with the caller’s scope (checkAttachment); pensions tests download one',
  },
  'GET /api/pensions/:id/survival-letter': { check: byId((s) => `/api/pensions/${s.pensionId}/survival-letter`) },
  'POST /api/survival/letter-jobs': {
    exempt: 'a job: its rows are read with the starter’s scope (pensionsToWrite, ctx.inScope)',
  },
  'POST /api/survival/suspension-jobs': {
    exempt: 'a job: the set-based transition moves only rows in the starter’s scope (applyTransitionWhere)',
  },
  'POST /api/survival/renap-jobs': {
    exempt: 'a job: the sweep reads pensions with the starter’s scope (renapSweep, ctx.inScope)',
  },
  'POST /api/pensions/:id/renap-check': {
    check: outOfScope('POST', (s) => `/api/pensions/${s.pensionId}/renap-check`, undefined),
  },
  'GET /api/pension-reviews': {
    check: shows(
      () => '/api/pension-reviews?pageSize=200',
      () => [],
      () => [B.cui],
    ),
  },
  'POST /api/pension-reviews/:id/decision': {
    exempt: 'reviews are found through their pension with the caller’s scope (decideReview); fixtures hold no deaths',
  },
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
  // The hash chain is the whole institution's (audit-chain): verified only with an ALL grant.
  'GET /api/audit/verify': { check: allOnly('GET', '/api/audit/verify') },
  // One record's history: an in-scope contributor's changes; an out-of-scope one answers an empty history.
  'GET /api/audit/records/:entityType/:entityId': {
    check: async (ctx) => {
      await shows(
        () => `/api/audit/records/contributor/${A.contributorId}`,
        () => [A.cui],
        () => [B.cui],
      )(ctx);
      await shows(
        () => `/api/audit/records/contributor/${B.contributorId}`,
        () => ['"total":0'],
        () => [B.cui],
      )(ctx);
      await shows(
        () => `/api/audit/records/contributor/${moved.id}`,
        () => ['"total":0'],
        () => [moved.cui],
      )(ctx);
    },
  },
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
  'GET /api/cui-approvals/:id/history': { check: byId((s) => `/api/cui-approvals/${s.requestId}/history`) },
  'POST /api/cui-approvals/:id/transitions': {
    check: async (ctx) => {
      const res = await t.request({
        method: 'POST',
        url: `/api/cui-approvals/${B.requestId}/transitions`,
        token: ctx.user.token,
        payload: { to: 'RECHAZADO', comment: 'prueba de alcance' },
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
  ...planillaCases(),
  ...paymentCases(),
  ...agreementCases(),
  ...financialCases(),
  ...apiTokenCases(),
  ...webhookCases(),
  ...legalCases(),
};

/** The legal module (issue 14): each side has a case with a deadline three days ahead. */
function legalCases(): Record<string, Case> {
  const base = '/api/legal/cases';
  const names = () => [A.entityName];
  const outNames = () => [B.entityName];
  const ahead = () => new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  return {
    [`GET ${base}`]: { check: shows(() => `${base}?pageSize=200`, names, outNames) },
    [`GET ${base}/export`]: { check: shows(() => `${base}/export?format=csv`, names, outNames) },
    [`POST ${base}`]: { check: (ctx) => outOfScope('POST', () => base, { entityId: fx.entityB.id })(ctx) },
    'GET /api/legal/deadlines': { check: shows(() => '/api/legal/deadlines', names, outNames) },
    [`GET ${base}/:id`]: { check: byId((s) => `${base}/${s.caseId}`) },
    [`POST ${base}/:id/transitions`]: {
      check: outOfScope('POST', (s) => `${base}/${s.caseId}/transitions`, { to: 'REQUERIMIENTO' }),
    },
    [`POST ${base}/:id/actions`]: {
      check: (ctx) =>
        outOfScope('POST', (s) => `${base}/${s.caseId}/actions`, {
          actionDate: guatemalaToday(),
          kind: 'OTRO',
          description: 'Prueba de alcance',
        })(ctx),
    },
    [`POST ${base}/:id/deadlines`]: {
      check: (ctx) =>
        outOfScope('POST', (s) => `${base}/${s.caseId}/deadlines`, { dueDate: ahead(), description: 'Prueba' })(ctx),
    },
    [`POST ${base}/:id/deadlines/:deadlineId/done`]: {
      check: outOfScope('POST', (s) => `${base}/${s.caseId}/deadlines/${s.deadlineId}/done`, undefined),
    },
    [`POST ${base}/:id/documents`]: {
      check: async (ctx) => {
        const body = multipartBody({}, { name: 'fuera.pdf', bytes: await samplePdf('Fuera de alcance') });
        const res = await t.request({
          method: 'POST',
          url: `${base}/${B.caseId}/documents`,
          token: ctx.user.token,
          payload: body.payload,
          headers: body.headers,
        });
        expect(res.statusCode, res.body).toBe(404);
      },
    },
  };
}

/** A campaign of arrears notices to the side's entity alone, its notice not yet sent (issue 29). */
async function noticeSide(s: Side, entityId: number) {
  const day = guatemalaToday();
  const [c] = await t.database.db
    .insert(arrearsNoticeCampaigns)
    .values({ asOf: day, issuedOn: day, createdBy: admin.id })
    .returning();
  await t.database.db.insert(arrearsNotices).values({ campaignId: c.id, entityId, asOf: day, issuedOn: day });
  s.campaignId = c.id;
}

/** A case over the side's arrears with a deadline three days ahead. */
async function legalSide(s: Side, entityId: number) {
  const res = await t.request({ method: 'POST', url: '/api/legal/cases', token: admin.token, payload: { entityId } });
  if (res.statusCode !== 201) throw new Error(res.body);
  s.caseId = res.json().id;
  const due = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const dl = await t.request({
    method: 'POST',
    url: `/api/legal/cases/${s.caseId}/deadlines`,
    token: admin.token,
    payload: { dueDate: due, description: `Plazo ${s.entityName}` },
  });
  if (dl.statusCode !== 201) throw new Error(dl.body);
  s.deadlineId = dl.json().deadlines[0].id;
}

/** Integration tokens (issue 30): one per side's entity, created by the administrator when first needed. */
const sideTokens = new Map<Side, Promise<number>>();
function sideToken(s: Side): Promise<number> {
  let id = sideTokens.get(s);
  if (!id) {
    id = t
      .request({
        method: 'POST',
        url: '/api/api-tokens',
        token: admin.token,
        payload: {
          name: `Token ${s.entityName}`,
          entityId: fx[s === A ? 'entityA' : 'entityB'].id,
          permissions: ['orders.read'],
          expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        },
      })
      .then((res) => {
        if (res.statusCode !== 201) throw new Error(res.body);
        return res.json().apiToken.id as number;
      });
    sideTokens.set(s, id);
  }
  return id;
}
function apiTokenCases(): Record<string, Case> {
  const withTokens =
    (check: Check): Check =>
    async (ctx) => {
      await sideToken(A);
      await sideToken(B);
      await check(ctx);
    };
  const names = () => [`Token ${A.entityName}`];
  const outNames = () => [`Token ${B.entityName}`];
  return {
    'GET /api/api-tokens': { check: withTokens(shows(() => '/api/api-tokens?pageSize=200', names, outNames)) },
    'GET /api/api-tokens/export': { check: withTokens(shows(() => '/api/api-tokens/export?format=csv', names, outNames)) },
    'GET /api/api-tokens/entities': {
      check: shows(
        () => '/api/api-tokens/entities',
        () => [A.entityName],
        () => [B.entityName],
      ),
    },
    'POST /api/api-tokens': {
      check: (ctx) =>
        outOfScope('POST', () => '/api/api-tokens', {
          name: 'Fuera de alcance',
          entityId: fx.entityB.id,
          permissions: ['orders.read'],
          expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        })(ctx),
    },
    'POST /api/api-tokens/:id/revoke': {
      check: async (ctx) => {
        const id = await sideToken(B);
        const res = await t.request({ method: 'POST', url: `/api/api-tokens/${id}/revoke`, token: ctx.user.token });
        expect(res.statusCode, res.body).toBe(404);
      },
    },
  };
}

/** Webhooks (issue 30): one endpoint per side's entity with one ping delivery, made by the administrator when first needed. */
const sideWebhooks = new Map<Side, Promise<{ endpointId: number; deliveryId: number }>>();
function sideWebhook(s: Side): Promise<{ endpointId: number; deliveryId: number }> {
  let made = sideWebhooks.get(s);
  if (!made) {
    made = (async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/webhooks',
        token: admin.token,
        payload: {
          name: `Webhook ${s.entityName}`,
          entityId: fx[s === A ? 'entityA' : 'entityB'].id,
          url: 'http://127.0.0.1:9/webhook',
          events: ['order.issued'],
        },
      });
      if (res.statusCode !== 201) throw new Error(res.body);
      const endpointId = res.json().endpoint.id as number;
      const ping = await t.request({ method: 'POST', url: `/api/webhooks/${endpointId}/ping`, token: admin.token });
      if (ping.statusCode !== 200) throw new Error(ping.body);
      return { endpointId, deliveryId: ping.json().id as number };
    })();
    sideWebhooks.set(s, made);
  }
  return made;
}
function webhookCases(): Record<string, Case> {
  const withHooks =
    (check: Check): Check =>
    async (ctx) => {
      await sideWebhook(A);
      await sideWebhook(B);
      await check(ctx);
    };
  const names = () => [`Webhook ${A.entityName}`];
  const outNames = () => [`Webhook ${B.entityName}`];
  const refused = (
    method: 'POST' | 'PATCH',
    url: (ids: { endpointId: number; deliveryId: number }) => string,
    payload?: object,
  ): Check =>
    withHooks(async (ctx) => {
      const u = url(await sideWebhook(B));
      const res = await t.request({ method, url: u, token: ctx.user.token, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${u}: ${res.body}`).toBe(404);
    });
  const reads = (url: (ids: { endpointId: number; deliveryId: number }) => string): Check =>
    withHooks(async (ctx) => {
      expect((await get(ctx.user.token, url(await sideWebhook(A)))).statusCode).toBe(200);
      expect((await get(ctx.user.token, url(await sideWebhook(B)))).statusCode).toBe(404);
    });
  return {
    'GET /api/webhooks': { check: withHooks(shows(() => '/api/webhooks?pageSize=200', names, outNames)) },
    'GET /api/webhooks/export': { check: withHooks(shows(() => '/api/webhooks/export?format=csv', names, outNames)) },
    'GET /api/webhooks/entities': {
      check: shows(
        () => '/api/webhooks/entities',
        () => [A.entityName],
        () => [B.entityName],
      ),
    },
    'POST /api/webhooks': {
      check: (ctx) =>
        outOfScope('POST', () => '/api/webhooks', {
          name: 'Fuera de alcance',
          entityId: fx.entityB.id,
          url: 'http://127.0.0.1:9/webhook',
          events: ['order.issued'],
        })(ctx),
    },
    'GET /api/webhooks/:id': { check: reads((ids) => `/api/webhooks/${ids.endpointId}`) },
    'PATCH /api/webhooks/:id': { check: refused('PATCH', (ids) => `/api/webhooks/${ids.endpointId}`, { name: 'Cambiado' }) },
    'POST /api/webhooks/:id/ping': { check: refused('POST', (ids) => `/api/webhooks/${ids.endpointId}/ping`) },
    'GET /api/webhook-deliveries': { check: withHooks(shows(() => '/api/webhook-deliveries?pageSize=200', names, outNames)) },
    'GET /api/webhook-deliveries/export': {
      check: withHooks(shows(() => '/api/webhook-deliveries/export?format=csv', names, outNames)),
    },
    'GET /api/webhook-deliveries/:id': { check: reads((ids) => `/api/webhook-deliveries/${ids.deliveryId}`) },
    'POST /api/webhook-deliveries/:id/resend': {
      check: refused('POST', (ids) => `/api/webhook-deliveries/${ids.deliveryId}/resend`),
    },
  };
}

/** The financial module (issue 14): statement, arrears ranking, certificates, dashboard. */
function financialCases(): Record<string, Case> {
  const entityOf = (s: Side) => fx[s === A ? 'entityA' : 'entityB'].id;
  const names = () => [A.entityName];
  const outNames = () => [B.entityName];
  return {
    'GET /api/financial/statement': { check: byId((s) => `/api/financial/statement?entityId=${entityOf(s)}`) },
    'GET /api/financial/statement/export': {
      check: byId((s) => `/api/financial/statement/export?entityId=${entityOf(s)}&format=xlsx`),
    },
    'GET /api/financial/arrears': { check: shows(() => '/api/financial/arrears', names, outNames) },
    'GET /api/financial/arrears/export': { check: shows(() => '/api/financial/arrears/export?format=csv', names, outNames) },
    'GET /api/financial/certificates': { check: shows(() => '/api/financial/certificates', names, outNames) },
    'POST /api/financial/certificates': {
      check: (ctx) => outOfScope('POST', () => '/api/financial/certificates', { entityId: fx.entityB.id })(ctx),
    },
    'GET /api/financial/certificates/:id/pdf': { check: byId((s) => `/api/financial/certificates/${s.certificateId}/pdf`) },
    // Arrears notice campaigns (issue 29): a campaign is seen by whoever reaches one of its entities.
    'POST /api/financial/notice-campaigns': {
      check: (ctx) => outOfScope('POST', () => '/api/financial/notice-campaigns', { entityIds: [fx.entityB.id] })(ctx),
    },
    'GET /api/financial/notice-campaigns': {
      check: async (ctx) => {
        const res = await get(ctx.user.token, '/api/financial/notice-campaigns?pageSize=200');
        expect(res.statusCode, res.body).toBe(200);
        const ids = res.json().items.map((c: { id: number }) => c.id);
        expect(ids).toContain(A.campaignId);
        expect(ids).not.toContain(B.campaignId);
      },
    },
    'GET /api/financial/notice-campaigns/export': {
      check: async (ctx) => {
        const res = await get(ctx.user.token, '/api/financial/notice-campaigns/export?format=csv');
        expect(res.statusCode, res.body).toBe(200);
        const first = res.body.split('\n').map((l) => l.split(',')[0].replace(/"/g, '').trim());
        expect(first).toContain(String(A.campaignId));
        expect(first).not.toContain(String(B.campaignId));
      },
    },
    'GET /api/financial/notice-campaigns/:id': { check: byId((s) => `/api/financial/notice-campaigns/${s.campaignId}`) },
    'GET /api/financial/notices': { check: shows(() => '/api/financial/notices?pageSize=200', names, outNames) },
    'GET /api/financial/notices/export': { check: shows(() => '/api/financial/notices/export?format=csv', names, outNames) },
    'GET /api/financial/dashboard': {
      // Agreements by state: only entity A's one in force (the central office sees both).
      check: async (ctx) => {
        const res = await get(ctx.user.token, '/api/financial/dashboard');
        expect(res.statusCode, res.body).toBe(200);
        const mine = res.json().agreements.find((x: { state: string }) => x.state === 'VIGENTE');
        const a = (await get(admin.token, `/api/payment-agreements/${A.agreementId}`)).json();
        expect(mine).toEqual({ state: 'VIGENTE', count: 1, debt: a.debt });
      },
    },
  };
}

/** Payment agreements (issue 14): each side has one, over an extra overdue order of its entity. */
function agreementCases(): Record<string, Case> {
  const base = '/api/payment-agreements';
  const numberOf = async (s: Side) => (await get(admin.token, `${base}/${s.agreementId}`)).json().number as string;
  const numbers = { A: '', B: '' };
  const listed =
    (url: string): Check =>
    async (ctx) => {
      numbers.A ||= await numberOf(A);
      numbers.B ||= await numberOf(B);
      await shows(
        () => url,
        () => [numbers.A, A.entityName],
        () => [numbers.B, B.entityName],
      )(ctx);
    };
  const terms = (entityId: number) => ({ entityId, downPayment: '1000.00', instalments: 3, firstDueDate: '2100-01-01' });
  return {
    [`GET ${base}`]: { check: listed(`${base}?pageSize=200`) },
    [`GET ${base}/export`]: { check: listed(`${base}/export?format=csv`) },
    [`GET ${base}/debt`]: { check: byId((s) => `${base}/debt?entityId=${fx[s === A ? 'entityA' : 'entityB'].id}`) },
    [`POST ${base}/simulate`]: { check: (ctx) => outOfScope('POST', () => `${base}/simulate`, terms(fx.entityB.id))(ctx) },
    [`POST ${base}`]: { check: (ctx) => outOfScope('POST', () => base, terms(fx.entityB.id))(ctx) },
    [`POST ${base}/detection-jobs`]: {
      exempt: 'a job: detectAgreements selects only agreements in the starter’s scope (ctx.inScope in SQL)',
    },
    [`GET ${base}/:id`]: { check: byId((s) => `${base}/${s.agreementId}`) },
    [`GET ${base}/:id/pdf`]: { check: byId((s) => `${base}/${s.agreementId}/pdf`) },
    [`POST ${base}/:id/restructure`]: {
      check: outOfScope('POST', (s) => `${base}/${s.agreementId}/restructure`, {
        downPayment: '1000.00',
        instalments: 3,
        firstDueDate: terms(1).firstDueDate,
      }),
    },
    [`POST ${base}/:id/void`]: {
      check: outOfScope('POST', (s) => `${base}/${s.agreementId}/void`, { reason: 'Prueba de alcance' }),
    },
  };
}

/** An agreement over one extra overdue order (2024-06, Q 10,000.00) of the side's entity. */
async function agreementSide(s: Side, entityId: number) {
  const db = t.database.db;
  const order = await insertOrder(systemContext(db), db, {
    kind: 'LABORAL',
    entityId,
    period: '2024-06',
    principal: 1_000_000n,
    issueDate: '2024-06-28',
  });
  const first = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const res = await t.request({
    method: 'POST',
    url: '/api/payment-agreements',
    token: admin.token,
    payload: { entityId, orderIds: [order.id], downPayment: '5000.00', instalments: 3, firstDueDate: first },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  s.agreementId = res.json().id;
  const [e] = await db.select().from(municipalEntities).where(eq(municipalEntities.id, entityId));
  const [cert] = await db
    .insert(solvencyCertificates)
    .values({
      code: `ALCANCE${String(entityId).padStart(9, '0')}`,
      entityId,
      entityName: e.name,
      entityCode: e.code,
      issuedOn: '2026-01-05',
      validUntil: '2026-02-04',
      basis: 'Prueba de alcance',
    })
    .returning();
  s.certificateId = cert.id;
}

/** Payment orders, payments, receipts (issue 13): each side has its planilla's orders, one partial payment and its receipt. */
function paymentCases(): Record<string, Case> {
  const names = () => [A.entityName];
  const outNames = () => [B.entityName, voluntaryName];
  const reason = { reason: 'Prueba de alcance' };
  const range = {
    office: OFFICE,
    series: 'ZZ',
    firstNumber: 1,
    lastNumber: 10,
    authorizationRef: 'R-1',
    authorizationDate: '2024-01-02',
  };
  return {
    'GET /api/payment-orders': { check: shows(() => '/api/payment-orders?pageSize=200', names, outNames) },
    'GET /api/payment-orders/totals': {
      // The scoped totals are entity A's totals, as the central office computes them for A alone.
      check: async (ctx) => {
        const scoped = await get(ctx.user.token, '/api/payment-orders/totals');
        const onlyA = await get(admin.token, `/api/payment-orders/totals?entityId=${fx.entityA.id}`);
        expect(scoped.statusCode, scoped.body).toBe(200);
        expect(scoped.json()).toEqual(onlyA.json());
        expect(Number(onlyA.json().principal)).toBeGreaterThan(0);
      },
    },
    'GET /api/payment-orders/export': { check: shows(() => '/api/payment-orders/export?format=csv', names, outNames) },
    'GET /api/payment-orders/:id': { check: byId((s) => `/api/payment-orders/${s.orderId}`) },
    'GET /api/payment-orders/:id/pdf': { check: byId((s) => `/api/payment-orders/${s.orderId}/pdf`) },
    'POST /api/payment-orders/:id/void': { check: outOfScope('POST', (s) => `/api/payment-orders/${s.orderId}/void`, reason) },
    'GET /api/payments': { check: shows(() => '/api/payments?pageSize=200', names, outNames) },
    'GET /api/payments/export': { check: shows(() => '/api/payments/export?format=csv', names, outNames) },
    'GET /api/payments/:id': { check: byId((s) => `/api/payments/${s.paymentId}`) },
    'POST /api/payments': {
      check: async (ctx) => {
        const res = await t.request({
          method: 'POST',
          url: '/api/payments',
          token: ctx.user.token,
          payload: paymentBody(B.orderId, `fuera-${ctx.scope}`),
        });
        expect(res.statusCode, res.body).toBe(404);
      },
    },
    'POST /api/payments/:id/reverse': { check: outOfScope('POST', (s) => `/api/payments/${s.paymentId}/reverse`, reason) },
    'POST /api/payments/:id/receipt': { check: outOfScope('POST', (s) => `/api/payments/${s.paymentId}/receipt`, undefined) },
    'GET /api/payments/offices': {
      exempt: 'issuing offices with forms left in their ranges: the institution’s, not entity rows',
    },
    'GET /api/bank-files': { check: allOnly('GET', '/api/bank-files') },
    'POST /api/bank-files': {
      check: allOnly('POST', '/api/bank-files', { bankId: 1, office: OFFICE, content: 'fecha,referencia,monto\n' }),
    },
    'GET /api/bank-files/banks': {
      exempt: 'the active banks of the «Bancos» catalogue a bank file may name: reference data, not entity rows',
    },
    'GET /api/bank-files/:id': { check: allOnly('GET', '/api/bank-files/1') },
    'GET /api/bank-files/:id/rows': { check: allOnly('GET', '/api/bank-files/1/rows') },
    'POST /api/bank-files/:id/retry': { check: allOnly('POST', '/api/bank-files/1/retry') },
    'POST /api/bank-files/:id/rows/:rowId/resolve': {
      check: allOnly('POST', '/api/bank-files/1/rows/1/resolve', { decision: 'DESCARTAR', reason: 'Prueba de alcance' }),
    },
    'GET /api/receipts': { check: shows(() => '/api/receipts?pageSize=200', names, outNames) },
    'GET /api/receipts/export': { check: shows(() => '/api/receipts/export?format=csv', names, outNames) },
    'GET /api/receipts/:id/pdf': { check: byId((s) => `/api/receipts/${s.receiptId}/pdf`) },
    'POST /api/receipts/:id/void': { check: outOfScope('POST', (s) => `/api/receipts/${s.receiptId}/void`, reason) },
    'GET /api/receipt-ranges': { check: allOnly('GET', '/api/receipt-ranges') },
    'POST /api/receipt-ranges': { check: allOnly('POST', '/api/receipt-ranges', range) },
    'POST /api/receipt-ranges/:id/void': { check: allOnly('POST', '/api/receipt-ranges/1/void', reason) },
    'GET /api/receipt-ranges/corte': { check: allOnly('GET', '/api/receipt-ranges/corte?rangeId=1') },
    'GET /api/receipt-ranges/corte/export': { check: allOnly('GET', '/api/receipt-ranges/corte/export?rangeId=1') },
    'GET /api/voluntary-payments': {
      check: shows(
        () => '/api/voluntary-payments?pageSize=200',
        () => [],
        () => [voluntaryName, B.entityName],
      ),
    },
    'GET /api/voluntary-payments/limits': { exempt: 'the salary limits and rates in force: settings, not entity data' },
    'POST /api/voluntary-payments': {
      check: allOnly('POST', '/api/voluntary-payments', { cui: newCui(), periods: ['2024-01'], salary: '3000.00' }),
    },
    'GET /api/statistics/collection': {
      // Collected per month and overdue per region: only entity A's orders (its region, its principal).
      check: async (ctx) => {
        await shows(
          () => `/api/statistics/collection?from=${PLANILLA_PERIOD}&to=${PLANILLA_PERIOD}`,
          () => ['Región del alcance'],
          () => ['Otra región'],
        )(ctx);
        const stats = (
          await get(ctx.user.token, `/api/statistics/collection?from=${PLANILLA_PERIOD}&to=${PLANILLA_PERIOD}`)
        ).json();
        const onlyA = (
          await get(admin.token, `/api/payment-orders/totals?entityId=${fx.entityA.id}&period=${PLANILLA_PERIOD}`)
        ).json();
        expect(stats.months[0].ordered).toBe(onlyA.principal);
      },
    },
  };
}

const paymentBody = (orderId: number, key: string) => ({
  idempotencyKey: `alcance-${key}`,
  orderIds: [orderId],
  bank: 'Banrural',
  payDate: guatemalaToday(),
  bankReference: `ALC-${key}`,
  amount: '1.00',
  office: OFFICE,
});

/** Planillas (issue 12): each side has an approved planilla of PLANILLA_PERIOD with one line (its CUI and salary). */
function planillaCases(): Record<string, Case> {
  const names = () => [A.entityName];
  const outNames = () => [B.entityName];
  const refused = (method: 'POST' | 'PUT' | 'DELETE', url: (s: Side) => string, payload?: unknown, status = [404]): Case => ({
    check: async (ctx) => {
      const res = await t.request({
        method,
        url: url(B),
        token: ctx.user.token,
        payload: (typeof payload === 'function' ? payload() : payload) as never,
      });
      expect(status, `${method} ${url(B)}: ${res.body}`).toContain(res.statusCode);
    },
  });
  const line = { cui: '1587564440904', fullName: 'Fuera', budgetLine: '011', salary: '1.00' };
  return {
    'GET /api/planillas': { check: shows(() => '/api/planillas?pageSize=100', names, outNames) },
    'GET /api/planilla-search': { check: shows(() => `/api/planilla-search?cui=${A.cui}`, names, outNames) },
    'GET /api/planilla-review-queue': {
      check: shows(
        () => '/api/planilla-review-queue?pageSize=100',
        () => [],
        outNames,
      ),
    },
    'GET /api/planillas/export': { check: shows(() => '/api/planillas/export?format=csv', names, outNames) },
    'GET /api/back-pay': {
      check: shows(
        () => '/api/back-pay?pageSize=100',
        () => [],
        outNames,
      ),
    },
    'POST /api/back-pay': refused(
      'POST',
      () => '/api/back-pay',
      () => ({
        entityId: fx.entityB.id,
        resolutionNumber: 'R-1',
        resolutionDate: '2024-01-10',
        cui: B.cui,
        fullName: 'Fuera',
        budgetLine: '011',
        fromPeriod: '2023-01',
        toPeriod: '2023-02',
        monthlySalary: '100.00',
      }),
      [403],
    ),
    'GET /api/planillas/rates': { exempt: 'the contribution settings: legal values, not entity data' },
    'GET /api/planillas/rates/:key/history': { exempt: 'the history of a contribution setting: not entity data' },
    'GET /api/planillas/options': { check: shows(() => '/api/planillas/options', names, outNames) },
    'GET /api/planillas/overview': {
      check: shows(
        () => `/api/planillas/overview?period=${PLANILLA_PERIOD}`,
        () => [],
        outNames,
      ),
    },
    'POST /api/planillas': refused(
      'POST',
      () => '/api/planillas',
      () => ({ entityId: fx.entityB.id, period: '2024-01' }),
      [403],
    ),
    'GET /api/planillas/:id': { check: byId((s) => `/api/planillas/${s.planillaId}`) },
    'GET /api/planillas/:id/lines': { check: byId((s) => `/api/planillas/${s.planillaId}/lines`) },
    'GET /api/planillas/:id/export': { check: byId((s) => `/api/planillas/${s.planillaId}/export?format=csv`) },
    'GET /api/planillas/:id/history': { check: byId((s) => `/api/planillas/${s.planillaId}/history`) },
    'GET /api/planillas/:id/comments': { check: byId((s) => `/api/planillas/${s.planillaId}/comments`) },
    'GET /api/planillas/:id/comparison': { check: byId((s) => `/api/planillas/${s.planillaId}/comparison`) },
    'POST /api/planillas/:id/lines': refused('POST', (s) => `/api/planillas/${s.planillaId}/lines`, line),
    'PUT /api/planillas/:id/lines/:lineId': refused('PUT', (s) => `/api/planillas/${s.planillaId}/lines/${s.lineId}`, line),
    'DELETE /api/planillas/:id/lines/:lineId': refused('DELETE', (s) => `/api/planillas/${s.planillaId}/lines/${s.lineId}`),
    'POST /api/planillas/:id/transitions': refused('POST', (s) => `/api/planillas/${s.planillaId}/transitions`, {
      to: 'ANULADA',
      comment: 'prueba de alcance',
    }),
    'GET /api/planilla-uploads/template': { exempt: 'an empty template, no rows' },
    'POST /api/planilla-uploads': {
      check: async (ctx) => {
        const boundary = '----alcance';
        const res = await t.request({
          method: 'POST',
          url: `/api/planilla-uploads?entityId=${fx.entityB.id}&period=2024-01`,
          token: ctx.user.token,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\n\r\nCUI;NOMBRE;RENGLON;SALARIO\r\n--${boundary}--\r\n`,
        });
        expect(res.statusCode, res.body).toBe(403);
      },
    },
    'GET /api/planilla-uploads': { exempt: 'lists only the requester’s own unfinished uploads (planillas tests)' },
    'GET /api/planilla-uploads/:id': { exempt: 'an upload is visible only to its uploader' },
    'GET /api/planilla-uploads/:id/rows': { exempt: 'an upload is visible only to its uploader' },
    'GET /api/planilla-uploads/:id/exceptions': { exempt: 'an upload is visible only to its uploader' },
    'POST /api/planilla-uploads/:id/commit': { exempt: 'an upload is visible only to its uploader' },
    'POST /api/planilla-uploads/:id/discard': { exempt: 'an upload is visible only to its uploader' },
    'GET /api/contribution-history/contributor': {
      check: async (ctx) => {
        await shows(
          () => `/api/contribution-history/contributor?cui=${A.cui}`,
          () => [A.salary],
          () => [],
        )(ctx);
        await shows(
          () => `/api/contribution-history/contributor?cui=${B.cui}`,
          () => ['"months":[]'],
          () => [B.salary, B.entityName],
        )(ctx);
      },
    },
    'GET /api/contribution-history/entity': {
      check: async (ctx) => {
        expect((await get(ctx.user.token, `/api/contribution-history/entity?entityId=${fx.entityA.id}`)).statusCode).toBe(200);
        expect((await get(ctx.user.token, `/api/contribution-history/entity?entityId=${fx.entityB.id}`)).statusCode).toBe(404);
      },
    },
    'GET /api/planilla-employees': {
      check: shows(
        () => '/api/planilla-employees?pageSize=100',
        () => [A.cui],
        () => [B.cui],
      ),
    },
  };
}
/** Documentos: a folder with one document owned by each entity, and one of the institution (ALL only). */
interface LibrarySide {
  folderId: number;
  folderName: string;
  documentId: number;
  title: string;
}
const lib: { A?: LibrarySide; B?: LibrarySide; central?: LibrarySide } = {};
async function libraryUpload(token: string, folderId: number, title: string) {
  const body = multipartBody(
    { folderId: String(folderId), title, docType: 'OFICIO' },
    { name: 'oficio.pdf', bytes: await samplePdf(title) },
  );
  return t.request({ method: 'POST', url: '/api/library/documents', token, payload: body.payload, headers: body.headers });
}
async function librarySide(entityId: number | null, marker: string): Promise<LibrarySide> {
  const folderName = `Carpeta ${marker}`;
  const folder = await t.request({
    method: 'POST',
    url: '/api/folders',
    token: admin.token,
    payload: { name: folderName, entityId },
  });
  expect(folder.statusCode, folder.body).toBe(201);
  const title = `Documento ${marker}`;
  const doc = await libraryUpload(admin.token, folder.json().id, title);
  expect(doc.statusCode, doc.body).toBe(201);
  return { folderId: folder.json().id, folderName, documentId: doc.json().id, title };
}
const libA = () => lib.A as LibrarySide;
const libB = () => lib.B as LibrarySide;
const libOutside = () => [libB().title, (lib.central as LibrarySide).title];
let libCounter = 0;
const involvedOnly = 'a signing request is visible only to its sender and signers, whatever the scope (signing tests)';

const libraryCases: Record<string, Case> = {
  'GET /api/folders': {
    check: shows(
      () => '/api/folders',
      () => [libA().folderName],
      () => [libB().folderName, (lib.central as LibrarySide).folderName],
    ),
  },
  'POST /api/folders': {
    check: async ({ user }) => {
      libCounter += 1;
      const inA = await t.request({
        method: 'POST',
        url: '/api/folders',
        token: user.token,
        payload: { name: `Sub ${libCounter}`, parentId: libA().folderId },
      });
      expect(inA.statusCode, inA.body).toBe(201);
      const inB = await t.request({
        method: 'POST',
        url: '/api/folders',
        token: user.token,
        payload: { name: `Sub ${libCounter}`, parentId: libB().folderId },
      });
      expect(inB.statusCode).toBe(404);
      const entityB = await t.request({
        method: 'POST',
        url: '/api/folders',
        token: user.token,
        payload: { name: `Raíz ${libCounter}`, entityId: fx.entityB.id },
      });
      expect(entityB.statusCode).toBe(400);
    },
  },
  'DELETE /api/folders/:id': {
    check: async ({ user }) => {
      // A's folder is reached (but not empty: 409); B's is not there (404).
      expect((await t.request({ method: 'DELETE', url: `/api/folders/${libA().folderId}`, token: user.token })).statusCode).toBe(
        409,
      );
      expect((await t.request({ method: 'DELETE', url: `/api/folders/${libB().folderId}`, token: user.token })).statusCode).toBe(
        404,
      );
    },
  },
  'GET /api/folders/options': {
    check: shows(
      () => '/api/folders/options',
      () => [`"${fx.entityA.code}"`],
      () => [`"${fx.entityB.code}"`],
    ),
  },
  'GET /api/library/documents/export': {
    check: shows(
      () => '/api/library/documents/export?format=csv',
      () => [libA().title],
      libOutside,
    ),
  },
  'GET /api/folders/:id/documents/export': {
    check: async ({ user }) => {
      const inside = await get(user.token, `/api/folders/${libA().folderId}/documents/export?format=csv`);
      expect(inside.statusCode).toBe(200);
      expect(await textOf(inside)).toContain(libA().title);
      expect((await get(user.token, `/api/folders/${libB().folderId}/documents/export?format=csv`)).statusCode).toBe(404);
    },
  },
  'GET /api/library/documents': {
    check: shows(
      () => '/api/library/documents?pageSize=100',
      () => [libA().title],
      libOutside,
    ),
  },
  'POST /api/library/documents': {
    check: async ({ user }) => {
      expect((await libraryUpload(user.token, libA().folderId, 'Otro oficio')).statusCode).toBe(201);
      expect((await libraryUpload(user.token, libB().folderId, 'Otro oficio')).statusCode).toBe(404);
    },
  },
  'GET /api/library/documents/:id': {
    check: async ({ user }) => {
      expect((await get(user.token, `/api/library/documents/${libA().documentId}`)).statusCode).toBe(200);
      expect((await get(user.token, `/api/library/documents/${libB().documentId}`)).statusCode).toBe(404);
    },
  },
  'GET /api/library/documents/:id/content': {
    check: async ({ user }) => {
      expect((await get(user.token, `/api/library/documents/${libA().documentId}/content`)).statusCode).toBe(200);
      expect((await get(user.token, `/api/library/documents/${libB().documentId}/content`)).statusCode).toBe(404);
    },
  },
  'POST /api/library/documents/:id/versions': {
    check: async ({ user }) => {
      const version = async (id: number) => {
        const body = multipartBody({}, { name: 'v.pdf', bytes: await samplePdf(`Versión ${id} ${libCounter++}`) });
        return t.request({
          method: 'POST',
          url: `/api/library/documents/${id}/versions`,
          token: user.token,
          payload: body.payload,
          headers: body.headers,
        });
      };
      expect((await version(libA().documentId)).statusCode).toBe(201);
      expect((await version(libB().documentId)).statusCode).toBe(404);
    },
  },
  'DELETE /api/library/documents/:id': {
    check: async ({ user }) => {
      expect(
        (await t.request({ method: 'DELETE', url: `/api/library/documents/${libB().documentId}`, token: user.token })).statusCode,
      ).toBe(404);
      const extra = await libraryUpload(admin.token, libA().folderId, `Para borrar ${libCounter++}`);
      expect(
        (await t.request({ method: 'DELETE', url: `/api/library/documents/${extra.json().id}`, token: user.token })).statusCode,
      ).toBe(204);
    },
  },
  'GET /api/signing/signers': { exempt: 'users holding a valid certificate, not entity rows' },
  'POST /api/signing/requests': { exempt: involvedOnly },
  'GET /api/signing/requests/pending': { exempt: involvedOnly },
  'GET /api/signing/requests/signed': { exempt: involvedOnly },
  'GET /api/signing/requests/rejected': { exempt: involvedOnly },
  'GET /api/signing/requests/signed/export': { exempt: involvedOnly },
  'GET /api/signing/requests/rejected/export': { exempt: involvedOnly },
  'GET /api/signing/requests/sent': { exempt: involvedOnly },
  'POST /api/signing/requests/:id/send': { exempt: involvedOnly },
  'POST /api/signing/requests/:id/sign': { exempt: involvedOnly },
  'POST /api/signing/requests/:id/reject': { exempt: involvedOnly },
};
Object.assign(cases, libraryCases);

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
  const pl = await t.request({
    method: 'POST',
    url: '/api/planillas',
    token: admin.token,
    payload: { entityId: entity.id, period: PLANILLA_PERIOD },
  });
  if (pl.statusCode !== 201) throw new Error(pl.body);
  const planillaId = pl.json().id as number;
  const ln = await t.request({
    method: 'POST',
    url: `/api/planillas/${planillaId}/lines`,
    token: admin.token,
    payload: { cui, fullName: `Ana ${surname}`, budgetLine: '011', salary },
  });
  if (ln.statusCode !== 201) throw new Error(ln.body);
  // Fixture: approved, so it enters the histories, with the payment orders approval issues.
  const [p] = await db.update(planillas).set({ state: 'APROBADA' }).where(eq(planillas.id, planillaId)).returning();
  await issuePlanillaOrders(systemContext(db), db, p);
  const orders = await get(admin.token, `/api/payment-orders?entityId=${entity.id}&pageSize=10`);
  const orderId = orders.json().items.find((o: { kind: string }) => o.kind === 'LABORAL').id as number;
  const paid = await t.request({
    method: 'POST',
    url: '/api/payments',
    token: admin.token,
    payload: paymentBody(orderId, surname),
  });
  if (paid.statusCode !== 201) throw new Error(paid.body);
  const pen = await t.request({ method: 'POST', url: '/api/pensions', token: admin.token, payload: pensionBody(cui) });
  if (pen.statusCode !== 201) throw new Error(pen.body);
  return {
    orderId,
    paymentId: paid.json().payment.id,
    receiptId: paid.json().payment.receipt.id,
    planillaId,
    lineId: ln.json().id,
    pensionId: pen.json().id,
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

/** Registered in entity A, its salary changed there, then moved to entity B (see `moved`). */
async function movedContributor(): Promise<{ id: number; cui: string }> {
  const cui = newCui();
  const put = (id: number, over: Record<string, unknown>) =>
    t.request({ method: 'PUT', url: `/api/contributors/${id}`, token: admin.token, payload: contributorBody({ cui, ...over }) });
  const res = await t.request({
    method: 'POST',
    url: '/api/contributors',
    token: admin.token,
    payload: contributorBody({ cui, firstSurname: 'Trasladado' }),
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  const id = res.json().contributor.id as number;
  for (const over of [{ salary: '4100.00' }, { salary: '4100.00', entityId: fx.entityB.id }]) {
    const r = await put(id, { firstSurname: 'Trasladado', ...over });
    if (r.statusCode !== 200) throw new Error(r.body);
  }
  return { id, cui };
}

/** One published form and flow, and a request in each entity carrying the side's CUI. */
async function sigSides() {
  const post = (url: string, payload: unknown) =>
    t.request({ method: 'POST', url, token: admin.token, payload: payload as never });
  const form = await post('/api/wf/forms', {
    title: 'Alcance SIG',
    fields: [{ name: 'marcador', label: 'Marcador', type: 'text' }],
  });
  await post(`/api/wf/forms/${form.json().id}/versions/1/publish`, undefined);
  const [role] = await t.database.db.insert(roles).values({ name: 'Rol SIG del alcance' }).returning();
  const flow = await post('/api/wf/flows', {
    title: 'Alcance SIG',
    formId: form.json().id,
    definition: {
      initial: 'ABIERTA',
      states: [
        { key: 'ABIERTA', label: 'Abierta', editable: true },
        { key: 'CERRADA', label: 'Cerrada' },
      ],
      transitions: [{ key: 'CERRAR', from: 'ABIERTA', to: 'CERRADA', label: 'Cerrar', roleId: role.id }],
    },
  });
  const pub = await post(`/api/wf/flows/${flow.json().id}/versions/1/publish`, undefined);
  if (pub.statusCode !== 200) throw new Error(pub.body);
  for (const [s, entityId] of [
    [A, fx.entityA.id],
    [B, fx.entityB.id],
  ] as const) {
    const r = await post('/api/sig/items', { flowId: flow.json().id, entityId, data: { marcador: s.cui } });
    if (r.statusCode !== 201) throw new Error(r.body);
    s.sigId = r.json().id;
  }
}

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
  const rng = await t.request({
    method: 'POST',
    url: '/api/receipt-ranges',
    token: admin.token,
    payload: {
      office: OFFICE,
      series: 'ALC',
      firstNumber: 1,
      lastNumber: 100,
      authorizationRef: 'Res. alcance',
      authorizationDate: '2024-01-02',
    },
  });
  expect(rng.statusCode, rng.body).toBe(201);
  A = await side(fx.entityA, 'Alcance', '1111.11');
  B = await side(fx.entityB, 'Fuera', '7777.77');
  await sigSides();
  await agreementSide(A, fx.entityA.id);
  await agreementSide(B, fx.entityB.id);
  await legalSide(A, fx.entityA.id);
  await legalSide(B, fx.entityB.id);
  await noticeSide(A, fx.entityA.id);
  await noticeSide(B, fx.entityB.id);
  // A voluntary contributor (no entity) with a voluntary order: the central office's, outside every entity scope.
  voluntaryName = 'Voluntario Sinentidad';
  const vCui = newCui();
  await db.insert(contributors).values({
    cui: vCui,
    firstName: 'Voluntario',
    firstSurname: 'Sinentidad',
    birthDate: '1980-01-01',
    sex: 'M',
    typeId: fx.typeId,
    municipalityId: fx.municipality.id,
  });
  const vol = await t.request({
    method: 'POST',
    url: '/api/voluntary-payments',
    token: admin.token,
    payload: { cui: vCui, periods: ['2024-01'], salary: '3000.00' },
  });
  expect(vol.statusCode, vol.body).toBe(201);
  expect(vol.body.toUpperCase()).toContain(voluntaryName.toUpperCase());
  // Rows about no entity: a role (audit) and a central user (no ENTIDAD institution).
  const role = await t.request({ method: 'POST', url: '/api/roles', token: admin.token, payload: { name: ROLE_MARKER } });
  expect(role.statusCode, role.body).toBe(201);
  centralEmail = (await t.createUser()).email;
  const [central] = await db
    .insert(institutions)
    .values({ code: 'CENTRAL-ALC', name: 'Oficina central', kind: 'INSTITUCION' })
    .returning();
  await db.insert(userInstitutions).values({ userId: ids?.central ?? (await userIds()).central, institutionId: central.id });
  moved = await movedContributor();
  lib.A = await librarySide(fx.entityA.id, 'ALCANCE-A');
  lib.B = await librarySide(fx.entityB.id, 'FUERA-B');
  lib.central = await librarySide(null, 'CENTRAL');
}, 120_000);
afterAll(() => t.close());

/** A signed-in user holding every action of `resource` with `scope`, linked so that it reaches entity A. */
async function scopedUser(resource: Resource, scope: Scope, extra: Grant[] = []): Promise<TestUser> {
  const grants = (resources[resource] as readonly Action[]).map((action) => ({ resource, action, scope }));
  const user = await t.createUser({ grants: [...grants, ...extra] });
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

/**
 * Records read by their owner (issue 25), beyond the scopable routes above: for each of REGION and ENTITY, a user
 * holding Procesos (jobs READ, an ALL-only permission) and a scoped export — the role that read any job by id —
 * gets 404 on every jobs route for the administrator's export and for a job of the system, exactly as for a job
 * that does not exist; and a bank reference or idempotency key of entity B's payment answers exactly as one never
 * used (no oracle).
 */
describe('records read by their owner', () => {
  let exportJob = 0;
  let systemJob = 0;
  beforeAll(async () => {
    const start = await t.request({ method: 'POST', url: '/api/contributors/export-jobs?format=csv', token: admin.token });
    expect(start.statusCode, start.body).toBe(202);
    exportJob = start.json().jobId;
    const [sweep] = await t.database.db
      .insert(jobs)
      .values({ kind: 'pensions.renap-check', state: 'DONE', userId: null, scope: 'ALL', result: { checked: 2, deaths: 1 } })
      .returning();
    systemJob = sweep.id;
  });

  const jobRoutes = () => t.app.routeTable.filter((r) => r.url.startsWith('/api/jobs/:id'));
  const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.json() });

  for (const scope of ['REGION', 'ENTITY'] as const) {
    it(`${scope}: jobs of another user and of the system answer like jobs that do not exist, on every jobs route`, async () => {
      const user = await scopedUser('contributor-list', scope, [{ resource: 'jobs', action: 'READ', scope: 'ALL' }]);
      const procesos = await t.createUser({ grants: [{ resource: 'jobs', action: 'READ', scope: 'ALL' }] });
      for (const reader of [user, procesos]) {
        expect(jobRoutes().length).toBeGreaterThanOrEqual(3);
        for (const r of jobRoutes()) {
          const at = (id: number) =>
            t.request({ method: r.method as 'GET', url: r.url.replace(':id', String(id)), token: reader.token });
          const none = answer(await at(2_147_483_647));
          expect(none.status, `${r.method} ${r.url}`).toBe(404);
          for (const id of [exportJob, systemJob]) expect(answer(await at(id)), `${r.method} ${r.url} ${id}`).toEqual(none);
        }
        const listed = await t.request({ method: 'GET', url: '/api/jobs?scope=all&pageSize=200', token: reader.token });
        const ids = listed.statusCode === 200 ? listed.json().items.map((j: { id: number }) => j.id) : [];
        expect(ids).not.toContain(exportJob);
        expect(ids).not.toContain(systemJob);
      }
    });

    it(`${scope}: a payment reference or key of another entity answers exactly like one never used`, async () => {
      const user = await scopedUser('planilla-payments', scope);
      const pay = (over: Record<string, unknown>) =>
        t.request({
          method: 'POST',
          url: '/api/payments',
          token: user.token,
          payload: { ...paymentBody(B.orderId, `oraculo-${scope}`), ...over },
        });
      const unknown = answer(await pay({}));
      expect(unknown.status).toBe(404);
      // Entity B's payment was made with paymentBody(B's order, 'Fuera').
      expect(answer(await pay({ bankReference: 'ALC-Fuera' }))).toEqual(unknown);
      expect(answer(await pay({ idempotencyKey: 'alcance-Fuera' }))).toEqual(unknown);
      // An order that does not exist at all: the same answer whatever the reference.
      const absent = { orderIds: [2_147_483_647] };
      expect(answer(await pay({ ...absent, bankReference: 'ALC-Fuera' }))).toEqual(answer(await pay(absent)));
    });
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
