import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  allocateByRatios,
  allocateLastAbsorbs,
  amountInWords,
  applyRate,
  centsToDecimal,
  decimalToCents,
  formatAmount,
  formatMoney,
  formatRate,
  MAX_AMOUNT_CENTS,
  moneyInputSchema,
  moneySchema,
  numberCellText,
  numberInWords,
  parseAmount,
  parseMoney,
  parseRate,
  rateInputSchema,
  rateSchema,
  roundHalfUpCents,
  simpleInterest,
} from './money.ts';

const cents = (input: string | number, opts?: Parameters<typeof parseAmount>[1]) => {
  const r = parseAmount(input, opts);
  return r.ok ? r.cents : r.message;
};

/**
 * Exact rational reference, independent of big.js: num/den rounded half-up (a tie away from zero),
 * with plain bigint arithmetic.
 */
const refHalfUp = (num: bigint, den: bigint): bigint => {
  const negative = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
};
/** A rate as its integer ten-thousandths of a percent: "7.1250" → 71250n. */
const rateUnits = (rate: string) => BigInt(rate.replace('.', ''));
const cents64 = fc.bigInt({ min: -MAX_AMOUNT_CENTS, max: MAX_AMOUNT_CENTS });
const rateArb = fc
  .integer({ min: 0, max: 9_999_999 })
  .map((u) => `${Math.trunc(u / 10_000)}.${String(u % 10_000).padStart(4, '0')}`);

describe('money: exact cents (issue 10)', () => {
  it('rounds half-up to the cent, a tie away from zero, from exact decimal text', () => {
    expect(roundHalfUpCents('100.5')).toBe(101n);
    expect(roundHalfUpCents('100.4999')).toBe(100n);
    expect(roundHalfUpCents('-100.5')).toBe(-101n);
    expect(roundHalfUpCents('100.5000000000000000000001')).toBe(101n);
    expect(roundHalfUpCents('100.49999999999999999999999')).toBe(100n);
    expect(() => roundHalfUpCents('abc')).toThrow();
  });

  it('property: half-up rounding of any fraction matches the rational reference', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 6n }), (num, den) => {
        // num/den written as exact decimal text: den a power of ten keeps the text finite.
        const scale = 10n ** BigInt(String(den).length);
        const text = `${num < 0n ? '-' : ''}${(num < 0n ? -num : num) / scale}.${String((num < 0n ? -num : num) % scale).padStart(String(scale).length - 1, '0')}`;
        expect(roundHalfUpCents(text)).toBe(refHalfUp(num, scale));
      }),
    );
  });

  it('applies a percentage rate once, half-up: 7 % of Q 1,234.57 is Q 86.42', () => {
    expect(applyRate(123_457n, '7.0000')).toBe(8642n);
    expect(applyRate(5n, '10.0000')).toBe(1n); // 0.5 cent rounds up
    expect(applyRate(-5n, '10.0000')).toBe(-1n); // and away from zero below it
    // The extremes numeric(14,2) and numeric(7,4) hold: no precision lost on the way.
    expect(applyRate(MAX_AMOUNT_CENTS, '999.9999')).toBe(999_999_899_999_990n);
  });

  it('property: rate application equals cents × rate / 100 rounded half-up, computed exactly', () => {
    fc.assert(
      fc.property(cents64, rateArb, (c, rate) => {
        expect(applyRate(c, rate)).toBe(refHalfUp(c * rateUnits(rate), 1_000_000n));
      }),
    );
  });

  it('property: simple interest is principal × rate × days / 365, rounded once', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_AMOUNT_CENTS }), rateArb, fc.integer({ min: 0, max: 3650 }), (p, rate, days) => {
        expect(simpleInterest(p, rate, days)).toBe(refHalfUp(p * rateUnits(rate) * BigInt(days), 36_500n * 10_000n));
      }),
    );
    // Q 10,000.00 at 12 % for 31 days: 10,000 × 0.12 × 31 / 365 = 101.9178… → Q 101.92
    expect(simpleInterest(1_000_000n, '12.0000', 31)).toBe(10_192n);
  });

  it('round-trips cents through the decimal text of JSON and SQL', () => {
    fc.assert(
      fc.property(cents64, (c) => {
        expect(decimalToCents(centsToDecimal(c))).toBe(c);
        expect(parseMoney(centsToDecimal(c))).toBe(c);
      }),
    );
    expect(centsToDecimal(-5n)).toBe('-0.05');
    expect(centsToDecimal(MAX_AMOUNT_CENTS)).toBe('999999999999.99');
    expect(decimalToCents('12')).toBe(1200n);
    expect(decimalToCents('-0.5')).toBe(-50n);
    expect(decimalToCents('1000000000000000.00')).toBe(100_000_000_000_000_000n);
    for (const bad of ['1,234.00', '1.234', 'Q 1', '', '1e3', '.5', '1.']) expect(() => decimalToCents(bad)).toThrow();
  });

  it('formats money as Q 1,234.56', () => {
    expect(formatMoney(123_456n)).toBe('Q 1,234.56');
    expect(formatMoney(5n)).toBe('Q 0.05');
    expect(formatMoney(-100_000n)).toBe('-Q 1,000.00');
    expect(formatMoney(MAX_AMOUNT_CENTS)).toBe('Q 999,999,999,999.99');
    expect(formatMoney(0n)).toBe('Q 0.00');
  });
});

