/**
 * The monthly pension payroll: generating (or regenerating) the draft of a month and closing it. The
 * payroll is the institution's: only an ALL grant works on it. Reading it is in payroll-reads.ts.
 */
import {
  AppError,
  addMonths,
  centsToDecimal,
  decimalToCents,
  detail,
  exclusionMessage,
  guatemalaToday,
  monthlyPayable,
  msg,
  type PensionPayroll,
  type pensionTypes,
  periodEnd,
  periodOf,
  periodStart,
  type SuspensionReason,
  text,
} from '@aporta/domain';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  pensionOwedMonths,
  pensionPayrollExceptions,
  pensionPayrollLines,
  pensionPayrolls,
  pensionSuspensions,
  pensions,
  renapLookups,
} from '../../db/schema/index.ts';
import { type RequestContext, requireAllScope } from '../../platform/context.ts';
import { toAppError } from '../../platform/db-errors.ts';
import { offlineRenap, type RenapAdapter } from '../renap/adapter.ts';
import { settingsAt } from '../settings/service.ts';
import { actOnDeath } from './deaths.ts';
import { EMPLOYED_STATES } from './eligibility.ts';
import { jobEnv } from './jobs.ts';
import { CLOSED_PAYROLL } from './service.ts';

/** The payroll is the institution's, not an entity's: only an ALL grant generates, closes or reads it. */
export const requireAll = (ctx: RequestContext) => requireAllScope(ctx, text('pensions.payrollNeedsAllScope'));

export const toPayroll = (r: typeof pensionPayrolls.$inferSelect): PensionPayroll => ({
  id: r.id,
  period: r.period,
  state: r.state,
  lines: r.lines,
  pensions: r.pensions,
  total: centsToDecimal(r.total),
  owedTotal: centsToDecimal(r.owedTotal),
  excludedSuspended: r.excludedSuspended,
  generatedAt: r.generatedAt.toISOString(),
  closedAt: r.closedAt?.toISOString() ?? null,
  closedBy: r.closedBy,
});

/** Lines written per INSERT. */
const INSERT_CHUNK = 2000;
/** Pensions read per query. */
const READ_CHUNK = 10_000;

/**
 * (Re)builds the draft payroll of `period`: one MENSUAL line per active pension running that month
 * (amount in force on the first day it runs, prorated by days at the start and end), none for
 * suspended ones (counted as excluded), one ATRASO line per month flagged owed. A closed payroll is
 * refused. Totals are the sums of the lines. Callers: `requestPayroll`; the seed, for past months'
 * history.
 */
/**
 * A payroll asked for by a person: a new one is for the current or the next month (the route's schema
 * refuses a later one); a month before the current one only when its draft exists, to correct it before
 * closing. Callers: passive-classes CREATE (scope ALL).
 */
export async function requestPayroll(ctx: RequestContext, input: { period: string }) {
  requireAll(ctx);
  const current = periodOf(guatemalaToday());
  if (input.period < current) {
    const [draft] = await ctx.db
      .select({ id: pensionPayrolls.id })
      .from(pensionPayrolls)
      .where(eq(pensionPayrolls.period, input.period));
    if (!draft) {
      const m = msg('pensions.payrollPeriodPast', { current, period: input.period });
      throw new AppError('VALIDATION', m, [{ path: 'period', ...detail(m) }]);
    }
  }
  return generatePayroll(ctx, input);
}

