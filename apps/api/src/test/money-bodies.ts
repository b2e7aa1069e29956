import { randomBytes } from 'node:crypto';
import { addDays, guatemalaToday, periodOf, previousPeriod } from '@aporta/domain';
import { expect } from 'vitest';
import { contributors } from '../db/schema/index.ts';
import { contributorFixtures, newCui } from '../modules/contributors/fixtures.ts';
import type { TestApp, TestUser } from './harness.ts';

/**
 * Valid requests of the money routes, built from each module's contract, for the tests that make one
 * field hostile at a time (platform/fuzz.test.ts, platform/ranges.test.ts): a hostile value must then
 * reach the rules behind the schema (settings in force, schedules, ranges) instead of stopping at the
 * first missing field. Records the bodies address (an entity, a planilla, a pension, contributors) are
 * created here; each body is a function so a body that creates a record can be sent again.
 */
export interface MoneyRequest {
  /** The route as the OpenAPI document names it (`POST /api/planillas/{id}/lines`). */
  route: string;
  url: string;
  body: () => Record<string, unknown>;
}

export async function moneyFixtures(t: TestApp, admin: TestUser) {
  const db = t.database.db;
  const fx = await contributorFixtures(db);
  const today = guatemalaToday();
  const last = previousPeriod(periodOf(today));
  const req = (method: 'POST', url: string, payload: unknown) =>
    t.request({ method, url, payload: payload as never, token: admin.token });

  /** A contributor of entity A, registered through the API (a pension's holder). */
  const contributor = async () => {
    const cui = newCui();
    const res = await req('POST', '/api/contributors', {
      cui,
      firstName: 'Rosa',
      firstSurname: 'Rango',
      birthDate: '1955-03-10',
      sex: 'F',
      typeId: fx.typeId,
      entityId: fx.entityA.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    return cui;
  };
  const holder = await contributor();
  const pension = await req('POST', '/api/pensions', {
    cui: holder,
    type: 'JUBILACION',
    resolutionNumber: 'RES-2020-001',
    resolutionDate: '2020-01-10',
    startDate: '2020-02-01',
    monthlyAmount: '3100.00',
    bankAccount: '3010-123456-7',
  });
  expect(pension.statusCode, pension.body).toBe(201);
  const pensionId = pension.json().id as number;
  const planilla = await req('POST', '/api/planillas', { entityId: fx.entityA.id, period: last });
  expect(planilla.statusCode, planilla.body).toBe(201);
  const planillaId = planilla.json().id as number;
  // A contributor without employer: who pays voluntary contributions.
  const voluntary = newCui();
  await db.insert(contributors).values({
    cui: voluntary,
    firstName: 'Pedro',
    firstSurname: 'Voluntario',
    searchName: 'PEDRO VOLUNTARIO',
    birthDate: '1980-01-01',
    sex: 'M',
    typeId: fx.typeId,
  });
  const key = () => `k${randomBytes(8).toString('hex')}`;

  const requests: MoneyRequest[] = [
    {
      route: 'POST /api/back-pay',
      url: '/api/back-pay',
      body: () => ({
        entityId: fx.entityA.id,
        resolutionNumber: 'R-2026-7',
        resolutionDate: addDays(today, -3),
        cui: newCui(),
        fullName: 'Ana López',
        budgetLine: '011',
        fromPeriod: previousPeriod(previousPeriod(last)),
        toPeriod: last,
        monthlySalary: '5000.00',
      }),
    },
    { route: 'POST /api/planillas', url: '/api/planillas', body: () => ({ entityId: fx.entityB.id, period: last }) },
    {
      route: 'POST /api/planillas/{id}/lines',
      url: `/api/planillas/${planillaId}/lines`,
      body: () => ({ cui: newCui(), fullName: 'Ana López', budgetLine: '011', salary: '3000.00' }),
    },
    {
      route: 'POST /api/payments',
      url: '/api/payments',
      body: () => ({
        idempotencyKey: key(),
        orderIds: [1],
        bank: 'BANRURAL',
        payDate: today,
        bankReference: 'REF-1',
        amount: '100.00',
        office: 'CENTRAL',
      }),
    },
    {
      route: 'POST /api/receipt-ranges',
      url: '/api/receipt-ranges',
      body: () => ({
        office: 'CENTRAL',
        series: 'R',
        firstNumber: 1,
        lastNumber: 100,
        authorizationRef: 'Resolución SAT 1',
        authorizationDate: today,
      }),
    },
    {
      route: 'POST /api/voluntary-payments',
      url: '/api/voluntary-payments',
      body: () => ({ cui: voluntary, periods: [last], salary: '5000.00' }),
    },
    ...['/api/payment-agreements/simulate', '/api/payment-agreements'].map((url) => ({
      route: `POST ${url}`,
      url,
      body: () => ({ entityId: fx.entityA.id, downPayment: '0.00', instalments: 6, firstDueDate: addDays(today, 15) }),
    })),
    {
      route: 'POST /api/payment-agreements/detection-jobs',
      url: '/api/payment-agreements/detection-jobs',
      body: () => ({ asOf: today }),
    },
    {
      route: 'POST /api/pensions',
      url: '/api/pensions',
      body: () => ({
        cui: holder,
        type: 'INVALIDEZ',
        resolutionNumber: 'RES-2026-002',
        resolutionDate: addDays(today, -3),
        startDate: addDays(today, -2),
        monthlyAmount: '3100.00',
        bankAccount: '3010-123456-7',
      }),
    },
    {
      route: 'POST /api/pensions/{id}/amounts',
      url: `/api/pensions/${pensionId}/amounts`,
      body: () => ({ monthlyAmount: '3200.00', effectiveFrom: today, reason: 'Ajuste anual' }),
    },
    {
      route: 'POST /api/pensions/{id}/survival-checks',
      url: `/api/pensions/${pensionId}/survival-checks`,
      body: () => ({ checkDate: today, method: 'PRESENCIAL' }),
    },
    { route: 'POST /api/survival/letter-jobs', url: '/api/survival/letter-jobs', body: () => ({ asOf: today }) },
    { route: 'POST /api/survival/suspension-jobs', url: '/api/survival/suspension-jobs', body: () => ({ asOf: today }) },
    {
      route: 'POST /api/settings/{key}/values',
      url: '/api/settings/contributions.employeeRate/values',
      body: () => ({ value: '4.75', effectiveFrom: '2099-01-01', reason: 'Prueba de rangos' }),
    },
  ];
  /** Path values of the records created here, by the route's prefix; `1` elsewhere. */
  const pathValue = (route: string, name: string): string => {
    if (name === 'key') return 'contributions.employeeRate';
    if (name === 'period') return last;
    if (route.includes('/api/planillas/{id}')) return String(planillaId);
    if (route.includes('/api/pensions/{id}')) return String(pensionId);
    return '1';
  };
  return { fx, today, last, holder, voluntary, pensionId, planillaId, requests, pathValue, contributor };
}
