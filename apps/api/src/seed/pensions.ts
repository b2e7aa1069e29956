import {
  addDays,
  birthdayIn,
  daysBetween,
  guatemalaToday,
  makeCui,
  nextSurvivalDue,
  orphanEndDate,
  periodOf,
  previousPeriod,
} from '@aporta/domain';
import { and, count, inArray, isNotNull, isNull, lte, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  contributors,
  contributorTypes,
  municipalEntities,
  pensionAmounts,
  pensionBeneficiaries,
  pensions,
  renapPeople,
  stateTransitions,
  survivalChecks,
} from '../db/schema/index.ts';
import { closePayroll, generatePayroll } from '../modules/pensions/payroll.ts';
import { suspendOverdue } from '../modules/pensions/survival-suspension.ts';
import { settingsAt } from '../modules/settings/service.ts';
import { systemContext } from '../platform/context.ts';
import { personColumns, prng } from './contributors.ts';

type Person = typeof renapPeople.$inferSelect;
type PensionRow = typeof pensions.$inferInsert;

const fullName = (p: Person) =>
  [p.firstName, p.secondName, p.thirdName, p.firstSurname, p.secondSurname, p.marriedSurname ? `de ${p.marriedSurname}` : null]
    .filter(Boolean)
    .join(' ');

const CHUNK = 1000;
async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/**
 * Demo passive classes (DEMO_DATA only): `pensions` pensions across the four types, held by people of
 * the synthetic RENAP registry (retired contributors; widows and orphans of deceased ones), birthdays
 * spread over the year, most checks presented on time, some due now, some overdue in grace and some
 * beyond it — those the real daily job suspends at the end — and a few pensioners whom the offline
 * RENAP registry records as deceased (the RENAP check suspends them and opens reviews). Idempotent and
 * quick (multi-row inserts): nothing happens when any pension exists.
 */
