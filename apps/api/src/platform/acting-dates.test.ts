import { addDays, addMonths, guatemalaToday, periodOf } from '@aporta/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { routeTable } from '../test/openapi.ts';

/**
 * "A job or action that takes a date acts only up to today": reads the OpenAPI route table, finds every
 * date or period a write route takes (path, query and JSON body, nested ones included, by the shape the
 * schema declares or by the field's name), and requires each to be classified below — a new one fails
 * until someone decides. Every input classified as acting is sent a value just past its limit (the day
 * after today in Guatemala; for a month, the month after the last one allowed) and must answer 400
 * naming the field, whatever the rest of the body; the others say why a later date is right for them.
 * Signed in as a super administrator, so the permission guard lets every request reach validation.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

interface Schema {
  type?: string | string[];
  pattern?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Operation {
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
type OpenApi = { paths: Record<string, Record<string, Operation>> };

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const PERIOD_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])$';
const DATE_NAME = /(^asOf$|^date$|Date$|^period$|Period$|^periods$|^month$|^until$|Until$|^effectiveFrom$)/;

type Kind = 'date' | 'period' | 'named';
interface Input {
  key: string;
  method: string;
  path: string;
  in: 'path' | 'query' | 'body';
  /** Body path, dotted, `[]` for an array's items (`beneficiaries[].birthDate`). */
  field: string;
  kind: Kind;
}

function kindOf(s: Schema | undefined, name: string): Kind | null {
  if (!s) return null;
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) {
    const k = kindOf(alt, name);
    if (k) return k;
  }
  if (s.pattern === DATE_PATTERN) return 'date';
  if (s.pattern === PERIOD_PATTERN) return 'period';
  if (s.type === 'array' && s.items) return kindOf(s.items, name);
  if (DATE_NAME.test(name) && (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')))) return 'named';
  return null;
}

function bodyInputs(s: Schema | undefined, prefix: string, out: { field: string; kind: Kind }[]) {
  if (!s) return;
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) bodyInputs(alt, prefix, out);
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const field = `${prefix}${name}`;
    const items = prop.type === 'array' ? prop.items : undefined;
    if (items?.properties) bodyInputs(items, `${field}[].`, out);
    else if (prop.properties) bodyInputs(prop, `${field}.`, out);
    const kind = kindOf(prop, name);
    if (kind) out.push({ field: items && !items.properties ? `${field}[]` : field, kind });
  }
}

function walk(doc: OpenApi): Input[] {
  const out: Input[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      const M = method.toUpperCase();
      for (const p of op.parameters ?? []) {
        if (p.in !== 'path' && p.in !== 'query') continue;
        const kind = kindOf(p.schema, p.name);
        if (kind) out.push({ key: `${M} ${path} ${p.in}:${p.name}`, method: M, path, in: p.in, field: p.name, kind });
      }
      const found: { field: string; kind: Kind }[] = [];
      bodyInputs(op.requestBody?.content?.['application/json']?.schema, '', found);
      for (const f of found) out.push({ key: `${M} ${path} body:${f.field}`, method: M, path, in: 'body', ...f });
    }
  }
  return out;
}

/** Acts on or records a fact of a day: refused after today. `ahead`: months allowed after the current one. */
type Rule = { acts: true; ahead?: number } | { acts: false; why: string };
const ACTS: Rule = { acts: true };

/** The template's sample-data areas (collections and `/app/*`): demonstration records, no money, no job. */
const SAMPLE_DATA =
  /^(\/api\/collections\/(leads|deals|crm-tasks|sales-orders|shop-orders|customers|invoices|subscriptions|agents|agencies|transactions|support-tickets|calls|products|property-feedback)|\/app\/)/;