export async function generatePayroll(
  ctx: RequestContext,
  input: { period: string; onProgress?: (done: number) => Promise<void> },
) {
  requireAll(ctx);
  const { period } = input;
  const first = periodStart(period);
  const last = periodEnd(period);
  const [existing] = await ctx.db.select().from(pensionPayrolls).where(eq(pensionPayrolls.period, period));
  if (existing?.state === 'CERRADA')
    throw new AppError('CONFLICT', CLOSED_PAYROLL(period), [{ path: 'period', ...detail(CLOSED_PAYROLL(period)) }]);
  return ctx.db
    .transaction(async (tx) => {
      const db = tx as unknown as Db;
      let payrollId: number;
      if (existing) {
        payrollId = existing.id;
        await db.delete(pensionPayrollLines).where(eq(pensionPayrollLines.payrollId, payrollId));
        await db.delete(pensionPayrollExceptions).where(eq(pensionPayrollExceptions.payrollId, payrollId));
      } else {
        const [row] = await db
          .insert(pensionPayrolls)
          .values({ period, total: 0n, owedTotal: 0n, generatedBy: ctx.actor.email })
          .returning({ id: pensionPayrolls.id });
        payrollId = row.id;
      }
      let total = 0n;
      let owedTotal = 0n;
      let lines = 0;
      const paidPensions = new Set<number>();
      let buffer: (typeof pensionPayrollLines.$inferInsert)[] = [];
      // One array per column (unnest): a few parameters per chunk instead of eleven per line, which is
      // what the 100 000-pension payroll spent its time on (bench/pensions.mjs).
      const flush = async () => {
        if (!buffer.length) return;
        const col = <K extends keyof (typeof buffer)[number]>(k: K) => sql.param(buffer.map((l) => l[k] ?? null));
        await db.execute(sql`
          insert into ${pensionPayrollLines} (payroll_id, pension_id, kind, for_period, days, amount, bank_account, cui, full_name, type, entity_id)
          select * from unnest(${col('payrollId')}::int[], ${col('pensionId')}::int[], ${col('kind')}::text[], ${col('forPeriod')}::text[],
                               ${col('days')}::int[], ${sql.param(buffer.map((l) => centsToDecimal(l.amount as bigint)))}::numeric[],
                               ${col('bankAccount')}::text[], ${col('cui')}::text[], ${col('fullName')}::text[], ${col('type')}::text[],
                               ${col('entityId')}::int[])`);
        buffer = [];
      };
      let lastId = 0;
      for (;;) {
        const chunk = rowsOf<{
          id: number;
          cui: string;
          full_name: string;
          type: (typeof pensionTypes)[number];
          start_date: string;
          end_date: string | null;
          bank_account: string;
          entity_id: number | null;
          amount: string | null;
        }>(
          await db.execute(sql`
            select p.id, p.cui, p.full_name, p.type, p.start_date::text as start_date, p.end_date::text as end_date,
                   p.bank_account, p.entity_id,
                   (select a.monthly_amount::text from pension_amounts a
                     where a.pension_id = p.id and a.effective_from <= greatest(${first}::date, p.start_date)
                     order by a.effective_from desc limit 1) as amount
              from ${pensions} p
             where p.state = 'ACTIVA' and p.start_date <= ${last}::date
               and (p.end_date is null or p.end_date >= ${first}::date) and p.id > ${lastId}
             order by p.id limit ${READ_CHUNK}`),
        );
        if (!chunk.length) break;
        lastId = chunk[chunk.length - 1].id;
        const deaths = await deathsOf(ctx, db, chunk);
        for (const p of chunk) {
          if (!p.amount) continue;
          const death = deaths.get(p.cui);
          if (death && death <= last) {
            // RENAP records the death: suspended at once with a review (DOMAIN "Survival checks"), not paid;
            // the exclusion is listed below with the other suspended pensions.
            await actOnDeath(ctx, db, { id: p.id, state: 'ACTIVA', entityId: p.entity_id }, death);
            continue;
          }
          const due = monthlyPayable({ monthly: decimalToCents(p.amount), startDate: p.start_date, endDate: p.end_date }, period);
          if (due.days === 0 || due.cents === 0n) continue;
          total += due.cents;
          lines += 1;
          paidPensions.add(p.id);
          buffer.push({
            payrollId,
            pensionId: p.id,
            kind: 'MENSUAL',
            forPeriod: period,
            days: due.days,
            amount: due.cents,
            bankAccount: p.bank_account,
            cui: p.cui,
            fullName: p.full_name,
            type: p.type,
            entityId: p.entity_id,
          });
          if (buffer.length >= INSERT_CHUNK) await flush();
        }
        await flush();
        await input.onProgress?.(lines);
      }
      // Months flagged owed (suspension lifted), not yet paid by a closed payroll, of pensions that are active.
      const owed = await db
        .select({ o: pensionOwedMonths, p: pensions })
        .from(pensionOwedMonths)
        .innerJoin(pensions, eq(pensions.id, pensionOwedMonths.pensionId))
        .where(
          and(
            isNull(pensionOwedMonths.paidPayrollId),
            eq(pensions.state, 'ACTIVA'),
            sql`${pensionOwedMonths.period} <= ${period}`,
          ),
        )
        .orderBy(pensionOwedMonths.pensionId, pensionOwedMonths.period);
      for (const { o, p } of owed) {
        total += o.amount;
        owedTotal += o.amount;
        lines += 1;
        paidPensions.add(p.id);
        buffer.push({
          payrollId,
          pensionId: p.id,
          kind: 'ATRASO',
          forPeriod: o.period,
          days: o.days,
          amount: o.amount,
          bankAccount: p.bankAccount,
          cui: p.cui,
          fullName: p.fullName,
          type: p.type,
          entityId: p.entityId,
        });
        if (buffer.length >= INSERT_CHUNK) await flush();
      }
      await flush();
      await writeExceptions(db, payrollId, period);
      const [{ n: excluded }] = await db
        .select({ n: count() })
        .from(pensions)
        .where(and(eq(pensions.state, 'SUSPENDIDA'), sql`${pensions.startDate} <= ${last}::date`));
      const [row] = await db
        .update(pensionPayrolls)
        .set({
          lines,
          pensions: paidPensions.size,
          total,
          owedTotal,
          excludedSuspended: excluded,
          generatedAt: new Date(),
          generatedBy: ctx.actor.email,
        })
        .where(eq(pensionPayrolls.id, payrollId))
        .returning();
      await ctx.audit(
        {
          action: 'PAYROLL_GENERATE',
          entityType: 'pension_payroll',
          entityId: payrollId,
          after: { period, lines, total: centsToDecimal(total) },
        },
        db,
      );
      return toPayroll(row);
    })
    .catch((err) => {
      throw toAppError(err) ?? err;
    });
}

