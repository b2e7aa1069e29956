import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRate, centsToDecimal, parseMoney, roundHalfUpCents } from './money.ts';

describe('money', () => {
  it('rounds half-up to the cent, away from zero', () => {
    expect(roundHalfUpCents(100.5)).toBe(101);
    expect(roundHalfUpCents(100.4999)).toBe(100);
    expect(roundHalfUpCents(-100.5)).toBe(-101);
    expect(roundHalfUpCents(1.005 * 100)).toBe(101);
  });

  it('applies a percentage rate: 7 % of Q 1,234.57 is Q 86.42', () => {
    expect(applyRate(123_457, 7)).toBe(8642);
    expect(applyRate(5, 10)).toBe(1); // 0.5 cent rounds up
  });

  it('parses decimal text into cents and refuses what is not money', () => {
    expect(parseMoney('1,234.56')).toBe(123_456);
    expect(parseMoney(' 10 ')).toBe(1000);
    expect(parseMoney('12.345')).toBe(1235);
    expect(parseMoney('abc')).toBeNull();
    expect(parseMoney('1.2.3')).toBeNull();
  });

  it('round-trips cents through the SQL decimal form', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        expect(parseMoney(centsToDecimal(cents))).toBe(cents);
      }),
    );
  });

  it('never moves an amount by more than half a cent', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (v) => {
        expect(Math.abs(roundHalfUpCents(v) - v)).toBeLessThanOrEqual(0.5 + 1e-6);
      }),
    );
  });
});
