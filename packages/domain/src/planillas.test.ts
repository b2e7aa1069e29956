import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeCui } from './cui.ts';
import { text } from './messages.ts';
import { applyRate, type Cents, centsToDecimal } from './money.ts';
import { allPermissions } from './permissions.ts';
import {
  BACK_PAY_MAX_MONTHS,
  backPayCreateSchema,
  type ContributionRates,
  checkLine,
  contributionGaps,
  duplicateCuiIssue,
  isFuturePeriod,
  type LineContext,
  lineContribution,
  nextPeriod,
  periodsBetween,
  planillaMachine,
  planillaStates,
  planillaTotals,
  previousPeriod,
  salaryChanged,
} from './planillas.ts';
import { allowedTransitions, checkTransition } from './state-machine.ts';

const rates: ContributionRates = {
  employeeRate: '7.0000',
  employerRate: '7.0000',
  subjectBudgetLines: ['011', '021', '022', '031', '035', '036'],
};
const CUI = '1587564440904';
const ctx = (over: Partial<LineContext> = {}): LineContext => ({
  period: '2026-03',
  rates,
  salaryChangeWarningRate: '20.0000',
  budgetLines: new Set(['011', '021', '022', '029', '031', '035', '036']),
  previous: null,
  ...over,
});
const line = (over: Record<string, unknown> = {}) =>
  checkLine({ cui: CUI, fullName: 'Ana López', budgetLine: '011', salary: '3000.00', ...over } as never, ctx());

describe('contribution rounding: half-up to the cent, per line (test vectors)', () => {
  // salary, rate → amount. Each vector is written out by hand in docs/decisions.md (issue 12).
  const vectors: [string, string, string][] = [
    ['1234.57', '7.0000', '86.42'], // 8 641.99 cents → 8 642
    ['1000.50', '7.0000', '70.04'], // 7 003.5 cents → 7 004 (half goes up)
    ['3571.50', '7.0000', '250.01'], // 25 000.5 cents → 25 001
    ['0.07', '7.0000', '0.00'], // 0.49 cents → 0
    ['0.08', '7.0000', '0.01'], // 0.56 cents → 1
    ['0.50', '7.0000', '0.04'], // 3.5 cents → 4
    ['3000.00', '7.0000', '210.00'],
    ['10000.00', '7.1234', '712.34'],
    ['2500.25', '6.5000', '162.52'], // 16 251.625 cents → 16 252
    ['999999999999.99', '7.0000', '70000000000.00'], // 6 999 999 999 999.93 cents → 7 000 000 000 000 (no float)
  ];
  for (const [salary, rate, expected] of vectors) {
    it(`${salary} × ${rate} % = ${expected}`, () => {
      const cents = BigInt(salary.replace('.', ''));
      expect(centsToDecimal(applyRate(cents, rate))).toBe(expected);
      const c = lineContribution(cents, '011', { ...rates, employeeRate: rate, employerRate: rate });
      expect(centsToDecimal(c.employee)).toBe(expected);
      expect(centsToDecimal(c.employer)).toBe(expected);
    });
  }

  it('a budget line not subject (029) contributes nothing', () => {
    expect(lineContribution(300000n, '029', rates)).toEqual({ subject: false, employee: 0n, employer: 0n });
  });

  it('totals are sums of the rounded lines, not the rate applied to the total', () => {
    // Three lines of Q 0.50: each 3.5 cents → 4; the sum is 12 cents, the rate on Q 1.50 would give 11.
    const lines = [50n, 50n, 50n].map((s) => ({ salary: s, ...lineContribution(s, '011', rates) }));
    const t = planillaTotals(lines);
    expect(t).toEqual({ salary: 150n, employee: 12n, employer: 12n });
    expect(applyRate(150n, '7.0000')).toBe(11n);
  });

  it('property: each line is within half a cent of the exact amount, and the total is the sum of lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10_000_000_00n }), { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (salaries, rate4) => {
          const rate = `${Math.floor(rate4 / 10_000)}.${String(rate4 % 10_000).padStart(4, '0')}`;
          const r = { ...rates, employeeRate: rate, employerRate: rate };
          const lines = salaries.map((s) => ({ salary: s as Cents, ...lineContribution(s, '011', r) }));
          for (const l of lines) {
            // |amount × 1 000 000 − salary × rate4| ≤ 500 000 (half a cent, in units of 1/1 000 000 cent)
            const exact = l.salary * BigInt(rate4);
            const diff = l.employee * 1_000_000n - exact;
            expect(diff <= 500_000n && diff > -500_000n).toBe(true);
          }
          const t = planillaTotals(lines);
          expect(t.employee).toBe(lines.reduce((s, l) => s + l.employee, 0n));
          expect(t.salary).toBe(salaries.reduce((s, x) => s + x, 0n));
        },
      ),
    );
  });

  it('property: a higher salary never contributes less (monotone)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 6n }), (a, d) => {
        expect(lineContribution(a + d, '011', rates).employee >= lineContribution(a, '011', rates).employee).toBe(true);
      }),
    );
  });
});