/**
 * The death dates RENAP records for a chunk of pensioners, each lookup logged. Asked in bulk only: the
 * offline registry answers a chunk in one query; a registry that answers one CUI at a time is not asked
 * here (a payroll of every pensioner would wait on it) — the periodic RENAP check acts on deaths there.
 */
async function deathsOf(ctx: RequestContext, db: Db, chunk: { cui: string }[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let adapter: RenapAdapter | null = null;
  try {
    adapter = jobEnv.adapter?.(ctx) ?? null;
  } catch {
    adapter = null;
  }
  // The offline registry is read in the payroll's transaction (one connection on PGlite: never beside it).
  if (adapter?.source === 'offline') adapter = offlineRenap(db);
  if (!adapter?.lookupMany || !chunk.length) return out;
  const cuis = [...new Set(chunk.map((p) => p.cui))];
  const found = await adapter.lookupMany(cuis);
  for (const person of found) if (person.deathDate) out.set(person.cui, person.deathDate);
  const known = new Set(found.map((x) => x.cui));
  // One statement per chunk, a column per array (the lines' way): a row of seven parameters per CUI went over
  // PostgreSQL's 65 535 parameters at ~9 300 pensioners (a 500), and building them cost the server's CPU.
  await db.execute(sql`
    insert into ${renapLookups} (user_id, user_email, cui, source, result, duration_ms, purpose)
    select ${ctx.actor.id}::int, ${ctx.actor.email}::text, c.cui, ${adapter.source}::text, c.result, 0, 'planilla de pensiones'
      from unnest(${sql.param(cuis)}::text[],
                  ${sql.param(cuis.map((cui) => (known.has(cui) ? 'ENCONTRADO' : 'NO_ENCONTRADO')))}::text[]) as c(cui, result)`);
  return out;
}

/**
 * What the payroll of `period` left out and pointed out: every suspended pension running that month
 * (EXCLUIDA, with its suspension's reason and date: a RENAP death, an overdue survival check, a manual
 * suspension), and every retirement or disability pension paid whose holder is on a sent, reviewed,
 * observed, approved or paid planilla of the last months (OBSERVADA, the newest such planilla named).
 */
async function writeExceptions(db: Db, payrollId: number, period: string) {
  const last = periodEnd(period);
  const suspended = await db
    .select({
      id: pensions.id,
      cui: pensions.cui,
      fullName: pensions.fullName,
      type: pensions.type,
      reason: pensionSuspensions.reason,
      fromDate: pensionSuspensions.fromDate,
    })
    .from(pensions)
    .leftJoin(pensionSuspensions, and(eq(pensionSuspensions.pensionId, pensions.id), isNull(pensionSuspensions.toDate)))
    .where(and(eq(pensions.state, 'SUSPENDIDA'), sql`${pensions.startDate} <= ${last}::date`))
    .orderBy(pensions.id);
  const seen = new Set<number>();
  const rows = suspended.flatMap((p) => {
    if (seen.has(p.id)) return [];
    seen.add(p.id);
    const m = exclusionMessage((p.reason ?? 'MANUAL') as SuspensionReason, p.fromDate ?? periodStart(period));
    return [
      {
        payrollId,
        pensionId: p.id,
        kind: 'EXCLUIDA' as const,
        reason: (p.reason ?? 'MANUAL') as SuspensionReason,
        cui: p.cui,
        fullName: p.fullName,
        type: p.type,
        messageKey: m.key,
        messageParams: m.params ?? {},
      },
    ];
  });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK)
    await db.insert(pensionPayrollExceptions).values(rows.slice(i, i + INSERT_CHUNK));
  const months = (await settingsAt(db, periodStart(period))).values['pensions.activeEmploymentMonths'];
  const from = addMonths(period, -(months - 1));
  await db.execute(sql`
    insert into ${pensionPayrollExceptions} (payroll_id, pension_id, kind, reason, cui, full_name, type, message_key, message_params)
    select distinct on (pl.pension_id) pl.payroll_id, pl.pension_id, 'OBSERVADA', 'EMPLEO_ACTIVO', pl.cui, pl.full_name, pl.type,
           'pensions.payrollFlaggedEmployed', jsonb_build_object('period', l.period, 'entity', e.name)
      from ${pensionPayrollLines} pl
      join planilla_lines l on l.cui = pl.cui and l.period >= ${from} and l.period <= ${period} and coalesce(l.movement, '') <> 'BAJA'
      join planillas p on p.id = l.planilla_id and p.state in ${EMPLOYED_STATES}
      join municipal_entities e on e.id = l.entity_id
     where pl.payroll_id = ${payrollId} and pl.kind = 'MENSUAL' and pl.type in ('JUBILACION', 'INVALIDEZ')
     order by pl.pension_id, l.period desc, e.name`);
}

