import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeCui } from './cui.ts';
import {
  addMonths,
  ageOn,
  amountOn,
  beneficiaryListSchema,
  birthdayIn,
  daysInMonth,
  exclusionMessage,
  monthlyPayable,
  nextSurvivalDue,
  orphanEndDate,
  pensionEligibility,
  pensionInputSchema,
  pensionMachine,
  periodsBetween,
  prorate,
  sharesExceed100,
  survivalCheckInputSchema,
  survivalStatus,
  survivalWindow,
  suspendIfDueBefore,
} from './pensions.ts';
import { addDays, initialSettings } from './settings.ts';
import { findTransition } from './state-machine.ts';

const s = initialSettings();
const isoDate = fc
  .date({ min: new Date('1930-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('pension state machine', () => {
  it('suspends and ends with a reason; reactivates from SUSPENDIDA only', () => {
    expect(findTransition(pensionMachine, 'ACTIVA', 'SUSPENDIDA')?.commentRequired).toBe(true);
    expect(findTransition(pensionMachine, 'SUSPENDIDA', 'ACTIVA')?.key).toBe('PENSION_REACTIVATE');
    expect(findTransition(pensionMachine, 'SUSPENDIDA', 'FINALIZADA')?.commentRequired).toBe(true);
    expect(findTransition(pensionMachine, 'FINALIZADA', 'ACTIVA')).toBeUndefined();
  });
});

describe('dates', () => {
  it('birthdays of 29 February fall on 28 February in common years', () => {
    expect(birthdayIn('1960-02-29', 2026)).toBe('2026-02-28');
    expect(birthdayIn('1960-02-29', 2028)).toBe('2028-02-29');
    expect(birthdayIn('1960-07-15', 2026)).toBe('2026-07-15');
  });
  it('ages count whole years', () => {
    expect(ageOn('2008-06-10', '2026-06-09')).toBe(17);
    expect(ageOn('2008-06-10', '2026-06-10')).toBe(18);
  });
  it('months add and list', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(periodsBetween('2026-11', '2027-02')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(periodsBetween('2026-03', '2026-02')).toEqual([]);
    expect(daysInMonth('2028-02')).toBe(29);
  });
});

describe('survival windows', () => {
  it('the check is due on the first birthday after the last check or the start', () => {
    expect(nextSurvivalDue('1955-03-10', '2026-01-15')).toBe('2026-03-10');
    expect(nextSurvivalDue('1955-03-10', '2026-03-10')).toBe('2027-03-10');
    expect(nextSurvivalDue('1955-03-10', '2026-04-01')).toBe('2027-03-10');
  });
  it('due window, grace and suspension follow the settings (30 + 30 days)', () => {
    const due = '2026-03-10';
    expect(survivalWindow(due, s)).toEqual({ due, windowEnd: '2026-04-09', graceEnd: '2026-05-09' });
    expect(survivalStatus(due, '2026-03-09', s)).toBe('AL_DIA');
    expect(survivalStatus(due, '2026-03-10', s)).toBe('PENDIENTE');
    expect(survivalStatus(due, '2026-04-09', s)).toBe('PENDIENTE');
    expect(survivalStatus(due, '2026-04-10', s)).toBe('VENCIDA');
    expect(survivalStatus(due, '2026-05-09', s)).toBe('VENCIDA');
    expect(survivalStatus(due, '2026-05-10', s)).toBe('SUSPENDER');
    const other = { ...s, 'survival.windowDaysAfterBirthday': 10, 'survival.graceDays': 0 };
    expect(survivalStatus(due, '2026-03-21', other)).toBe('SUSPENDER');
  });
  it('property: the next due birthday is after the given day and within a year and a day', () => {
    fc.assert(
      fc.property(isoDate, isoDate, (birth, after) => {
        const due = nextSurvivalDue(birth, after);
        expect(due > after).toBe(true);
        expect(addDays(after, 366) >= due).toBe(true);
        expect(due.slice(5) === birth.slice(5) || (birth.slice(5) === '02-29' && due.slice(5) === '02-28')).toBe(true);
      }),
    );
  });
  it('property: the job’s range condition agrees with the status (due before the cut-off ⇔ SUSPENDER)', () => {
    fc.assert(
      fc.property(isoDate, isoDate, fc.integer({ min: 1, max: 365 }), fc.integer({ min: 0, max: 365 }), (due, asOf, w, g) => {
        const st = { ...s, 'survival.windowDaysAfterBirthday': w, 'survival.graceDays': g };
        expect(due < suspendIfDueBefore(asOf, st)).toBe(survivalStatus(due, asOf, st) === 'SUSPENDER');
      }),
    );
  });
});

describe('orphans', () => {
  it('end the day before turning the end age, or the studying age while a certificate covers', () => {
    expect(orphanEndDate('2010-05-20', s)).toBe('2028-05-19');
    expect(orphanEndDate('2010-05-20', s, '2028-01-01')).toBe('2028-05-19');
    expect(orphanEndDate('2010-05-20', s, '2029-12-31')).toBe('2029-12-31');
    expect(orphanEndDate('2010-05-20', s, '2040-01-01')).toBe('2035-05-19');
  });
});

describe('payable amounts', () => {
  it('prorate rounds half-up and never exceeds the whole', () => {
    expect(prorate(300000n, 15, 30)).toBe(150000n);
    expect(prorate(100n, 1, 3)).toBe(33n);
    expect(prorate(101n, 1, 2)).toBe(51n);
    expect(prorate(5000n, 31, 30)).toBe(5000n);
  });
  it('the first and last month are prorated by days', () => {
    const p = { monthly: 310000n, startDate: '2026-03-17', endDate: null };
    expect(monthlyPayable(p, '2026-02')).toEqual({ days: 0, cents: 0n });
    expect(monthlyPayable(p, '2026-03')).toEqual({ days: 15, cents: 150000n });
    expect(monthlyPayable(p, '2026-04')).toEqual({ days: 30, cents: 310000n });
    expect(monthlyPayable({ ...p, endDate: '2026-04-10' }, '2026-04')).toEqual({ days: 10, cents: 103333n });
  });
  it('property: a whole month pays the amount, a part never more, and days add up', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10_000_000_00n }),
        isoDate,
        fc.integer({ min: 0, max: 400 }),
        (monthly, start, span) => {
          const end = addDays(start, span);
          const period = start.slice(0, 7);
          const r = monthlyPayable({ monthly, startDate: start, endDate: end }, period);
          expect(r.cents <= monthly).toBe(true);
          expect(r.days).toBeGreaterThan(0);
          const next = addMonths(period, 1);
          const whole = monthlyPayable({ monthly, startDate: '1900-01-01', endDate: null }, next);
          expect(whole.cents).toBe(monthly);
        },
      ),
    );
  });
  it('the amount in force is the latest change on or before the day', () => {
    const changes = [
      { effectiveFrom: '2026-01-01', v: 1 },
      { effectiveFrom: '2026-07-01', v: 2 },
    ];
    expect(amountOn(changes, '2025-12-31')).toBeUndefined();
    expect(amountOn(changes, '2026-06-30')?.v).toBe(1);
    expect(amountOn(changes, '2026-07-01')?.v).toBe(2);
  });
});

