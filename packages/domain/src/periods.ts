/**
 * Calendar arithmetic on periods (`AAAA-MM`) and ISO days (`AAAA-MM-DD`), shared by every module that
 * works month by month (planillas, pensions, payment orders). Text in, text out: no time zones.
 */

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The period `n` months after (`n` > 0) or before (`n` < 0) `period`. */
export function addMonths(period: string, n: number): string {
  const [y, m] = period.split('-').map(Number);
  const t = y * 12 + (m - 1) + n;
  return `${pad(Math.floor(t / 12), 4)}-${pad((t % 12) + 1)}`;
}

/** The period before `period` (`2026-01` → `2025-12`). */
export const previousPeriod = (period: string): string => addMonths(period, -1);

/** The period after `period`. */
export const nextPeriod = (period: string): string => addMonths(period, 1);

/** Every period from `from` to `to`, both included (empty when `from` is after `to`). */
export function periodsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let p = from; p <= to; p = nextPeriod(p)) out.push(p);
  return out;
}

/** The period of an ISO day (`2026-03-15` → `2026-03`). */
export const periodOf = (isoDay: string): string => isoDay.slice(0, 7);

/** Days in the month of `period`. */
export function daysInMonth(period: string): number {
  const [y, m] = period.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The first day of `period`. */
export const periodStart = (period: string): string => `${period}-01`;

/** The last day of `period`. */
export const periodEnd = (period: string): string => `${period}-${pad(daysInMonth(period))}`;

/** Whole days from `a` to `b` (`b` − `a`). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** `03/2026`, as the UI writes a period. */
export const formatPeriod = (period: string): string => `${period.slice(5, 7)}/${period.slice(0, 4)}`;

/** `23/11/2026`, as the UI writes an ISO day (`2026-11-23`). */
export const formatDay = (isoDay: string): string => isoDay.split('-').reverse().join('/');
