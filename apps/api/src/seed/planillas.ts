import {
  type Cents,
  centsToDecimal,
  checkLine,
  contributorFullName,
  guatemalaToday,
  type LineIssue,
  makeCui,
  PLANILLA_SETTING_KEYS,
  type PlanillaState,
  periodOf,
  periodStart,
  previousPeriod,
  settingsUsed,
} from '@aporta/domain';
import { count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  budgetLines,
  delegates,
  municipalEntities,
  planillaComments,
  planillaLines,
  planillas,
  regionDelegates,
  regions,
  renapPeople,
  stateTransitions,
  users,
} from '../db/schema/index.ts';
import { settingsAt } from '../modules/settings/service.ts';
import { systemActor, writeAudit } from '../platform/audit.ts';
import { prng } from './contributors.ts';

/** The delegate of the demo entity operator's region (Mixco, región I Metropolitana). */
export const metropolitanDelegate = {
  email: 'delegado.metropolitana@demo.aporta.local',
  cui: makeCui(34_567_890, '0101'),
  region: 'I',
};

/**
 * Entities with demo planillas: the demo operator's (Mixco) and entities of each demo delegate's regions.
 * `last`: what happened to the most recent period (the month before the current one) — Mixco has not
 * declared it yet (its operator copies the month before); the others show a queue, an observation and
 * omisos. `gap`: a period in the middle with no planilla (a gap in the histories).
 */
const demoEntities: { code: string; employees: number; last: PlanillaState | null; gap?: number }[] = [
  { code: 'MUNI-0108', employees: 40, last: null },
  { code: 'MUNI-0102', employees: 18, last: 'ENVIADA' },
  { code: 'MUNI-0103', employees: 14, last: 'OBSERVADA' },
  { code: 'MUNI-0104', employees: 12, last: null, gap: 5 },
  { code: 'EMP-0901-AGUA', employees: 16, last: 'ENVIADA' },
  { code: 'EMP-1601-MERC', employees: 12, last: 'APROBADA' },
  { code: 'MUNI-1601', employees: 20, last: 'BORRADOR' },
];

const PERIODS = 12;

/**
 * Demo planillas (DEMO_DATA only): the metropolitan delegate, then 12 periods of planillas for the demo
 * entities with employees taken from RENAP's synthetic people, amounts calculated by the domain with the
 * settings of each period, approved ones with their history. Idempotent and quick: nothing happens when
 * any planilla exists.
 */