const rules: Record<string, Rule> = {
  // Jobs that change money or state as of a day.
  'POST /api/survival/suspension-jobs body:asOf': ACTS,
  'POST /api/payment-agreements/detection-jobs body:asOf': ACTS,
  // Arrears notices state the debt as of a day that has happened (issue 29).
  'POST /api/financial/notice-campaigns body:asOf': ACTS,
  // Letters go out ahead of the month: every pensioner's next due date is within twelve months.
  'POST /api/survival/letter-jobs body:asOf': { acts: true, ahead: 12 },
  // A payroll is prepared for the current month or the next one.
  'POST /api/pension-payrolls/{period}/generate path:period': { acts: true, ahead: 1 },
  'POST /api/pension-payrolls/{period}/close path:period': { acts: true, ahead: 1 },
  // Facts of a day that has happened.
  'POST /api/pensions/{id}/survival-checks body:checkDate': ACTS,
  'POST /api/payments body:payDate': ACTS,
  'POST /api/receipt-ranges body:authorizationDate': ACTS,
  'POST /api/legal/cases/{id}/actions body:actionDate': ACTS,
  'POST /api/back-pay body:resolutionDate': ACTS,
  'POST /api/back-pay body:toPeriod': ACTS,
  'POST /api/back-pay body:fromPeriod': { acts: false, why: 'not after toPeriod, which is not after the current month' },
  'POST /api/pensions body:resolutionDate': ACTS,
  'POST /api/pensions body:beneficiaries[].birthDate': ACTS,
  'PUT /api/pensions/{id} body:beneficiaries[].birthDate': ACTS,
  'POST /api/contributors body:birthDate': ACTS,
  'PUT /api/contributors/{id} body:birthDate': ACTS,
  // Months declared or paid: up to the current month (the payroll closes in it).
  'POST /api/planillas body:period': ACTS,
  'POST /api/planilla-uploads query:period': ACTS,
  'POST /api/voluntary-payments body:periods[]': ACTS,
  // Later days by nature.
  'POST /api/api-tokens body:expiresOn': { acts: false, why: 'an expiry is a day ahead by nature (at most a year)' },
  'POST /api/contributors body:hireDate': { acts: false, why: 'a contributor may be registered before the first day of work' },
  'PUT /api/contributors/{id} body:hireDate': { acts: false, why: 'as on create' },
  'POST /api/planillas/{id}/lines body:movementDate': {
    acts: false,
    why: 'within its planilla’s period, which is not after the current month',
  },
  'PUT /api/planillas/{id}/lines/{lineId} body:movementDate': { acts: false, why: 'as on create' },
  'POST /api/settings/{key}/values body:effectiveFrom': {
    acts: false,
    why: 'a setting is scheduled ahead; a past day is asked as retroactive',
  },
  'POST /api/pensions body:startDate': { acts: false, why: 'a resolution may grant a pension from a later month' },
  'POST /api/pensions/eligibility body:startDate': { acts: false, why: 'the eligibility of the pension about to be registered' },
  'POST /api/pensions/{id}/amounts body:effectiveFrom': { acts: false, why: 'an amount change is scheduled ahead' },
  'POST /api/pensions body:beneficiaries[].studyCertificateUntil': { acts: false, why: 'until when a certificate covers' },
  'PUT /api/pensions/{id} body:beneficiaries[].studyCertificateUntil': { acts: false, why: 'as on create' },
  'POST /api/payment-agreements body:firstDueDate': { acts: false, why: 'a due date' },
  'POST /api/payment-agreements/simulate body:firstDueDate': { acts: false, why: 'a due date' },
  'POST /api/payment-agreements/{id}/restructure body:firstDueDate': { acts: false, why: 'a due date' },
  'POST /api/legal/cases/{id}/deadlines body:dueDate': { acts: false, why: 'a deadline' },
};

const today = guatemalaToday();

/** The first value past the input's limit. */
function pastLimit(input: Input, rule: { ahead?: number }): string {
  const firstMonthAfter = addMonths(periodOf(today), (rule.ahead ?? 0) + 1);
  if (input.kind === 'period') return firstMonthAfter;
  return rule.ahead ? `${firstMonthAfter}-01` : addDays(today, 1);
}

/** A body holding `value` at `field` (`a[].b` → `{ a: [{ b }] }`, `a[]` → `{ a: [value] }`). */
function bodyWith(field: string, value: string): Record<string, unknown> {
  const [head, ...rest] = field.split('.');
  if (head.endsWith('[]')) {
    const name = head.slice(0, -2);
    return { [name]: [rest.length ? bodyWith(rest.join('.'), value) : value] };
  }
  return { [head]: rest.length ? bodyWith(rest.join('.'), value) : value };
}

/** The path the error details name for `field` (`a[].b` → `a.0.b`; a query's or a path's under its part's name). */
const detailPath = (field: string) => field.replace(/\[\]/g, '.0').replace(/\.$/, '');
const names = (path: string, field: string) => path === detailPath(field) || path.endsWith(`.${detailPath(field)}`);

