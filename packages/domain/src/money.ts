import Big from 'big.js';
import { z } from 'zod';
import { platformMessages } from './messages/platform.ts';
// messages.ts imports this file (formatMoney): the schemas' fixed texts are read from the catalogue itself.
import { detail, type Message, type MessageParams, msg } from './messages.ts';

/**
 * Money is integer cents as `bigint` everywhere in code, the decimal text `"1234.56"` in JSON (bigint
 * is not JSON, and a JSON number is a binary float) and numeric(14,2) in SQL. Rates are percentages
 * as exact decimal text with four decimals (`"7.0000"` is 7 %), numeric(7,4) in SQL. Arithmetic that
 * is not a plain integer sum goes through big.js (decimal, exact, explicit rounding); nothing here
 * ever computes money with a binary float.
 */
export type Cents = bigint;

/**
 * One big.js constructor of our own, so no other code can change its settings. Strict: a JS number
 * passed by mistake throws instead of bringing binary noise in. DP only bounds divisions, which end
 * in an explicit rounding anyway.
 */
const Dec = Big();
Dec.DP = 30;
Dec.RM = Dec.roundHalfUp;
Dec.strict = true;

const HALF_UP = 1; // Big.roundHalfUp: to the nearest, a tie away from zero.
const DOWN = 0; // Big.roundDown: towards zero.

/** The largest amount a numeric(14,2) column holds, in cents (Q 999,999,999,999.99). */
export const MAX_AMOUNT_CENTS: Cents = 99_999_999_999_999n;

/**
 * The largest monthly amount of one person — a salary on a planilla line, a back-pay or voluntary
 * month, a pension: Q 9,999,999.99. Not a legal value but a bound of sanity, fifty times the highest
 * public salary in the country, so that a typo (an extra digit, a pasted account number) is caught on
 * its line, and so that the sums built from such amounts (a planilla of up to 100 000 lines, an order,
 * a payroll) fit the numeric(14,2) columns that keep them.
 */
export const MAX_MONTHLY_AMOUNT_CENTS: Cents = 999_999_999n;

/**
 * The message for a total that a numeric(14,2) column cannot keep (`label` names it), or null when it
 * fits. Checked before any write of a sum, so the person is told why instead of a failed transaction.
 */
export function totalTooLarge(cents: Cents, label: string): string | null {
  return totalTooLargeMessage(cents, label)?.text ?? null;
}

/** totalTooLarge as a keyed message (messages.ts), for an error or a detail. */
export function totalTooLargeMessage(cents: Cents, label: string): Message | null {
  return abs(cents) > MAX_AMOUNT_CENTS ? msg('platform.totalTooLarge', { label, total: cents, max: MAX_AMOUNT_CENTS }) : null;
}

/**
 * THE rounding rule: an exact decimal amount of cents (text, e.g. `"100.5"`) rounded half-up to a
 * whole cent, a tie away from zero (`"-100.5"` → -101), as the institution's contribution rules
 * require. Throws on text that is not a decimal number: callers pass computed values, not input.
 */
export function roundHalfUpCents(value: string): Cents {
  return BigInt(new Dec(value).round(0, HALF_UP).toFixed(0));
}

/** A refusal of a parser: the Spanish text, its key and parameters (messages.ts), ready for a detail. */
export type ParseRefusal = { ok: false; message: string; key: string; params?: MessageParams };
const refuse = (m: Message): ParseRefusal => ({ ok: false, ...detail(m) });

export type AmountResult = { ok: true; cents: Cents } | ParseRefusal;

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
    if (!Number.isFinite(input)) return refuse(msg('platform.amountNotNumber'));
    text = numberCellText(input);
  } else {
    text = input.replace(/[\s\u00a0\u202f]+$/u, '').replace(/^[\s\u00a0\u202f]+/u, '');
  }
  if (text === '') return refuse(msg('platform.amountRequired'));
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
    const cents = BigInt(`${whole || '0'}${fraction.padEnd(2, '0')}`);
    if (cents > max) {
      return refuse(msg('platform.amountAboveMax', { value: String(input).trim(), max }));
    }
    if (negative && cents !== 0n && !opts.allowNegative) {
      return refuse(msg('platform.amountNegative', { value: String(input).trim() }));
    }
    return { ok: true, cents: negative && cents !== 0n ? -cents : cents };
  }
  if (typeof input === 'number' && /^\d+\.\d{3,}$/.test(text)) {
    return refuse(msg('platform.amountCellTooManyDecimals', { value: text }));
  }
  return refuse(amountProblem(String(input).trim(), text));
}