describe('checkLine: blocking errors', () => {
  it('a good line is calculated with the rates given', () => {
    const l = line();
    expect(l.errors).toEqual([]);
    expect(l.employee).toBe(21000n);
    expect(l.employer).toBe(21000n);
    expect(l.subject).toBe(true);
  });

  it.each([
    ['0', 'mayor que cero'],
    ['-100', 'negativo'],
    ['abc', 'no es un número'],
    ['100.5555', 'más de dos decimales'],
    ['', 'Ingrese el monto'],
  ])('salary %s is refused (%s)', (salary, why) => {
    const l = line({ salary });
    expect(l.errors.map((e) => e.code)).toEqual(['SALARIO']);
    expect(l.errors[0].message).toContain(why);
    expect(l.salary).toBeNull();
    expect(l.salaryText).toBe(salary);
    expect(l.employee).toBe(0n);
  });

  it('a number cell with float noise is read as shown', () => {
    expect(line({ salary: 1234.5000000000002 }).salary).toBe(123450n);
  });

  it('bad CUI, unknown budget line, missing name, bad days and movement are blocking', () => {
    const l = checkLine(
      {
        cui: '1680352240101',
        fullName: ' ',
        budgetLine: '999',
        salary: '10',
        days: '40',
        movement: 'X',
        movementDate: '2026-04-01',
      },
      ctx(),
    );
    expect(l.errors.map((e) => e.code).sort()).toEqual(['CUI', 'DIAS', 'MOVIMIENTO', 'MOVIMIENTO', 'NOMBRE', 'RENGLON'].sort());
  });

  it('an alta needs its date inside the period', () => {
    expect(line({ movement: 'alta', movementDate: '15/03/2026' }).movementDate).toBe('2026-03-15');
    expect(line({ movement: 'ALTA' }).errors.map((e) => e.field)).toEqual(['movementDate']);
  });
});

