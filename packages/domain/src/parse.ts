/**
 * Values typed in spreadsheet cells (bulk uploads), parsed once, exactly, or refused with a reason.
 * Amounts: parseAmount in money.ts. Dates: here. Query and body dates of the API have their own schemas.
 */

import { detail, type Message, msg } from './messages.ts';
import type { ParseRefusal } from './money.ts';

export type CellDateResult = { ok: true; iso: string } | ParseRefusal;

/** The range a date typed in an upload may fall in (birth dates, hire dates). */
export const CELL_DATE_MIN = '1900-01-01';
export const CELL_DATE_MAX = '2099-12-31';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DD` when y-m-d is a day of the calendar, else null. */
function calendarDay(y: number, m: number, d: number): string | null {
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

/**
 * A date from a spreadsheet cell. A REAL date cell (ExcelJS gives a Date for a date-formatted cell)
 * is that day. Text must be `dd/mm/aaaa` (also `d/m/aaaa`, with `-` or `.`) or ISO `aaaa-mm-dd`, a
 * day of the calendar between 1900 and 2099. A bare number — `1980` typed as text, a plain number
 * cell, an Excel serial in a CSV — is never read as a date: Excel would have read `1980` as the
 * 2nd of June 1905. Two-digit years are refused (`01/05/15`: 1915 or 2015?).
 * `label` names the field in the message, e.g. "Fecha de nacimiento".
 */
export function parseCellDate(value: string | number | Date | null | undefined, label = 'Fecha'): CellDateResult {
  const refuse = (m: Message): CellDateResult => ({ ok: false, ...detail(m) });
  const bad = (shown: string) => refuse(msg('platform.cellDateInvalid', { label, value: shown }));
  const missing = () => refuse(msg('platform.cellDateMissing', { label: label.toLowerCase() }));
  if (value == null) return missing();
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return refuse(msg('platform.cellDateDamaged', { label }));
    const iso = value.toISOString().slice(0, 10);
    return inRange(iso) ? { ok: true, iso } : refuse(msg('platform.cellDateOutOfRange', { label, value: iso }));
  }
  const text = String(value).trim();
  if (text === '') return missing();
  let iso: string | null = null;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (m) iso = calendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
  else {
    m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d+)$/.exec(text);
    if (!m) return bad(text);
    if (m[4].length !== 4) return refuse(msg('platform.cellDateTwoDigitYear', { label, value: text }));
    iso = calendarDay(Number(m[4]), Number(m[3]), Number(m[1]));
  }
  if (!iso) return refuse(msg('platform.cellDateNotInCalendar', { label, value: text }));
  if (!inRange(iso)) return refuse(msg('platform.cellDateOutOfRange', { label, value: text }));
  return { ok: true, iso };
}

const inRange = (iso: string) => iso >= CELL_DATE_MIN && iso <= CELL_DATE_MAX;