describe('every date a write route acts on is not after today', () => {
  let inputs: Input[];
  beforeAll(async () => {
    inputs = walk(routeTable<OpenApi>(t.app)).filter((i) => !SAMPLE_DATA.test(i.path));
  });

  it('finds the dates and periods of the route table, each one classified', () => {
    expect(inputs.length).toBeGreaterThan(20);
    const unclassified = inputs.filter((i) => !rules[i.key]).map((i) => `${i.key} (${i.kind})`);
    expect(unclassified, 'classify each new date input in `rules`').toEqual([]);
    const stale = Object.keys(rules).filter((k) => !inputs.some((i) => i.key === k));
    expect(stale, 'rules naming inputs the route table no longer has').toEqual([]);
  });

  it('refuses a value past its limit with a 400 naming the field', async () => {
    const seen: string[] = [];
    for (const input of inputs) {
      const rule = rules[input.key];
      if (!rule?.acts) continue;
      const value = pastLimit(input, rule);
      let url = input.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === input.field ? value : '1'));
      let payload: Record<string, unknown> | undefined;
      if (input.in === 'query') url += `?${input.field}=${value}&entityId=1`;
      if (input.in === 'body') payload = bodyWith(input.field, value);
      const res = await t.request({
        method: input.method as 'POST',
        url,
        payload: payload ?? (input.method === 'POST' || input.method === 'PUT' ? {} : undefined),
        token: admin.token,
      });
      expect(res.statusCode, `${input.key} = ${value}: ${res.body}`).toBe(400);
      const { error } = res.json() as { error: { details?: { path: string; message: string }[] } };
      const detail = error.details?.find((d) => names(d.path, input.field));
      expect(detail, `${input.key} = ${value}: ${res.body}`).toBeDefined();
      expect(detail?.message, input.key).toMatch(/futura|posterior a/);
      seen.push(input.key);
    }
    expect(seen.length).toBe(Object.values(rules).filter((r) => r.acts).length);
  });

  it('accepts the last day or month allowed (the limit is where it says)', async () => {
    // The jobs take today; letters the last month ahead; a payroll the next month.
    const ok = [
      { url: '/api/survival/suspension-jobs', payload: { asOf: today } },
      { url: '/api/payment-agreements/detection-jobs', payload: { asOf: today } },
      { url: '/api/survival/letter-jobs', payload: { asOf: `${addMonths(periodOf(today), 12)}-01` } },
    ];
    for (const r of ok) {
      const res = await t.request({ method: 'POST', url: r.url, payload: r.payload, token: admin.token });
      expect(res.statusCode, `${r.url}: ${res.body}`).toBe(202);
    }
    const next = await t.request({
      method: 'POST',
      url: `/api/pension-payrolls/${addMonths(periodOf(today), 1)}/generate`,
      token: admin.token,
    });
    expect(next.statusCode, next.body).toBe(200);
  });
});

describe('a job acts only within the settings’ history; a new payroll only from the current month', () => {
  it('refuses a day before the first settings in force, naming the field', async () => {
    for (const url of ['/api/survival/suspension-jobs', '/api/payment-agreements/detection-jobs', '/api/survival/letter-jobs']) {
      const res = await t.request({ method: 'POST', url, payload: { asOf: '1999-12-31' }, token: admin.token });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().error.details[0]).toMatchObject({ path: 'asOf' });
      expect(res.json().error.message).toContain('01/01/2000');
    }
  });

  it('refuses a new payroll for a month gone by (1900-01, last month), not the current one', async () => {
    for (const period of ['1900-01', addMonths(periodOf(today), -1)]) {
      const res = await t.request({ method: 'POST', url: `/api/pension-payrolls/${period}/generate`, token: admin.token });
      expect(res.statusCode, `${period}: ${res.body}`).toBe(400);
      expect(res.json().error.details[0]).toMatchObject({ path: 'period' });
    }
    const far = await t.request({ method: 'POST', url: '/api/pension-payrolls/2099-12/generate', token: admin.token });
    expect(far.statusCode).toBe(400);
    const current = await t.request({
      method: 'POST',
      url: `/api/pension-payrolls/${periodOf(today)}/generate`,
      token: admin.token,
    });
    expect(current.statusCode, current.body).toBe(200);
  });
});
