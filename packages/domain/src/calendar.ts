import { z } from 'zod';
import { dateSchema, isCalendarDate } from './fields.ts';
import { text, textWith } from './messages.ts';

/**
 * The business-day calendar of DOMAIN.md "Business days", for every year.
 *
 * What the law fixes by a rule is computed here, so every year is known in advance and nobody types it
 * each year: Holy Wednesday (half day), Holy Thursday, Friday and Saturday from Easter Sunday, and 30 June
 * moved per Decreto 19-2018. What the institution or a decree decides is the setting `calendar.holidays`
 * (effective-dated, settings.ts): the national holidays on a fixed date, the fixed half days, the
 * institution's local holiday and the extraordinary days declared by decree, each with its legal basis.
 */

// ─── Dates ─────────────────────────────────────────────────────────────────────────────────────────

const toUtc = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
};
const toIso = (d: Date) => d.toISOString().slice(0, 10);
const pad = (n: number) => String(n).padStart(2, '0');

/** `iso` plus `days` calendar days (negative goes back). */
export function addDays(iso: string, days: number): string {
  const d = toUtc(iso);
  d.setUTCDate(d.getUTCDate() + days);
  return toIso(d);
}

/** 0 = Sunday … 6 = Saturday. */
export const weekdayOf = (iso: string): number => toUtc(iso).getUTCDay();

// ─── Rules of law, computed ────────────────────────────────────────────────────────────────────────

/**
 * Easter Sunday of a Gregorian year (the anonymous algorithm of Meeus, Jones and Butcher), `YYYY-MM-DD`.
 * Valid from 1583; the application's dates are 1900–2100.
 */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * The day 30 June (Día del Ejército) is taken in `year`, per Decreto 19-2018: on a Monday it stays; on a
 * Tuesday or Wednesday it is taken the Monday before; on a Thursday to Sunday the Monday after.
 */
export function armyDay(year: number): string {
  const june30 = `${year}-06-30`;
  const weekday = weekdayOf(june30);
  // Monday 0 days, Tuesday −1, Wednesday −2, Thursday +4, Friday +3, Saturday +2, Sunday +1.
  const shift = [1, 0, -1, -2, 4, 3, 2][weekday];
  return addDays(june30, shift);
}

/**
 * The legal basis of the days the code computes, as screens and documents name it. Decreto 19-2018 reformed the
 * Ley que Promueve el Turismo Interno (Decreto 42-2010); since the Constitutional Court's ruling of 16 April 2020
 * it moves only 30 June.
 */
export const ARMY_DAY_BASIS = 'Decreto 19-2018 del Congreso de la República';
/** Article 127 names Holy Thursday, Friday and Saturday among the paid days off. */
export const HOLY_WEEK_BASIS = 'Código de Trabajo, artículo 127';

// ─── The setting's value ───────────────────────────────────────────────────────────────────────────

/** `MM-DD`, a day that exists in some year (29 February included). */
const monthDaySchema = z
  .string({ error: text('platform.calendarDayInvalid') })
  .regex(/^\d{2}-\d{2}$/, { error: text('platform.calendarDayInvalid') })
  .refine((v) => isCalendarDate(`2024-${v}`), { error: text('platform.calendarDayNotExists') });

const holidayName = z
  .string({ error: text('platform.holidayNameRequired') })
  .trim()
  .min(1, { error: text('platform.holidayNameRequired') })
  .max(80, { error: text('platform.holidayNameTooLong') });

const legalBasis = z
  .string({ error: text('platform.legalBasisRequired') })
  .trim()
  .min(3, { error: text('platform.legalBasisRequired') })
  .max(200, { error: text('platform.legalBasisTooLong') });

const yearlyDay = z.object({ day: monthDaySchema, name: holidayName });

/**
 * Decree days are a few a year; the bound keeps every run of days off far below the year that
 * `nextBusinessDay` searches, so no calendar an administrator can save makes a due date fail.
 */
const MAX_EXTRAORDINARY_PER_YEAR = 30;