describe('contracts', () => {
  const cui = makeCui(12345678, '0101');
  const base = {
    cui,
    type: 'JUBILACION',
    resolutionNumber: 'RES-1',
    resolutionDate: '2026-01-05',
    startDate: '2026-02-01',
    monthlyAmount: '2,500.00',
    bankAccount: '3010-123456-7',
  };
  it('accepts a pension with beneficiaries within 100 %', () => {
    const r = pensionInputSchema.safeParse({
      ...base,
      beneficiaries: [
        { cui: makeCui(22345678, '0101'), fullName: 'Ana López', birthDate: '1960-01-01', relationship: 'CONYUGE', share: '60' },
        { cui: makeCui(32345678, '0101'), fullName: 'Luis López', birthDate: '2012-01-01', relationship: 'HIJO', share: '40' },
      ],
    });
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    expect(r.data?.monthlyAmount).toBe('2500.00');
  });
  it('refuses shares above 100 %, repeated CUIs, a start before the resolution, zero amounts', () => {
    const b = (n: number, share: string) => ({
      cui: makeCui(n, '0101'),
      fullName: 'Ana López',
      birthDate: '1960-01-01',
      relationship: 'CONYUGE',
      share,
    });
    const over = beneficiaryListSchema.safeParse([b(22345678, '60'), b(32345678, '40.0001')]);
    expect(over.error?.issues[0].message).toContain('más de 100 %');
    const dup = beneficiaryListSchema.safeParse([b(22345678, '10'), b(22345678, '10')]);
    expect(dup.error?.issues[0].message).toContain('ya está');
    const early = pensionInputSchema.safeParse({ ...base, startDate: '2025-12-31' });
    expect(early.error?.issues[0].path).toEqual(['startDate']);
    const zero = pensionInputSchema.safeParse({ ...base, monthlyAmount: '0' });
    expect(zero.error?.issues[0].path).toEqual(['monthlyAmount']);
  });
  it('property: a share list is accepted exactly when it sums to at most 100 %', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 5 }), (parts) => {
        const shares = parts.map((p) => `${Math.floor(p / 10000)}.${String(p % 10000).padStart(4, '0')}`);
        expect(sharesExceed100(shares)).toBe(parts.reduce((a, b) => a + b, 0) > 1_000_000);
      }),
    );
  });
  it('a notarised act needs its file', () => {
    const r = survivalCheckInputSchema.safeParse({ checkDate: '2026-03-01', method: 'ACTA_NOTARIAL' });
    expect(r.error?.issues[0].path).toEqual(['attachmentFileId']);
    expect(survivalCheckInputSchema.safeParse({ checkDate: '2026-03-01', method: 'PRESENCIAL' }).success).toBe(true);
  });
});

