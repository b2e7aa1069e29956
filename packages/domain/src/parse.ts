/**
 * Values typed in spreadsheet cells (bulk uploads), parsed once, exactly, or refused with a reason.
 * Amounts: parseAmount in money.ts. Dates: here. Query and body dates of the API have their own schemas.
 */

export type CellDateResult = { ok: true; iso: string } | { ok: false; message: string };

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

const HINT = 'escriba dd/mm/aaaa';

/**
 * A date from a spreadsheet cell. A REAL date cell (ExcelJS gives a Date for a date-formatted cell)
 * is that day. Text must be `dd/mm/aaaa` (also `d/m/aaaa`, with `-` or `.`) or ISO `aaaa-mm-dd`, a
 * day of the calendar between 1900 and 2099. A bare number — `1980` typed as text, a plain number
 * cell, an Excel serial in a CSV — is never read as a date: Excel would have read `1980` as the
 * 2nd of June 1905. Two-digit years are refused (`01/05/15`: 1915 or 2015?).
 * `label` names the field in the message, e.g. "Fecha de nacimiento".
 */
export function parseCellDate(value: string | number | Date | null | undefined, label = 'Fecha'): CellDateResult {
  const bad = (shown: string, why = HINT): CellDateResult => ({
    ok: false,
    message: `${label} no válida: "${shown}" (${why}).`,
  });
  if (value == null) return { ok: false, message: `Falta ${label.toLowerCase()}.` };
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return bad('fecha de Excel dañada');
    const iso = value.toISOString().slice(0, 10);
    return inRange(iso) ? { ok: true, iso } : bad(iso, `fuera del rango ${rangeText}`);
  }
  const text = String(value).trim();
  if (text === '') return { ok: false, message: `Falta ${label.toLowerCase()}.` };
  let iso: string | null = null;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (m) iso = calendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
  else {
    m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d+)$/.exec(text);
    if (!m) return bad(text);
    if (m[4].length !== 4) return bad(text, 'el año con cuatro cifras: dd/mm/aaaa');
    iso = calendarDay(Number(m[4]), Number(m[3]), Number(m[1]));
  }
  if (!iso) return bad(text, 'esa fecha no existe en el calendario');
  if (!inRange(iso)) return bad(text, `fuera del rango ${rangeText}`);
  return { ok: true, iso };
}

const rangeText = '01/01/1900 – 31/12/2099';
const inRange = (iso: string) => iso >= CELL_DATE_MIN && iso <= CELL_DATE_MAX;