/** Why a text is not an amount, in words the person who typed it can act on. */
function amountProblem(shown: string, text: string): Message {
  const value = { value: shown };
  if (/\d[\s\u00a0\u202f]+\d/u.test(text)) return msg('platform.amountSpaces', value);
  if (/^[\d.,]+$/.test(text)) {
    const lastComma = text.lastIndexOf(',');
    const lastDot = text.lastIndexOf('.');
    if (lastComma > lastDot) {
      return msg('platform.amountDecimalComma', value);
    }
    if ((text.match(/\./g)?.length ?? 0) > 1) return msg('platform.amountSeveralDots', value);
    const decimals = text.slice(lastDot + 1);
    if (lastDot >= 0 && /^\d{3}$/.test(decimals) && !text.includes(',')) {
      return msg('platform.amountAmbiguous', value);
    }
    if (lastDot >= 0 && decimals.length > 2) return msg('platform.amountTooManyDecimals', value);
    return msg('platform.amountMisplacedComma', value);
  }
  return msg('platform.amountNotANumber', value);
}

/**
 * An amount as the API stores it (numeric(14,2) text) or any text parseAmount accepts, into cents;
 * null when it is not one. A thin wrapper of parseAmount (negatives allowed) for reading, not for input.
 */
export function parseMoney(input: string | number): Cents | null {
  const r = parseAmount(input, { allowNegative: true });
  return r.ok ? r.cents : null;
}

const abs = (c: Cents): Cents => (c < 0n ? -c : c);

/** Cents → the decimal text of JSON and of SQL numeric(14,2): `-1234.05`, always two decimals. */
export function centsToDecimal(cents: Cents): string {
  const a = abs(cents);
  return `${cents < 0n ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

const DECIMAL_MONEY = /^-?\d+(?:\.\d{1,2})?$/;

/**
 * The decimal text of JSON or SQL (`1234.5`, `-0.05`, `12`) → cents. Strict: no grouping, no currency,
 * at most two decimals; anything else throws, because this reads what our own code or database wrote
 * (user input goes through parseAmount). No upper bound: a SQL sum of numeric(14,2) may exceed one.
 */
export function decimalToCents(text: string): Cents {
  if (!DECIMAL_MONEY.test(text)) throw new RangeError(`Monto decimal no válido: "${text}"`);
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const cents = BigInt(`${whole}${fraction.padEnd(2, '0')}`);
  return negative ? -cents : cents;
}

/** Cents → how a Guatemalan writes it: `1,234.50` (no currency symbol). */
export function formatAmount(cents: Cents): string {
  const a = abs(cents);
  const whole = String(a / 100n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0n ? '-' : ''}${whole}.${String(a % 100n).padStart(2, '0')}`;
}

/** Cents → `Q 1,234.56` (`-Q 1,234.56` when negative): money as the Spanish UI and documents show it. */
export function formatMoney(cents: Cents): string {
  const text = formatAmount(abs(cents));
  return cents < 0n ? `-Q ${text}` : `Q ${text}`;
}

// ---------------------------------------------------------------------------------------------
// Amounts in words (receipts, contracts)

const UNITS = [
  'CERO',
  'UNO',
  'DOS',
  'TRES',
  'CUATRO',
  'CINCO',
  'SEIS',
  'SIETE',
  'OCHO',
  'NUEVE',
  'DIEZ',
  'ONCE',
  'DOCE',
  'TRECE',
  'CATORCE',
  'QUINCE',
  'DIECISÉIS',
  'DIECISIETE',
  'DIECIOCHO',
  'DIECINUEVE',
  'VEINTE',
  'VEINTIUNO',
  'VEINTIDÓS',
  'VEINTITRÉS',
  'VEINTICUATRO',
  'VEINTICINCO',
  'VEINTISÉIS',
  'VEINTISIETE',
  'VEINTIOCHO',
  'VEINTINUEVE',
];
const TENS = ['', '', '', 'TREINTA', 'CUARENTA', 'CINCUENTA', 'SESENTA', 'SETENTA', 'OCHENTA', 'NOVENTA'];
const HUNDREDS = [
  '',
  'CIENTO',
  'DOSCIENTOS',
  'TRESCIENTOS',
  'CUATROCIENTOS',
  'QUINIENTOS',
  'SEISCIENTOS',
  'SETECIENTOS',
  'OCHOCIENTOS',
  'NOVECIENTOS',
];