export async function seedPensionDemo(
  db: Db,
  opts: { pensions?: number; today?: string; deaths?: number; payrollMonths?: number } = {},
) {
  const [{ n }] = await db.select({ n: count() }).from(pensions);
  if (n > 0) return;
  const today = opts.today ?? guatemalaToday();
  const wanted = opts.pensions ?? 3000;
  const survivors = Math.round(wanted * 0.08);
  const retirees = wanted - 2 * survivors;
  const s = (await settingsAt(db, today)).values;
  const windowDays = s['survival.windowDaysAfterBirthday'];
  const rand = prng(15);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const between = (from: string, to: string) => addDays(from, Math.floor(rand() * Math.max(1, dayDiff(from, to))));

  const [type] = await db.select({ id: contributorTypes.id }).from(contributorTypes).orderBy(contributorTypes.sortOrder).limit(1);
  const entities = (
    await db.select({ id: municipalEntities.id }).from(municipalEntities).where(sql`${municipalEntities.isActive}`).limit(60)
  ).map((e) => e.id);
  if (!type || !entities.length) return;
  const taken = db.select({ cui: contributors.cui }).from(contributors);
  const cutoffBirth = `${Number(today.slice(0, 4)) - 58}-12-31`;
  const living = await db
    .select()
    .from(renapPeople)
    .where(and(isNull(renapPeople.deathDate), lte(renapPeople.birthDate, cutoffBirth), notInArray(renapPeople.cui, taken)))
    .orderBy(renapPeople.cui)
    .limit(retirees + survivors);
  const dead = await db
    .select()
    .from(renapPeople)
    .where(and(isNotNull(renapPeople.deathDate), lte(renapPeople.birthDate, cutoffBirth), notInArray(renapPeople.cui, taken)))
    .orderBy(renapPeople.cui)
    .limit(survivors);
  if (!living.length) return;
  const holders = living.slice(0, Math.min(retirees, living.length - dead.length));
  const spouses = living.slice(holders.length, holders.length + dead.length);

  // The contributors: the retirees (inactive now) and the deceased whose survivors are paid.
  const contributorRow = (p: Person, state: 'INACTIVO' | 'FALLECIDO', k: number) => ({
    ...personColumns(p),
    typeId: type.id,
    state,
    entityId: entities[k % entities.length],
    cuiState: 'APROBADO' as const,
    renapCheckedAt: new Date(),
    renapResult: 'COINCIDE',
  });
  const ids = new Map<string, { id: number; entityId: number | null }>();
  await db.transaction(async (tx) => {
    const rows = [
      ...holders.map((p, k) => contributorRow(p, 'INACTIVO', k)),
      ...dead.map((p, k) => contributorRow(p, 'FALLECIDO', k)),
    ];
    await insertChunks(rows, async (chunk) => {
      const ins = await tx
        .insert(contributors)
        .values(chunk)
        .returning({ id: contributors.id, cui: contributors.cui, entityId: contributors.entityId });
      for (const c of ins) ids.set(c.cui, { id: c.id, entityId: c.entityId });
    });

    const amount = () => BigInt(150_000 + Math.floor(rand() * 750) * 1000);
    const account = () =>
      `${String(100 + Math.floor(rand() * 899))}-${String(Math.floor(rand() * 1e9)).padStart(9, '0')}-${Math.floor(rand() * 10)}`;
    let resolution = 0;
    const resolutionNumber = (start: string) => `RES-${start.slice(0, 4)}-${String(++resolution).padStart(5, '0')}`;

    /**
     * The last check presented and so the due birthday: most pensioners presented theirs on time; of those
     * whose birthday was in the last window, half have not yet (due now); 4 % missed the last one (overdue:
     * in grace, or beyond it — the daily job suspends those below).
     */
    const checks = (birthDate: string, startDate: string) => {
      const year = Number(today.slice(0, 4));
      let last = birthdayIn(birthDate, year);
      if (last > today) last = birthdayIn(birthDate, year - 1);
      const sinceBirthday = dayDiff(last, today);
      const missed = rand() < 0.04;
      const notYet = sinceBirthday <= windowDays && rand() < 0.5;
      let checkCovers = missed || notYet ? birthdayIn(birthDate, Number(last.slice(0, 4)) - 1) : last;
      if (checkCovers <= startDate) return { lastCheck: null, survivalDue: nextSurvivalDue(birthDate, startDate) };
      const maxDelay = Math.min(windowDays, dayDiff(checkCovers, today));
      const lastCheck = addDays(checkCovers, Math.floor(rand() * Math.max(1, maxDelay)));
      checkCovers = nextSurvivalDue(birthDate, lastCheck);
      return { lastCheck, survivalDue: checkCovers };
    };

    const rows2: (PensionRow & { beneficiaries?: Omit<typeof pensionBeneficiaries.$inferInsert, 'pensionId'>[] })[] = [];
    const earliest = `${Number(today.slice(0, 4)) - 16}-01-01`;
    const latestStart = addDays(today, -400);
    let fake = 0;
    const childCui = (mun: string) => makeCui(90_000_000 + ++fake, mun);
    for (const p of holders) {
      const c = ids.get(p.cui)!;
      const startDate = between(earliest, latestStart);
      const { lastCheck, survivalDue } = checks(p.birthDate, startDate);
      const spouseShare = rand() < 0.3;
      rows2.push({
        contributorId: c.id,
        cui: p.cui,
        fullName: fullName(p),
        birthDate: p.birthDate,
        type: rand() < 0.8 ? 'JUBILACION' : 'INVALIDEZ',
        resolutionNumber: resolutionNumber(startDate),
        resolutionDate: addDays(startDate, -Math.floor(rand() * 60) - 1),
        startDate,
        monthlyAmount: amount(),
        bankAccount: account(),
        entityId: c.entityId,
        survivalDue,
        lastCheckDate: lastCheck,
        beneficiaries: spouseShare
          ? [
              {
                cui: childCui(p.cui.slice(9, 13)),
                fullName: `${pick(['María', 'Ana', 'Rosa', 'José', 'Juan', 'Carlos'])} ${p.firstSurname}`,
                birthDate: `${Number(p.birthDate.slice(0, 4)) + 1 + Math.floor(rand() * 4)}-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}`,
                relationship: 'CONYUGE' as const,
                share: '100.0000',
              },
            ]
          : undefined,
      });
    }
    // The deceased: their pension ended at death; spouse (60 %) and a child (40 %) were its beneficiaries.
    const ended: {
      row: PensionRow & { beneficiaries: Omit<typeof pensionBeneficiaries.$inferInsert, 'pensionId'>[] };
      spouse: Person;
    }[] = [];
    dead.forEach((p, k) => {
      const c = ids.get(p.cui)!;
      const death = p.deathDate as string;
      const startDate = between(`${Number(death.slice(0, 4)) - 12}-01-01`, addDays(death, -200));
      const spouse = spouses[k];
      if (!spouse) return;
      const childBirth = `${Number(today.slice(0, 4)) - 6 - Math.floor(rand() * 10)}-0${1 + Math.floor(rand() * 9)}-2${Math.floor(rand() * 8)}`;
      ended.push({
        spouse,
        row: {
          contributorId: c.id,
          cui: p.cui,
          fullName: fullName(p),
          birthDate: p.birthDate,
          type: 'JUBILACION',
          resolutionNumber: resolutionNumber(startDate),
          resolutionDate: addDays(startDate, -30),
          startDate,
          endDate: death,
          monthlyAmount: amount(),
          bankAccount: account(),
          state: 'FINALIZADA',
          entityId: c.entityId,
          survivalDue: null,
          lastCheckDate: null,
          beneficiaries: [
            {
              cui: spouse.cui,
              fullName: fullName(spouse),
              birthDate: spouse.birthDate,
              relationship: 'CONYUGE',
              share: '60.0000',
            },
            {
              cui: childCui(p.cui.slice(9, 13)),
              fullName: `${pick(['Luis', 'Ana', 'Sofía', 'Diego', 'Lucía', 'Mateo'])} ${p.firstSurname}`,
              birthDate: childBirth,
              relationship: 'HIJO',
              share: '40.0000',
              endDate: orphanEndDate(childBirth, s),
            },
          ],
        },
      });
    });

    // Pensions of the living, then the ended ones (their beneficiaries' ids feed the survivor pensions).
    const insertPensions = async (list: typeof rows2) => {
      const out: { id: number; startDate: string; resolutionNumber: string; monthlyAmount: bigint; entityId: number | null }[] =
        [];
      await insertChunks(list, async (chunk) => {
        const ins = await tx
          .insert(pensions)
          .values(chunk.map(({ beneficiaries: _b, ...r }) => r))
          .returning({
            id: pensions.id,
            startDate: pensions.startDate,
            resolutionNumber: pensions.resolutionNumber,
            monthlyAmount: pensions.monthlyAmount,
            entityId: pensions.entityId,
          });
        out.push(...ins);
        const bens = chunk.flatMap((r, i) => (r.beneficiaries ?? []).map((b) => ({ ...b, pensionId: ins[i].id })));
        if (bens.length) await tx.insert(pensionBeneficiaries).values(bens);
      });
      await insertChunks(out, (chunk) =>
        tx.insert(pensionAmounts).values(
          chunk.map((p) => ({
            pensionId: p.id,
            monthlyAmount: p.monthlyAmount,
            effectiveFrom: p.startDate,
            reason: `Monto inicial (resolución ${p.resolutionNumber})`,
            createdByEmail: 'sistema',
          })),
        ),
      );
      return out;
    };
    const live = await insertPensions(rows2);
    const endedIds = await insertPensions(ended.map((e) => e.row));
    await insertChunks(endedIds, (chunk) =>
      tx.insert(stateTransitions).values(
        chunk.map((p) => ({
          entityType: 'pension',
          entityId: p.id,
          transition: 'PENSION_END',
          fromState: 'ACTIVA',
          toState: 'FINALIZADA',
          comment: 'Fallecimiento del pensionado (RENAP).',
          actorEmail: 'sistema',
          scopeEntityId: p.entityId,
        })),
      ),
    );
    const bens = endedIds.length
      ? await tx
          .select()
          .from(pensionBeneficiaries)
          .where(
            inArray(
              pensionBeneficiaries.pensionId,
              endedIds.map((p) => p.id),
            ),
          )
      : [];
    const survivorRows: typeof rows2 = [];
    ended.forEach((e, k) => {
      const pid = endedIds[k].id;
      const startDate = addDays(e.row.endDate as string, 1);
      for (const b of bens.filter((x) => x.pensionId === pid)) {
        const orphan = b.relationship === 'HIJO';
        if (orphan && b.endDate && b.endDate < today) continue;
        const { lastCheck, survivalDue } = checks(b.birthDate, startDate);
        survivorRows.push({
          contributorId: e.row.contributorId,
          cui: b.cui,
          fullName: b.fullName,
          birthDate: b.birthDate,
          type: orphan ? 'ORFANDAD' : 'VIUDEZ',
          resolutionNumber: resolutionNumber(startDate),
          resolutionDate: addDays(startDate, 20),
          startDate: addDays(startDate, 20),
          endDate: orphan ? b.endDate : null,
          monthlyAmount: ((e.row.monthlyAmount as bigint) * BigInt(orphan ? 40 : 60)) / 100n,
          bankAccount: account(),
          entityId: e.row.entityId,
          survivalDue,
          lastCheckDate: lastCheck,
          sourceBeneficiaryId: b.id,
        });
      }
    });
    const survivorIds = await insertPensions(survivorRows);

    // The checks presented: one row per pension with a last check (in person, or confirmed by RENAP).
    const withCheck = [
      ...rows2.map((r, i) => ({ r, id: live[i].id })),
      ...survivorRows.map((r, i) => ({ r, id: survivorIds[i].id })),
    ].filter((x) => x.r.lastCheckDate);
    await insertChunks(withCheck, (chunk) =>
      tx.insert(survivalChecks).values(
        chunk.map(({ r, id }) => {
          const covers = birthdayIn(r.birthDate, Number((r.lastCheckDate as string).slice(0, 4)));
          return {
            pensionId: id,
            checkDate: r.lastCheckDate as string,
            method: rand() < 0.85 ? ('PRESENCIAL' as const) : ('RENAP' as const),
            coversDue: covers <= (r.lastCheckDate as string) ? covers : birthdayIn(r.birthDate, Number(covers.slice(0, 4)) - 1),
            createdByEmail: 'sistema',
          };
        }),
      ),
    );

    // A few living pensioners die in the offline RENAP registry after their last check: the RENAP job finds them.
    const deaths = holders.filter((_, i) => i % 97 === 13).slice(0, opts.deaths ?? 8);
    for (const [i, p] of deaths.entries()) {
      await tx
        .update(renapPeople)
        .set({ deathDate: addDays(today, -(5 + i * 7)) })
        .where(sql`${renapPeople.cui} = ${p.cui}`);
    }
  });
  // Pensions beyond grace are suspended by the real daily job, as of today (their suspensions and history).
  await suspendOverdue(systemContext(db), today);
  // The last months' payrolls, generated and closed by the real service (the statistics' monthly payroll, the
  // pension pages' payments), and this month's left as a draft to review.
  const system = systemContext(db);
  const months: string[] = [];
  for (let p = periodOf(today), i = 0; i < (opts.payrollMonths ?? 3); i++) {
    p = previousPeriod(p);
    months.unshift(p);
  }
  for (const period of months) {
    await generatePayroll(system, { period });
    await closePayroll(system, { period });
  }
}

const dayDiff = daysBetween;
