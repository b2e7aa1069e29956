import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyRate,
  centsToDecimal,
  formatAmount,
  MAX_AMOUNT_CENTS,
  numberCellText,
  parseAmount,
  parseMoney,
  roundHalfUpCents,
} from './money.ts';

const cents = (input: string | number, opts?: Parameters<typeof parseAmount>[1]) => {
  const r = parseAmount(input, opts);
  return r.ok ? r.cents : r.message;
};

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

  it('round-trips cents through the SQL decimal form', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_AMOUNT_CENTS, max: MAX_AMOUNT_CENTS }), (c) => {
        expect(parseMoney(centsToDecimal(c))).toBe(c);
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

describe('parseAmount: the one parser of amounts users type (issue 9)', () => {
  it('accepts what Guatemalans type, exactly', () => {
    expect(cents('1,234.50')).toBe(123_450);
    expect(cents('1234.5')).toBe(123_450);
    expect(cents('1234')).toBe(123_400);
    expect(cents('Q 1,234.50')).toBe(123_450);
    expect(cents('Q1234.50')).toBe(123_450);
    expect(cents('Q.1,500.00')).toBe(150_000);
    expect(cents('GTQ 10')).toBe(1000);
    expect(cents('  10  ')).toBe(1000);
    expect(cents('1,234,567.89')).toBe(123_456_789);
    expect(cents('0.05')).toBe(5);
    expect(cents('.5')).toBe(50);
    expect(cents('1,234')).toBe(123_400);
  });

  it('refuses the ambiguous forms with a Spanish reason quoting the value', () => {
    expect(cents('1.234,50')).toMatch(/^El monto "1\.234,50" usa coma decimal/);
    expect(cents('12,34')).toMatch(/^El monto "12,34" usa coma decimal/);
    expect(cents('1.234')).toMatch(/^El monto "1\.234" es ambiguo/);
    expect(cents('1.234.567')).toMatch(/varios puntos/);
    expect(cents('12.3456')).toMatch(/más de dos decimales/);
    expect(cents('1,23,4')).toMatch(/coma de miles mal colocada/);
    expect(cents('1234,567.00')).toMatch(/coma de miles mal colocada/);
    expect(cents('1 234.50')).toMatch(/espacios entre las cifras/);
    expect(cents('')).toBe('Ingrese el monto.');
    expect(cents('abc')).toMatch(/no es un número/);
    expect(cents('1e3')).toMatch(/no es un número/);
    expect(cents('-5')).toMatch(/no puede ser negativo/);
    expect(cents('-5', { allowNegative: true })).toBe(-500);
    expect(cents('Q -5.25', { allowNegative: true })).toBe(-525);
    expect(cents('1,000,000,000,000.00')).toMatch(/supera el máximo/);
    expect(cents('100.01', { maxCents: 10_000 })).toMatch(/supera el máximo/);
  });

  it('reads a number cell as the text Excel shows (15 significant digits): float noise is not a decimal', () => {
    expect(cents(4200.25)).toBe(420_025);
    expect(cents(1234.5000000000002)).toBe(123_450);
    expect(cents(0.1 + 0.2)).toBe(30);
    expect(cents(1234.567)).toMatch(/más de dos decimales/);
    expect(cents(1e-7)).toMatch(/más de dos decimales/);
    expect(cents(Number.NaN)).toMatch(/no es un número/);
    expect(numberCellText(1587564440904)).toBe('1587564440904');
    expect(numberCellText(1234.5000000001)).toBe('1234.5000000001');
  });

  it('property: every amount written as users write it parses back to the same cents', () => {
    const amount = fc.integer({ min: 0, max: MAX_AMOUNT_CENTS });
    fc.assert(
      fc.property(amount, fc.constantFrom('', 'Q ', 'Q', 'Q.', 'GTQ '), (c, prefix) => {
        expect(cents(`${prefix}${formatAmount(c)}`)).toBe(c);
        expect(cents(`${prefix}${centsToDecimal(c)}`)).toBe(c);
        expect(cents(`${prefix}${formatAmount(c).replace(/\.00$/, '')}`)).toBe(c);
      }),
    );
  });

  it('property: a two-decimal number cell parses to its cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (c) => {
        expect(cents(c / 100)).toBe(c);
      }),
    );
  });

  it('property: a decimal comma, a dotted thousands group or a third decimal is always refused', () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const ambiguous = fc.oneof(
      // 1.234,50 — European thousands dot and decimal comma
      fc
        .tuple(digits(1, 3), fc.array(digits(3, 3), { minLength: 1, maxLength: 3 }), digits(1, 2))
        .map(([a, groups, d]) => `${a}.${groups.join('.')},${d}`),
      // 12,34 — decimal comma
      fc.tuple(digits(1, 6), digits(1, 2)).map(([a, d]) => `${a},${d}`),
      // 1.234 — a dot then exactly three digits
      fc.tuple(digits(1, 6), digits(3, 3)).map(([a, d]) => `${a}.${d}`),
      // more than two decimals
      fc.tuple(digits(1, 6), digits(3, 6)).map(([a, d]) => `${a}.${d}`),
      // a misplaced thousands comma
      fc.tuple(digits(1, 3), fc.oneof(digits(1, 2), digits(4, 5))).map(([a, g]) => `${a},${g}`),
    );
    fc.assert(
      fc.property(ambiguous, fc.constantFrom('', 'Q ', '-'), (text, prefix) => {
        const r = parseAmount(`${prefix}${text}`, { allowNegative: true });
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.message).toMatch(/^El monto "/);
      }),
    );
  });
});
