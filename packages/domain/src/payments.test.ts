import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, parseAmount } from './money.ts';
import {
  allocatePayment,
  interestBase,
  interestBetween,
  isValidPaymentReference,
  mod97CheckDigits,
  normalizePaymentReference,
  orderBalance,
  orderDueDate,
  orderKinds,
  orderShownState,
  orderStatement,
  overdueDays,
  parseBankCsv,
  paymentReference,
  voluntaryMonthShares,
} from './payments.ts';
import { initialSettings } from './settings.ts';

const cal = initialSettings()['calendar.holidays'];

describe('payment reference (ISO 7064 MOD 97-10)', () => {
  it('matches the IBAN check digits of a known account', () => {
    // GB82 WEST 1234 5698 7654 32 → BBAN + "GB00" as digits: check digits 82.
    const body = '3214282912345698765432161100'.slice(0, -2);
    expect(mod97CheckDigits(body)).toBe('82');
  });

  it('every generated reference validates, and any single changed digit or swap of adjacent digits is caught', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.integer({ min: 2000, max: 2099 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...orderKinds),
        fc.integer({ min: 1, max: 999 }),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (ownerId, y, m, kind, sequence, pos, delta) => {
          const ref = paymentReference({ ownerId, period: `${y}-${String(m).padStart(2, '0')}`, kind, sequence });
          expect(ref).toMatch(/^\d{19}$/);
          expect(isValidPaymentReference(ref)).toBe(true);
          const i = pos % ref.length;
          const changed = `${ref.slice(0, i)}${(Number(ref[i]) + delta) % 10}${ref.slice(i + 1)}`;
          expect(isValidPaymentReference(changed)).toBe(false);
          const j = pos % (ref.length - 1);
          if (ref[j] !== ref[j + 1]) {
            const swapped = `${ref.slice(0, j)}${ref[j + 1]}${ref[j]}${ref.slice(j + 2)}`;
            expect(isValidPaymentReference(swapped)).toBe(false);
          }
        },
      ),
    );
  });

  it('reads references written with spaces or dashes, refuses letters', () => {
    expect(normalizePaymentReference('0000012 2026-0310 0198')).toBe('0000012202603100198');
    expect(normalizePaymentReference('ABC')).toBeNull();
    expect(() => paymentReference({ ownerId: 0, period: '2026-01', kind: 'LABORAL', sequence: 1 })).toThrow();
  });
});

describe('due date', () => {
  it('is day 20 of the following month, moved to the next business day', () => {
    expect(orderDueDate('2026-01', 20, cal)).toBe('2026-02-20'); // Friday
    expect(orderDueDate('2026-05', 20, cal)).toBe('2026-06-22'); // 20 June 2026 is a Saturday
    expect(orderDueDate('2026-12', 20, cal)).toBe('2027-01-20');
    // 2026-03: 20 April is a Monday; with day 3 → 3 April is Holy Friday → Monday 6 April.
    expect(orderDueDate('2026-03', 3, cal)).toBe('2026-04-06');
  });
});

describe('interest', () => {
  it('is principal × rate × days / 365, rounded once', () => {
    // Q 1,000.00 at 12 % for 30 days = 9.863… → Q 9.86
    expect(interestBetween(100_000n, '2026-02-20', '2026-03-22', [{ from: '2000-01-01', rate: '12.0000' }])).toBe(986n);
    expect(interestBetween(100_000n, '2026-02-20', '2026-02-20', [{ from: '2000-01-01', rate: '12.0000' }])).toBe(0n);
    expect(interestBetween(100_000n, '2026-02-20', '2026-02-10', [{ from: '2000-01-01', rate: '12.0000' }])).toBe(0n);
  });

  it('takes each day at the rate in force that day (a change inside the span)', () => {
    // 10 days at 12 %, then 10 at 24 %: 100000 × (120 + 240) / 36500 = 986.3 → 986
    const rates = [
      { from: '2000-01-01', rate: '12.0000' },
      { from: '2026-03-11', rate: '24.0000' },
    ];
    expect(interestBetween(100_000n, '2026-02-28', '2026-03-20', rates)).toBe(986n);
  });

  it('splitting a span at a rate change never changes the exact total by more than rounding', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10_000_000_000n }), fc.integer({ min: 0, max: 2000 }), (p, days) => {
        const rates = [{ from: '2000-01-01', rate: '12.0000' }];
        const end = new Date(Date.UTC(2026, 0, 1 + days)).toISOString().slice(0, 10);
        const got = interestBetween(p, '2026-01-01', end, rates);
        // Compare with integer arithmetic: round(p × 12 × days / 36500) half-up.
        const num = p * 12n * BigInt(days);
        const expected = (num * 2n + 36500n) / 73000n;
        expect(got).toBe(expected);
      }),
    );
  });

  it('an order balance: fixed unpaid interest plus interest since on the unpaid principal', () => {
    const b = orderBalance(
      { principal: 100_000n, principalPaid: 40_000n, interestAccrued: 500n, interestPaid: 500n, accruedTo: '2026-03-01' },
      '2026-03-31',
      [{ from: '2000-01-01', rate: '12.0000' }],
    );
    expect(b.principalDue).toBe(60_000n);
    expect(b.interestDue).toBe(592n); // 60000 × 12 × 30 / 36500 = 591.78
    expect(b.total).toBe(60_592n);
    expect(overdueDays('2026-02-20', '2026-03-02')).toBe(10);
    expect(overdueDays('2026-02-20', '2026-02-01')).toBe(0);
  });
});

