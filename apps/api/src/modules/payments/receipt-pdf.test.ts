import { addDays, type Grant, guatemalaToday } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banks } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { hasPoppler, pdfPages, popplerMissing } from '../../test/poppler.ts';
import { attachUserToEntity, contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder } from './orders.ts';

// Issue 28: the 7-B receipt is a document fit for paper — payer, concept, order, period, the amount in
// words and the signature and seal lines — and its QR opens the public verification page.

let t: TestApp;
let admin: TestUser;
let cashier: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
const today = guatemalaToday();
const OFFICE = 'RECIBOS';

const g = (scope: Grant['scope'], entries: [Grant['resource'], Grant['action'][]][]): Grant[] =>
  entries.flatMap(([resource, actions]) => actions.map((action) => ({ resource, action, scope })));
const req = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });
/** pdftotext's text with its layout spaces and line breaks collapsed: what a reader reads. */
const flat = (s: string) => s.replace(/\s+/g, ' ');

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  cashier = await t.createUser({
    grants: g('ENTITY', [
      ['payment-orders', ['READ']],
      ['planilla-payments', ['READ', 'CREATE']],
      ['receipts-7b', ['READ']],
    ]),
  });
  await attachUserToEntity(t.database.db, cashier.id, fx.entityA.id);
  const rng = await req(admin.token, 'POST', '/api/receipt-ranges', {
    office: OFFICE,
    series: 'R',
    firstNumber: 1,
    lastNumber: 100,
    authorizationRef: 'Res. recibos',
    authorizationDate: '2024-01-02',
  });
  expect(rng.statusCode, rng.body).toBe(201);
});
afterAll(() => t.close());

describe('7-B receipt PDF', () => {
  it.skipIf(!hasPoppler)(
    `prints payer, concept, order, period, the amount in figures and in words, and signature and seal lines${hasPoppler ? '' : ` (${popplerMissing})`}`,
    async () => {
      const order = await insertOrder(systemContext(t.database.db), t.database.db, {
        kind: 'LABORAL',
        entityId: fx.entityA.id,
        period: '2026-10',
        principal: 123_450n,
        issueDate: today,
        dueDate: addDays(today, 15),
      });
      const p = await req(cashier.token, 'POST', '/api/payments', {
        idempotencyKey: `rcpt-${Date.now()}`,
        orderIds: [order.id],
        // A bank of the «Bancos» catalogue (seeded), by its id.
        bankId: (await t.database.db.select().from(banks).where(eq(banks.code, 'BANRURAL')))[0].id,
        payDate: today,
        bankReference: `BR-${Date.now()}`,
        amount: '1234.50',
        office: OFFICE,
      });
      expect(p.statusCode, p.body).toBe(201);
      const receiptId = p.json().payment.receipt.id;
      const res = await req(cashier.token, 'GET', `/api/receipts/${receiptId}/pdf`);
      expect(res.statusCode, res.body).toBe(200);
      const pages = pdfPages(res.rawPayload);
      const text = flat(pages.join('\n'));
      expect(text).toContain('UN MIL DOSCIENTOS TREINTA Y CUATRO QUETZALES CON 50/100');
      expect(text).toContain('Q 1,234.50');
      // The table's total row sums each column: no interest, all principal (not the whole under Capital alone).
      expect(text).toMatch(/Total Q 0\.00 Q 1,234\.50/);
      expect(text).toContain(`Recibido de: ${fx.entityA.name}`);
      expect(text).toContain('Concepto: Pago de cuota laboral del período 10/2026');
      // The order's reference grouped as on screen, the period as mm/aaaa, never aaaa-mm.
      const grouped = order.reference.match(/.{1,4}/g)?.join(' ') ?? '';
      expect(text).toContain(`Orden de pago: ${grouped}`);
      expect(text).toContain('Período: 10/2026');
      expect(text).not.toMatch(/\b2026-10\b/);
      // A document, not a list: no filters heading; its signature and seal lines.
      expect(text).not.toContain('Filtros:');
      expect(text).toContain('Firma y sello');
      expect(text).toContain('Firma de quien recibe');
      expect(text).toContain('Sello de la institución');
      // The QR's link (printed under it as well) is the public verification page, not the JSON route.
      const code = res.headers['x-verification-code'] as string;
      expect(text).toMatch(new RegExp(`Verificación en línea: https?://[^ ]+/verificar\\?codigo=${code}`));
      expect(text).not.toContain('/api/documents/verify');
    },
  );
});