describe('checkLine: deaths and limits', () => {
  const dead = (deathDate: string) =>
    checkLine(
      { cui: CUI, fullName: 'Ana López', budgetLine: '011', salary: '1000' },
      ctx({ renap: { fullName: 'Ana López', deathDate } }),
    );
  it('a person RENAP records as dead before the period is a blocking error; the month of death a warning', () => {
    // The period of ctx() is 2026-03.
    for (const before of ['2015-06-30', '2026-02-28']) {
      const c = dead(before);
      expect(c.errors).toEqual([
        {
          code: 'RENAP_FALLECIDO',
          field: 'cui',
          message: expect.stringMatching(/^RENAP registra el fallecimiento el \d\d\/\d\d\/\d{4}, antes del período 03\/2026/),
          key: 'planillas.lineRenapDeceasedBeforePeriod',
          params: { date: before, period: '2026-03' },
        },
      ]);
      expect(c.employee).toBe(0n);
    }
    for (const inOrAfter of ['2026-03-01', '2026-03-31', '2026-05-10']) {
      const c = dead(inOrAfter);
      expect(c.errors).toEqual([]);
      expect(c.warnings.map((w) => w.code)).toEqual(['RENAP_FALLECIDO']);
    }
  });
  it('a salary above the monthly maximum of one person is refused on its line, naming the maximum', () => {
    const at = (salary: string) => checkLine({ cui: CUI, fullName: 'Ana', budgetLine: '011', salary }, ctx({ renap: undefined }));
    expect(at('9,999,999.99').errors).toEqual([]);
    expect(at('10,000,000.00').errors).toEqual([
      {
        code: 'SALARIO',
        field: 'salary',
        message: 'Salario: El monto "10,000,000.00" supera el máximo permitido (Q 9,999,999.99).',
        key: 'planillas.lineSalaryInvalid',
        params: { problem: 'El monto "10,000,000.00" supera el máximo permitido (Q 9,999,999.99).' },
      },
    ]);
    expect(at('99999999999.99').errors[0].code).toBe('SALARIO');
  });
});

describe('checkLine: warnings', () => {
  it('RENAP: unknown, different name, deceased', () => {
    expect(checkLine({ cui: CUI, fullName: 'Ana', budgetLine: '011', salary: '1' }, ctx({ renap: null })).warnings[0].code).toBe(
      'RENAP_DESCONOCIDO',
    );
    const w = checkLine(
      { cui: CUI, fullName: 'Ana Lopez', budgetLine: '011', salary: '1' },
      ctx({ renap: { fullName: 'ANA LÓPEZ', deathDate: '2026-03-31' } }),
    ).warnings.map((x) => x.code);
    expect(w).toEqual(['RENAP_FALLECIDO']);
    expect(
      checkLine(
        { cui: CUI, fullName: 'Ana Pérez', budgetLine: '011', salary: '1' },
        ctx({ renap: { fullName: 'Ana López', deathDate: null } }),
      ).warnings[0].code,
    ).toBe('RENAP_NOMBRE');
  });

  it('new employee and salary change over the rate against the previous period', () => {
    const previous = new Map([[CUI, 250000n]]);
    expect(line().warnings).toEqual([]);
    expect(checkLine({ cui: CUI, fullName: 'A', budgetLine: '011', salary: '3000.00' }, ctx({ previous })).warnings).toEqual([]);
    expect(
      checkLine({ cui: CUI, fullName: 'A', budgetLine: '011', salary: '3000.01' }, ctx({ previous })).warnings.map((w) => w.code),
    ).toEqual(['CAMBIO_SALARIO']);
    expect(
      checkLine({ cui: makeCui(1, '0101'), fullName: 'A', budgetLine: '011', salary: '1' }, ctx({ previous })).warnings.map(
        (w) => w.code,
      ),
    ).toEqual(['NUEVO']);
  });

  it('salaryChanged: exactly the rate does not warn, one cent more does (both directions)', () => {
    expect(salaryChanged(100000n, 120000n, '20.0000')).toBe(false);
    expect(salaryChanged(100000n, 120001n, '20.0000')).toBe(true);
    expect(salaryChanged(100000n, 80000n, '20.0000')).toBe(false);
    expect(salaryChanged(100000n, 79999n, '20.0000')).toBe(true);
    expect(salaryChanged(100000n, 100001n, '0.0010')).toBe(false);
  });
});