/** `apocope`: the number stands before a masculine noun (`UN`, `VEINTIÚN`, `TREINTA Y UN` quetzales). */
interface WordsStyle {
  apocope: boolean;
  /** `UN MIL` (as Guatemalan receipts and cheques write 1,000) instead of `MIL`. */
  unMil: boolean;
}

function below100(n: number, s: WordsStyle): string {
  if (n < 30) {
    if (s.apocope && n === 1) return 'UN';
    if (s.apocope && n === 21) return 'VEINTIÚN';
    return UNITS[n];
  }
  const unit = n % 10;
  if (unit === 0) return TENS[n / 10];
  return `${TENS[Math.floor(n / 10)]} Y ${s.apocope && unit === 1 ? 'UN' : UNITS[unit]}`;
}

function below1000(n: number, s: WordsStyle): string {
  if (n === 100) return 'CIEN';
  const h = Math.floor(n / 100);
  const rest = n % 100;
  if (h === 0) return below100(rest, s);
  return rest === 0 ? HUNDREDS[h] : `${HUNDREDS[h]} ${below100(rest, s)}`;
}

/** 0 … 999,999 (the part under a million), never `CERO` unless n is 0. */
function belowMillion(n: number, s: WordsStyle): string {
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  const parts: string[] = [];
  if (thousands === 1) parts.push(s.unMil ? 'UN MIL' : 'MIL');
  else if (thousands > 1) parts.push(`${below1000(thousands, { ...s, apocope: true })} MIL`);
  if (rest > 0 || thousands === 0) parts.push(below1000(rest, s));
  return parts.join(' ');
}

function wholeInWords(n: bigint, s: WordsStyle): string {
  const millions = Number(n / 1_000_000n);
  const rest = Number(n % 1_000_000n);
  if (millions === 0) return belowMillion(rest, s);
  const head = millions === 1 ? 'UN MILLÓN' : `${belowMillion(millions, { ...s, apocope: true })} MILLONES`;
  return rest === 0 ? head : `${head} ${belowMillion(rest, s)}`;
}

/**
 * A whole number written in Spanish capitals as it reads on its own: `CIENTO UNO`, `VEINTIUNO`,
 * `MIL`, `UN MILLÓN`, `DOS MIL MILLONES`. 0 … 999,999,999,999 (the quetzales numeric(14,2) holds).
 */
export function numberInWords(n: bigint): string {
  if (n < 0n || n > MAX_AMOUNT_CENTS / 100n) throw new RangeError(`Número fuera de rango: ${n}`);
  return wholeInWords(n, { apocope: false, unMil: false });
}

/**
 * An amount in words as a 7-B receipt or a contract prints it (DOMAIN: "la cantidad en letras"):
 * quetzales in words, centavos as NN/100 — `UN MIL DOSCIENTOS TREINTA Y CUATRO QUETZALES CON 50/100`,
 * `UN QUETZAL CON 00/100`, `VEINTIÚN QUETZALES CON 00/100`, `UN MILLÓN DE QUETZALES CON 00/100`.
 * Before the noun the number takes its short form (`UN`, `VEINTIÚN`, `CIENTO UN`), and 1,000 reads
 * `UN MIL` as Guatemalan receipts and cheques write it. 0 … MAX_AMOUNT_CENTS; a negative amount throws
 * (a document states what was received, never a debit).
 */
export function amountInWords(cents: Cents): string {
  if (cents < 0n || cents > MAX_AMOUNT_CENTS) throw new RangeError(`Monto fuera de rango: ${cents}`);
  const whole = cents / 100n;
  const centavos = String(cents % 100n).padStart(2, '0');
  const words = wholeInWords(whole, { apocope: true, unMil: true });
  const noun = whole === 1n ? 'QUETZAL' : whole > 0n && whole % 1_000_000n === 0n ? 'DE QUETZALES' : 'QUETZALES';
  return `${words} ${noun} CON ${centavos}/100`;
}

