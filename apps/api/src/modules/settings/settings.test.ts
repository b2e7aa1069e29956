import {
  addDays,
  applyRate,
  guatemalaToday,
  INITIAL_SETTINGS_FROM,
  initialSettings,
  settingKeys,
  settingsUsed,
  settingsUsedSchema,
} from '@aporta/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, serial } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../db/columns.ts';
import { auditLog, settingValues } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { seedSettings, settingsAt } from './service.ts';

let t: TestApp;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;
const today = guatemalaToday();
const inAMonth = addDays(today, 30);
const RATE = 'contributions.employeeRate';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({
    grants: [
      { resource: 'settings', action: 'READ', scope: 'ALL' },
      { resource: 'settings', action: 'UPDATE', scope: 'ALL' },
    ],
  });
  reader = await t.createUser({ grants: [{ resource: 'settings', action: 'READ', scope: 'ALL' }] });
  outsider = await t.createUser({ grants: [{ resource: 'regions', action: 'READ', scope: 'ALL' }] });
});
afterAll(() => t.close());

const get = (url: string, token = admin.token) => t.request({ method: 'GET', url, token });
const schedule = (key: string, payload: unknown, token = admin.token) =>
  t.request({ method: 'POST', url: `/api/settings/${key}/values`, token, payload: payload as object });
const cancel = (key: string, id: number, payload: unknown, token = admin.token) =>
  t.request({ method: 'POST', url: `/api/settings/${key}/values/${id}/cancel`, token, payload: payload as object });
const lastAudit = async (action: string) =>
  (await t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1))[0];

describe('settings: seeded and typed (issue 10)', () => {
  it('seeds every setting of the catalogue with its initial value from 2000-01-01, once', async () => {
    const at = await settingsAt(t.database.db, '2026-01-15');
    expect(at.values).toEqual(initialSettings());
    expect(Object.values(at.effectiveFrom).every((d) => d === INITIAL_SETTINGS_FROM)).toBe(true);
    await seedSettings(t.database.db);
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(settingValues);
    expect(n).toBe(settingKeys.length);
  });

  it('lists every setting with its value in force today and no next value', async () => {
    const res = await get('/api/settings');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.today).toBe(today);
    expect(body.items).toHaveLength(settingKeys.length);
    const rate = body.items.find((i: { key: string }) => i.key === RATE);
    expect(rate).toMatchObject({
      topic: 'contributions',
      kind: 'rate',
      unit: '%',
      label: 'Cuota laboral',
      current: { value: '7.0000', effectiveFrom: INITIAL_SETTINGS_FROM, createdBy: null },
      next: null,
    });
  });
});

