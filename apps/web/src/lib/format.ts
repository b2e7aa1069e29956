import { formatCui as formatCuiDigits } from '@aporta/domain/cui';
import { centsToDecimal, formatMoney as formatQuetzales, parseMoney } from '@aporta/domain/money';
import i18n from 'i18next';

/*
 * Dates, numbers and money for the chosen language. Spanish (the product language) is fixed by the
 * specification: dates dd/mm/aaaa and money "Q 1,234.56" (Guatemalan usage: comma thousands, point
 * decimals). The other languages follow their own conventions through Intl, always in quetzales.
 */

const LOCALES: Record<string, string> = {
  es: 'es-GT',
  en: 'en-US',
  ar: 'ar-u-nu-latn',
  ch: 'zh-CN',
  fr: 'fr-FR',
  gr: 'de-DE',
  it: 'it-IT',
  ru: 'ru-RU',
};

const lang = (l?: string): string => {
  const base = (l ?? i18n.language ?? 'es').slice(0, 2);
  return base in LOCALES ? base : 'es';
};

const toDate = (value: Date | string | number): Date | null => {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    // A calendar date (no time): read it as that day, not as UTC midnight.
    const [y, m, d] = value.split('-').map(Number);
    return new Date(y, m - 1, d);
  }
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A date: dd/mm/aaaa in Spanish; the language's short numeric form otherwise. Empty for no/bad date. */
export function formatDate(value: Date | string | number | null | undefined, language?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const d = toDate(value);
  if (!d) return '';
  const l = lang(language);
  if (l === 'es') return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
  return new Intl.DateTimeFormat(LOCALES[l], { day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);
}

/** Date and time (24 h): dd/mm/aaaa hh:mm in Spanish. */
export function formatDateTime(value: Date | string | number | null | undefined, language?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const d = toDate(value);
  if (!d) return '';
  const l = lang(language);
  if (l === 'es') return `${formatDate(d, 'es')} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return new Intl.DateTimeFormat(LOCALES[l], { dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' }).format(d);
}

const esNumber = (fractionDigits: number | undefined) =>
  new Intl.NumberFormat('en-US', {
    minimumFractionDigits: fractionDigits ?? 0,
    maximumFractionDigits: fractionDigits ?? 3,
  });

/** A number with the language's grouping; Spanish uses 1,234.56 as in Guatemala. */
export function formatNumber(value: number, opts: { fractionDigits?: number; language?: string } = {}): string {
  const l = lang(opts.language);
  if (l === 'es') return esNumber(opts.fractionDigits).format(value);
  return new Intl.NumberFormat(LOCALES[l], {
    minimumFractionDigits: opts.fractionDigits ?? 0,
    maximumFractionDigits: opts.fractionDigits ?? 3,
  }).format(value);
}

/**
 * Money from integer cents: "Q 1,234.56" in Spanish, the language's currency format with the quetzal's own sign (Q) otherwise.
 * Empty for none. Exact at any size: Intl formats the decimal text, never cents / 100 as a float.
 */
export function formatMoney(cents: number | bigint | null | undefined, language?: string): string {
  if (cents === null || cents === undefined) return '';
  if (typeof cents === 'number' && !Number.isSafeInteger(cents)) return '';
  const c = BigInt(cents);
  const l = lang(language);
  if (l === 'es') return formatQuetzales(c);
  return new Intl.NumberFormat(LOCALES[l], { style: 'currency', currency: 'GTQ', currencyDisplay: 'narrowSymbol' }).format(
    centsToDecimal(c) as `${number}`,
  );
}

/**
 * Money the API sends as a decimal amount in quetzales (a numeric(14,2) column as text, e.g.
 * "1234.5"), formatted like formatMoney. Empty for none or for text that is not an amount.
 */
export function formatMoneyDecimal(amount: string | number | null | undefined, language?: string): string {
  if (amount === null || amount === undefined || amount === '') return '';
  return formatMoney(parseMoney(amount), language);
}

/**
 * A CUI (13 digits) as shown on the DPI: NNNN NNNNN NNNN (the domain's rule). Anything else is returned
 * as given. For form inputs; to show one on a page use displayCui (safe in Arabic).
 */
export function formatCui(cui: string | null | undefined): string {
  return cui ? formatCuiDigits(cui) : '';
}

const RTL_LANGUAGES = new Set(['ar']);

/**
 * Text that reads left to right whatever the page's direction (CUI, NIT, codes): in a right-to-left
 * language it is wrapped in a left-to-right isolate (U+2066 … U+2069), so "1234 56789 0101" never shows
 * its groups reversed. Dates, numbers and money in Arabic come from Intl with their own direction marks.
 * Elements can do the same with dir="ltr" (components/Cui).
 */
export function ltr(text: string | null | undefined, language?: string): string {
  if (!text) return '';
  return RTL_LANGUAGES.has(lang(language)) ? `\u2066${text}\u2069` : text;
}

/** A CUI to show on a page: formatted and isolated left to right in Arabic. */
export const displayCui = (cui: string | null | undefined, language?: string): string => ltr(formatCui(cui), language);
