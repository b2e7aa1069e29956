import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  armyDay,
  type BusinessCalendar,
  businessCalendarSchema,
  calendarFromLegacy,
  calendarOfYear,
  easterSunday,
  halfDayOn,
  holidayOn,
  initialBusinessCalendar,
  isBusinessDay,
  LEGACY_LEGAL_BASIS,
  nextBusinessDay,
} from './calendar.ts';
import { describeSettingValue, initialSettings, paymentDueDate } from './settings.ts';

const cal = initialBusinessCalendar;

// ─── Independent references (nothing here calls the code under test) ─────────────────────────────

/** Easter Sunday by Gauss's algorithm with its two exceptions (the code uses Meeus/Jones/Butcher). */
function gaussEaster(year: number): string {
  const k = Math.floor(year / 100);
  const m = (15 + k - Math.floor((13 + 8 * k) / 25) - Math.floor(k / 4)) % 30;
  const n = (4 + k - Math.floor(k / 4)) % 7;
  const a = year % 19;
  const b = year % 4;
  const c = year % 7;
  const d = (19 * a + m) % 30;
  const e = (2 * b + 4 * c + 6 * d + n) % 7;
  let month = 3;
  let day = 22 + d + e;
  if (day > 31) {
    month = 4;
    day = d + e - 9;
  }
  if (month === 4 && day === 26) day = 19;
  if (month === 4 && day === 25 && d === 28 && e === 6 && (11 * m + 11) % 30 < 19) day = 18;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Published Easter dates, a sample that includes both of Gauss's exceptions (2049, 2076) and the latest (2038). */
const KNOWN_EASTER: Record<number, string> = {
  2000: '2000-04-23',
  2008: '2008-03-23',
  2011: '2011-04-24',
  2019: '2019-04-21',
  2024: '2024-03-31',
  2025: '2025-04-20',
  2026: '2026-04-05',
  2027: '2027-03-28',
  2028: '2028-04-16',
  2029: '2029-04-01',
  2030: '2030-04-21',
  2031: '2031-04-13',
  2032: '2032-03-28',
  2038: '2038-04-25',
  2049: '2049-04-18',
  2076: '2076-04-19',
  2100: '2100-03-28',
};

const DAY_MS = 86_400_000;
const ms = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const shift = (d: string, n: number) => iso(ms(d) + n * DAY_MS);
const weekday = (d: string) => new Date(ms(d)).getUTCDay();

/** 30 June as Decreto 19-2018 moves it, written out weekday by weekday. */
function referenceArmyDay(year: number): string {
  switch (weekday(`${year}-06-30`)) {
    case 1:
      return `${year}-06-30`; // Monday: stays
    case 2:
      return `${year}-06-29`; // Tuesday: the Monday before
    case 3:
      return `${year}-06-28`; // Wednesday: the Monday before
    case 4:
      return `${year}-07-04`; // Thursday: the Monday after
    case 5:
      return `${year}-07-03`;
    case 6:
      return `${year}-07-02`;
    default:
      return `${year}-07-01`; // Sunday: the Monday after
  }
}

/** The holidays of DOMAIN.md "Business days" for the initial setting, typed straight from the text. */
function referenceHolidays(years: number[]): Set<string> {
  const out = new Set<string>();
  for (const y of years) {
    for (const md of ['01-01', '05-01', '08-15', '09-15', '10-20', '11-01', '12-25']) out.add(`${y}-${md}`);
    const easter = KNOWN_EASTER[y];
    for (const n of [-3, -2, -1]) out.add(shift(easter, n));
    out.add(referenceArmyDay(y));
  }
  return out;
}

function referenceNextBusinessDay(d: string, holidays: Set<string>): string {
  let day = d;
  while (weekday(day) === 0 || weekday(day) === 6 || holidays.has(day)) day = shift(day, 1);
  return day;
}

// ─── Tests ──────────────────────────────────────────────────────────────────────────────────────────

describe('Easter and Holy Week for every year (issue 25)', () => {
  it('Easter Sunday matches the published dates of a sample', () => {
    for (const [year, date] of Object.entries(KNOWN_EASTER)) expect(easterSunday(Number(year)), year).toBe(date);
    for (const [year, date] of Object.entries(KNOWN_EASTER)) expect(gaussEaster(Number(year)), `gauss ${year}`).toBe(date);
  });

  it('property over 2000–2100: Easter equals Gauss, and Holy Week is computed from it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2100 }), (year) => {
        const easter = gaussEaster(year);
        expect(easterSunday(year)).toBe(easter);
        expect(weekday(easter)).toBe(0);
        const [wed, thu, fri, sat] = [-4, -3, -2, -1].map((n) => shift(easter, n));
        expect(holidayOn(thu, cal)).toBe('Jueves Santo');
        expect(holidayOn(fri, cal)).toBe('Viernes Santo');
        expect(holidayOn(sat, cal)).toBe('Sábado de Gloria');
        expect(isBusinessDay(thu, cal)).toBe(false);
        expect(isBusinessDay(fri, cal)).toBe(false);
        // Holy Wednesday: afternoon off, still a business day.
        expect(isBusinessDay(wed, cal)).toBe(true);
        expect(halfDayOn(wed, cal)).toBe('Miércoles Santo (medio día)');
        expect(holidayOn(wed, cal)).toBeNull();
        // Easter Monday (at the latest 26 April) is the next business day.
        expect(nextBusinessDay(thu, cal)).toBe(shift(easter, 1));
      }),
      { numRuns: 500 },
    );
    // And every year of the range, not only those drawn.
    for (let year = 2000; year <= 2100; year++) expect(easterSunday(year), String(year)).toBe(gaussEaster(year));
  });
});

