import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  daysBetween,
  daysInMonth,
  isPeriod,
  nextPeriod,
  PERIODS_SPAN,
  periodCount,
  periodsBetween,
  previousPeriod,
} from './periods.ts';
import { backPayCreateSchema } from './planillas.ts';

const malformed = ['Texto', 'NaN-NaN', '2026-13', '2026-00', '0000-00', '2026-1', ' 2026-01', '2026-01-01', '', '-001-01'];

describe('periods: safe on any input', () => {
  it('refuses text that is not a period instead of answering NaN-NaN', () => {
    for (const p of malformed) {
      expect(isPeriod(p)).toBe(false);
      expect(() => nextPeriod(p), p).toThrow(RangeError);
      expect(() => previousPeriod(p), p).toThrow(RangeError);
      expect(() => daysInMonth(p), p).toThrow(RangeError);
      expect(() => periodsBetween('2026-01', p), p).toThrow(RangeError);
      expect(() => periodsBetween(p, '2026-01'), p).toThrow(RangeError);
      expect(periodCount('2026-01', p)).toBeNull();
    }
    expect(() => addMonths('2026-01', Number.NaN)).toThrow(RangeError);
    expect(() => addMonths('9999-12', 1)).toThrow(RangeError);
    expect(() => addMonths('0000-01', -1)).toThrow(RangeError);
    expect(() => daysBetween('2026-01-01', 'Texto')).toThrow(RangeError);
  });

  it('counts a range arithmetically and refuses one longer than PERIODS_SPAN', () => {
    expect(PERIODS_SPAN).toBe(2412);
    expect(periodCount('2026-03', '2026-02')).toBe(0);
    expect(periodCount('1900-01', '2100-12')).toBe(PERIODS_SPAN);
    expect(periodCount('0000-01', '9999-12')).toBe(120_000);
    expect(periodsBetween('2026-03', '2026-02')).toEqual([]);
    expect(periodsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(periodsBetween('1900-01', '2100-12')).toHaveLength(PERIODS_SPAN);
    expect(() => periodsBetween('0000-01', '9999-12')).toThrow(RangeError);
  });

  it('agrees with walking month by month (property)', () => {
    const period = fc
      .record({ y: fc.integer({ min: 1900, max: 2100 }), m: fc.integer({ min: 1, max: 12 }) })
      .map(({ y, m }) => `${y}-${String(m).padStart(2, '0')}`);
    fc.assert(
      fc.property(period, fc.integer({ min: -30, max: 30 }), (p, n) => {
        const q = addMonths(p, n);
        expect(periodCount(p, q)).toBe(Math.max(0, n + 1));
        const list = periodsBetween(p, q);
        expect(list.length).toBe(Math.max(0, n + 1));
        for (let i = 1; i < list.length; i++) expect(list[i]).toBe(nextPeriod(list[i - 1]));
        expect(previousPeriod(nextPeriod(p))).toBe(p);
      }),
    );
  });

  it('knows the days of every month, leap years included', () => {
    expect(daysInMonth('2024-02')).toBe(29);
    expect(daysInMonth('1900-02')).toBe(28);
    expect(daysInMonth('2000-02')).toBe(29);
    expect(daysInMonth('0050-02')).toBe(28);
    expect(daysInMonth('2026-04')).toBe(30);
    expect(daysBetween('2026-01-01', '2026-03-01')).toBe(59);
  });

  it('the back-pay schema answers a malformed or huge range at once (it walked NaN-NaN forever)', () => {
    const body = {
      entityId: 1,
      resolutionNumber: 'R-1',
      resolutionDate: '2026-01-10',
      cui: '1234567890101',
      fullName: 'Ana López',
      budgetLine: '011',
      fromPeriod: '2025-01',
      monthlySalary: '5000.00',
    };
    // Before, 'Texto' never returned (the test timed out, the server died): answering at all is the proof.
    for (const toPeriod of ['Texto', '2026-13', '0000-00', '9999-12', '2024-12']) {
      const r = backPayCreateSchema.safeParse({ ...body, toPeriod });
      expect(r.success, toPeriod).toBe(false);
      expect(
        r.error?.issues.some((i) => i.path.join('.') === 'toPeriod'),
        toPeriod,
      ).toBe(true);
    }
    expect(backPayCreateSchema.safeParse({ ...body, toPeriod: '2025-06' }).success).toBe(true);
  });
});
