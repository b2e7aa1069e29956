/**
 * Changing a pension: creating it (holder, beneficiaries, first amount), editing it, scheduling a new
 * amount, and suspending or ending it by hand. Reading a pension is in service.ts.
 */
import {
  AppError,
  type amountChangeInputSchema,
  amountOn,
  contributorFullName,
  decimalToCents,
  detail,
  eligibilityIssueView,
  type Message,
  msg,
  nextSurvivalDue,
  orphanEndDate,
  type PensionState,
  type PensionType,
  type pensionInputSchema,
  pensionMachine,
  type pensionUpdateSchema,
  periodOf,
  survivorPensionTypes,
} from '@aporta/domain';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  contributors,
  pensionAmounts,
  pensionBeneficiaries,
  pensionPayrolls,
  pensionSuspensions,
  pensions,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { toAppError } from '../../platform/db-errors.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { settingsAt } from '../settings/service.ts';
import { eligibilityOf } from './eligibility.ts';
import { DUPLICATE_OPEN, getPension, loadPension, today } from './service.ts';

type PensionData = z.output<typeof pensionInputSchema>;

/** A refusal naming one field: the message, and the same message as that field's detail. */
function refuse(code: 'VALIDATION' | 'CONFLICT' | 'DUPLICATE', path: string, m: Message): never {
  throw new AppError(code, m, [{ path, ...detail(m) }]);
}

/** Why a CUI cannot hold a survivor pension of each type. */
const notBeneficiary = {
  VIUDEZ: 'pensions.holderNotWidowhoodBeneficiary',
  ORFANDAD: 'pensions.holderNotOrphanhoodBeneficiary',
} as const;
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
export async function holderOf(ctx: RequestContext, cui: string, type: PensionType) {
  const inScopeContributor = ctx.inScope(contributors.entityId);
  const survivor = survivorPensionTypes.includes(type);
  if (!survivor) {
    const [c] = await ctx.db
      .select()
      .from(contributors)
      .where(and(eq(contributors.cui, cui), inScopeContributor))
      .limit(1);
    if (!c) refuse('VALIDATION', 'cui', msg('pensions.holderNotContributor'));
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
  if (!b) refuse('VALIDATION', 'cui', msg(notBeneficiary[type as keyof typeof notBeneficiary]));
  return {
    contributorId: b.contributorId,
    fullName: b.b.fullName,
    birthDate: b.b.birthDate,
    entityId: b.entityId,
    sourceBeneficiaryId: b.b.id,
    studyCertificateUntil: b.b.studyCertificateUntil,
  };
}

type Holder = Awaited<ReturnType<typeof holderOf>>;

/** The CUI of the contributor whose history a pension rests on: the holder's, or the deceased's for a survivor. */
async function contributorCuiOf(db: Db, holder: Holder, cui: string, type: PensionType): Promise<string> {
  if (!survivorPensionTypes.includes(type)) return cui;
  const [c] = await db.select({ cui: contributors.cui }).from(contributors).where(eq(contributors.id, holder.contributorId));
  return c?.cui ?? cui;
}

/** The eligibility of a pension about to be registered (holder already resolved in scope). */
export async function eligibilityFor(
  ctx: RequestContext,
  holder: Holder,
  data: { cui: string; type: PensionType; startDate: string },
) {
  return eligibilityOf(ctx.db, {
    type: data.type,
    holderCui: data.cui,
    birthDate: holder.birthDate,
    contributorCui: await contributorCuiOf(ctx.db, holder, data.cui, data.type),
    startDate: data.startDate,
  });
}

/**
 * Refuses a pension its type's rules exclude (400, each reason a detail on `type`); returns the
 * warnings, which the form showed the clerk before saving (POST /api/pensions/eligibility) and the
 * audit row keeps.
 */
async function checkEligibility(ctx: RequestContext, holder: Holder, data: PensionData) {
  const { issues } = await eligibilityFor(ctx, holder, data);
  const refusals = issues.filter((i) => i.severity === 'REFUSE');
  if (refusals.length) {
    throw new AppError(
      'VALIDATION',
      msg('pensions.eligibilityRefused'),
      refusals.map((i) => ({ path: 'type', ...detail(i.message) })),
    );
  }
  return issues.filter((i) => i.severity === 'WARN');
}

/** What registering a pension would find (the form asks before saving). Callers: passive-classes CREATE. */
export async function previewEligibility(ctx: RequestContext, input: { cui: string; type: PensionType; startDate: string }) {
  const holder = await holderOf(ctx, input.cui, input.type);
  const r = await eligibilityFor(ctx, holder, input);
  return {
    age: r.age,
    contributionMonths: r.contributionMonths,
    employment: r.employment,
    issues: r.issues.map(eligibilityIssueView),
  };
}

/** Creates a pension with its beneficiaries and first amount. Callers: passive-classes CREATE. */
export async function createPension(ctx: RequestContext, data: PensionData) {
  const holder = await holderOf(ctx, data.cui, data.type);
  const eligibility = await checkEligibility(ctx, holder, data);
  const [dup] = await ctx.db
    .select({ id: pensions.id })
    .from(pensions)
    .where(and(eq(pensions.cui, data.cui), eq(pensions.type, data.type), sql`${pensions.state} <> 'FINALIZADA'`))
    .limit(1);
  if (dup) refuse('DUPLICATE', 'type', DUPLICATE_OPEN);
  if (data.beneficiaries.some((b) => b.cui === data.cui)) refuse('VALIDATION', 'beneficiaries', msg('pensions.ownBeneficiary'));
  const s = (await settingsAt(ctx.db, data.startDate)).values;
  const endDate = data.type === 'ORFANDAD' ? orphanEndDate(holder.birthDate, s, holder.studyCertificateUntil) : null;
  if (endDate && endDate < data.startDate) refuse('VALIDATION', 'startDate', msg('pensions.orphanOverAge'));
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
          after: {
            ...row,
            monthlyAmount: data.monthlyAmount,
            beneficiaries: data.beneficiaries,
            ...(eligibility.length ? { eligibilityWarnings: eligibility.map((i) => i.message.text) } : {}),
          },
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
  if (before.state === 'FINALIZADA') throw new AppError('CONFLICT', msg('pensions.pensionEnded'));
  const { beneficiaries, ...fields } = input.data;
  if (beneficiaries?.some((b) => b.cui === before.cui)) refuse('VALIDATION', 'beneficiaries', msg('pensions.ownBeneficiary'));
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
  if (p.state === 'FINALIZADA') throw new AppError('CONFLICT', msg('pensions.pensionEnded'));
  if (data.effectiveFrom < p.startDate) refuse('VALIDATION', 'effectiveFrom', msg('pensions.amountChangeBeforeStart'));
  const closed = await closedPayrollFrom(ctx.db, periodOf(data.effectiveFrom));
  if (closed) refuse('VALIDATION', 'effectiveFrom', msg('pensions.amountChangeInClosedPayroll', { period: closed }));
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
  if (input.to === 'ACTIVA') refuse('CONFLICT', 'to', msg('pensions.reactivateBySurvival'));
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