describe('allocation sums exactly (issue 10)', () => {
  const sum = (xs: bigint[]) => xs.reduce((s, x) => s + x, 0n);

  it('splits into n parts by largest remainder: the first parts carry the extra cents', () => {
    expect(allocate(1000n, 3)).toEqual([334n, 333n, 333n]);
    expect(allocate(-1000n, 3)).toEqual([-334n, -333n, -333n]);
    expect(allocate(2n, 5)).toEqual([1n, 1n, 0n, 0n, 0n]);
    expect(() => allocate(100n, 0)).toThrow();
  });

  it('property: n parts sum to the amount and differ by at most one cent', () => {
    fc.assert(
      fc.property(cents64, fc.integer({ min: 1, max: 400 }), (c, n) => {
        const parts = allocate(c, n);
        expect(parts).toHaveLength(n);
        expect(sum(parts)).toBe(c);
        const abs = parts.map((p) => (p < 0n ? -p : p));
        const sorted = abs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(sorted[sorted.length - 1] - sorted[0] <= 1n).toBe(true);
      }),
    );
  });

  it('splits by ratios: 100.00 by 1:1:1 and by 60:40', () => {
    expect(allocateByRatios(10_000n, ['1', '1', '1'])).toEqual([3334n, 3333n, 3333n]);
    expect(allocateByRatios(10_001n, ['60', '40'])).toEqual([6001n, 4000n]);
    expect(allocateByRatios(100n, ['33.3333', '33.3333', '33.3334'])).toEqual([33n, 33n, 34n]);
    expect(allocateByRatios(100n, ['0', '1'])).toEqual([0n, 100n]);
    expect(() => allocateByRatios(100n, ['0', '0'])).toThrow();
    expect(() => allocateByRatios(100n, ['-1', '2'])).toThrow();
  });

  it('property: parts by ratios sum exactly and each is within one cent of its exact share', () => {
    fc.assert(
      fc.property(cents64, fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }), (c, weights) => {
        fc.pre(weights.some((w) => w > 0));
        const parts = allocateByRatios(
          c,
          weights.map((w) => BigInt(w)),
        );
        expect(sum(parts)).toBe(c);
        const total = BigInt(weights.reduce((s, w) => s + w, 0));
        parts.forEach((p, i) => {
          // |p − c·w/total| < 1  ⇔  |p·total − c·w| < total
          const diff = p * total - c * BigInt(weights[i]);
          expect((diff < 0n ? -diff : diff) < total).toBe(true);
        });
      }),
    );
  });

  it('property: equal instalments with the last absorbing the rounding sum exactly', () => {
    fc.assert(
      fc.property(cents64, fc.integer({ min: 1, max: 120 }), (c, n) => {
        const parts = allocateLastAbsorbs(c, n);
        expect(sum(parts)).toBe(c);
        expect(new Set(parts.slice(0, -1)).size <= 1).toBe(true);
        expect(parts[0]).toBe(refHalfUp(c, BigInt(n)));
      }),
    );
    expect(allocateLastAbsorbs(100_000n, 3)).toEqual([33_333n, 33_333n, 33_334n]);
  });
});