/**
 * Closes the draft payroll of `period`: from then on it never changes (a trigger refuses it too), and
 * the owed months it pays are marked paid by it. Callers: passive-classes APPROVE (scope ALL).
 */
export async function closePayroll(ctx: RequestContext, input: { period: string }) {
  requireAll(ctx);
  const [p] = await ctx.db.select().from(pensionPayrolls).where(eq(pensionPayrolls.period, input.period));
  if (!p) throw new AppError('NOT_FOUND', msg('pensions.payrollNotGenerated', { period: input.period }));
  if (p.state === 'CERRADA') throw new AppError('CONFLICT', CLOSED_PAYROLL(input.period));
  return ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await db.execute(sql`
      update ${pensionOwedMonths} o set paid_payroll_id = ${p.id}
        from ${pensionPayrollLines} l
       where l.payroll_id = ${p.id} and l.kind = 'ATRASO' and l.pension_id = o.pension_id and l.for_period = o.period
         and o.paid_payroll_id is null`);
    const [row] = await db
      .update(pensionPayrolls)
      .set({ state: 'CERRADA', closedAt: new Date(), closedBy: ctx.actor.email })
      .where(and(eq(pensionPayrolls.id, p.id), eq(pensionPayrolls.state, 'BORRADOR')))
      .returning();
    if (!row) throw new AppError('CONFLICT', CLOSED_PAYROLL(input.period));
    await ctx.audit(
      {
        action: 'PAYROLL_CLOSE',
        entityType: 'pension_payroll',
        entityId: p.id,
        before: { state: 'BORRADOR' },
        after: { state: 'CERRADA' },
      },
      db,
    );
    return toPayroll(row);
  });
}