describe('applying a payment', () => {
  it('oldest due first, interest before principal; the rest is left over', () => {
    const r = allocatePayment(10_000n, [
      { orderId: 2, dueDate: '2026-03-20', interestDue: 100n, principalDue: 50_000n },
      { orderId: 1, dueDate: '2026-02-20', interestDue: 300n, principalDue: 5_000n },
    ]);
    expect(r.allocations).toEqual([
      { orderId: 1, interest: 300n, principal: 5_000n },
      { orderId: 2, interest: 100n, principal: 4_600n },
    ]);
    expect(r.excess).toBe(0n);
    expect(allocatePayment(1n, [{ orderId: 1, dueDate: '2026-01-01', interestDue: 0n, principalDue: 0n }]).excess).toBe(1n);
  });

  it('sums exactly: allocated + excess = amount, never more than a balance', () => {
    const order = fc.record({
      orderId: fc.integer({ min: 1, max: 1000 }),
      dueDate: fc.constantFrom('2026-01-20', '2026-02-20', '2026-03-20'),
      interestDue: fc.bigInt({ min: 0n, max: 100_000n }),
      principalDue: fc.bigInt({ min: 0n, max: 10_000_000n }),
    });
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 20_000_000n }),
        fc.uniqueArray(order, { selector: (o) => o.orderId, maxLength: 6 }),
        (amount, orders) => {
          const r = allocatePayment(amount, orders);
          const sum = r.allocations.reduce((s, a) => s + a.interest + a.principal, 0n);
          expect(sum + r.excess).toBe(amount);
          for (const a of r.allocations) {
            const o = orders.find((x) => x.orderId === a.orderId)!;
            expect(a.interest <= o.interestDue && a.principal <= o.principalDue).toBe(true);
            // principal only once the interest is covered
            if (a.principal > 0n) expect(a.interest).toBe(o.interestDue);
          }
          const total = orders.reduce((s, o) => s + o.interestDue + o.principalDue, 0n);
          expect(r.excess).toBe(amount > total ? amount - total : 0n);
        },
      ),
    );
  });
});

describe('bank csv', () => {
  const ref = paymentReference({ ownerId: 12, period: '2026-03', kind: 'LABORAL', sequence: 1 });
  const ref2 = paymentReference({ ownerId: 12, period: '2026-03', kind: 'PATRONAL', sequence: 1 });
  it('reads rows, flags bad dates, amounts, check digits and repeated references', () => {
    const bad = `${ref.slice(0, -1)}${(Number(ref.at(-1)) + 1) % 10}`;
    const text = `fecha,referencia,monto\n2026-04-10,${ref},"1,234.50"\n10/04/2026,${ref2},10\n2026-02-30,${bad},-5\n2026-04-11,${ref2},3\n`;
    const { rows, headerProblem } = parseBankCsv(text, (s) => parseAmount(s, { allowNegative: true }));
    expect(headerProblem).toBeNull();
    expect(rows[0]).toMatchObject({ rowNumber: 2, payDate: '2026-04-10', reference: ref, amount: 123_450n, problems: [] });
    expect(rows[1].payDate).toBe('2026-04-10');
    const texts = (i: number) => rows[i].problems.map((p) => p.text).join(' ');
    expect(texts(1)).toContain('repetida');
    expect(texts(2)).toMatch(/Fecha no válida.*dígito verificador.*mayor que cero/);
    expect(rows[1].problems.map((p) => p.key)).toEqual(['payments.bankRowReferenceRepeated']);
    expect(rows[2].problems.map((p) => p.key)).toEqual([
      'payments.bankRowDateInvalid',
      'payments.bankRowCheckDigitsWrong',
      'payments.amountNotPositive',
    ]);
    expect(rows[2].problems[0].params).toEqual({ value: '2026-02-30' });
    expect(parseBankCsv('a,b\n', (s) => parseAmount(s)).headerProblem).toMatchObject({
      key: 'payments.bankCsvHeaderMissing',
      text: expect.stringContaining('fecha, referencia y monto'),
    });
  });
});