describe('rates: exact decimals with four places (issue 10)', () => {
  const rate = (input: string | number, opts?: Parameters<typeof parseRate>[1]) => {
    const r = parseRate(input, opts);
    return r.ok ? r.rate : r.message;
  };

  it('reads what people type and answers numeric(7,4) text', () => {
    expect(rate('7')).toBe('7.0000');
    expect(rate('7.5 %')).toBe('7.5000');
    expect(rate('7.125')).toBe('7.1250');
    expect(rate('.5')).toBe('0.5000');
    expect(rate(12)).toBe('12.0000');
    expect(rate('999.9999')).toBe('999.9999');
  });

  it('refuses with a Spanish reason', () => {
    expect(rate('7,5')).toMatch(/coma decimal/);
    expect(rate('7.12345')).toMatch(/más de cuatro decimales/);
    expect(rate('-1')).toMatch(/negativo/);
    expect(rate('')).toBe('Ingrese el porcentaje.');
    expect(rate('abc')).toMatch(/no es un número/);
    expect(rate('1000')).toMatch(/supera el máximo/);
    expect(rate('100.01', { max: '100.0000' })).toMatch(/supera el máximo de 100.00 %/);
  });

  it('formats a rate with two decimals at least', () => {
    expect(formatRate('7.0000')).toBe('7.00 %');
    expect(formatRate('7.1250')).toBe('7.125 %');
    expect(formatRate('0.0001')).toBe('0.0001 %');
    expect(formatRate('12.5000')).toBe('12.50 %');
  });

  it('property: every four-decimal rate parses to itself', () => {
    fc.assert(
      fc.property(rateArb, (r) => {
        expect(rate(r)).toBe(r);
      }),
    );
  });

  it('zod contracts answer the JSON forms and name the field', () => {
    expect(moneySchema.parse('Q 1,234.5')).toBe('1234.50');
    expect(moneyInputSchema('Monto').safeParse('12,34').error?.issues[0].message).toMatch(
      /^Monto: El monto "12,34" usa coma decimal/,
    );
    expect(rateSchema.parse('7')).toBe('7.0000');
    expect(rateInputSchema('Cuota laboral').safeParse('7,5').error?.issues[0].message).toMatch(/^Cuota laboral: El porcentaje/);
  });
});

