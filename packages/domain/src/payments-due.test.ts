import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addBusinessDays, addDays, isBusinessDay } from './calendar.ts';
import { interestBetween, orderDueDate, type PlanillaDueInput, planillaOrderDue } from './payments.ts';
import { initialSettings, settingDefinitions } from './settings.ts';

/** The due date of a planilla's orders after the institution's review (DOMAIN "Interest, further", issue 28). */

const cal = initialSettings()['calendar.holidays'];
const base = { period: '2025-10', dueDay: 20, businessDaysAfterApproval: 5, calendar: cal };
// Period 2025-10: legal due date Thursday 20 November 2025.

describe('due date after the institution’s review', () => {
  it('a timely planilla approved after the legal date falls due N business days after the approval', () => {
    // Issue 28's case: submitted on 10/11, approved on 26/11 (Wednesday): Thu 27, Fri 28, Mon 1, Tue 2, Wed 3.
    expect(planillaOrderDue({ ...base, submittedOn: '2025-11-10', approvedOn: '2025-11-26' })).toEqual({
      dueDate: '2025-12-03',
      basis: 'AFTER_REVIEW',
      legalDueDate: '2025-11-20',
    });
    // Submitted on the legal date itself is on time.
    expect(planillaOrderDue({ ...base, submittedOn: '2025-11-20', approvedOn: '2025-11-21' })).toMatchObject({
      dueDate: '2025-11-28',
      basis: 'AFTER_REVIEW',
    });
  });

  it('counts business days: holidays and weekends are skipped (Holy Week 2026)', () => {
    // Period 2026-02: legal 20 March 2026. Approved Monday 30 March: Tue 31 (1), Holy Wednesday 1 April is a
    // half day and counts (2), Holy Thursday and Friday and the weekend do not, Mon 6 (3), Tue 7 (4), Wed 8 (5).
    expect(planillaOrderDue({ ...base, period: '2026-02', submittedOn: '2026-03-02', approvedOn: '2026-03-30' })).toEqual({
      dueDate: '2026-04-08',
      basis: 'AFTER_REVIEW',
      legalDueDate: '2026-03-20',
    });
  });

  it('N = 0: the approval day, or the next business day when it is not one', () => {
    const zero = { ...base, businessDaysAfterApproval: 0, submittedOn: '2025-11-03' };
    expect(planillaOrderDue({ ...zero, approvedOn: '2025-11-26' }).dueDate).toBe('2025-11-26');
    // Saturday 29 November → Monday 1 December.
    expect(planillaOrderDue({ ...zero, approvedOn: '2025-11-29' }).dueDate).toBe('2025-12-01');
  });

  it('the setting changes the result', () => {
    const p = { ...base, submittedOn: '2025-11-10', approvedOn: '2025-11-26' };
    expect(planillaOrderDue({ ...p, businessDaysAfterApproval: 1 }).dueDate).toBe('2025-11-27');
    expect(planillaOrderDue({ ...p, businessDaysAfterApproval: 10 }).dueDate).toBe('2025-12-10');
  });

  it('keeps the legal date when the planilla was submitted late, approved by the legal date, or never submitted', () => {
    const legal = { dueDate: '2025-11-20', basis: 'LEGAL', legalDueDate: '2025-11-20' };
    // Late: submitted (or, returned for corrections, submitted again) after the legal date.
    expect(planillaOrderDue({ ...base, submittedOn: '2025-11-21', approvedOn: '2025-11-26' })).toEqual(legal);
    // Approved before or on the legal date: the entity has the rest of the term.
    expect(planillaOrderDue({ ...base, submittedOn: '2025-11-03', approvedOn: '2025-11-18' })).toEqual(legal);
    expect(planillaOrderDue({ ...base, submittedOn: '2025-11-03', approvedOn: '2025-11-20' })).toEqual(legal);
    expect(planillaOrderDue({ ...base, submittedOn: null, approvedOn: '2025-11-26' })).toEqual(legal);
  });

  it('the setting is a whole number of business days from 0 to 60, 5 at first', () => {
    const d = settingDefinitions['paymentOrders.businessDaysAfterLateApproval'];
    expect(d.initial).toBe(5);
    expect(d.topic).toBe('paymentOrders');
    for (const ok of [0, 5, 60]) expect(d.schema.safeParse(ok).success).toBe(true);
    for (const bad of [-1, 61, 2.5, '5']) expect(d.schema.safeParse(bad).success).toBe(false);
  });

  // ─── Properties ──────────────────────────────────────────────────────────────────────────────────

  const input = fc
    .record({
      year: fc.integer({ min: 2000, max: 2098 }),
      month: fc.integer({ min: 1, max: 12 }),
      dueDay: fc.integer({ min: 1, max: 28 }),
      n: fc.integer({ min: 0, max: 60 }),
      /** Days from the legal date to the (last) submission: negative or 0 is on time. */
      submittedOffset: fc.integer({ min: -45, max: 45 }),
      /** Days the institution took, from the submission to the approval. */
      review: fc.integer({ min: 0, max: 150 }),
    })
    .map(({ year, month, dueDay, n, submittedOffset, review }): PlanillaDueInput => {
      const period = `${year}-${String(month).padStart(2, '0')}`;
      const legal = orderDueDate(period, dueDay, cal);
      const submittedOn = addDays(legal, submittedOffset);
      return {
        period,
        dueDay,
        businessDaysAfterApproval: n,
        calendar: cal,
        submittedOn,
        approvedOn: addDays(submittedOn, review),
      };
    });

  it('is never earlier than the legal date, and is a business day', () => {
    fc.assert(
      fc.property(input, (p) => {
        const r = planillaOrderDue(p);
        expect(r.legalDueDate).toBe(orderDueDate(p.period, p.dueDay, p.calendar));
        expect(r.dueDate >= r.legalDueDate).toBe(true);
        expect(isBusinessDay(r.dueDate, cal)).toBe(true);
      }),
    );
  });

  it('a timely planilla bears no interest for any day of its review: due on or after the approval day', () => {
    fc.assert(
      fc.property(input, fc.bigInt({ min: 1n, max: 10_000_000_000n }), (p, principal) => {
        fc.pre(p.submittedOn! <= orderDueDate(p.period, p.dueDay, cal));
        const r = planillaOrderDue(p);
        expect(r.dueDate >= p.approvedOn).toBe(true);
        // Interest runs from the day after the due date: nothing from the submission to the approval.
        expect(interestBetween(principal, r.dueDate, p.approvedOn, [{ from: '2000-01-01', rate: '12.0000' }])).toBe(0n);
        if (p.approvedOn > r.legalDueDate) {
          expect(r.basis).toBe('AFTER_REVIEW');
          const n = p.businessDaysAfterApproval;
          expect(r.dueDate).toBe(
            n > 0 ? addBusinessDays(p.approvedOn, n, cal) : addBusinessDays(addDays(p.approvedOn, -1), 1, cal),
          );
        } else {
          expect(r).toMatchObject({ basis: 'LEGAL', dueDate: r.legalDueDate });
        }
      }),
    );
  });

  it('a late submission keeps the legal date, however long the review', () => {
    fc.assert(
      fc.property(input, (p) => {
        fc.pre(p.submittedOn! > orderDueDate(p.period, p.dueDay, cal));
        const r = planillaOrderDue(p);
        expect(r).toEqual({ dueDate: r.legalDueDate, basis: 'LEGAL', legalDueDate: r.legalDueDate });
      }),
    );
  });
});
