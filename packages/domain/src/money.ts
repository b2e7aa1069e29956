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

/** The largest amount a numeric(14,2) column holds, in cents (Q 999,999,999,999.99). */
export const MAX_AMOUNT_CENTS: Cents = 99_999_999_999_999;

export type AmountResult = { ok: true; cents: Cents } | { ok: false; message: string };

export interface AmountOptions {
  /** A minus sign is refused unless the field allows negative amounts. */
  allowNegative?: boolean;
  /** Upper bound of the absolute value, in cents (default: what numeric(14,2) holds). */
  maxCents?: Cents;
}

/**
 * The text a spreadsheet shows for a number cell: at most 15 significant digits (Excel's precision),
 * without exponent for the magnitudes money and identifiers have. 1234.5000000000002 — float noise a
 * pasted formula result carries — is "1234.5", exactly what the user saw in the cell; 1234.567 stays
 * "1234.567" (and is refused as an amount: more than two decimals).
 */
export function numberCellText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  const shown = Number(n.toPrecision(15));
  const text = String(shown);
  if (!/e/i.test(text)) return text;
  // 1e-7 and the like: written out so the amount parser sees (and refuses) its decimals.
  return Math.abs(shown) < 1 ? shown.toFixed(20).replace(/0+$/, '') : text;
}

const HINT = 'escriba el monto con punto decimal y coma para los miles, por ejemplo 1,234.50';

/**
 * THE parser for amounts users type or paste (forms, API bodies, spreadsheets): returns integer cents
 * or a Spanish reason. Accepted, as Guatemalans write money: `1234`, `1234.5`, `1,234.50`,
 * `Q 1,234.50`, `Q1234.50`, `Q.1,234.50`, `GTQ 1234.50`, and a spreadsheet's number cell (read as the
 * text Excel shows, see numberCellText). Refused, never guessed: a decimal comma (`12,34`,
 * `1.234,50`), a dot followed by three digits (`1.234`: thousands or decimals?), more than two
 * decimals, misplaced thousands commas (`1,23,4`), spaces inside the number (`1 234.50`), several
 * dots, a minus sign where the field does not allow it, empty text, amounts beyond numeric(14,2).
 * The conversion is exact (digits, never binary floating point).
 */
export function parseAmount(input: string | number, opts: AmountOptions = {}): AmountResult {
  const max = opts.maxCents ?? MAX_AMOUNT_CENTS;
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, message: 'El monto no es un número.' };
    text = numberCellText(input);
  } else {
    text = input.replace(/[\s\u00a0\u202f]+$/u, '').replace(/^[\s\u00a0\u202f]+/u, '');
  }
  if (text === '') return { ok: false, message: 'Ingrese el monto.' };
  let negative = false;
  if (text.startsWith('-')) {
    negative = true;
    text = text.slice(1).trimStart();
  }
  // The currency: Q, Q. or GTQ before the number, with or without a space.
  text = text.replace(/^(GTQ|Q\.?)\s*/i, '');
  if (!negative && text.startsWith('-')) {
    negative = true;
    text = text.slice(1);
  }
  if (/^\d+(?:\.\d{1,2})?$|^\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?$|^\.\d{1,2}$/.test(text)) {
    const [whole, fraction = ''] = text.replace(/,/g, '').split('.');
    const cents = Number(`${whole || '0'}${fraction.padEnd(2, '0')}`);
    if (cents > max) {
      return { ok: false, message: `El monto "${String(input).trim()}" supera el máximo permitido.` };
    }
    if (negative && cents !== 0 && !opts.allowNegative) {
      return { ok: false, message: `El monto no puede ser negativo: "${String(input).trim()}".` };
    }
    return { ok: true, cents: negative && cents !== 0 ? -cents : cents };
  }
  if (typeof input === 'number' && /^\d+\.\d{3,}$/.test(text)) {
    return { ok: false, message: `El monto ${text} tiene más de dos decimales.` };
  }
  return { ok: false, message: amountProblem(String(input).trim(), text) };
}

/** Why a text is not an amount, in words the person who typed it can act on. */
function amountProblem(shown: string, text: string): string {
  const quoted = `"${shown}"`;
  if (/\d[\s\u00a0\u202f]+\d/u.test(text)) return `El monto ${quoted} tiene espacios entre las cifras: ${HINT}.`;
  if (/^[\d.,]+$/.test(text)) {
    const lastComma = text.lastIndexOf(',');
    const lastDot = text.lastIndexOf('.');
    if (lastComma > lastDot) {
      return `El monto ${quoted} usa coma decimal o tiene la coma de miles mal colocada: ${HINT}.`;
    }
    if ((text.match(/\./g)?.length ?? 0) > 1) return `El monto ${quoted} tiene varios puntos: ${HINT}.`;
    const decimals = text.slice(lastDot + 1);
    if (lastDot >= 0 && /^\d{3}$/.test(decimals) && !text.includes(',')) {
      return `El monto ${quoted} es ambiguo (¿miles o decimales?): ${HINT}.`;
    }
    if (lastDot >= 0 && decimals.length > 2) return `El monto ${quoted} tiene más de dos decimales.`;
    return `El monto ${quoted} tiene la coma de miles mal colocada: ${HINT}.`;
  }
  return `El monto ${quoted} no es un número: ${HINT}.`;
}

/**
 * An amount as the API stores it (numeric(14,2) text) or any text parseAmount accepts, into cents;
 * null when it is not one. A thin wrapper of parseAmount (negatives allowed) for reading, not for input.
 */
export function parseMoney(input: string | number): Cents | null {
  const r = parseAmount(input, { allowNegative: true });
  return r.ok ? r.cents : null;
}

/** Cents → the SQL numeric(14,2) text form. */
export function centsToDecimal(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents → how a Guatemalan writes it: `1,234.50` (no currency symbol). */
export function formatAmount(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** Applies a percentage rate (e.g. 7 for 7.00 %) to an amount in cents, rounded half-up. */
export function applyRate(amount: Cents, ratePercent: number): Cents {
  return roundHalfUpCents((amount * ratePercent) / 100);
}