describe('30 June per Decreto 19-2018 (issue 25)', () => {
  it('is moved for every weekday it can fall on', () => {
    const byWeekday = new Map<number, number>();
    for (let year = 2000; year <= 2100 && byWeekday.size < 7; year++) {
      const w = weekday(`${year}-06-30`);
      if (!byWeekday.has(w)) byWeekday.set(w, year);
    }
    expect(byWeekday.size).toBe(7);
    const expected: Record<number, string> = {
      1: '06-30', // Monday
      2: '06-29', // Tuesday → Monday before
      3: '06-28', // Wednesday → Monday before
      4: '07-04', // Thursday → Monday after
      5: '07-03',
      6: '07-02',
      0: '07-01', // Sunday → Monday after
    };
    for (const [w, year] of byWeekday) {
      const day = `${year}-${expected[w]}`;
      expect(armyDay(year), `${year} (weekday ${w})`).toBe(day);
      expect(weekday(day)).toBe(1);
      expect(holidayOn(day, cal)).toBe('Día del Ejército');
      expect(isBusinessDay(day, cal)).toBe(false);
      // 30 June itself is then an ordinary day: a business day from Monday to Friday.
      if (w !== 1) expect(holidayOn(`${year}-06-30`, cal)).toBeNull();
      if (w >= 2 && w <= 5) expect(isBusinessDay(`${year}-06-30`, cal)).toBe(true);
    }
    // 2026: 30 June is a Tuesday, taken on Monday 29 June.
    expect(armyDay(2026)).toBe('2026-06-29');
    expect(isBusinessDay('2026-06-30', cal)).toBe(true);
  });

  it('property over 2000–2100: always the Monday of the rule, and 1 May and 20 October never move', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2100 }), (year) => {
        expect(armyDay(year)).toBe(referenceArmyDay(year));
        expect(holidayOn(`${year}-05-01`, cal)).toBe('Día del Trabajo');
        expect(holidayOn(`${year}-10-20`, cal)).toBe('Día de la Revolución');
      }),
      { numRuns: 300 },
    );
  });
});

