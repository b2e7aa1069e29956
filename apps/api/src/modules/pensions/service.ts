import {
  AppError,
  type amountChangeInputSchema,
  amountOn,
  centsToDecimal,
  contributorFullName,
  decimalToCents,
  guatemalaToday,
  laterDate,
  monthlyPayable,
  nextSurvivalDue,
  orphanEndDate,
  type PensionDetail,
  type PensionListQuery,
  type PensionState,
  type PensionType,
  type pensionInputSchema,
  pensionMachine,
  pensionTypeLabels,
  type pensionUpdateSchema,
  periodOf,
  periodsBetween,
  survivalStatus,
  survivalWindow,
  survivorPensionTypes,
} from '@aporta/domain';
import { and, desc, eq, getTableColumns, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  auditLog,
  contributors,
  municipalEntities,
  pensionAmounts,
  pensionBeneficiaries,
  pensionOwedMonths,
  pensionPayrollLines,
  pensionPayrolls,
  pensionSuspensions,
  pensions,
} from '../../db/schema/index.ts';
import { auditHistoryPage } from '../../platform/audit.ts';
import type { RequestContext } from '../../platform/context.ts';
import { registerConstraintRules, toAppError } from '../../platform/db-errors.ts';
import { EXPORT_CHUNK_ROWS, type KeysetChunk, keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { applyTransition, availableTransitions, findTransitionHistory } from '../../platform/transitions.ts';
import { settingsAt } from '../settings/service.ts';

const DUPLICATE_OPEN = 'Esta persona ya tiene una pensión de ese tipo activa o suspendida.';
export const CLOSED_PAYROLL = (period: string) =>
  `La planilla de pensiones de ${period} está cerrada y no se modifica; las correcciones van en el mes siguiente.`;

registerConstraintRules({
  pensions_one_open_per_type: { path: 'type', message: DUPLICATE_OPEN },
  pension_amounts_from_key: { path: 'effectiveFrom', message: 'Ya hay un cambio de monto desde esa fecha.' },
  pension_beneficiaries_cui_key: { path: 'beneficiaries', message: 'Un CUI está repetido entre los beneficiarios.' },
  pension_payroll_closed: {
    path: 'period',
    message: 'La planilla de pensiones está cerrada y no se modifica.',
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
  if (!r) throw new AppError('NOT_FOUND', 'La pensión no existe o no está dentro de su alcance.');
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

type PensionData = z.output<typeof pensionInputSchema>;
type BeneficiaryData = PensionData['beneficiaries'][number];

/** End date of each beneficiary's right: orphans (HIJO) at the end age of the settings. */
async function beneficiaryRows(db: Db, pensionId: number, list: BeneficiaryData[], on: string) {
  const s = (await settingsAt(db, on)).values;
  return list.map((b) => ({
    pensionId,
    cui: b.cui,
    fullName: b.fullName,
    birthDate: b.birthDate,
    relationship: b.relationship,
    share: b.share,
    studyCertificateUntil: b.studyCertificateUntil ?? null,
    endDate: b.relationship === 'HIJO' ? orphanEndDate(b.birthDate, s, b.studyCertificateUntil) : null,
  }));
}

/**
 * The holder of a new pension: a contributor in scope (JUBILACION, INVALIDEZ) or a beneficiary of a
 * pension in scope (VIUDEZ, ORFANDAD, of that pension's contributor). 400 naming `cui` otherwise.
 */
async function holderOf(ctx: RequestContext, cui: string, type: PensionType) {
  const inScopeContributor = ctx.inScope(contributors.entityId);
  const survivor = survivorPensionTypes.includes(type);
  if (!survivor) {
    const [c] = await ctx.db
      .select()
      .from(contributors)
      .where(and(eq(contributors.cui, cui), inScopeContributor))
      .limit(1);
    if (!c) {
      const msg = 'El CUI no corresponde a un afiliado registrado (dentro de su alcance).';
      throw new AppError('VALIDATION', msg, [{ path: 'cui', message: msg }]);
    }
    return {
      contributorId: c.id,
      fullName: contributorFullName(c),
      birthDate: c.birthDate,
      entityId: c.entityId,
      sourceBeneficiaryId: null as number | null,
      studyCertificateUntil: null as string | null,
    };
  }
  const [b] = await ctx.db
    .select({ b: pensionBeneficiaries, contributorId: pensions.contributorId, entityId: pensions.entityId })
    .from(pensionBeneficiaries)
    .innerJoin(pensions, eq(pensions.id, pensionBeneficiaries.pensionId))
    .where(and(eq(pensionBeneficiaries.cui, cui), ctx.inScope(pensions.entityId)))
    .orderBy(desc(pensionBeneficiaries.id))
    .limit(1);
  if (!b) {
    const msg = `El CUI no corresponde a un beneficiario registrado en la pensión de un afiliado (dentro de su alcance): una pensión de ${pensionTypeLabels[type].toLowerCase()} se otorga a un beneficiario.`;
    throw new AppError('VALIDATION', msg, [{ path: 'cui', message: msg }]);
  }
  return {
    contributorId: b.contributorId,
    fullName: b.b.fullName,
    birthDate: b.b.birthDate,
    entityId: b.entityId,
    sourceBeneficiaryId: b.b.id,
    studyCertificateUntil: b.b.studyCertificateUntil,
  };
}

/** Creates a pension with its beneficiaries and first amount. Callers: passive-classes CREATE. */
export async function createPension(ctx: RequestContext, data: PensionData) {
  const holder = await holderOf(ctx, data.cui, data.type);
  const [dup] = await ctx.db
    .select({ id: pensions.id })
    .from(pensions)
    .where(and(eq(pensions.cui, data.cui), eq(pensions.type, data.type), sql`${pensions.state} <> 'FINALIZADA'`))
    .limit(1);
  if (dup) throw new AppError('DUPLICATE', DUPLICATE_OPEN, [{ path: 'type', message: DUPLICATE_OPEN }]);
  if (data.beneficiaries.some((b) => b.cui === data.cui)) {
    const msg = 'El pensionado no puede ser su propio beneficiario.';
    throw new AppError('VALIDATION', msg, [{ path: 'beneficiaries', message: msg }]);
  }
  const s = (await settingsAt(ctx.db, data.startDate)).values;
  const endDate = data.type === 'ORFANDAD' ? orphanEndDate(holder.birthDate, s, holder.studyCertificateUntil) : null;
  if (endDate && endDate < data.startDate) {
    const msg = 'El huérfano ya superó la edad de la pensión de orfandad en la fecha de inicio.';
    throw new AppError('VALIDATION', msg, [{ path: 'startDate', message: msg }]);
  }
  const monthly = decimalToCents(data.monthlyAmount);
  const id = await ctx.db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(pensions)
        .values({
          contributorId: holder.contributorId,
          cui: data.cui,
          fullName: holder.fullName,
          birthDate: holder.birthDate,
          type: data.type,
          resolutionNumber: data.resolutionNumber,
          resolutionDate: data.resolutionDate,
          startDate: data.startDate,
          endDate,
          monthlyAmount: monthly,
          bankAccount: data.bankAccount,
          entityId: holder.entityId,
          survivalDue: nextSurvivalDue(holder.birthDate, data.startDate),
          sourceBeneficiaryId: holder.sourceBeneficiaryId,
          createdBy: ctx.actor.id,
        })
        .returning();
      await tx.insert(pensionAmounts).values({
        pensionId: row.id,
        monthlyAmount: monthly,
        effectiveFrom: data.startDate,
        reason: `Monto inicial (resolución ${data.resolutionNumber})`,
        createdBy: ctx.actor.id,
        createdByEmail: ctx.actor.email,
      });
      if (data.beneficiaries.length) {
        await tx
          .insert(pensionBeneficiaries)
          .values(await beneficiaryRows(tx as unknown as Db, row.id, data.beneficiaries, data.startDate));
      }
      await ctx.audit(
        {
          action: 'CREATE',
          entityType: 'pension',
          entityId: row.id,
          after: { ...row, monthlyAmount: data.monthlyAmount, beneficiaries: data.beneficiaries },
          scopeEntityId: row.entityId,
        },
        tx,
      );
      return row.id;
    })
    .catch((err) => {
      throw toAppError(err) ?? err;
    });
  return getPension(ctx, { id });
}

/** Edits the resolution number, bank account or beneficiaries. Callers: passive-classes UPDATE. */
export async function updatePension(ctx: RequestContext, input: { id: number; data: z.output<typeof pensionUpdateSchema> }) {
  const before = await loadPension(ctx.db, input.id, ctx.inScope(pensions.entityId));
  if (before.state === 'FINALIZADA') throw new AppError('CONFLICT', 'La pensión está finalizada y no admite cambios.');
  const { beneficiaries, ...fields } = input.data;
  if (beneficiaries?.some((b) => b.cui === before.cui)) {
    const msg = 'El pensionado no puede ser su propio beneficiario.';
    throw new AppError('VALIDATION', msg, [{ path: 'beneficiaries', message: msg }]);
  }
  await ctx.db
    .transaction(async (tx) => {
      const [row] = await tx
        .update(pensions)
        .set({ ...fields, updatedAt: new Date() })
        .where(eq(pensions.id, input.id))
        .returning();
      let beforeBen: unknown;
      if (beneficiaries) {
        beforeBen = await tx.select().from(pensionBeneficiaries).where(eq(pensionBeneficiaries.pensionId, input.id));
        await tx.delete(pensionBeneficiaries).where(eq(pensionBeneficiaries.pensionId, input.id));
        if (beneficiaries.length)
          await tx
            .insert(pensionBeneficiaries)
            .values(await beneficiaryRows(tx as unknown as Db, input.id, beneficiaries, today()));
      }
      await ctx.audit(
        {
          action: 'UPDATE',
          entityType: 'pension',
          entityId: input.id,
          before: { resolutionNumber: before.resolutionNumber, bankAccount: before.bankAccount, beneficiaries: beforeBen },
          after: { resolutionNumber: row.resolutionNumber, bankAccount: row.bankAccount, beneficiaries },
          scopeEntityId: row.entityId,
        },
        tx,
      );
    })
    .catch((err) => {
      throw toAppError(err) ?? err;
    });
  return getPension(ctx, { id: input.id });
}

/** The period of a closed payroll on or after `period`, if any (changes may not reach into one). */
async function closedPayrollFrom(db: Db, period: string): Promise<string | null> {
  const [r] = await db
    .select({ period: pensionPayrolls.period })
    .from(pensionPayrolls)
    .where(and(eq(pensionPayrolls.state, 'CERRADA'), sql`${pensionPayrolls.period} >= ${period}`))
    .orderBy(desc(pensionPayrolls.period))
    .limit(1);
  return r?.period ?? null;
}

/**
 * Schedules a new monthly amount from a date; earlier amounts are kept. A date inside a month whose
 * payroll is closed is refused (corrections go in the next month). Callers: passive-classes UPDATE.
 */
export async function changePensionAmount(
  ctx: RequestContext,
  input: { id: number; data: z.output<typeof amountChangeInputSchema> },
) {
  const p = await loadPension(ctx.db, input.id, ctx.inScope(pensions.entityId));
  const { data } = input;
  if (p.state === 'FINALIZADA') throw new AppError('CONFLICT', 'La pensión está finalizada y no admite cambios.');
  if (data.effectiveFrom < p.startDate) {
    const msg = 'El cambio no puede regir antes del inicio de la pensión.';
    throw new AppError('VALIDATION', msg, [{ path: 'effectiveFrom', message: msg }]);
  }
  const closed = await closedPayrollFrom(ctx.db, periodOf(data.effectiveFrom));
  if (closed) {
    const msg = `${CLOSED_PAYROLL(closed)} El cambio debe regir desde un mes sin planilla cerrada.`;
    throw new AppError('VALIDATION', msg, [{ path: 'effectiveFrom', message: msg }]);
  }
  const cents = decimalToCents(data.monthlyAmount);
  await ctx.db
    .transaction(async (tx) => {
      await tx.insert(pensionAmounts).values({
        pensionId: p.id,
        monthlyAmount: cents,
        effectiveFrom: data.effectiveFrom,
        reason: data.reason,
        createdBy: ctx.actor.id,
        createdByEmail: ctx.actor.email,
      });
      const all = await tx.select().from(pensionAmounts).where(eq(pensionAmounts.pensionId, p.id));
      const current = amountOn(all, today()) ?? amountOn(all, p.startDate) ?? all[0];
      await tx.update(pensions).set({ monthlyAmount: current.monthlyAmount, updatedAt: new Date() }).where(eq(pensions.id, p.id));
      await ctx.audit(
        {
          action: 'AMOUNT_CHANGE',
          entityType: 'pension',
          entityId: p.id,
          before: { monthlyAmount: p.monthlyAmount },
          after: { monthlyAmount: data.monthlyAmount, effectiveFrom: data.effectiveFrom, reason: data.reason },
          scopeEntityId: p.entityId,
        },
        tx,
      );
    })
    .catch((err) => {
      throw toAppError(err) ?? err;
    });
  return getPension(ctx, { id: p.id });
}

/**
 * Suspends (MANUAL) or ends a pension through the machine. Reactivation is refused here: it follows a
 * survival check (or a death review found wrong). Callers: the transition's own permission.
 */
export async function transitionPension(
  ctx: RequestContext,
  input: { id: number; to: PensionState; comment?: string | null; expected?: PensionState },
) {
  if (input.to === 'ACTIVA') {
    const msg = 'Una pensión suspendida se reactiva al registrar su supervivencia (o al descartar la revisión de fallecimiento).';
    throw new AppError('CONFLICT', msg, [{ path: 'to', message: msg }]);
  }
  await ctx.db.transaction(async (tx) => {
    const day = today();
    const applied = await applyTransition(ctx, {
      tx: tx as unknown as Db,
      machine: pensionMachine,
      table: pensions,
      id: input.id,
      to: input.to,
      comment: input.comment,
      expected: input.expected,
      entityId: pensions.entityId,
      set: () =>
        ({
          updatedAt: new Date(),
          ...(input.to === 'FINALIZADA' ? { endDate: sql`coalesce(${pensions.endDate}, ${day}::date)` } : {}),
        }) as never,
    });
    if (input.to === 'SUSPENDIDA') {
      await tx
        .insert(pensionSuspensions)
        .values({ pensionId: input.id, reason: 'MANUAL', fromDate: day, comment: applied.comment });
    } else if (applied.from === 'SUSPENDIDA') {
      await tx
        .update(pensionSuspensions)
        .set({ toDate: day })
        .where(and(eq(pensionSuspensions.pensionId, input.id), isNull(pensionSuspensions.toDate)));
    }
  });
  return getPension(ctx, { id: input.id });
}

/**
 * Flags the months a pension was not paid while suspended (from the suspension's first month to the
 * reactivation's) for payment: every month without a line in a closed payroll, except the current
 * month while its payroll is not closed (that payroll pays it as usual). Amount: what the month would
 * have paid (the amount in force then, prorated at the pension's start and end).
 */
export async function flagOwedMonths(tx: Db, pensionId: number, suspensionId: number, fromDate: string, reactivatedOn: string) {
  const [p] = await tx.select().from(pensions).where(eq(pensions.id, pensionId));
  const amounts = await tx.select().from(pensionAmounts).where(eq(pensionAmounts.pensionId, pensionId));
  const current = periodOf(reactivatedOn);
  const [currentClosed] = await tx
    .select({ id: pensionPayrolls.id })
    .from(pensionPayrolls)
    .where(and(eq(pensionPayrolls.period, current), eq(pensionPayrolls.state, 'CERRADA')));
  const paid = new Set(
    (
      await tx
        .select({ period: pensionPayrollLines.forPeriod })
        .from(pensionPayrollLines)
        .innerJoin(pensionPayrolls, eq(pensionPayrolls.id, pensionPayrollLines.payrollId))
        .where(and(eq(pensionPayrollLines.pensionId, pensionId), eq(pensionPayrolls.state, 'CERRADA')))
    ).map((r) => r.period),
  );
  const already = new Set(
    (
      await tx
        .select({ period: pensionOwedMonths.period })
        .from(pensionOwedMonths)
        .where(eq(pensionOwedMonths.pensionId, pensionId))
    ).map((r) => r.period),
  );
  const rows = [];
  for (const period of periodsBetween(periodOf(fromDate), current)) {
    if (paid.has(period) || already.has(period)) continue;
    if (period === current && !currentClosed) continue;
    const firstDay = laterDate(`${period}-01`, p.startDate);
    const a = amountOn(amounts, firstDay);
    if (!a) continue;
    const due = monthlyPayable({ monthly: a.monthlyAmount, startDate: p.startDate, endDate: p.endDate }, period);
    if (due.days === 0) continue;
    rows.push({ pensionId, suspensionId, period, days: due.days, amount: due.cents });
  }
  if (rows.length) await tx.insert(pensionOwedMonths).values(rows);
  return rows;
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
