import {
  addDays,
  centsToDecimal,
  decimalToCents,
  interestBetween,
  MAX_AMOUNT_CENTS,
  type RateFrom,
  simpleInterest,
} from '@aporta/domain';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { settingValues } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder, interestBetweenSql, interestRates } from './orders.ts';

/**
 * The SQL interest (lists, totals, statements, ranking) and the domain's interest (payments, agreements)
 * are one rule: equal to the cent at the column's limits — numeric(14,2)'s largest principal, rates up to
 * the largest in force, day counts of decades (issue 25, item 13).
 */

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  // One rate since 1990: 99.9999 % (the settings' maximum is 100 %), so the figures below are exact.
  await t.database.db.execute(
    sql`update ${settingValues} set cancelled_at = now(), cancel_reason = 'prueba' where key = 'paymentOrders.annualInterestRate'`,
  );
  await t.database.db
    .insert(settingValues)
    .values({ key: 'paymentOrders.annualInterestRate', value: '99.9999', effectiveFrom: '1990-01-01', reason: 'prueba' });
});
afterAll(() => t.close());

/** The SQL computation on the real database, for many cases in one statement. */
async function sqlInterest(cases: { base: bigint; start: string; end: string }[], rates: RateFrom[]): Promise<bigint[]> {
  const parts = cases.map(
    (c, i) =>
      sql`select ${i}::int as i, (${interestBetweenSql(rates, sql`${centsToDecimal(c.base)}::numeric`, sql`${c.start}::date`, c.end)})::text as v`,
  );
  const rows = rowsOf<{ i: number; v: string }>(await t.database.db.execute(sql.join(parts, sql` union all `)));
  return rows.sort((a, b) => Number(a.i) - Number(b.i)).map((r) => decimalToCents(r.v));
}

describe('SQL interest equals the domain interest', () => {
  it('through the API, as of a past date and a future one: large principals at 99.9999 % over years (balances a response carries)', async () => {
    const fx = await contributorFixtures(t.database.db);
    const rates = await interestRates(t.database.db);
    const cases: [bigint, string, number][] = [
      [19_999_999_999_999n, '2000-01-01', 1000],
      [19_999_999_975_002n, '2000-01-01', 1000],
      [3_333_333_333_333n, '2010-12-01', 7300],
      [1n, '2010-12-01', 7300],
    ];
    for (const [i, [principal, due, days]] of cases.entries()) {
      const o = await insertOrder(systemContext(t.database.db), t.database.db, {
        kind: 'LABORAL',
        entityId: fx.entityA.id,
        period: `1999-${String(i + 1).padStart(2, '0')}`,
        principal,
        dueDate: due,
      });
      const asOf = addDays(due, days);
      const r = await t.request({ method: 'GET', url: `/api/payment-orders/${o.id}?asOf=${asOf}`, token: admin.token });
      expect(r.statusCode, r.body).toBe(200);
      const want = interestBetween(principal, due, asOf, rates);
      expect(want).toBe(simpleInterest(principal, '99.9999', days));
      expect(r.json().interestDue, `${principal} ${due}…${asOf}`).toBe(centsToDecimal(want));
    }
  });

  it('where rounding a numeric quotient first rounds twice: the largest principals at 99.9999 % for 20 years', async () => {
    // round(x / 36500, 2) gave 19999979995000.41 for the first (exact …000.40499999…): the quotient was
    // rounded to its own scale before the cents. The exact product rounded once gives .40, like the domain.
    const rates = [{ from: '2000-01-01', rate: '99.9999' }];
    const cases = [99_999_999_975_002n, 99_999_999_975_001n, 99_999_999_925_002n, MAX_AMOUNT_CENTS].map((base) => ({
      base,
      start: '2000-01-01',
      end: addDays('2000-01-01', 7300),
    }));
    const got = await sqlInterest(cases, rates);
    expect(centsToDecimal(got[0])).toBe('19999979995000.40');
    cases.forEach((c, i) => {
      expect(got[i], String(c.base)).toBe(simpleInterest(c.base, '99.9999', 7300));
    });
  });

  it('property: any principal up to numeric(14,2), any rates up to 999.9999 % changing on any days, any span up to a century', async () => {
    const day = (n: number) => addDays('2000-01-01', n);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            base: fc.oneof(
              fc.bigInt({ min: 0n, max: MAX_AMOUNT_CENTS }),
              fc.bigInt({ min: MAX_AMOUNT_CENTS - 1_000_000n, max: MAX_AMOUNT_CENTS }),
            ),
            start: fc.integer({ min: 0, max: 20_000 }),
            length: fc.integer({ min: 0, max: 36_600 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.uniqueArray(
          fc.record({
            from: fc.integer({ min: 0, max: 40_000 }),
            rate: fc.integer({ min: 0, max: 9_999_999 }).map((r) => (r / 10_000).toFixed(4)),
          }),
          { minLength: 1, maxLength: 4, selector: (r) => r.from },
        ),
        async (spec, rateSpec) => {
          const rates = rateSpec.map((r) => ({ from: day(r.from), rate: r.rate })).sort((a, b) => a.from.localeCompare(b.from));
          const cases = spec.map((c) => ({ base: c.base, start: day(c.start), end: day(c.start + c.length) }));
          const got = await sqlInterest(cases, rates);
          cases.forEach((c, i) => {
            expect(got[i], `${c.base} ${c.start}…${c.end}`).toBe(interestBetween(c.base, c.start, c.end, rates));
          });
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('the single rate over the whole span is simpleInterest, at the extremes of each dimension', async () => {
    const rates = [{ from: '1900-01-01', rate: '999.9999' }];
    const cases = [];
    for (const base of [1n, 99n, MAX_AMOUNT_CENTS, MAX_AMOUNT_CENTS - 1n, 99_999_999_975_002n]) {
      for (const days of [1, 2, 182, 365, 366, 7300, 36_500, 73_000]) {
        cases.push({ base, start: '1950-01-01', end: addDays('1950-01-01', days), days });
      }
    }
    const got = await sqlInterest(cases, rates);
    cases.forEach((c, i) => {
      expect(got[i], `${c.base} × ${c.days}`).toBe(simpleInterest(c.base, '999.9999', c.days));
    });
  });
});