describe('next business day over every day of 2024–2031 (issue 25)', () => {
  it('equals a straightforward reference built from DOMAIN.md, day by day', () => {
    const years = [2024, 2025, 2026, 2027, 2028, 2029, 2030, 2031];
    const holidays = referenceHolidays([...years, 2032]);
    const wrong: string[] = [];
    for (let d = '2024-01-01'; d <= '2031-12-31'; d = shift(d, 1)) {
      const expected = referenceNextBusinessDay(d, holidays);
      const got = nextBusinessDay(d, cal);
      if (got !== expected) wrong.push(`${d}: ${got} ≠ ${expected}`);
      expect(isBusinessDay(d, cal)).toBe(expected === d);
    }
    expect(wrong).toEqual([]);
  });

  it('a payment order due on Holy Thursday 2028 or on 15 August moves to the next business day', () => {
    const s = initialSettings();
    // Period 2028-03, due 13 April 2028 (Holy Thursday) → Monday 17 April.
    expect(paymentDueDate('2028-03', { ...s, 'paymentOrders.dueDay': 13 })).toBe('2028-04-17');
    // Period 2028-07, due 15 August 2028 (a Tuesday, the local holiday) → 16 August.
    expect(paymentDueDate('2028-07', { ...s, 'paymentOrders.dueDay': 15 })).toBe('2028-08-16');
    expect(addBusinessDays('2028-04-12', 1, cal)).toBe('2028-04-17');
  });
});

describe('what the setting holds (issue 25)', () => {
  const decree = {
    date: '2027-01-14',
    name: 'Asueto por toma de posesión',
    legalBasis: 'Decreto 1-2027 del Congreso de la República',
  };
  const withDecree: BusinessCalendar = businessCalendarSchema.parse({ ...cal, extraordinary: [decree] });

  it('a day declared by decree is a holiday on its date only, with its legal basis', () => {
    expect(isBusinessDay('2027-01-14', cal)).toBe(true);
    expect(isBusinessDay('2027-01-14', withDecree)).toBe(false);
    expect(holidayOn('2027-01-14', withDecree)).toBe(decree.name);
    expect(isBusinessDay('2028-01-14', withDecree)).toBe(true);
    expect(nextBusinessDay('2027-01-14', withDecree)).toBe('2027-01-15');
    const day = calendarOfYear(2027, withDecree).find((d) => d.date === '2027-01-14');
    expect(day).toMatchObject({ source: 'extraordinary', computed: false, legalBasis: decree.legalBasis, halfDay: false });
  });

  it('the local holiday is a setting: without it, 15 August is a business day', () => {
    expect(holidayOn('2028-08-15', cal)).toBe('Día de la Virgen de la Asunción (feriado local)');
    const elsewhere = businessCalendarSchema.parse({ ...cal, local: [{ day: '06-24', name: 'Feria patronal' }] });
    expect(isBusinessDay('2028-08-15', elsewhere)).toBe(true);
    expect(isBusinessDay('2027-06-24', elsewhere)).toBe(false);
  });

  it('lists the days of a chosen year, computed ones marked, in date order', () => {
    const days = calendarOfYear(2028, cal);
    expect(days.map((d) => [d.date, d.source, d.halfDay])).toEqual([
      ['2028-01-01', 'national', false],
      ['2028-04-12', 'holyWednesday', true],
      ['2028-04-13', 'holyWeek', false],
      ['2028-04-14', 'holyWeek', false],
      ['2028-04-15', 'holyWeek', false],
      ['2028-05-01', 'national', false],
      ['2028-07-03', 'armyDay', false], // 30 June 2028 is a Friday
      ['2028-08-15', 'local', false],
      ['2028-09-15', 'national', false],
      ['2028-10-20', 'national', false],
      ['2028-11-01', 'national', false],
      ['2028-12-24', 'halfDay', true],
      ['2028-12-25', 'national', false],
      ['2028-12-31', 'halfDay', true],
    ]);
    expect(days.filter((d) => d.computed).map((d) => d.source)).toEqual([
      'holyWednesday',
      'holyWeek',
      'holyWeek',
      'holyWeek',
      'armyDay',
    ]);
  });

  it('refuses 30 June typed as a day, repeated days and an extraordinary day without legal basis', () => {
    const bad = (v: unknown) => businessCalendarSchema.safeParse(v).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(bad({ ...cal, fixed: [...cal.fixed, { day: '06-30', name: 'Día del Ejército' }] })).toEqual([
      'fixed.6.day: El 30 de junio no se ingresa en feriados nacionales de fecha fija: se calcula cada año según el Decreto 19-2018 del Congreso de la República.',
    ]);
    expect(bad({ ...cal, local: [{ day: '12-25', name: 'Otro' }] })?.[0]).toBe(
      'local.0.day: El día 12-25 está repetido en el calendario.',
    );
    expect(bad({ ...cal, extraordinary: [{ date: '2027-01-14', name: 'Asueto' }] })?.[0]).toMatch(
      /^extraordinary\.0\.legalBasis: /,
    );
    expect(bad({ ...cal, extraordinary: [{ date: '2027-01-14', name: 'Asueto', legalBasis: '  ' }] })?.[0]).toBe(
      'extraordinary.0.legalBasis: Escriba la base legal (decreto o acuerdo que lo declara).',
    );
    expect(bad({ ...cal, extraordinary: [decree, decree] })?.[0]).toBe(
      'extraordinary.1.date: La fecha 14/01/2027 está repetida en los días extraordinarios.',
    );
    expect(bad({ ...cal, fixed: [{ day: '02-30', name: 'x' }] })?.[0]).toBe('fixed.0.day: Ese día no existe.');
    const many = Array.from({ length: 31 }, (_, i) => ({
      date: shift('2027-03-01', i),
      name: 'Asueto',
      legalBasis: 'Decreto 9-2027',
    }));
    expect(bad({ ...cal, extraordinary: many })).toEqual(['extraordinary.30.date: Hay más de 30 días extraordinarios en 2027.']);
    expect(businessCalendarSchema.safeParse({ ...cal, extraordinary: many.slice(0, 30) }).success).toBe(true);
    // The old shape is not a value any more.
    expect(businessCalendarSchema.safeParse({ fixed: [], dated: [], halfDays: [] }).success).toBe(false);
  });

  it('describes the value in words', () => {
    expect(describeSettingValue('calendar.holidays', withDecree)).toBe(
      '6 feriados nacionales fijos, 1 local, 1 extraordinarios, 2 medios días; Semana Santa y 30 de junio calculados',
    );
  });
});