describe('no anatocism and exact voluntary months', () => {
  it('interest accrues on the unpaid principal share: an instalment paid interest and charge first keeps its share accruing', () => {
    expect(interestBase({ principal: 1000n, principalPaid: 0n })).toBe(1000n);
    expect(interestBase({ principal: 1000n, principalPaid: 300n })).toBe(700n);
    expect(interestBase({ principal: 1000n, principalPaid: 0n, principalShare: 800n })).toBe(800n);
    expect(interestBase({ principal: 1000n, principalPaid: 150n, principalShare: 800n })).toBe(800n);
    expect(interestBase({ principal: 1000n, principalPaid: 300n, principalShare: 800n })).toBe(700n);
    const rates = [{ from: '2020-01-01', rate: '12.0000' }];
    const o = { principal: 1000_00n, principalPaid: 0n, interestAccrued: 0n, interestPaid: 0n, accruedTo: '2026-01-01' };
    expect(orderBalance({ ...o, principalShare: 500_00n }, '2026-12-31', rates).interestNew).toBe(
      interestBetween(500_00n, '2026-01-01', '2026-12-31', rates),
    );
  });

  it('property: the months and shares of a voluntary order sum exactly to what was paid', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 99_999_999_999_999n }),
        fc.array(
          fc.record({
            employeeRate: fc.integer({ min: 0, max: 1_000_000 }).map((r) => (r / 10_000).toFixed(4)),
            employerRate: fc.integer({ min: 0, max: 1_000_000 }).map((r) => (r / 10_000).toFixed(4)),
          }),
          { minLength: 1, maxLength: 24 },
        ),
        (principal, rs) => {
          const months = rs.map((r, i) => ({ period: `2025-${String((i % 12) + 1).padStart(2, '0')}`, ...r }));
          const parts = voluntaryMonthShares(principal, months);
          expect(parts.reduce((s, p) => s + p.amount, 0n)).toBe(principal);
          for (const p of parts) expect(p.employee + p.employer).toBe(p.amount);
        },
      ),
    );
    // Equal rates: equal months, the earlier taking the extra cent (100.00 over three: 33.34, 33.33, 33.33).
    const same = { employeeRate: '7.0000', employerRate: '7.0000' };
    const parts = voluntaryMonthShares(
      10_000n,
      ['2026-01', '2026-02', '2026-03'].map((period) => ({ period, ...same })),
    );
    expect(parts.map((p) => p.amount)).toEqual(allocate(10_000n, 3));
  });
});

describe('an order as shown: state and statement', () => {
  it('partly paid is its own state while not yet due; overdue wins once due; stored states stay', () => {
    expect(orderShownState('EMITIDA', '2026-11-20', 0n, '2026-11-10')).toBe('EMITIDA');
    expect(orderShownState('EMITIDA', '2026-11-20', 1n, '2026-11-10')).toBe('PAGADA_PARCIAL');
    expect(orderShownState('EMITIDA', '2026-11-20', 1n, '2026-11-20')).toBe('PAGADA_PARCIAL');
    expect(orderShownState('EMITIDA', '2026-11-20', 1n, '2026-11-21')).toBe('VENCIDA');
    expect(orderShownState('EMITIDA', '2026-11-20', 0n, '2026-11-21')).toBe('VENCIDA');
    for (const s of ['PAGADA', 'ANULADA', 'CONVENIDA'] as const)
      expect(orderShownState(s, '2026-11-20', 5n, '2026-12-01')).toBe(s);
  });

  it('adds up after a partial payment that went to interest first: principal + interest accrued − paid = balance', () => {
    // Q 17,336.58 of principal, Q 33.81 of interest fixed at a payment of Q 10,000.00 (interest first).
    const o = { principal: 1_733_658n, interestPaid: 3_381n, principalPaid: 996_619n, interestDue: 0n };
    const s = orderStatement(o);
    expect(s).toEqual({ interestAccrued: 3_381n, paid: 1_000_000n, principalDue: 737_039n, balance: 737_039n });
    expect(o.principal + s.interestAccrued - s.paid).toBe(s.balance);
  });
});