describe('periods', () => {
  it('previous, next, between, future', () => {
    expect(previousPeriod('2026-01')).toBe('2025-12');
    expect(nextPeriod('2025-12')).toBe('2026-01');
    expect(periodsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(isFuturePeriod('2026-04', '2026-03-31')).toBe(true);
    expect(isFuturePeriod('2026-03', '2026-03-01')).toBe(false);
  });

  it('gaps are the months without contribution between the first and the last', () => {
    expect(contributionGaps(['2025-01', '2025-04', '2025-02'])).toEqual(['2025-03']);
    expect(contributionGaps([], { from: '2025-01', to: '2025-02' })).toEqual(['2025-01', '2025-02']);
  });

  it('property: previous and next are inverse; gaps ∪ declared = the whole range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1901, max: 2099 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const p = `${y}-${String(m).padStart(2, '0')}`;
        expect(nextPeriod(previousPeriod(p))).toBe(p);
        expect(previousPeriod(nextPeriod(p))).toBe(p);
      }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1 }), (months) => {
        const ps = months.map((i) => periodsBetween('2020-01', '2023-12')[i]);
        const gaps = contributionGaps(ps);
        const sorted = [...ps].sort();
        expect(new Set([...gaps, ...ps]).size).toBe(periodsBetween(sorted[0], sorted[sorted.length - 1]).length);
      }),
    );
  });
});

describe('planilla machine', () => {
  const entity = { planillas: { UPDATE: 'ENTITY' as const, READ: 'ENTITY' as const } };
  const delegate = { planillas: { APPROVE: 'REGION' as const, READ: 'REGION' as const } };
  it('the entity submits and discards drafts; the delegate takes, approves, observes, rejects', () => {
    expect(allowedTransitions(planillaMachine, 'BORRADOR', entity).map((t) => t.to)).toEqual(['ENVIANDO', 'ANULADA']);
    expect(allowedTransitions(planillaMachine, 'OBSERVADA', entity).map((t) => t.to)).toEqual(['ENVIANDO']);
    expect(allowedTransitions(planillaMachine, 'ENVIADA', delegate).map((t) => t.to)).toEqual(['EN_REVISION']);
    expect(allowedTransitions(planillaMachine, 'EN_REVISION', delegate).map((t) => t.to)).toEqual([
      'APROBADA',
      'OBSERVADA',
      'RECHAZADA',
    ]);
    expect(allowedTransitions(planillaMachine, 'ENVIADA', entity)).toEqual([]);
  });
  it('observing and rejecting need a reason; approving an approved planilla is a conflict', () => {
    expect(() =>
      checkTransition(planillaMachine, { from: 'EN_REVISION', to: 'OBSERVADA', permissions: delegate, actorId: 1 }),
    ).toThrow(/motivo/);
    expect(() =>
      checkTransition(planillaMachine, { from: 'APROBADA', to: 'APROBADA', permissions: delegate, actorId: 1 }),
    ).toThrow();
    expect(() =>
      checkTransition(planillaMachine, { from: 'EN_REVISION', to: 'APROBADA', permissions: delegate, actorId: 1, makerId: 1 }),
    ).toThrow(/usted creó, modificó o envió/);
  });
  it('while sending, nobody is offered anything: only the submit job ends it, in ENVIADA or back where it was', () => {
    const everyone = {
      planillas: { READ: 'ALL' as const, UPDATE: 'ALL' as const, APPROVE: 'ALL' as const, DELETE: 'ALL' as const },
    };
    expect(allowedTransitions(planillaMachine, 'ENVIANDO', everyone)).toEqual([]);
    // A user's request for the job's steps is refused, whatever their permissions.
    for (const to of ['ENVIADA', 'BORRADOR', 'OBSERVADA', 'ANULADA'] as const) {
      expect(() => checkTransition(planillaMachine, { from: 'ENVIANDO', to, permissions: everyone, actorId: 1 })).toThrow(
        expect.objectContaining({ code: 'CONFLICT' }),
      );
    }
    // The job (system) takes them; going back needs its reason.
    expect(
      checkTransition(planillaMachine, { from: 'ENVIANDO', to: 'ENVIADA', permissions: {}, actorId: 1, system: true }).transition
        .key,
    ).toBe('PLANILLA_SUBMITTED');
    expect(
      checkTransition(planillaMachine, {
        from: 'ENVIANDO',
        to: 'OBSERVADA',
        permissions: {},
        actorId: 1,
        system: true,
        comment: 'La planilla tiene 2 líneas con errores.',
      }).transition.key,
    ).toBe('PLANILLA_SUBMIT_UNDONE_OBSERVED');
    expect(() =>
      checkTransition(planillaMachine, { from: 'ENVIANDO', to: 'BORRADOR', permissions: {}, actorId: 1, system: true }),
    ).toThrow();
    // Submitting again, editing and voiding are not ways out of ENVIANDO.
    expect(() =>
      checkTransition(planillaMachine, { from: 'ENVIANDO', to: 'ENVIANDO', permissions: everyone, actorId: 1 }),
    ).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });
});