// ---------------------------------------------------------------------------------------------
// Rates

/**
 * A percentage as exact decimal text with four decimals (numeric(7,4)): `"7.0000"` is 7 %. Text, not
 * a number, so 7.1234 % stays exactly that from the form to the database and into a calculation.
 */
export type Rate = string;

/** The largest rate numeric(7,4) holds: 999.9999 %. */
export const MAX_RATE: Rate = '999.9999';

export type RateResult = { ok: true; rate: Rate } | ParseRefusal;

/**
 * THE parser of rates people type: `7`, `7.5`, `7.125`, `7.1250`, with or without `%`. Refused: a
 * decimal comma, more than four decimals, a sign, text, more than numeric(7,4) holds (or `max`).
 */
export function parseRate(input: string | number, opts: { max?: Rate } = {}): RateResult {
  const shown = { value: String(input).trim() };
  if (typeof input === 'number' && !Number.isFinite(input)) return refuse(msg('platform.rateNotNumber'));
  const text = (typeof input === 'number' ? numberCellText(input) : input).trim().replace(/\s*%$/, '');
  if (text === '') return refuse(msg('platform.rateRequired'));
  if (text.startsWith('-')) return refuse(msg('platform.rateNegative', shown));
  if (/^\d*,\d+$/.test(text)) {
    return refuse(msg('platform.rateDecimalComma', shown));
  }
  if (/^\d*\.\d{5,}$/.test(text)) return refuse(msg('platform.rateTooManyDecimals', shown));
  if (!/^\d+(?:\.\d{1,4})?$|^\.\d{1,4}$/.test(text)) return refuse(msg('platform.rateNotANumber', shown));
  const value = new Dec(text.startsWith('.') ? `0${text}` : text);
  const max = new Dec(opts.max ?? MAX_RATE);
  if (value.gt(max)) return refuse(msg('platform.rateAboveMax', { ...shown, max: formatRate(max.toFixed(4)) }));
  return { ok: true, rate: value.toFixed(4) };
}

/** A rate as shown: `7.00 %`, `7.125 %` (two decimals at least, then the significant ones up to four). */
export function formatRate(rate: Rate): string {
  const [whole, fraction] = new Dec(rate).toFixed(4).split('.');
  return `${whole}.${fraction.slice(0, 2)}${fraction.slice(2).replace(/0+$/, '')} %`;
}

/**
 * `cents × rate %`, rounded half-up to the cent once (the contribution rule: "each rounded half-up to
 * the cent"). Exact: 7 % of Q 1,234.57 is 8,641.99 cents → Q 86.42.
 */
export function applyRate(cents: Cents, rate: Rate): Cents {
  return BigInt(new Dec(String(cents)).times(new Dec(rate)).div('100').round(0, HALF_UP).toFixed(0));
}

/**
 * Simple interest `principal × annual rate % × days / 365`, rounded half-up once (DOMAIN: interest
 * on an order's unpaid principal is rounded once per order and period, never day by day).
 */
export function simpleInterest(principal: Cents, annualRate: Rate, days: number): Cents {
  if (!Number.isSafeInteger(days) || days < 0) throw new RangeError(`Días no válidos: ${days}`);
  const exact = new Dec(String(principal))
    .times(new Dec(annualRate))
    .times(new Dec(String(days)))
    .div('36500');
  return BigInt(exact.round(0, HALF_UP).toFixed(0));
}

// ---------------------------------------------------------------------------------------------
// Allocation

const partsCount = (n: number): bigint => {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`Número de partes no válido: ${n}`);
  return BigInt(n);
};

/**
 * Splits `cents` into `n` parts that sum exactly to it and differ by at most one cent: the remainder
 * cents go one each to the first parts (largest remainder; all remainders tie, so the earlier parts
 * win). For shares and spreading an amount; a schedule whose last part absorbs the rounding is
 * allocateLastAbsorbs.
 */
export function allocate(cents: Cents, n: number): Cents[] {
  const count = partsCount(n);
  const sign = cents < 0n ? -1n : 1n;
  const a = abs(cents);
  const base = a / count;
  const extra = a % count;
  return Array.from({ length: n }, (_, i) => sign * (base + (BigInt(i) < extra ? 1n : 0n)));
}

