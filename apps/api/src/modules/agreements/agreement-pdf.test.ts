import { addDays, guatemalaToday } from '@aporta/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { hasPoppler, pdfPages, popplerMissing } from '../../test/poppler.ts';
import { contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder } from '../payments/orders.ts';

// Issue 28: a contract has its own layout — no "Filtros:" heading (that is a list's) — and its "Firmas"
// heading and captions stay on the page of their lines, however long the schedule before them is.

let t: TestApp;
let admin: TestUser;
const today = guatemalaToday();

const req = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

/** An agreement of `instalments` on a fresh entity with overdue orders in `periods` periods; its PDF. */
async function agreementPdf(instalments: number, periods: number) {
  const fx = await contributorFixtures(t.database.db);
  const ctx = systemContext(t.database.db);
  for (let i = 1; i <= periods; i++) {
    const period = `2024-${String(i).padStart(2, '0')}`;
    for (const kind of ['LABORAL', 'PATRONAL'] as const) {
      await insertOrder(ctx, t.database.db, {
        kind,
        entityId: fx.entityA.id,
        period,
        principal: 1_234_567n,
        issueDate: `${period}-28`,
      });
    }
  }
  const debt = await req(admin.token, 'GET', `/api/payment-agreements/debt?entityId=${fx.entityA.id}`);
  expect(debt.statusCode, debt.body).toBe(200);
  const ag = await req(admin.token, 'POST', '/api/payment-agreements', {
    entityId: fx.entityA.id,
    downPayment: debt.json().minDownPayment,
    instalments,
    firstDueDate: addDays(today, 30),
  });
  expect(ag.statusCode, ag.body).toBe(201);
  const pdf = await req(admin.token, 'GET', `/api/payment-agreements/${ag.json().id}/pdf`);
  expect(pdf.statusCode, pdf.body).toBe(200);
  return { agreement: ag.json(), pages: pdfPages(pdf.rawPayload) };
}

describe('agreement PDF', () => {
  it.skipIf(!hasPoppler)(
    `has no filters heading and keeps "Firmas" with its lines on one page, whatever the length${hasPoppler ? '' : ` (${popplerMissing})`}`,
    async () => {
      // Schedules of different lengths move the signature block across page boundaries.
      for (const [instalments, periods] of [
        [6, 2],
        [18, 6],
        [24, 9],
        [30, 11],
        [36, 12],
      ]) {
        const { agreement, pages } = await agreementPdf(instalments, periods);
        const what = `${instalments} cuotas, ${periods} períodos`;
        for (const page of pages) expect(page, what).not.toContain('Filtros:');
        const signing = pages.filter((p) => /^\s*Firmas\s*$/m.test(p));
        expect(signing, what).toHaveLength(1);
        expect(signing[0], what).toContain('Representante legal de la entidad');
        expect(signing[0], what).toContain('Por la institución');
        const all = pages.join('\n');
        expect(all, what).toContain(`Convenio de pago ${agreement.number}`);
        // Money with its currency, periods mm/aaaa, days dd/mm/aaaa: never a raw period or ISO day.
        expect(all, what).toMatch(/Q \d{1,3}(,\d{3})*\.\d{2}/);
        expect(all, what).toContain('01/2024');
        expect(all, what).not.toMatch(/\b\d{4}-\d{2}(-\d{2})?\b/);
      }
    },
  );
});