/** Why 30 June is refused in each list of the value (the list named as a person names it). */
const armyDayRefusal = {
  fixed: 'platform.armyDayInFixed',
  halfDays: 'platform.armyDayInHalfDays',
  local: 'platform.armyDayInLocal',
} as const;

/**
 * The configurable part of the calendar (setting `calendar.holidays`):
 * - `fixed`: national holidays on the same date every year (1 Jan, 1 May, 15 Sep, 20 Oct, 1 Nov, 25 Dec);
 * - `halfDays`: half days on the same date every year (24 and 31 Dec): afternoon off, still business days;
 * - `local`: the institution's local holiday (15 August, the capital's patron day);
 * - `extraordinary`: days declared by decree, each on its date and with its legal basis.
 * Holy Week and 30 June are computed (above) and refused here, so they cannot be typed twice or wrong.
 */
export const businessCalendarSchema = z
  .object({
    fixed: z.array(yearlyDay, { error: text('platform.calendarFixedRequired') }).max(30),
    halfDays: z.array(yearlyDay, { error: text('platform.calendarHalfDaysRequired') }).max(10),
    local: z.array(yearlyDay, { error: text('platform.calendarLocalRequired') }).max(5),
    extraordinary: z
      .array(z.object({ date: dateSchema, name: holidayName, legalBasis }), {
        error: text('platform.calendarExtraordinaryRequired'),
      })
      .max(500),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    for (const list of ['fixed', 'halfDays', 'local'] as const) {
      c[list].forEach((h, i) => {
        if (h.day === '06-30') {
          ctx.addIssue({
            code: 'custom',
            path: [list, i, 'day'],
            message: text(armyDayRefusal[list]),
          });
        }
        if (seen.has(h.day)) {
          ctx.addIssue({
            code: 'custom',
            path: [list, i, 'day'],
            message: textWith('platform.calendarDayRepeated', { day: h.day }),
          });
        }
        seen.add(h.day);
      });
    }
    const dates = new Set<string>();
    const perYear = new Map<string, number>();
    c.extraordinary.forEach((h, i) => {
      const year = h.date.slice(0, 4);
      const n = (perYear.get(year) ?? 0) + 1;
      perYear.set(year, n);
      if (n === MAX_EXTRAORDINARY_PER_YEAR + 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['extraordinary', i, 'date'],
          // The catalogue's text says MAX_EXTRAORDINARY_PER_YEAR (30).
          message: textWith('platform.calendarTooManyExtraordinary', { year }),
        });
      }
      if (dates.has(h.date)) {
        ctx.addIssue({
          code: 'custom',
          path: ['extraordinary', i, 'date'],
          message: textWith('platform.calendarDateRepeated', { date: h.date }),
        });
      }
      dates.add(h.date);
    });
  })
  .transform((c) => ({
    fixed: [...c.fixed].sort((a, b) => a.day.localeCompare(b.day)),
    halfDays: [...c.halfDays].sort((a, b) => a.day.localeCompare(b.day)),
    local: [...c.local].sort((a, b) => a.day.localeCompare(b.day)),
    extraordinary: [...c.extraordinary].sort((a, b) => a.date.localeCompare(b.date)),
  }));
export type BusinessCalendar = z.output<typeof businessCalendarSchema>;
export type BusinessCalendarInput = z.input<typeof businessCalendarSchema>;

/** The value the seed installs (DOMAIN.md). */
export const initialBusinessCalendar: BusinessCalendar = {
  fixed: [
    { day: '01-01', name: 'Año Nuevo' },
    { day: '05-01', name: 'Día del Trabajo' },
    { day: '09-15', name: 'Día de la Independencia' },
    { day: '10-20', name: 'Día de la Revolución' },
    { day: '11-01', name: 'Día de Todos los Santos' },
    { day: '12-25', name: 'Navidad' },
  ],
  halfDays: [
    { day: '12-24', name: 'Nochebuena (medio día)' },
    { day: '12-31', name: 'Fin de año (medio día)' },
  ],
  local: [{ day: '08-15', name: 'Día de la Virgen de la Asunción (feriado local)' }],
  extraordinary: [],
};

// ─── The days of a year ────────────────────────────────────────────────────────────────────────────