describe('converting the calendar stored before issue 25', () => {
  const old = {
    fixed: [
      { day: '01-01', name: 'Año Nuevo' },
      { day: '05-01', name: 'Día del Trabajo' },
      { day: '06-30', name: 'Día del Ejército' },
      { day: '09-15', name: 'Día de la Independencia' },
      { day: '10-20', name: 'Día de la Revolución' },
      { day: '11-01', name: 'Día de Todos los Santos' },
      { day: '12-25', name: 'Navidad' },
    ],
    dated: [
      { date: '2026-04-02', name: 'Jueves Santo' },
      { date: '2026-04-03', name: 'Viernes Santo' },
      { date: '2027-03-25', name: 'Jueves Santo' },
      { date: '2027-03-26', name: 'Viernes Santo' },
    ],
    halfDays: [
      { day: '12-24', name: 'Nochebuena (medio día)' },
      { day: '12-31', name: 'Fin de año (medio día)' },
    ],
  };

  it('the old initial value becomes the new initial value (Holy Week and 30 June now computed, 15 August added)', () => {
    expect(calendarFromLegacy(old)).toEqual(initialBusinessCalendar);
  });

  it('a day of one year that is not Holy Week is kept as an extraordinary day; 15 August typed as fixed becomes the local holiday', () => {
    const converted = calendarFromLegacy({
      ...old,
      fixed: [...old.fixed, { day: '08-15', name: 'Asunción' }],
      dated: [...old.dated, { date: '2026-11-02', name: 'Asueto' }],
    });
    expect(converted.extraordinary).toEqual([{ date: '2026-11-02', name: 'Asueto', legalBasis: LEGACY_LEGAL_BASIS }]);
    expect(converted.local).toEqual([{ day: '08-15', name: 'Asunción' }]);
    expect(converted.fixed.map((h) => h.day)).toEqual(['01-01', '05-01', '09-15', '10-20', '11-01', '12-25']);
  });
});
