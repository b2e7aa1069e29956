import {
  addDays,
  guatemalaToday,
  holidayOn,
  INITIAL_SETTINGS_FROM,
  initialBusinessCalendar,
  isBusinessDay,
  LEGACY_LEGAL_BASIS,
  nextBusinessDay,
} from '@aporta/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, settingValues } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { convertLegacyCalendars } from './calendar-conversion.ts';
import { settingsAt } from './service.ts';

const KEY = 'calendar.holidays';
let t: TestApp;
let admin: TestUser;
const today = guatemalaToday();

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({
    grants: [
      { resource: 'settings', action: 'READ', scope: 'ALL' },
      { resource: 'settings', action: 'UPDATE', scope: 'ALL' },
    ],
  });
});
afterAll(() => t.close());

const schedule = (payload: unknown) =>
  t.request({ method: 'POST', url: `/api/settings/${KEY}/values`, token: admin.token, payload: payload as object });
const calendarAt = async (date: string) => (await settingsAt(t.database.db, date)).values[KEY];

/** The first weekday on or after `iso` that the initial calendar counts as a business day. */
const businessDayFrom = (iso: string) => nextBusinessDay(iso, initialBusinessCalendar);

/** The calendar as it was stored before issue 25 (the old seed's value). */
const legacy = {
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

describe('the calendar seeded for every year (issue 25)', () => {
  it('a new installation holds the new shape; Holy Thursday 2028 and 15 August are holidays, 30 June moves', async () => {
    const cal = await calendarAt(today);
    expect(cal).toEqual(initialBusinessCalendar);
    expect(holidayOn('2028-04-13', cal)).toBe('Jueves Santo');
    expect(holidayOn('2031-08-15', cal)).toMatch(/feriado local/);
    expect(isBusinessDay('2026-06-30', cal)).toBe(true); // a Tuesday: taken on Monday 29 June
    expect(isBusinessDay('2026-06-29', cal)).toBe(false);
    const overview = await t.request({ method: 'GET', url: '/api/settings', token: admin.token });
    const item = overview.json().items.find((i: { key: string }) => i.key === KEY);
    expect(item.current.value).toEqual(initialBusinessCalendar);
  });
});

describe('converting a database seeded before issue 25', () => {
  it('converts every stored value in place, audited with the old value, once', async () => {
    const db = t.database.db;
    const [initialRow] = await db
      .select({ id: settingValues.id })
      .from(settingValues)
      .where(and(eq(settingValues.key, KEY), eq(settingValues.effectiveFrom, INITIAL_SETTINGS_FROM)));
    // The database as the old seed and an administrator left it: the old initial value, and a value
    // scheduled later with one more day of one year that is not Holy Week.
    await db.update(settingValues).set({ value: legacy }).where(eq(settingValues.id, initialRow.id));
    const later = addDays(today, 400);
    const [scheduledRow] = await db
      .insert(settingValues)
      .values({
        key: KEY,
        value: { ...legacy, dated: [...legacy.dated, { date: '2027-11-02', name: 'Asueto de difuntos' }] },
        effectiveFrom: later,
        reason: 'Asueto acordado',
      })
      .returning({ id: settingValues.id });
    // Before the conversion the old value cannot be read (the schema is the new one).
    await expect(settingsAt(db, today)).rejects.toThrow(/calendar\.holidays tiene guardado un valor no válido/);

    expect(await convertLegacyCalendars(db)).toBe(2);
    expect(await calendarAt(today)).toEqual(initialBusinessCalendar);
    const converted = await calendarAt(later);
    expect(converted.extraordinary).toEqual([{ date: '2027-11-02', name: 'Asueto de difuntos', legalBasis: LEGACY_LEGAL_BASIS }]);
    expect(holidayOn('2029-03-29', converted)).toBe('Jueves Santo');
    // The effective dates, reasons and history stay as they were.
    const rows = await db.select().from(settingValues).where(eq(settingValues.key, KEY)).orderBy(settingValues.id);
    expect(rows.map((r) => [r.id, r.effectiveFrom])).toEqual([
      [initialRow.id, INITIAL_SETTINGS_FROM],
      [scheduledRow.id, later],
    ]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, 'SETTING_CONVERT')).orderBy(desc(auditLog.id));
    expect(audits).toHaveLength(2);
    expect(audits[1]).toMatchObject({
      actorId: null,
      entityType: 'setting',
      entityId: KEY,
      before: { id: initialRow.id, value: legacy },
      after: { id: initialRow.id, value: initialBusinessCalendar },
    });
    // Run again (every start): nothing left to convert.
    expect(await convertLegacyCalendars(db)).toBe(0);
    await db.delete(settingValues).where(eq(settingValues.id, scheduledRow.id));
  });
});