describe('parseAmount: the one parser of amounts users type (issue 9)', () => {
  it('accepts what Guatemalans type, exactly', () => {
    expect(cents('1,234.50')).toBe(123_450n);
    expect(cents('1234.5')).toBe(123_450n);
    expect(cents('1234')).toBe(123_400n);
    expect(cents('Q 1,234.50')).toBe(123_450n);
    expect(cents('Q1234.50')).toBe(123_450n);
    expect(cents('Q.1,500.00')).toBe(150_000n);
    expect(cents('GTQ 10')).toBe(1000n);
    expect(cents('  10  ')).toBe(1000n);
    expect(cents('1,234,567.89')).toBe(123_456_789n);
    expect(cents('0.05')).toBe(5n);
    expect(cents('.5')).toBe(50n);
    expect(cents('1,234')).toBe(123_400n);
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
    expect(cents('-5', { allowNegative: true })).toBe(-500n);
    expect(cents('Q -5.25', { allowNegative: true })).toBe(-525n);
    expect(cents('1,000,000,000,000.00')).toMatch(/supera el máximo/);
    expect(cents('100.01', { maxCents: 10_000n })).toMatch(/supera el máximo/);
  });

  it('reads a number cell as the text Excel shows (15 significant digits): float noise is not a decimal', () => {
    expect(cents(4200.25)).toBe(420_025n);
    expect(cents(1234.5000000000002)).toBe(123_450n);
    expect(cents(0.1 + 0.2)).toBe(30n);
    expect(cents(1234.567)).toMatch(/más de dos decimales/);
    expect(cents(1e-7)).toMatch(/más de dos decimales/);
    expect(cents(Number.NaN)).toMatch(/no es un número/);
    expect(numberCellText(1587564440904)).toBe('1587564440904');
    expect(numberCellText(1234.5000000001)).toBe('1234.5000000001');
  });

  it('property: every amount written as users write it parses back to the same cents', () => {
    const amount = fc.bigInt({ min: 0n, max: MAX_AMOUNT_CENTS });
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
        expect(cents(c / 100)).toBe(BigInt(c));
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

describe('amountInWords', () => {
  it('writes the examples of the receipt in words', () => {
    expect(amountInWords(123450n)).toBe('UN MIL DOSCIENTOS TREINTA Y CUATRO QUETZALES CON 50/100');
    expect(amountInWords(0n)).toBe('CERO QUETZALES CON 00/100');
    expect(amountInWords(5n)).toBe('CERO QUETZALES CON 05/100');
    expect(amountInWords(100n)).toBe('UN QUETZAL CON 00/100');
    expect(amountInWords(199n)).toBe('UN QUETZAL CON 99/100');
    expect(amountInWords(2100n)).toBe('VEINTIÚN QUETZALES CON 00/100');
    expect(amountInWords(3100n)).toBe('TREINTA Y UN QUETZALES CON 00/100');
    expect(amountInWords(10000n)).toBe('CIEN QUETZALES CON 00/100');
    expect(amountInWords(10100n)).toBe('CIENTO UN QUETZALES CON 00/100');
    expect(amountInWords(50000n)).toBe('QUINIENTOS QUETZALES CON 00/100');
    expect(amountInWords(100000n)).toBe('UN MIL QUETZALES CON 00/100');
    expect(amountInWords(2100000n)).toBe('VEINTIÚN MIL QUETZALES CON 00/100');
    expect(amountInWords(10100000n)).toBe('CIENTO UN MIL QUETZALES CON 00/100');
    expect(amountInWords(1733658n)).toBe('DIECISIETE MIL TRESCIENTOS TREINTA Y SEIS QUETZALES CON 58/100');
    expect(amountInWords(100000000n)).toBe('UN MILLÓN DE QUETZALES CON 00/100');
    expect(amountInWords(100000100n)).toBe('UN MILLÓN UN QUETZALES CON 00/100');
    expect(amountInWords(200000000n)).toBe('DOS MILLONES DE QUETZALES CON 00/100');
    expect(amountInWords(2100000000n)).toBe('VEINTIÚN MILLONES DE QUETZALES CON 00/100');
    expect(amountInWords(100000000000n)).toBe('UN MIL MILLONES DE QUETZALES CON 00/100');
    expect(amountInWords(MAX_AMOUNT_CENTS)).toBe(
      'NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE MILLONES NOVECIENTOS NOVENTA Y NUEVE MIL ' +
        'NOVECIENTOS NOVENTA Y NUEVE QUETZALES CON 99/100',
    );
  });

  it('reads a number on its own in its full form', () => {
    expect(numberInWords(0n)).toBe('CERO');
    expect(numberInWords(1n)).toBe('UNO');
    expect(numberInWords(21n)).toBe('VEINTIUNO');
    expect(numberInWords(100n)).toBe('CIEN');
    expect(numberInWords(101n)).toBe('CIENTO UNO');
    expect(numberInWords(1000n)).toBe('MIL');
    expect(numberInWords(1_000_000n)).toBe('UN MILLÓN');
    expect(numberInWords(2_000_000n)).toBe('DOS MILLONES');
    expect(numberInWords(16_016n)).toBe('DIECISÉIS MIL DIECISÉIS');
  });

  it('refuses what no document states', () => {
    expect(() => amountInWords(-1n)).toThrow(RangeError);
    expect(() => amountInWords(MAX_AMOUNT_CENTS + 1n)).toThrow(RangeError);
    expect(() => numberInWords(-1n)).toThrow(RangeError);
  });

  // The words read back into the number they write: every amount up to what numeric(14,2) holds.
  const VALUES: Record<string, bigint> = {
    CERO: 0n,
    UN: 1n,
    UNO: 1n,
    DOS: 2n,
    TRES: 3n,
    CUATRO: 4n,
    CINCO: 5n,
    SEIS: 6n,
    SIETE: 7n,
    OCHO: 8n,
    NUEVE: 9n,
    DIEZ: 10n,
    ONCE: 11n,
    DOCE: 12n,
    TRECE: 13n,
    CATORCE: 14n,
    QUINCE: 15n,
    DIECISÉIS: 16n,
    DIECISIETE: 17n,
    DIECIOCHO: 18n,
    DIECINUEVE: 19n,
    VEINTE: 20n,
    VEINTIÚN: 21n,
    VEINTIUNO: 21n,
    VEINTIDÓS: 22n,
    VEINTITRÉS: 23n,
    VEINTICUATRO: 24n,
    VEINTICINCO: 25n,
    VEINTISÉIS: 26n,
    VEINTISIETE: 27n,
    VEINTIOCHO: 28n,
    VEINTINUEVE: 29n,
    TREINTA: 30n,
    CUARENTA: 40n,
    CINCUENTA: 50n,
    SESENTA: 60n,
    SETENTA: 70n,
    OCHENTA: 80n,
    NOVENTA: 90n,
    CIEN: 100n,
    CIENTO: 100n,
    DOSCIENTOS: 200n,
    TRESCIENTOS: 300n,
    CUATROCIENTOS: 400n,
    QUINIENTOS: 500n,
    SEISCIENTOS: 600n,
    SETECIENTOS: 700n,
    OCHOCIENTOS: 800n,
    NOVECIENTOS: 900n,
  };
  const readBack = (words: string): bigint => {
    let total = 0n;
    let thousands = 0n;
    let current = 0n;
    for (const w of words.split(' ')) {
      if (w === 'Y') continue;
      if (w === 'MIL') {
        thousands += (current || 1n) * 1000n;
        current = 0n;
      } else if (w === 'MILLÓN' || w === 'MILLONES') {
        total += (thousands + current) * 1_000_000n;
        thousands = 0n;
        current = 0n;
      } else {
        const v = VALUES[w];
        if (v === undefined) throw new Error(`palabra desconocida: ${w}`);
        current += v;
      }
    }
    return total + thousands + current;
  };

  it('writes every amount so that it reads back exactly, with its centavos as NN/100', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_AMOUNT_CENTS }), (c) => {
        const text = amountInWords(c);
        const m = /^([A-ZÁÉÍÓÚ ]+?) (?:DE )?QUETZAL(?:ES)? CON (\d{2})\/100$/.exec(text);
        expect(m, text).not.toBeNull();
        expect(readBack(m?.[1] ?? '')).toBe(c / 100n);
        expect(m?.[2]).toBe(String(c % 100n).padStart(2, '0'));
        expect(text).not.toMatch(/ {2}|UNO QUETZAL|VEINTIUNO (?:MIL|QUETZAL)/);
        expect(text.includes('CERO')).toBe(c < 100n);
        expect(text.startsWith('UN QUETZAL ')).toBe(c / 100n === 1n);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_AMOUNT_CENTS / 100n }), (n) => {
        expect(readBack(numberInWords(n))).toBe(n);
      }),
    );
  });
});