describe('scheduling a value (issue 10)', () => {
  let scheduledId: number;

  it('schedules a new employee rate from a future date, with a reason, audited', async () => {
    const res = await schedule(RATE, { value: '7.5', effectiveFrom: inAMonth, reason: 'Acuerdo de junta directiva 12-2026' });
    expect(res.statusCode).toBe(201);
    const entry = res.json();
    scheduledId = entry.id;
    expect(entry).toMatchObject({ value: '7.5000', effectiveFrom: inAMonth, retroactive: false, cancelledAt: null });
    expect(entry.createdBy).toMatch(/^Usuario Prueba \d+$/);
    const audit = await lastAudit('SETTING_SCHEDULE');
    expect(audit).toMatchObject({ actorId: admin.id, entityType: 'setting', entityId: RATE });
    expect(audit.after).toMatchObject({ id: entry.id, value: '7.5000', effectiveFrom: inAMonth, retroactive: false });
  });

  it('shows it as the next value while the current one still rules, and in the history', async () => {
    const rate = (await get('/api/settings')).json().items.find((i: { key: string }) => i.key === RATE);
    expect(rate.current.value).toBe('7.0000');
    expect(rate.next).toMatchObject({ id: scheduledId, value: '7.5000', effectiveFrom: inAMonth });
    const history = (await get(`/api/settings/${RATE}/history`)).json();
    expect(history.items.map((i: { value: string }) => i.value)).toEqual(['7.5000', '7.0000']);
  });

  it('settingsAt answers the value in force on each date', async () => {
    expect((await settingsAt(t.database.db, addDays(inAMonth, -1))).values[RATE]).toBe('7.0000');
    const on = await settingsAt(t.database.db, inAMonth);
    expect(on.values[RATE]).toBe('7.5000');
    expect(on.effectiveFrom[RATE]).toBe(inAMonth);
  });

  it('refuses bad values, dates and reasons with Spanish messages naming the field', async () => {
    const bad = async (key: string, payload: unknown, status = 400) => {
      const res = await schedule(key, payload);
      expect(res.statusCode, res.body).toBe(status);
      return res.json().error;
    };
    const base = { value: '8', effectiveFrom: addDays(inAMonth, 1), reason: 'Motivo suficiente' };
    expect((await bad(RATE, { ...base, value: '7,5' })).details).toEqual([
      {
        path: 'value',
        message: expect.stringMatching(/^Cuota laboral: El porcentaje "7,5" usa coma decimal/),
        key: 'settings.settingProblem',
        params: { setting: 'Cuota laboral', problem: expect.stringMatching(/^El porcentaje "7,5" usa coma decimal/) },
      },
    ]);
    expect((await bad(RATE, { ...base, value: '150' })).details[0].message).toMatch(/^Cuota laboral: .*supera el máximo/);
    expect((await bad('paymentOrders.dueDay', { ...base, value: 31 })).details[0]).toEqual({
      path: 'value',
      message: 'Día de vencimiento: El máximo es 28.',
      key: 'settings.settingProblem',
      params: { setting: 'Día de vencimiento', problem: 'El máximo es 28.' },
    });
    expect((await bad('contributions.subjectBudgetLines', { ...base, value: ['011', '11'] })).details[0].path).toMatch(/^value/);
    expect((await bad(RATE, { ...base, effectiveFrom: today })).details[0]).toMatchObject({
      path: 'effectiveFrom',
      message: expect.stringMatching(/^Vigente desde: debe ser posterior a hoy/),
    });
    expect((await bad(RATE, { ...base, effectiveFrom: '2026-02-30' })).details[0].path).toBe('effectiveFrom');
    expect((await bad(RATE, { ...base, reason: ' ' })).details[0].message).toMatch(/^Motivo: escriba el motivo/);
    expect((await bad(RATE, { ...base, value: '7.5', effectiveFrom: addDays(inAMonth, 5) })).details[0].message).toMatch(
      /es el mismo valor que rige en esa fecha/,
    );
    expect((await bad(RATE, { ...base, effectiveFrom: inAMonth }, 409)).message).toMatch(/Ya hay un valor de «Cuota laboral»/);
    expect((await bad('no.such.key', base)).details[0].path).toBe('ruta.key');
  });

  it('takes a retroactive value only when asked for explicitly', async () => {
    const past = addDays(today, -40);
    const res = await schedule(RATE, {
      value: '7.25',
      effectiveFrom: past,
      reason: 'Reforma legal con vigencia anterior',
      retroactive: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ retroactive: true, value: '7.2500' });
    expect((await settingsAt(t.database.db, today)).values[RATE]).toBe('7.2500');
    // It is in force: it cannot be cancelled, only replaced by a new value.
    const refused = await cancel(RATE, res.json().id, { reason: 'Se anuló la reforma' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/ya está en vigor y no se puede anular/);
  });

  it('cancels a value not yet in force, keeping it in the history, audited', async () => {
    const res = await cancel(RATE, scheduledId, { reason: 'La junta revocó el acuerdo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: scheduledId, cancelReason: 'La junta revocó el acuerdo' });
    expect(res.json().cancelledAt).not.toBeNull();
    expect((await settingsAt(t.database.db, inAMonth)).values[RATE]).toBe('7.2500');
    const rate = (await get('/api/settings')).json().items.find((i: { key: string }) => i.key === RATE);
    expect(rate.next).toBeNull();
    const history = (await get(`/api/settings/${RATE}/history`)).json();
    expect(history.items.find((i: { id: number }) => i.id === scheduledId).cancelledBy).not.toBeNull();
    const audit = await lastAudit('SETTING_CANCEL');
    expect(audit).toMatchObject({ actorId: admin.id, entityId: RATE, after: { id: scheduledId, cancelled: true } });
    expect((await cancel(RATE, scheduledId, { reason: 'Otra vez' })).statusCode).toBe(409);
    expect((await cancel('contributions.employerRate', scheduledId, { reason: 'Clave equivocada' })).statusCode).toBe(404);
    // The date is free again.
    expect((await schedule(RATE, { value: '7.75', effectiveFrom: inAMonth, reason: 'Nuevo acuerdo de junta' })).statusCode).toBe(
      201,
    );
  });

  it('lets READ see and only UPDATE change; others get 403', async () => {
    expect((await get('/api/settings', reader.token)).statusCode).toBe(200);
    expect(
      (await schedule(RATE, { value: '9', effectiveFrom: addDays(inAMonth, 9), reason: 'Sin permiso' }, reader.token)).statusCode,
    ).toBe(403);
    expect((await get('/api/settings', outsider.token)).statusCode).toBe(403);
    expect((await get(`/api/settings/${RATE}/history`, outsider.token)).statusCode).toBe(403);
  });
});

describe('a calculation stores the settings it used (issue 10)', () => {
  // A calculation-like record: what a planilla line will store beside its contribution.
  const calc = pgTable('calc_probe', {
    id: serial().primaryKey(),
    salary: money().notNull(),
    employee: money().notNull(),
    used: jsonb().notNull(),
    n: integer(),
  });

  it('keeps the rate and its effective date after the setting changes', async () => {
    await t.database.db.execute(
      sql`create table calc_probe (id serial primary key, salary numeric(14, 2) not null, employee numeric(14, 2) not null, used jsonb not null, n integer)`,
    );
    const period = addDays(inAMonth, 10);
    const at = await settingsAt(t.database.db, period);
    const salary = 1_234_567n;
    const [row] = await t.database.db
      .insert(calc)
      .values({ salary, employee: applyRate(salary, at.values[RATE]), used: settingsUsed(at, [RATE]) })
      .returning();
    expect(row.employee).toBe(95_679n); // 7.75 % of Q 12,345.67 = 956.789… → Q 956.79

    // A later change of the value for that period does not touch what was calculated.
    const change = await schedule(RATE, { value: '8', effectiveFrom: addDays(inAMonth, 1), reason: 'Corrección del acuerdo' });
    expect(change.statusCode).toBe(201);
    const [stored] = await t.database.db
      .select()
      .from(calc)
      .where(and(eq(calc.id, row.id)));
    expect(stored.employee).toBe(95_679n);
    const used = settingsUsedSchema.parse(stored.used);
    expect(used).toEqual({ asOf: period, values: { [RATE]: { value: '7.7500', from: inAMonth } } });
    expect((await settingsAt(t.database.db, period)).values[RATE]).toBe('8.0000');
  });
});
