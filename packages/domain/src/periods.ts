/**
 * Calendar arithmetic on periods (`AAAA-MM`) and ISO days (`AAAA-MM-DD`), shared by every module that
 * works month by month (planillas, pensions, payment orders). Text in, text out: no time zones.
 *
 * Safe on any input: each helper checks the format first and throws a RangeError on text that is not a
 * period or a day (never `NaN-NaN`), and the one that builds a list (periodsBetween) computes its length
 * arithmetically and refuses more than PERIODS_SPAN months, so no input can make it loop or allocate
 * without end. A schema that checks a range calls periodCount (which answers null on malformed text)
 * rather than building the list.
 */
import { MAX_DATE, MIN_DATE } from './fields.ts';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first and last period any period field accepts (the months of MIN_DATE and MAX_DATE). */
export const MIN_PERIOD = MIN_DATE.slice(0, 7);
export const MAX_PERIOD = MAX_DATE.slice(0, 7);

/** True for `AAAA-MM` with a month 01..12 (any year 0000..9999; range checks are the schema's). */
export const isPeriod = (text: unknown): text is string => typeof text === 'string' && PERIOD.test(text);

/** The month number of `period` since year 0 (`0000-01` is 0); a RangeError for anything else. */
function monthIndex(period: string): number {
  const m = typeof period === 'string' ? PERIOD.exec(period) : null;
  if (!m) throw new RangeError(`Período no válido: ${String(period).slice(0, 20)}`);
  return Number(m[1]) * 12 + Number(m[2]) - 1;
}

const fromIndex = (t: number): string => {
  if (!Number.isSafeInteger(t) || t < 0 || t > 9999 * 12 + 11) throw new RangeError(`Período fuera de rango (${t}).`);
  return `${pad(Math.floor(t / 12), 4)}-${pad((t % 12) + 1)}`;
};

/** Most periods periodsBetween returns: every month from MIN_PERIOD to MAX_PERIOD (2 412). */
export const PERIODS_SPAN = monthIndex(MAX_PERIOD) - monthIndex(MIN_PERIOD) + 1;

/** The period `n` months after (`n` > 0) or before (`n` < 0) `period`. */
export function addMonths(period: string, n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`Meses no válidos: ${n}`);
  return fromIndex(monthIndex(period) + n);
}

/** The period before `period` (`2026-01` → `2025-12`). */
export const previousPeriod = (period: string): string => addMonths(period, -1);

/** The period after `period`. */
export const nextPeriod = (period: string): string => addMonths(period, 1);

/**
 * How many periods `from`..`to` holds, both included (0 when `from` is after `to`), computed without
 * walking the range; null when either is not a period. What a schema checks a range's size with.
 */
export function periodCount(from: unknown, to: unknown): number | null {
  if (!isPeriod(from) || !isPeriod(to)) return null;
  return Math.max(0, monthIndex(to) - monthIndex(from) + 1);
}

/**
 * Every period from `from` to `to`, both included (empty when `from` is after `to`). A RangeError when
 * either is not a period or the range holds more than PERIODS_SPAN months.
 */
export function periodsBetween(from: string, to: string): string[] {
  const start = monthIndex(from);
  const count = Math.max(0, monthIndex(to) - start + 1);
  if (count > PERIODS_SPAN) throw new RangeError(`Demasiados períodos (${count}); a lo sumo ${PERIODS_SPAN}.`);
  return Array.from({ length: count }, (_, i) => fromIndex(start + i));
}

/** The period of an ISO day (`2026-03-15` → `2026-03`). */
export const periodOf = (isoDay: string): string => isoDay.slice(0, 7);

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in the month of `period`. */
export function daysInMonth(period: string): number {
  const t = monthIndex(period);
  const y = Math.floor(t / 12);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return t % 12 === 1 && leap ? 29 : MONTH_DAYS[t % 12];
}

/** The first day of `period`. */
export const periodStart = (period: string): string => `${period}-01`;

/** The last day of `period`. */
export const periodEnd = (period: string): string => `${period}-${pad(daysInMonth(period))}`;

/** Milliseconds of an ISO day at midnight UTC; a RangeError for text that is not `AAAA-MM-DD`. */
function dayTime(isoDay: string): number {
  const time = typeof isoDay === 'string' && DAY.test(isoDay) ? Date.parse(`${isoDay}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(time)) throw new RangeError(`Fecha no válida: ${String(isoDay).slice(0, 20)}`);
  return time;
}

/** Whole days from `a` to `b` (`b` − `a`). */
export function daysBetween(a: string, b: string): number {
  return Math.round((dayTime(b) - dayTime(a)) / 86_400_000);
}

/** `03/2026`, as the UI writes a period. */
export const formatPeriod = (period: string): string => `${period.slice(5, 7)}/${period.slice(0, 4)}`;

/** `23/11/2026`, as the UI writes an ISO day (`2026-11-23`). */
export const formatDay = (isoDay: string): string => isoDay.split('-').reverse().join('/');
