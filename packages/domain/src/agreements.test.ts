import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agreementCreateSchema,
  agreementDebt,
  agreementMachine,
  agreementSchedule,
  minimumDownPayment,
  overdueInstalments,
  sameDayMonthsLater,
  scheduleShares,
  termsProblems,
  unpaidShares,
} from './agreements.ts';
import { allocateLastAbsorbs } from './money.ts';
import { initialSettings, isBusinessDay } from './settings.ts';

const s = initialSettings();
const cal = s['calendar.holidays'];
const limits = { downPaymentRate: s['agreements.downPaymentRate'], maxInstalments: s['agreements.maxInstalments'], minDebt: 0n };

describe('agreement debt', () => {
  it('adds the administrative charge on principal and interest, rounded half-up once', () => {
    // (1000.00 + 12.35) × 5 % = 50.6175 → 50.62
    const d = agreementDebt([{ principalDue: 100_000n, interestDue: 1_235n }], '5.0000');
    expect(d).toEqual({ principal: 100_000n, interest: 1_235n, adminCharge: 5_062n, debt: 106_297n });
  });

  it('the minimum down payment is the rate of the debt, rounded half-up', () => {
    expect(minimumDownPayment(106_297n, '10.0000')).toBe(10_630n);
  });
});

describe('agreement schedule', () => {
  it('a known schedule: down payment today, 3 monthly instalments, the last absorbs the rounding', () => {
    const lines = agreementSchedule(
      { debt: 100_000n, downPayment: 10_000n, instalments: 7, agreementDate: '2026-03-10', firstDueDate: '2026-04-15' },
      cal,
    );
    expect(lines[0]).toEqual({ number: 0, dueDate: '2026-03-10', amount: 10_000n });
    // 90 000 / 7 = 12 857.14… → 12 857 each, the last 12 858.
    expect(lines.slice(1).map((l) => l.amount)).toEqual([12_857n, 12_857n, 12_857n, 12_857n, 12_857n, 12_857n, 12_858n]);
    expect(lines.slice(1, 4).map((l) => l.dueDate)).toEqual(['2026-04-15', '2026-05-15', '2026-06-15']);
    // 2026-08-15 is a Saturday: moved to Monday the 17th.
    expect(lines[5].dueDate).toBe('2026-08-17');
  });

  it('a day past the end of a short month falls on its last day (then the next business day)', () => {
    expect(sameDayMonthsLater('2026-01-31', 1)).toBe('2026-02-28');
    expect(sameDayMonthsLater('2026-01-31', 2)).toBe('2026-03-31');
    expect(sameDayMonthsLater('2026-11-30', 3)).toBe('2027-02-28');
    expect(sameDayMonthsLater('2027-12-05', 1)).toBe('2028-01-05');
  });

  it('property: any accepted terms give a schedule that sums exactly to the debt, equal parts but the last, due on business days in order', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 100n, max: 50_000_000_000n }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 36 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 0, max: 3650 }),
        (debt, extraPerTenThousand, instalments, firstAfter, dayOffset) => {
          const agreementDate = new Date(Date.UTC(2020, 0, 1 + dayOffset)).toISOString().slice(0, 10);
          const firstDueDate = new Date(Date.UTC(2020, 0, 1 + dayOffset + firstAfter)).toISOString().slice(0, 10);
          const min = minimumDownPayment(debt, limits.downPaymentRate);
          const downPayment = min + ((debt - min) * BigInt(extraPerTenThousand)) / 10_000n;
          const terms = { debt, downPayment, instalments, agreementDate, firstDueDate };
          const problems = termsProblems(terms, limits);
          if (problems.length) {
            // Refused only for a reason the rules name: the rest cannot pay that many parts, or no rest.
            for (const p of problems) expect(['instalments', 'downPayment']).toContain(p.path);
            return;
          }
          const lines = agreementSchedule(terms, cal);
          expect(lines).toHaveLength(instalments + 1);
          expect(lines.reduce((sum, l) => sum + l.amount, 0n)).toBe(debt);
          expect(lines[0].amount).toBe(downPayment);
          const parts = lines.slice(1).map((l) => l.amount);
          expect(parts).toEqual(allocateLastAbsorbs(debt - downPayment, instalments));
          for (const p of parts.slice(0, -1)) expect(p).toBe(parts[0]);
          // The last absorbs less than one cent per instalment of rounding.
          const diff = parts[parts.length - 1] - parts[0];
          expect(diff < 0n ? -diff : diff).toBeLessThanOrEqual(BigInt(instalments));
          for (const p of parts) expect(p).toBeGreaterThan(0n);
          for (const l of lines) expect(isBusinessDay(l.dueDate, cal)).toBe(true);
          expect(lines[1].dueDate >= lines[0].dueDate).toBe(true);
          for (let i = 2; i < lines.length; i++) expect(lines[i].dueDate > lines[i - 1].dueDate).toBe(true);
          expect(lines[1].dueDate >= firstDueDate).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('terms refused, naming the field', () => {
  const base = { debt: 100_000n, downPayment: 10_000n, instalments: 12, agreementDate: '2026-03-10', firstDueDate: '2026-04-10' };
  it('accepts terms within the limits', () => {
    expect(termsProblems(base, limits)).toEqual([]);
  });
  it('no overdue debt', () => {
    expect(termsProblems({ ...base, debt: 0n }, limits)[0].path).toBe('orderIds');
    // A debt below the configured minimum is refused whatever the terms, naming the minimum.
    expect(termsProblems(base, { ...limits, minDebt: base.debt + 1n })).toEqual([
      {
        path: 'orderIds',
        message: 'La deuda (Q 1,000.00) es menor que el mínimo para un convenio (Q 1,000.01): páguela de una vez.',
        key: 'agreements.debtBelowMinimum',
        params: { debt: '100000', min: '100001' },
      },
    ]);
    expect(termsProblems(base, { ...limits, minDebt: base.debt })).toEqual([]);
  });
  it('a down payment below the minimum, or the whole debt', () => {
    expect(termsProblems({ ...base, downPayment: 9_999n }, limits)).toEqual([
      {
        path: 'downPayment',
        message: 'El enganche no puede ser menor que el mínimo: Q 100.00.',
        key: 'agreements.downPaymentBelowMinimum',
        params: { min: '10000' },
      },
    ]);
    expect(termsProblems({ ...base, downPayment: 100_000n }, limits)[0].path).toBe('downPayment');
  });
  it('more instalments than allowed', () => {
    expect(termsProblems({ ...base, instalments: 37 }, limits)).toEqual([
      {
        path: 'instalments',
        message: 'Número de cuotas: el máximo vigente es 36.',
        key: 'agreements.instalmentsAboveMaximum',
        params: { max: 36 },
      },
    ]);
    expect(termsProblems({ ...base, instalments: 0 }, limits)[0].path).toBe('instalments');
  });
  it('a first due date in the past, on the agreement date, or too far ahead', () => {
    expect(termsProblems({ ...base, firstDueDate: '2026-03-01' }, limits)[0].path).toBe('firstDueDate');
    expect(termsProblems({ ...base, firstDueDate: '2026-03-10' }, limits)[0].path).toBe('firstDueDate');
    expect(termsProblems({ ...base, firstDueDate: '2026-06-09' }, limits)[0].path).toBe('firstDueDate');
    expect(termsProblems({ ...base, firstDueDate: '2026-06-09' }, limits)).toEqual([
      {
        path: 'firstDueDate',
        message: 'La primera cuota debe vencer a más tardar 90 días después del convenio (08/06/2026).',
        key: 'agreements.firstDueTooLate',
        params: { days: 90, latest: '2026-06-08' },
      },
    ]);
  });
  it('the request schema refuses a non-integer count and repeated orders', () => {
    const body = { entityId: 1, downPayment: '100.00', instalments: 2.5, firstDueDate: '2026-04-10' };
    expect(agreementCreateSchema.safeParse(body).success).toBe(false);
    expect(agreementCreateSchema.safeParse({ ...body, instalments: 2, orderIds: [3, 3] }).success).toBe(false);
    expect(agreementCreateSchema.safeParse({ ...body, instalments: 2 }).success).toBe(true);
  });
});

describe('default and states', () => {
  it('counts unpaid instalments due before the day', () => {
    const lines = [
      { dueDate: '2026-01-10', paid: true },
      { dueDate: '2026-02-10', paid: false },
      { dueDate: '2026-03-10', paid: false },
      { dueDate: '2026-04-10', paid: false },
    ];
    expect(overdueInstalments(lines, '2026-03-10')).toBe(1);
    expect(overdueInstalments(lines, '2026-03-11')).toBe(2);
  });
  it('only the system completes or defaults an agreement; a person only voids it', () => {
    const offered = agreementMachine.transitions.filter((t) => !t.system).map((t) => t.to);
    expect(offered).toEqual(['ANULADO']);
  });
});

describe('shares of a schedule (no anatocism)', () => {
  it('property: principal, interest and charge each sum exactly to the debt, every part within its line and non-negative', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10_000_000_000n }),
        fc.bigInt({ min: 0n, max: 10_000_000_000n }),
        fc.bigInt({ min: 0n, max: 1_000_000_000n }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 99 }),
        (principal, interest, adminCharge, n, downPct) => {
          const debt = principal + interest + adminCharge;
          fc.pre(debt > BigInt(n) * 2n);
          const down = (debt * BigInt(downPct)) / 100n || 1n;
          fc.pre(down < debt);
          const amounts = [down, ...allocateLastAbsorbs(debt - down, n)];
          fc.pre(amounts.every((a) => a > 0n));
          const shares = scheduleShares(amounts, { principal, interest, adminCharge });
          const total = (k: 'principal' | 'interest' | 'charge') => shares.reduce((x, sh) => x + sh[k], 0n);
          expect(total('principal')).toBe(principal);
          expect(total('interest')).toBe(interest);
          expect(total('charge')).toBe(adminCharge);
          shares.forEach((sh, i) => {
            expect(sh.principal >= 0n && sh.interest >= 0n && sh.charge >= 0n).toBe(true);
            expect(sh.principal + sh.interest + sh.charge).toBe(amounts[i]);
          });
        },
      ),
    );
  });

  it('a schedule that does not sum to the debt is refused', () => {
    expect(() => scheduleShares([100n, 100n], { principal: 150n, interest: 0n, adminCharge: 0n })).toThrow();
  });

  it('a payment covers the interest, then the charge, then the principal share', () => {
    const sh = { principal: 1000n, interest: 200n, charge: 60n };
    expect(unpaidShares(sh, 0n)).toEqual(sh);
    expect(unpaidShares(sh, 150n)).toEqual({ principal: 1000n, interest: 50n, charge: 60n });
    expect(unpaidShares(sh, 230n)).toEqual({ principal: 1000n, interest: 0n, charge: 30n });
    expect(unpaidShares(sh, 500n)).toEqual({ principal: 760n, interest: 0n, charge: 0n });
    expect(unpaidShares(sh, 1260n)).toEqual({ principal: 0n, interest: 0n, charge: 0n });
  });

  it("an earlier instalment's unpaid charge is carried as charge, with no new charge on it", () => {
    const d = agreementDebt(
      [
        { principalDue: 100_000n, interestDue: 10_000n },
        { principalDue: 50_000n, interestDue: 5_000n, chargeDue: 777n },
      ],
      '5.0000',
    );
    expect(d).toEqual({ principal: 150_000n, interest: 15_000n, adminCharge: 8_250n + 777n, debt: 173_250n + 777n });
  });
});
