/**
 * Pension eligibility (issue 28, docs/decisions.md "Pension eligibility"): the facts the history holds
 * about a pension's holder — age on the start date, months contributed, employment on recent planillas —
 * and the domain's verdict on them. Also the employment query the payroll uses to flag pensioners.
 */
import {
  addMonths,
  ageOn,
  type EmploymentFact,
  guatemalaToday,
  type PensionType,
  pensionEligibility,
  periodOf,
} from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { settingsAt } from '../settings/service.ts';

/** Planilla states that count as employment: declared (sent, in review, observed) or approved (approved, paid). */
export const EMPLOYED_STATES = sql.raw(`('ENVIADA', 'EN_REVISION', 'OBSERVADA', 'APROBADA', 'PAGADA')`);
/** Planilla states whose subject lines count as months contributed. */
const CONTRIBUTED_STATES = sql.raw(`('APROBADA', 'PAGADA')`);

/** The first period of the employment window: the last `months` months, counting the current one. */
export const employmentFrom = (months: number, today = guatemalaToday()) => addMonths(periodOf(today), -(months - 1));

/** Months with a subject line on an approved or paid planilla of `cui` (distinct periods). */
export async function contributionMonths(db: Db, cui: string): Promise<number> {
  const [r] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(distinct l.period)::int as n
        from planilla_lines l join planillas p on p.id = l.planilla_id
       where l.cui = ${cui} and l.subject and p.state in ${CONTRIBUTED_STATES}`),
  );
  return r?.n ?? 0;
}

/**
 * The planillas (entity and period, newest first) of the window that name `cui`, but for a line that
 * declares the employee's leaving (movement BAJA): that is the end of the employment, not its proof.
 */
export async function employmentOf(db: Db, cui: string, from: string): Promise<EmploymentFact[]> {
  return rowsOf<EmploymentFact>(
    await db.execute(sql`
      select distinct e.name as "entityName", l.period
        from planilla_lines l
        join planillas p on p.id = l.planilla_id
        join municipal_entities e on e.id = l.entity_id
       where l.cui = ${cui} and l.period >= ${from} and p.state in ${EMPLOYED_STATES}
         and coalesce(l.movement, '') <> 'BAJA'
       order by l.period desc, e.name
       limit 12`),
  );
}

/**
 * The eligibility of a pension of `type` for a holder born on `birthDate` (CUI `holderCui`) of the
 * contributor `contributorCui` (the holder, or the deceased for a survivor pension), from `startDate`.
 */
export async function eligibilityOf(
  db: Db,
  input: { type: PensionType; holderCui: string; birthDate: string; contributorCui: string; startDate: string },
) {
  const s = (await settingsAt(db, input.startDate)).values;
  const [months, employment] = await Promise.all([
    contributionMonths(db, input.contributorCui),
    employmentOf(db, input.holderCui, employmentFrom(s['pensions.activeEmploymentMonths'])),
  ]);
  const facts = { type: input.type, age: ageOn(input.birthDate, input.startDate), contributionMonths: months, employment };
  return { ...facts, issues: pensionEligibility(facts, s) };
}