/**
 * Where a day of the calendar comes from: a national holiday on a fixed date (setting), Holy Week
 * (computed from Easter), 30 June (computed per Decreto 19-2018), the local holiday (setting), a day
 * declared by decree (setting), a half day on a fixed date (setting) or Holy Wednesday (computed).
 */
export const calendarDaySources = [
  'national',
  'holyWeek',
  'armyDay',
  'local',
  'extraordinary',
  'halfDay',
  'holyWednesday',
] as const;
export type CalendarDaySource = (typeof calendarDaySources)[number];

export interface CalendarDay {
  date: string;
  name: string;
  /** A half day is a business day with the afternoon off; every other day of the list is a holiday. */
  halfDay: boolean;
  source: CalendarDaySource;
  /** True when the code computed the date (Holy Week, 30 June), false when the setting lists it. */
  computed: boolean;
  /** The decree of an extraordinary day; the law behind a computed day. */
  legalBasis?: string;
}

const yearOf = (iso: string) => Number(iso.slice(0, 4));

const yearCache = new WeakMap<BusinessCalendar, Map<number, Map<string, CalendarDay>>>();

function daysByDate(year: number, cal: BusinessCalendar): Map<string, CalendarDay> {
  let years = yearCache.get(cal);
  if (!years) {
    years = new Map();
    yearCache.set(cal, years);
  }
  const cached = years.get(year);
  if (cached) return cached;

  const out = new Map<string, CalendarDay>();
  // A holiday wins over a half day on the same date; the first holiday listed names a date.
  const put = (day: CalendarDay) => {
    const there = out.get(day.date);
    if (!there || (there.halfDay && !day.halfDay)) out.set(day.date, day);
  };
  const yearly = (md: string) => `${year}-${md}`;
  // 29 February exists only in leap years.
  const exists = (md: string) => {
    const [m, d] = md.split('-').map(Number);
    return new Date(Date.UTC(year, m - 1, d)).getUTCMonth() === m - 1;
  };
  const easter = easterSunday(year);
  const law = { computed: true, legalBasis: HOLY_WEEK_BASIS } as const;
  put({ date: addDays(easter, -3), name: 'Jueves Santo', halfDay: false, source: 'holyWeek', ...law });
  put({ date: addDays(easter, -2), name: 'Viernes Santo', halfDay: false, source: 'holyWeek', ...law });
  put({ date: addDays(easter, -1), name: 'Sábado de Gloria', halfDay: false, source: 'holyWeek', ...law });
  put({
    date: armyDay(year),
    name: 'Día del Ejército',
    halfDay: false,
    source: 'armyDay',
    computed: true,
    legalBasis: ARMY_DAY_BASIS,
  });
  for (const h of cal.fixed) {
    if (exists(h.day)) put({ date: yearly(h.day), name: h.name, halfDay: false, source: 'national', computed: false });
  }
  for (const h of cal.local) {
    if (exists(h.day)) put({ date: yearly(h.day), name: h.name, halfDay: false, source: 'local', computed: false });
  }
  for (const h of cal.extraordinary) {
    if (yearOf(h.date) === year) {
      put({ date: h.date, name: h.name, halfDay: false, source: 'extraordinary', computed: false, legalBasis: h.legalBasis });
    }
  }
  // Holy Wednesday's afternoon is the institution's practice for public servants (DOMAIN.md), not article 127.
  put({ date: addDays(easter, -4), name: 'Miércoles Santo (medio día)', halfDay: true, source: 'holyWednesday', computed: true });
  for (const h of cal.halfDays) {
    if (exists(h.day)) put({ date: yearly(h.day), name: h.name, halfDay: true, source: 'halfDay', computed: false });
  }

  // Only a small number of years is ever asked for one calendar; the bound keeps a long-lived value small.
  if (years.size > 300) years.clear();
  years.set(year, out);
  return out;
}