describe('pension eligibility (issue 28)', () => {
  const s = {
    'pensions.retirementMinAge': 50,
    'pensions.retirementMinContributionMonths': 240,
    'pensions.disabilityMinContributionMonths': 36,
    'pensions.survivorMinContributionMonths': 36,
  };
  const codes = (f: Parameters<typeof pensionEligibility>[0]) => pensionEligibility(f, s).map((i) => `${i.severity}:${i.code}`);
  const employed = [{ entityName: 'Municipalidad de Mixco', period: '2026-11' }];

  it('refuses a retirement under the minimum age and warns of few months and of active employment', () => {
    const issues = pensionEligibility({ type: 'JUBILACION', age: 34, contributionMonths: 120, employment: employed }, s);
    expect(issues.map((i) => `${i.severity}:${i.code}`)).toEqual(['REFUSE:EDAD', 'WARN:COTIZACIONES', 'WARN:EMPLEO_ACTIVO']);
    expect(issues[0].message.text).toBe('Jubilación: el pensionado tiene 34 años al inicio; la edad mínima es 50 años.');
    expect(issues[2].message.text).toBe(
      'Figura como empleado en la planilla 11/2026 de Municipalidad de Mixco: confirme que la relación laboral terminó.',
    );
  });

  it('lets a retirement that meets age and months through, and the minimum itself', () => {
    expect(codes({ type: 'JUBILACION', age: 50, contributionMonths: 240, employment: [] })).toEqual([]);
    expect(codes({ type: 'JUBILACION', age: 49, contributionMonths: 240, employment: [] })).toEqual(['REFUSE:EDAD']);
  });

  it('has no age for disability; survivors answer for the deceased months and not for their own job', () => {
    expect(codes({ type: 'INVALIDEZ', age: 30, contributionMonths: 35, employment: employed })).toEqual([
      'WARN:COTIZACIONES',
      'WARN:EMPLEO_ACTIVO',
    ]);
    expect(codes({ type: 'VIUDEZ', age: 40, contributionMonths: 10, employment: employed })).toEqual(['WARN:COTIZACIONES']);
    expect(codes({ type: 'ORFANDAD', age: 10, contributionMonths: 36, employment: [] })).toEqual([]);
  });

  it('words an exclusion by its suspension reason, the date as the user reads it', () => {
    expect(exclusionMessage('FALLECIMIENTO', '2026-11-21').text).toBe('Excluido: RENAP registra el fallecimiento el 21/11/2026.');
    expect(exclusionMessage('SUPERVIVENCIA', '2026-10-01').key).toBe('pensions.payrollExcludedSurvival');
    expect(exclusionMessage('MANUAL', '2026-10-01').key).toBe('pensions.payrollExcludedManual');
  });
});
