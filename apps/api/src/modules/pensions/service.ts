/**
 * Reading pensions: the list and its export, one pension with its detail, its history and transitions;
 * the shared query (`pensionQuery`, `toPension`, `loadPension`) the module's other files build on, and the
 * module's constraint messages. Changes are in pension-changes.ts.
 */
import {
  AppError,
  centsToDecimal,
  contributorFullName,
  guatemalaToday,
  type Message,
  msg,
  type PensionDetail,
  type PensionListQuery,
  pensionMachine,
  survivalStatus,
  survivalWindow,
  text,
} from '@aporta/domain';
import { and, desc, eq, getTableColumns, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  auditLog,
  contributors,
  municipalEntities,
  pensionAmounts,
  pensionBeneficiaries,
  pensionOwedMonths,
  pensionPayrolls,
  pensionSuspensions,
  pensions,
} from '../../db/schema/index.ts';
import { auditHistoryPage } from '../../platform/audit.ts';
import type { RequestContext } from '../../platform/context.ts';
import { registerConstraintRules } from '../../platform/db-errors.ts';
import { EXPORT_CHUNK_ROWS, type KeysetChunk, keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { availableTransitions, findTransitionHistory } from '../../platform/transitions.ts';
import { settingsAt } from '../settings/service.ts';

export const DUPLICATE_OPEN = msg('pensions.duplicateOpen');
export const CLOSED_PAYROLL = (period: string): Message => msg('pensions.payrollPeriodClosed', { period });

// Constraint rules carry the catalogue's fixed texts; the error handler finds their keys.
registerConstraintRules({
  pensions_one_open_per_type: { path: 'type', message: DUPLICATE_OPEN.text },
  pension_amounts_from_key: { path: 'effectiveFrom', message: text('pensions.amountChangeDateTaken') },
  pension_beneficiaries_cui_key: { path: 'beneficiaries', message: text('pensions.beneficiaryCuiDuplicate') },
  pension_payroll_closed: {
    path: 'period',
    message: text('pensions.payrollClosed'),
    code: 'CONFLICT',
  },
});

export const today = () => guatemalaToday();

const selection = {
  ...getTableColumns(pensions),
  entityName: municipalEntities.name,
  contributorCui: contributors.cui,
  contributorFirstName: contributors.firstName,
  contributorSecondName: contributors.secondName,
  contributorFirstSurname: contributors.firstSurname,
  contributorSecondSurname: contributors.secondSurname,
};

export const pensionQuery = (db: Db) =>
  db
    .select(selection)
    .from(pensions)
    .innerJoin(contributors, eq(contributors.id, pensions.contributorId))
    .leftJoin(municipalEntities, eq(municipalEntities.id, pensions.entityId));

type Joined = Awaited<ReturnType<ReturnType<typeof pensionQuery>['execute']>>[number];

export const toPension = (r: Joined) => ({
  id: r.id,
  contributorId: r.contributorId,
  contributorCui: r.contributorCui,
  contributorName: contributorFullName({
    firstName: r.contributorFirstName,
    secondName: r.contributorSecondName,
    firstSurname: r.contributorFirstSurname,
    secondSurname: r.contributorSecondSurname,
  }),
  cui: r.cui,
  fullName: r.fullName,
  birthDate: r.birthDate,
  type: r.type,
  resolutionNumber: r.resolutionNumber,
  resolutionDate: r.resolutionDate,
  startDate: r.startDate,
  endDate: r.endDate,
  monthlyAmount: centsToDecimal(r.monthlyAmount),
  bankAccount: r.bankAccount,
  state: r.state,
  entityId: r.entityId,
  entityName: r.entityName,
  survivalDue: r.survivalDue,
  lastCheckDate: r.lastCheckDate,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
export type PensionView = ReturnType<typeof toPension>;

const sortable = {
  id: pensions.id,
  cui: pensions.cui,
  fullName: pensions.fullName,
  type: pensions.type,
  state: pensions.state,
  startDate: pensions.startDate,
  survivalDue: pensions.survivalDue,
  monthlyAmount: pensions.monthlyAmount,
  updatedAt: pensions.updatedAt,
};

function filters(inScope: SQL | undefined, q: Partial<PensionListQuery>): SQL | undefined {
  const where: (SQL | undefined)[] = [inScope];
  if (q.type) where.push(eq(pensions.type, q.type));
  if (q.state) where.push(eq(pensions.state, q.state));
  if (q.entityId) where.push(eq(pensions.entityId, q.entityId));
  if (q.contributorId) where.push(eq(pensions.contributorId, q.contributorId));
  const text = q.q?.trim();
  if (text) {
    const digits = text.replace(/[\s-]/g, '');
    if (/^\d+$/.test(digits)) where.push(like(pensions.cui, likePattern(digits, 'prefix')));
    else
      where.push(
        or(
          sql`upper(${pensions.fullName}) like upper(${likePattern(text)})`,
          sql`upper(${pensions.resolutionNumber}) like upper(${likePattern(text)})`,
        ),
      );
  }
  const present = where.filter((w): w is SQL => !!w);
  return present.length ? and(...present) : undefined;
}

/** The pension list within scope. Callers: passive-classes READ. */
export async function findPensions(ctx: RequestContext, query: PensionListQuery) {
  const where = filters(ctx.inScope(pensions.entityId), query);
  const page = await listPage(ctx.db, {
    query,
    sortable,
    defaultSort: '-updatedAt',
    rows: (c) =>
      pensionQuery(ctx.db)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: pensions.id }).from(pensions).where(where),
  });
  return { ...page, items: page.items.map(toPension) };
}

/** The export's rows in keyset chunks. Callers: passive-classes EXPORT. */
export function exportPensionBatches(ctx: RequestContext, query: Partial<PensionListQuery>) {
  const keyset = keysetOf(query.sort, sortable, 'id');
  const where = filters(ctx.inScope(pensions.entityId), query);
  return keysetBatches(
    keyset,
    async (c: KeysetChunk) =>
      (
        await pensionQuery(ctx.db)
          .where(and(where, c.after))
          .orderBy(...c.order)
          .limit(c.limit)
      ).map(toPension),
    (r) => r.id,
    EXPORT_CHUNK_ROWS,
  );
}

/** One pension within `inScope`; 404 otherwise. */
export async function loadPension(db: Db, id: number, inScope: SQL | undefined): Promise<PensionView> {
  const [r] = await pensionQuery(db)
    .where(and(eq(pensions.id, id), inScope))
    .limit(1);
  if (!r) throw new AppError('NOT_FOUND', msg('pensions.notFound'));
  return toPension(r);
}

/** A pension with its beneficiaries, amounts, suspensions, owed months and survival window. Callers: passive-classes READ. */
export async function getPension(ctx: RequestContext, input: { id: number }): Promise<PensionDetail> {
  const p = await loadPension(ctx.db, input.id, ctx.inScope(pensions.entityId));
  const [beneficiaries, amounts, suspensions, owed, settings, transitions] = await Promise.all([
    ctx.db.select().from(pensionBeneficiaries).where(eq(pensionBeneficiaries.pensionId, p.id)).orderBy(pensionBeneficiaries.id),
    ctx.db.select().from(pensionAmounts).where(eq(pensionAmounts.pensionId, p.id)).orderBy(desc(pensionAmounts.effectiveFrom)),
    ctx.db
      .select()
      .from(pensionSuspensions)
      .where(eq(pensionSuspensions.pensionId, p.id))
      .orderBy(desc(pensionSuspensions.fromDate)),
    ctx.db
      .select({ period: pensionOwedMonths.period, amount: pensionOwedMonths.amount, paidIn: pensionPayrolls.period })
      .from(pensionOwedMonths)
      .leftJoin(pensionPayrolls, eq(pensionPayrolls.id, pensionOwedMonths.paidPayrollId))
      .where(eq(pensionOwedMonths.pensionId, p.id))
      .orderBy(pensionOwedMonths.period),
    settingsAt(ctx.db, today()),
    availableTransitions(ctx, pensionMachine, [{ id: p.id, state: p.state, entityId: p.entityId }]),
  ]);
  const w = p.survivalDue && p.state !== 'FINALIZADA' ? survivalWindow(p.survivalDue, settings.values) : null;
  return {
    ...p,
    beneficiaries: beneficiaries.map((b) => ({
      id: b.id,
      cui: b.cui,
      fullName: b.fullName,
      birthDate: b.birthDate,
      relationship: b.relationship,
      share: b.share,
      studyCertificateUntil: b.studyCertificateUntil,
      endDate: b.endDate,
    })),
    amounts: amounts.map((a) => ({
      id: a.id,
      monthlyAmount: centsToDecimal(a.monthlyAmount),
      effectiveFrom: a.effectiveFrom,
      reason: a.reason,
      createdAt: a.createdAt.toISOString(),
      createdBy: a.createdByEmail,
    })),
    suspensions: suspensions.map((s) => ({
      id: s.id,
      reason: s.reason,
      fromDate: s.fromDate,
      toDate: s.toDate,
      comment: s.comment,
    })),
    owedMonths: owed.map((o) => ({ period: o.period, amount: centsToDecimal(o.amount), paidInPayrollPeriod: o.paidIn })),
    survivalStatus: w && p.survivalDue ? survivalStatus(p.survivalDue, today(), settings.values) : null,
    survivalWindowEnd: w?.windowEnd ?? null,
    survivalGraceEnd: w?.graceEnd ?? null,
    transitions: transitions.get(p.id) ?? [],
  };
}

/** A pension's change history (audit rows of the pension). Callers: passive-classes READ. */
export async function pensionHistory(ctx: RequestContext, input: { id: number; page: number; pageSize: number }) {
  await loadPension(ctx.db, input.id, ctx.inScope(pensions.entityId));
  const cond = and(eq(auditLog.entityType, 'pension'), eq(auditLog.entityId, String(input.id)));
  return auditHistoryPage(ctx, cond, input, new Set(['updatedAt', 'createdAt', 'createdBy', 'id']));
}

/** Pension state history (transitions with reasons). Callers: passive-classes READ. */
export async function pensionTransitions(ctx: RequestContext, input: { id: number }) {
  await loadPension(ctx.db, input.id, ctx.inScope(pensions.entityId));
  return { items: await findTransitionHistory(ctx.db, pensionMachine, input.id) };
}

/** Pensions of one contributor (the 360° page's tab). */
export async function pensionsOfContributor(ctx: RequestContext, contributorId: number) {
  return findPensions(ctx, { contributorId, page: 1, pageSize: 50 });
}

export const inArrayIds = (ids: number[]) => inArray(pensions.id, ids);