/** Every holiday and half day of `year`, in date order: what the settings screen previews. */
export function calendarOfYear(year: number, cal: BusinessCalendar): CalendarDay[] {
  return [...daysByDate(year, cal).values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** The holiday on `iso`, if any (its name); half days are not holidays. */
export function holidayOn(iso: string, cal: BusinessCalendar): string | null {
  const day = daysByDate(yearOf(iso), cal).get(iso);
  return day && !day.halfDay ? day.name : null;
}

/** The half day on `iso` (Holy Wednesday, 24 and 31 December…), if any: a business day with the afternoon off. */
export function halfDayOn(iso: string, cal: BusinessCalendar): string | null {
  const day = daysByDate(yearOf(iso), cal).get(iso);
  return day?.halfDay ? day.name : null;
}

/** Monday to Friday and not a holiday of the calendar. Half days count as business days. */
export function isBusinessDay(iso: string, cal: BusinessCalendar): boolean {
  const weekday = weekdayOf(iso);
  return weekday !== 0 && weekday !== 6 && holidayOn(iso, cal) === null;
}

/**
 * The first business day on or after `iso`: a due date that falls on a weekend or holiday moves here
 * (DOMAIN: "moved to the next business day").
 */
export function nextBusinessDay(iso: string, cal: BusinessCalendar): string {
  let d = iso;
  // A year has far fewer than 366 consecutive non-business days; the bound only guards a corrupt calendar.
  for (let i = 0; i < 366; i++, d = addDays(d, 1)) if (isBusinessDay(d, cal)) return d;
  throw new RangeError(`No hay días hábiles después de ${iso}.`);
}

/** The date `n` business days after `iso` (before it when `n` is negative); `n = 0` is `iso` itself. */
export function addBusinessDays(iso: string, n: number, cal: BusinessCalendar): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`Días no válidos: ${n}`);
  const step = n < 0 ? -1 : 1;
  let d = iso;
  for (let left = Math.abs(n); left > 0; ) {
    d = addDays(d, step);
    if (isBusinessDay(d, cal)) left -= 1;
  }
  return d;
}

// ─── The value before issue 25 ─────────────────────────────────────────────────────────────────────

/**
 * The calendar as it was stored until issue 25: fixed days (30 June among them), days of one year
 * (Holy Week typed per year) and half days. Read only to convert stored values.
 */
export const legacyBusinessCalendarSchema = z.object({
  fixed: z.array(z.object({ day: z.string(), name: z.string() })),
  dated: z.array(z.object({ date: z.string(), name: z.string() })),
  halfDays: z.array(z.object({ day: z.string(), name: z.string() })),
});
export type LegacyBusinessCalendar = z.infer<typeof legacyBusinessCalendarSchema>;

/** The legal basis given to a day of one year converted from the old calendar, which kept none. */
export const LEGACY_LEGAL_BASIS = 'No registrada (día ingresado en el calendario anterior)';

/**
 * The old value in the new shape, meaning what the law means: 30 June leaves the fixed days (computed
 * per Decreto 19-2018); days of one year that are the computed Holy Thursday, Friday or Saturday of their
 * year leave (computed from Easter), the others become extraordinary days with `LEGACY_LEGAL_BASIS`; the
 * half days stay; 15 August, if it was a fixed day, becomes the local holiday, and the local holiday is
 * 15 August (DOMAIN.md) when the old value had none, since it had no place for it.
 */
export function calendarFromLegacy(old: LegacyBusinessCalendar): BusinessCalendar {
  const localDay = initialBusinessCalendar.local[0];
  const fixedLocal = old.fixed.find((h) => h.day === localDay.day);
  const holyWeek = (date: string) => {
    const easter = easterSunday(yearOf(date));
    return [-3, -2, -1].some((n) => addDays(easter, n) === date);
  };
  return businessCalendarSchema.parse({
    fixed: old.fixed.filter((h) => h.day !== '06-30' && h.day !== localDay.day),
    halfDays: old.halfDays.filter((h) => h.day !== '06-30'),
    local: [fixedLocal ?? localDay].filter((h) => !old.halfDays.some((x) => x.day === h.day)),
    extraordinary: old.dated
      .filter((h) => isCalendarDate(h.date) && !holyWeek(h.date))
      .map((h) => ({ date: h.date, name: h.name, legalBasis: LEGACY_LEGAL_BASIS })),
  });
}
