import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRate } from './money.ts';
import {
  addBusinessDays,
  addDays,
  type BusinessCalendar,
  describeSettingValue,
  guatemalaToday,
  holidayOn,
  initialSettings,
  isBusinessDay,
  nextBusinessDay,
  paymentDueDate,
  type SettingsAt,
  settingDefinitions,
  settingKeys,
  settingsUsed,
  settingsUsedSchema,
  settingValueSchema,
} from './settings.ts';

const initial = initialSettings();
const cal = initial['calendar.holidays'] as BusinessCalendar;

describe('the settings catalogue (issue 10)', () => {
  it('holds the initial values of DOMAIN.md, each valid for its own schema', () => {
    for (const key of settingKeys) {
      const d = settingDefinitions[key];
      expect(d.schema.safeParse(d.initial).success, key).toBe(true);
      expect(d.label.length).toBeGreaterThan(3);
      expect(d.description.length).toBeGreaterThan(10);
    }
    expect(initial['contributions.employeeRate']).toBe('7.0000');
    expect(initial['contributions.employerRate']).toBe('7.0000');
    expect(initial['contributions.subjectBudgetLines']).toEqual(['011', '021', '022', '031', '035', '036']);
    expect(initial['paymentOrders.dueDay']).toBe(20);
    expect(initial['paymentOrders.annualInterestRate']).toBe('12.0000');
    expect(initial['agreements.adminChargeRate']).toBe('5.0000');
    expect(initial['agreements.downPaymentRate']).toBe('10.0000');
    expect(initial['agreements.maxInstalments']).toBe(36);
    expect(initial['agreements.overdueInstalmentsForDefault']).toBe(2);
    expect(initial['agreements.maxRestructurings']).toBe(2);
    expect(initial['survival.windowDaysAfterBirthday']).toBe(30);
    expect(initial['survival.graceDays']).toBe(30);
    expect(initial['pensions.orphanEndAge']).toBe(18);
    expect(initial['pensions.orphanStudyingEndAge']).toBe(25);
    expect(initial['payments.excessPolicy']).toBe('REFUSE');
  });

  it('validates a scheduled value by its key, messages naming the setting', () => {
    const rate = settingValueSchema('contributions.employeeRate');
    expect(rate.parse('7.5')).toBe('7.5000');
    expect(rate.parse(8)).toBe('8.0000');
    expect(rate.safeParse('7,5').error?.issues[0].message).toMatch(/^Cuota laboral: El porcentaje "7,5" usa coma decimal/);
    expect(rate.safeParse('100.5').error?.issues[0].message).toMatch(/^Cuota laboral: .*supera el máximo de 100.00 %/);
    expect(settingValueSchema('paymentOrders.dueDay').safeParse(31).error?.issues[0].message).toBe(
      'Día de vencimiento: El máximo es 28.',
    );
    expect(settingValueSchema('contributions.subjectBudgetLines').parse(['036', '011'])).toEqual(['011', '036']);
    expect(settingValueSchema('contributions.subjectBudgetLines').safeParse(['11']).success).toBe(false);
    expect(settingValueSchema('contributions.subjectBudgetLines').safeParse(['011', '011']).success).toBe(false);
    expect(settingValueSchema('payments.excessPolicy').safeParse('KEEP').success).toBe(false);
    const calendar = settingValueSchema('calendar.holidays');
    expect(calendar.safeParse({ ...cal, fixed: [...cal.fixed, { day: '02-30', name: 'x' }] }).success).toBe(false);
    expect(calendar.safeParse({ ...cal, local: [...cal.local, { day: '01-01', name: 'x' }] }).success).toBe(false);
  });

  it('describes values in words', () => {
    expect(describeSettingValue('contributions.employeeRate', '7.0000')).toBe('7.00 %');
    expect(describeSettingValue('paymentOrders.annualInterestRate', '12.0000')).toBe('12.00 % anual');
    expect(describeSettingValue('agreements.maxInstalments', 36)).toBe('36 cuotas');
    expect(describeSettingValue('contributions.subjectBudgetLines', ['011', '022'])).toBe('011, 022');
    expect(describeSettingValue('calendar.holidays', cal)).toBe(
      '6 feriados nacionales fijos, 1 local, 0 extraordinarios, 2 medios días; Semana Santa y 30 de junio calculados',
    );
  });

  it('a calculation records the values it used and when they took effect', () => {
    const at: SettingsAt = {
      asOf: '2026-05-31',
      values: { ...initial, 'contributions.employeeRate': '7.5000' },
      effectiveFrom: Object.fromEntries(settingKeys.map((k) => [k, '2000-01-01'])) as SettingsAt['effectiveFrom'],
    };
    at.effectiveFrom['contributions.employeeRate'] = '2026-05-01';
    const used = settingsUsed(at, ['contributions.employeeRate']);
    expect(used).toEqual({
      asOf: '2026-05-31',
      values: { 'contributions.employeeRate': { value: '7.5000', from: '2026-05-01' } },
    });
    expect(settingsUsedSchema.parse(JSON.parse(JSON.stringify(used)))).toEqual(used);
    expect(applyRate(1_000_000n, used.values['contributions.employeeRate'].value as string)).toBe(75_000n);
  });
});