/**
 * Splits `cents` in proportion to `ratios` (non-negative exact decimals: shares `"60"`, `"40"`, or
 * `"33.3333"`), summing exactly: each part is its exact share rounded towards zero, then the cents left
 * go one each to the parts with the largest remainders (ties to the earlier part). Largest remainder
 * keeps every part within one cent of its exact share, which "the last part absorbs" does not.
 */
export function allocateByRatios(cents: Cents, ratios: readonly (string | bigint)[]): Cents[] {
  if (ratios.length === 0) throw new RangeError('Sin proporciones para repartir.');
  const weights = ratios.map((r) => new Dec(String(r)));
  if (weights.some((w) => w.lt('0'))) throw new RangeError('Una proporción es negativa.');
  const total = weights.reduce((s, w) => s.plus(w), new Dec('0'));
  if (total.eq('0')) throw new RangeError('Las proporciones suman cero.');
  const sign = cents < 0n ? -1n : 1n;
  const amount = new Dec(String(abs(cents)));
  const exact = weights.map((w) => amount.times(w).div(total));
  const parts = exact.map((e) => BigInt(e.round(0, DOWN).toFixed(0)));
  let left = abs(cents) - parts.reduce((s, p) => s + p, 0n);
  const byRemainder = exact
    .map((e, i) => ({ i, rem: e.minus(new Dec(String(parts[i]))) }))
    .sort((x, y) => y.rem.cmp(x.rem) || x.i - y.i);
  for (const { i } of byRemainder) {
    if (left === 0n) break;
    parts[i] += 1n;
    left -= 1n;
  }
  return parts.map((p) => sign * p);
}

/**
 * `n` equal parts rounded half-up to the cent, the last one absorbing the difference so the schedule
 * sums exactly (DOMAIN: an agreement's instalments "the last instalment absorbs rounding").
 */
export function allocateLastAbsorbs(cents: Cents, n: number): Cents[] {
  const count = partsCount(n);
  const each = BigInt(new Dec(String(cents)).div(String(n)).round(0, HALF_UP).toFixed(0));
  const parts = Array.from({ length: n }, () => each);
  parts[n - 1] = cents - each * (count - 1n);
  return parts;
}

// ---------------------------------------------------------------------------------------------
// Contracts

const prefixed = (label: string | undefined, message: string) => (label ? `${label}: ${message}` : message);

/**
 * An amount in an API body or a form: text as people write it (parseAmount) or a JSON number read as
 * the text a spreadsheet shows; answers the decimal text `"1234.50"`, the JSON form of money. Errors
 * start with `label` when given, so the message names the field.
 */
export const moneyInputSchema = (label?: string, opts: AmountOptions = {}) =>
  z.union([z.string(), z.number()], { error: prefixed(label, platformMessages.amountExpected) }).transform((v, ctx) => {
    const r = parseAmount(v, opts);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: prefixed(label, r.message) });
      return z.NEVER;
    }
    return centsToDecimal(r.cents);
  });

/** Money in API contracts: a non-negative amount in, its decimal text `"1234.50"` out. */
export const moneySchema = moneyInputSchema();

/** Money as a response carries it: decimal text with two decimals (`"-1234.05"`). */
export const moneyDecimalSchema = z.string().regex(/^-?\d{1,12}\.\d{2}$/, { error: platformMessages.amountDecimalInvalid });

/** A rate in an API body or a form (parseRate), answered as its four-decimal text `"7.0000"`. */
export const rateInputSchema = (label?: string, opts: { max?: Rate } = {}) =>
  z.union([z.string(), z.number()], { error: prefixed(label, platformMessages.rateExpected) }).transform((v, ctx) => {
    const r = parseRate(v, opts);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: prefixed(label, r.message) });
      return z.NEVER;
    }
    return r.rate;
  });

/** Rates in API contracts: a percentage typed or sent, its numeric(7,4) text out. */
export const rateSchema = rateInputSchema();

/** A rate as a response carries it: `"7.0000"`. */
export const rateDecimalSchema = z.string().regex(/^\d{1,3}\.\d{4}$/, { error: platformMessages.rateInvalid });
