/**
 * Money is integer cents everywhere in code. This is the one rounding function: half-up to the cent
 * (away from zero for negatives), as the institution's contribution rules require.
 */
export type Cents = number;

/** Rounds a fractional amount of cents half-up to a whole cent. */
export function roundHalfUpCents(value: number): Cents {
  if (!Number.isFinite(value)) throw new RangeError('Monto no finito');
  const sign = value < 0 ? -1 : 1;
  // The epsilon absorbs binary representation error (e.g. 1.005 * 100 = 100.49999999999999).
  return sign * Math.floor(Math.abs(value) + 0.5 + 1e-9);
}

/** Parses a decimal string such as "1234.5" or "1,234.56" into cents; null when it is not money. */
export function parseMoney(input: string | number): Cents | null {
  const text = typeof input === 'number' ? String(input) : input.trim().replace(/,/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  return roundHalfUpCents(Number(text) * 100);
}

/** Cents → the SQL numeric(14,2) text form. */
export function centsToDecimal(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Applies a percentage rate (e.g. 7 for 7.00 %) to an amount in cents, rounded half-up. */
export function applyRate(amount: Cents, ratePercent: number): Cents {
  return roundHalfUpCents((amount * ratePercent) / 100);
}