describe('a local holiday and a day declared by decree count from their effective date only', () => {
  const from = addDays(today, 30);
  // A decree day and a new local holiday on business days after the value takes effect.
  const decreeDay = businessDayFrom(addDays(today, 45));
  let localDate = businessDayFrom(addDays(today, 60));
  while (localDate.slice(5) === decreeDay.slice(5) || localDate.slice(5) === '06-30')
    localDate = businessDayFrom(addDays(localDate, 1));
  const value = {
    ...initialBusinessCalendar,
    local: [{ day: localDate.slice(5), name: 'Feria patronal de la sede' }],
    extraordinary: [{ date: decreeDay, name: 'Asueto nacional', legalBasis: 'Decreto 12-2026 del Congreso de la República' }],
  };

  it('is scheduled from a date with its legal basis, and read only from that date', async () => {
    const res = await schedule({ value, effectiveFrom: from, reason: 'Publicación del decreto en el Diario Oficial' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().value.extraordinary[0].legalBasis).toBe('Decreto 12-2026 del Congreso de la República');

    const before = await calendarAt(addDays(from, -1));
    expect(isBusinessDay(decreeDay, before)).toBe(true);
    expect(isBusinessDay(localDate, before)).toBe(true);
    expect(nextBusinessDay(decreeDay, before)).toBe(decreeDay);

    const after = await calendarAt(from);
    expect(holidayOn(decreeDay, after)).toBe('Asueto nacional');
    expect(holidayOn(localDate, after)).toBe('Feria patronal de la sede');
    expect(nextBusinessDay(decreeDay, after) > decreeDay).toBe(true);
    // 15 August stopped being the local holiday with this value.
    expect(holidayOn(`${Number(from.slice(0, 4)) + 1}-08-15`, after)).toBeNull();
  });

  it('refuses 30 June typed as a day, an extraordinary day without legal basis and the old shape, naming the field', async () => {
    const bad = async (v: unknown) => {
      const res = await schedule({ value: v, effectiveFrom: addDays(from, 1), reason: 'Motivo suficiente' });
      expect(res.statusCode, res.body).toBe(400);
      return res.json().error.details as { path: string; message: string }[];
    };
    expect(await bad({ ...value, fixed: [...value.fixed, { day: '06-30', name: 'Día del Ejército' }] })).toEqual([
      {
        path: 'value.fixed.6.day',
        message:
          'Feriados y medios días: El 30 de junio no se ingresa en feriados nacionales de fecha fija: se calcula cada año según el Decreto 19-2018 del Congreso de la República.',
        key: 'settings.settingProblem',
        params: {
          setting: 'Feriados y medios días',
          problem:
            'El 30 de junio no se ingresa en feriados nacionales de fecha fija: se calcula cada año según el Decreto 19-2018 del Congreso de la República.',
        },
      },
    ]);
    expect(await bad({ ...value, extraordinary: [{ date: decreeDay, name: 'Asueto' }] })).toEqual([
      {
        path: 'value.extraordinary.0.legalBasis',
        message: 'Feriados y medios días: Escriba la base legal (decreto o acuerdo que lo declara).',
        key: 'settings.settingProblem',
        params: { setting: 'Feriados y medios días', problem: 'Escriba la base legal (decreto o acuerdo que lo declara).' },
      },
    ]);
    expect((await bad(legacy)).map((d) => d.path)).toEqual(['value.local', 'value.extraordinary']);
  });
});
