import { type Cents, centsToDecimal, decimalToCents, parseRate, type Rate } from '@aporta/domain';
import { customType } from 'drizzle-orm/pg-core';

/**
 * Money column: numeric(14,2) in SQL, integer cents as bigint in code. The drivers (pg and PGlite)
 * hand numeric over as text, which is read digit by digit; nothing passes through a float.
 */
export const money = customType<{ data: Cents; driverData: string }>({
  dataType: () => 'numeric(14, 2)',
  toDriver: (cents) => centsToDecimal(cents),
  fromDriver: (text) => decimalToCents(String(text)),
});

/**
 * Rate column: a percentage, numeric(7,4) in SQL, its four-decimal text in code (`"7.0000"`). Written
 * through parseRate so a value beyond numeric(7,4) or with a fifth decimal fails before SQL rounds it.
 */
export const rate = customType<{ data: Rate; driverData: string }>({
  dataType: () => 'numeric(7, 4)',
  toDriver: (value) => {
    const r = parseRate(value);
    if (!r.ok) throw new RangeError(r.message);
    return r.rate;
  },
  fromDriver: (text) => {
    const r = parseRate(String(text));
    if (!r.ok) throw new RangeError(r.message);
    return r.rate;
  },
});

/**
 * jsonb for any JSON value, bare strings included (a rate setting is the string `"7.0000"`). Drizzle's
 * own jsonb parses a string it reads once more, and both drivers (pg and PGlite) already hand jsonb over
 * parsed: `"7.0000"` came back as the number 7. This one writes JSON text and keeps what the driver read.
 */
export const jsonValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
});