describe("planilla machine: the submit job's own steps (properties)", () => {
  const state = fc.constantFrom(...planillaStates);
  it('no user request, whatever its permissions, takes a system step; every step out of ENVIANDO is one', () => {
    const all = allPermissions();
    fc.assert(
      fc.property(state, state, fc.option(fc.string()), (from, to, comment) => {
        const t = planillaMachine.transitions.find((x) => x.to === to && x.from.includes(from));
        let passed = true;
        try {
          checkTransition(planillaMachine, { from, to, permissions: all, actorId: 1, comment: comment ?? 'motivo' });
        } catch {
          passed = false;
        }
        if (t?.system) expect(passed).toBe(false);
        if (from === 'ENVIANDO') expect(passed).toBe(false);
        expect(allowedTransitions(planillaMachine, from, all).some((x) => x.system)).toBe(false);
      }),
    );
  });
});

describe('line issues carry their key and parameters (messages.ts)', () => {
  it('a fixed text, a text with values (formatted the Spanish way) and a CUI problem', () => {
    expect(line({ fullName: ' ' }).errors).toEqual([
      { code: 'NOMBRE', field: 'fullName', message: 'Ingrese el nombre del empleado.', key: 'planillas.lineNameRequired' },
    ]);
    const changed = checkLine(
      { cui: CUI, fullName: 'A', budgetLine: '011', salary: '3000.01' },
      ctx({ previous: new Map([[CUI, 250000n]]) }),
    );
    expect(changed.warnings).toEqual([
      {
        code: 'CAMBIO_SALARIO',
        field: 'salary',
        message: 'El salario cambió más de 20 % (antes Q 2,500.00).',
        key: 'planillas.lineSalaryChanged',
        params: { rate: 20, before: '250000' },
      },
    ]);
    expect(line({ movementDate: '15/04/2026' }).errors[0]).toMatchObject({
      message: 'La fecha del movimiento debe caer en el período 03/2026.',
      key: 'planillas.lineMovementDateOutsidePeriod',
      params: { period: '2026-03' },
    });
    expect(line({ cui: '123' }).errors[0]).toEqual({
      code: 'CUI',
      field: 'cui',
      message: 'CUI: El CUI debe tener 13 dígitos.',
      key: 'planillas.lineCuiLength',
    });
    expect(duplicateCuiIssue(1234)).toEqual({
      code: 'CUI_REPETIDO',
      field: 'cui',
      message: 'CUI repetido en la planilla (ya está en la línea 1,234).',
      key: 'planillas.lineCuiRepeated',
      params: { row: 1234 },
    });
  });

  it('a schema message is a catalogue text; the back-pay limit names BACK_PAY_MAX_MONTHS', () => {
    expect(text('planillas.backPayTooManyMonths')).toContain(` ${BACK_PAY_MAX_MONTHS} `);
    const r = backPayCreateSchema.safeParse({
      entityId: 1,
      resolutionNumber: 'R-1',
      resolutionDate: '2020-01-01',
      cui: CUI,
      fullName: 'Ana',
      budgetLine: '011',
      fromPeriod: '2026-03',
      toPeriod: '2026-01',
      monthlySalary: '1000',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain(text('planillas.backPayLastBeforeFirst'));
  });
});