describe('business days (issue 10)', () => {
  it('knows weekends, the fixed holidays, Holy Week and the half days', () => {
    expect(isBusinessDay('2026-04-01', cal)).toBe(true); // Holy Wednesday
    expect(isBusinessDay('2026-04-02', cal)).toBe(false); // Holy Thursday 2026
    expect(isBusinessDay('2026-04-03', cal)).toBe(false); // Holy Friday 2026
    expect(isBusinessDay('2027-03-25', cal)).toBe(false);
    expect(isBusinessDay('2027-04-01', cal)).toBe(true); // a Thursday after Easter 2027
    expect(isBusinessDay('2026-09-15', cal)).toBe(false); // Tuesday, Independence
    expect(isBusinessDay('2026-12-24', cal)).toBe(true); // half day counts
    expect(isBusinessDay('2026-12-31', cal)).toBe(true);
    expect(isBusinessDay('2026-11-21', cal)).toBe(false); // Saturday
    expect(isBusinessDay('2026-11-22', cal)).toBe(false); // Sunday
    expect(holidayOn('2026-10-20', cal)).toBe('Día de la Revolución');
    expect(holidayOn('2026-12-24', cal)).toBeNull();
  });

  it('moves a date to the next business day, itself when it is one', () => {
    expect(nextBusinessDay('2026-04-02', cal)).toBe('2026-04-06'); // Thu, Fri holidays, then the weekend
    expect(nextBusinessDay('2026-04-06', cal)).toBe('2026-04-06');
    expect(nextBusinessDay('2026-12-25', cal)).toBe('2026-12-28'); // Friday Christmas → Monday
    expect(nextBusinessDay('2027-01-01', cal)).toBe('2027-01-04');
  });

  it('adds business days forwards and backwards', () => {
    expect(addBusinessDays('2026-04-01', 1, cal)).toBe('2026-04-06');
    expect(addBusinessDays('2026-04-06', -1, cal)).toBe('2026-04-01');
    expect(addBusinessDays('2026-11-20', 0, cal)).toBe('2026-11-20');
    expect(addBusinessDays('2026-11-20', 5, cal)).toBe('2026-11-27');
  });

  it('property: n business days later is a business day, and going back n returns to a business start', () => {
    const day = fc.integer({ min: 0, max: 3650 }).map((n) => addDays('2024-01-01', n));
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 60 }), (d, n) => {
        const start = nextBusinessDay(d, cal);
        const later = addBusinessDays(start, n, cal);
        expect(isBusinessDay(later, cal)).toBe(true);
        expect(later > start).toBe(true);
        expect(addBusinessDays(later, -n, cal)).toBe(start);
      }),
    );
  });

  it('a payment order of a period falls due on the configured day of the next month, moved to a business day', () => {
    expect(paymentDueDate('2026-03', initial)).toBe('2026-04-20'); // Monday
    expect(paymentDueDate('2026-05', initial)).toBe('2026-06-22'); // 20 June 2026 is a Saturday
    expect(paymentDueDate('2026-12', initial)).toBe('2027-01-20');
    expect(paymentDueDate('2026-08', { ...initial, 'paymentOrders.dueDay': 15 })).toBe('2026-09-16'); // 15 September: Independence
  });
});

describe('today in Guatemala', () => {
  it('is the calendar day at UTC−6, whatever the server zone', () => {
    expect(guatemalaToday(new Date('2026-11-24T05:59:00Z'))).toBe('2026-11-23');
    expect(guatemalaToday(new Date('2026-11-24T06:00:00Z'))).toBe('2026-11-24');
  });
});