export async function seedPlanillaDemo(db: Db): Promise<void> {
  await ensureMetropolitanDelegate(db);
  const [{ n }] = await db.select({ n: count() }).from(planillas);
  if (n > 0) return;
  const entities = await db
    .select({ id: municipalEntities.id, code: municipalEntities.code })
    .from(municipalEntities)
    .where(
      inArray(
        municipalEntities.code,
        demoEntities.map((e) => e.code),
      ),
    );
  if (!entities.length) return;
  const wanted = demoEntities.reduce((s, e) => s + e.employees + 4, 0);
  const people = await db.select().from(renapPeople).where(isNull(renapPeople.deathDate)).orderBy(renapPeople.cui).limit(wanted);
  if (people.length < wanted) return;
  const lines = new Set((await db.select({ code: budgetLines.code }).from(budgetLines)).map((b) => b.code));
  const [delegateUser] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, metropolitanDelegate.email));
  const reviewer = delegateUser ?? { id: null, email: 'sistema' };
  const current = periodOf(guatemalaToday());
  const last = previousPeriod(current);
  const periods: string[] = [];
  for (let p = last, i = 0; i < PERIODS; i++, p = previousPeriod(p)) periods.unshift(p);
  const settingsByPeriod = new Map<string, Awaited<ReturnType<typeof settingsAt>>>();
  for (const p of periods) settingsByPeriod.set(p, await settingsAt(db, periodStart(p)));
  const rand = prng(12);
  const budget = ['011', '011', '011', '022', '022', '031', '029'].filter((c) => lines.has(c));

  await db.transaction(async (tx) => {
    let offset = 0;
    for (const def of demoEntities) {
      const entity = entities.find((e) => e.code === def.code);
      if (!entity) continue;
      // The entity's staff: the first `employees` work all year; four more join or leave along the way.
      const staff = people.slice(offset, offset + def.employees + 4).map((p, k) => ({
        cui: p.cui,
        fullName: contributorFullName(p),
        budgetLine: budget[k % budget.length],
        salary: BigInt(3000 + Math.floor(rand() * 9000)) * 100n + BigInt(Math.floor(rand() * 100)),
        from: k < def.employees ? 0 : 3 + (k % 6),
        to: k < def.employees - 2 ? PERIODS : k < def.employees ? 7 : PERIODS,
      }));
      offset += def.employees + 4;
      let previous: Map<string, Cents> | null = null;
      for (const [i, period] of periods.entries()) {
        const isLast = i === PERIODS - 1;
        if (def.gap === i) {
          previous = null;
          continue;
        }
        const state: PlanillaState | null = isLast ? def.last : 'APROBADA';
        if (!state) continue;
        const s = settingsByPeriod.get(period)!;
        const rates = {
          employeeRate: s.values['contributions.employeeRate'],
          employerRate: s.values['contributions.employerRate'],
          subjectBudgetLines: s.values['contributions.subjectBudgetLines'],
        };
        // A raise in the middle of the year for everyone, and a big one for one employee (a warning).
        const checked = staff
          .filter((e) => i >= e.from && i < e.to)
          .map((e, k) => {
            const raise = i >= 6 ? (e.salary * 5n) / 100n : 0n;
            const bump = k === 3 && isLast ? e.salary / 3n : 0n;
            return checkLine(
              { cui: e.cui, fullName: e.fullName, budgetLine: e.budgetLine, salary: centsToDecimal(e.salary + raise + bump) },
              {
                period,
                rates,
                salaryChangeWarningRate: s.values['planillas.salaryChangeWarningRate'],
                budgetLines: lines,
                previous,
                renap: { fullName: e.fullName, deathDate: null },
              },
            );
          });
        const total = (f: (c: (typeof checked)[number]) => Cents) => checked.reduce((a, c) => a + f(c), 0n);
        const decided = state === 'APROBADA' || state === 'OBSERVADA';
        const submitted = state !== 'BORRADOR';
        const [y, m] = period.split('-').map(Number);
        const submittedAt = new Date(Date.UTC(m === 12 ? y + 1 : y, m === 12 ? 0 : m, 8 + (entity.id % 5), 15));
        const decidedAt = new Date(submittedAt.getTime() + 3 * 86_400_000);
        const [p] = await tx
          .insert(planillas)
          .values({
            entityId: entity.id,
            period,
            type: 'ORDINARIA',
            state,
            lineCount: checked.length,
            warningCount: checked.filter((c) => c.warnings.length).length,
            totalSalary: total((c) => c.salary ?? 0n),
            totalEmployee: total((c) => c.employee),
            totalEmployer: total((c) => c.employer),
            settings: settingsUsed(s, PLANILLA_SETTING_KEYS),
            calculatedAt: submittedAt,
            createdAt: submittedAt,
            updatedAt: decided ? decidedAt : submittedAt,
            submittedAt: submitted ? submittedAt : null,
            reviewerId: decided ? reviewer.id : null,
            decidedAt: decided ? decidedAt : null,
          })
          .returning({ id: planillas.id });
        await tx.insert(planillaLines).values(
          checked.map((c, k) => ({
            planillaId: p.id,
            rowNumber: k + 1,
            period,
            entityId: entity.id,
            cui: c.cui,
            fullName: c.fullName,
            budgetLineCode: c.budgetLineCode,
            salary: c.salary,
            subject: c.subject,
            employeeAmount: c.employee,
            employerAmount: c.employer,
            warnings: c.warnings.length ? (c.warnings as LineIssue[]) : null,
            hasWarnings: c.warnings.length > 0,
          })),
        );
        const steps: [string, string, string, Date, string | null][] = [];
        if (submitted) {
          steps.push(['PLANILLA_SUBMIT', 'BORRADOR', 'ENVIANDO', submittedAt, null]);
          steps.push(['PLANILLA_SUBMITTED', 'ENVIANDO', 'ENVIADA', submittedAt, null]);
        }
        if (decided) steps.push(['PLANILLA_TAKE', 'ENVIADA', 'EN_REVISION', decidedAt, null]);
        if (state === 'APROBADA') steps.push(['PLANILLA_APPROVE', 'EN_REVISION', 'APROBADA', decidedAt, null]);
        const observation = 'Revise los salarios que cambiaron respecto del mes anterior.';
        if (state === 'OBSERVADA') steps.push(['PLANILLA_OBSERVE', 'EN_REVISION', 'OBSERVADA', decidedAt, observation]);
        if (steps.length) {
          await tx.insert(stateTransitions).values(
            steps.map(([transition, fromState, toState, at, comment]) => ({
              entityType: 'planilla',
              entityId: p.id,
              transition,
              fromState,
              toState,
              comment,
              actorId: transition.startsWith('PLANILLA_SUBMIT') ? null : reviewer.id,
              actorEmail: transition.startsWith('PLANILLA_SUBMIT') ? 'sistema' : reviewer.email,
              at,
              scopeEntityId: entity.id,
            })),
          );
        }
        if (state === 'OBSERVADA') {
          await tx.insert(planillaComments).values({
            planillaId: p.id,
            body: observation,
            transition: 'PLANILLA_OBSERVE',
            authorId: reviewer.id,
            authorEmail: reviewer.email,
            createdAt: decidedAt,
          });
        }
        previous = new Map(checked.filter((c) => c.salary != null).map((c) => [c.cui, c.salary as Cents]));
      }
    }
    // Lines of people already registered as contributors point at them, as an approval would have done.
    await tx.execute(sql`update ${planillaLines} l set contributor_id = c.id from contributors c where c.cui = l.cui`);
  });
  await db.execute(sql`analyze ${planillaLines}`);
}

/** The delegate of región I (Metropolitana) for the demo operator of Mixco; idempotent. */
async function ensureMetropolitanDelegate(db: Db) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, metropolitanDelegate.email));
  if (!user) return;
  const [existing] = await db.select({ id: delegates.id }).from(delegates).where(eq(delegates.userId, user.id));
  if (existing) return;
  const [region] = await db.select({ id: regions.id }).from(regions).where(eq(regions.code, metropolitanDelegate.region));
  await db.transaction(async (tx) => {
    const [d] = await tx
      .insert(delegates)
      .values({ userId: user.id, cui: metropolitanDelegate.cui, phone: '2230 4400' })
      .onConflictDoNothing()
      .returning({ id: delegates.id });
    if (!d) return;
    if (region) await tx.insert(regionDelegates).values({ regionId: region.id, delegateId: d.id }).onConflictDoNothing();
    await writeAudit(tx, systemActor, { action: 'CREATE', entityType: 'delegates', entityId: d.id, after: { userId: user.id } });
  });
}
