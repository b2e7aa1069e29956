import {
  AppError,
  centsToDecimal,
  decimalToCents,
  formatPaymentReference,
  formatPeriod,
  guatemalaToday,
  type LegalCase,
  type LegalCaseListItem,
  type LegalCaseListQuery,
  type LegalDeadline,
  type LegalStage,
  legalCaseMachine,
  legalCaseNumber,
  legalStageLabels,
  msg,
  orderKindLabels,
  stageProblem,
  toAvailable,
} from '@aporta/domain';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  legalCaseActions,
  legalCaseDocuments,
  legalCaseItems,
  legalCases,
  municipalEntities,
  paymentAgreements,
  users,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { listPage, type Page } from '../../platform/list.ts';
import { scopedEntityOr404 } from '../../platform/scope.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { noticesOfEntity } from '../financial/notices.ts';
import { balanceSql, interestRates } from '../payments/orders.ts';

/**
 * Collection cases (issue 14): opened against an entity in arrears (in one click from the ranking),
 * covering its overdue orders and agreements with their amount then and now; stages through the machine
 * (CONVENIO needs an agreement in force, CERRADO the debt paid or an agreement); actions, deadlines
 * with daily reminders, attached documents (kept in Documentos, in the entity's folder).
 * This file: opening a case, reading cases, moving one through its stages, and the case lock the other
 * files take; actions and documents are in proceedings.ts, deadlines and their reminders in deadlines.ts.
 */

const c = legalCases;
const d = (s: string | null | undefined) => centsToDecimal(decimalToCents(s ?? '0'));
const notFound = () => new AppError('NOT_FOUND', msg('legal.notFound'));

/** What each item of the case owes today: an order's balance, an agreement's live balance. */
async function itemsNow(db: Db, caseId: number, asOf: string) {
  const rates = await interestRates(db);
  const { balance } = balanceSql(rates, asOf, sql.raw('o'));
  const agBalance = balanceSql(rates, asOf, sql.raw('o2')).balance;
  return rowsOf<{
    order_id: number | null;
    agreement_id: number | null;
    at_opening: string;
    now: string;
    label: string;
  }>(
    await db.execute(sql`
      select i.order_id, i.agreement_id, i.amount_at_opening::text as at_opening,
        coalesce(case when i.order_id is not null then (select ${balance} from payment_orders o where o.id = i.order_id)
          else (select coalesce(sum(${agBalance}), 0) from payment_agreement_orders x join payment_orders o2 on o2.id = x.order_id
                where x.agreement_id = i.agreement_id and x.role = 'CUOTA' and x.replaced_at is null) end, 0)::text as now,
        coalesce((select o.kind || ' ' || o.period || ' ' || o.reference from payment_orders o where o.id = i.order_id),
                 (select a.number from payment_agreements a where a.id = i.agreement_id)) as label
      from legal_case_items i where i.case_id = ${caseId} order by i.id`),
  );
}

/**
 * Opens a case for an entity in arrears: it covers its overdue orders (instalments of an agreement are
 * counted through the agreement) and its agreements in force or in default, each with what it owes
 * today. One open case per entity (a second is refused, naming the first).
 */
export async function openCase(ctx: RequestContext, input: { entityId: number }): Promise<LegalCase> {
  const entity = await scopedEntityOr404(ctx, input.entityId);
  const today = guatemalaToday();
  const id = await ctx.db.transaction(async (tx) => {
    const [open] = await tx
      .select({ number: c.number })
      .from(c)
      .where(and(eq(c.entityId, entity.id), sql`${c.state} <> 'CERRADO'`));
    if (open) throw new AppError('CONFLICT', msg('legal.alreadyOpen', { number: open.number }));
    const rates = await interestRates(tx);
    const { balance } = balanceSql(rates, today, sql.raw('o'));
    const orders = rowsOf<{ id: number; amount: string }>(
      await tx.execute(sql`
        select o.id, (${balance})::text as amount from payment_orders o
        where o.entity_id = ${entity.id} and o.state = 'EMITIDA' and o.due_date < ${today}::date and o.kind <> 'CONVENIO'
        order by o.due_date, o.id`),
    );
    const agBalance = balanceSql(rates, today, sql.raw('o')).balance;
    const agreements = rowsOf<{ id: number; amount: string }>(
      await tx.execute(sql`
        select a.id, (select coalesce(sum(${agBalance}), 0) from payment_agreement_orders x join payment_orders o on o.id = x.order_id
                      where x.agreement_id = a.id and x.role = 'CUOTA' and x.replaced_at is null)::text as amount
        from payment_agreements a where a.entity_id = ${entity.id} and a.state in ('VIGENTE', 'INCUMPLIDO') order by a.id`),
    ).filter((a) => decimalToCents(a.amount) > 0n);
    const total = [...orders, ...agreements].reduce((s, x) => s + decimalToCents(x.amount), 0n);
    if (total <= 0n) throw new AppError('CONFLICT', msg('legal.nothingToCollect'));
    const [row] = await tx
      .insert(c)
      .values({
        number: `EXP-TMP-${ctx.actor.id}-${Date.now()}-${Math.random()}`,
        entityId: entity.id,
        openedOn: today,
        amountAtOpening: total,
        lawyerId: ctx.actor.id,
        createdBy: ctx.actor.id,
      })
      .returning({ id: c.id });
    const number = legalCaseNumber(today.slice(0, 4), row.id);
    await tx.update(c).set({ number }).where(eq(c.id, row.id));
    await tx
      .insert(legalCaseItems)
      .values([
        ...orders.map((o) => ({ caseId: row.id, orderId: Number(o.id), amountAtOpening: decimalToCents(o.amount) })),
        ...agreements.map((a) => ({ caseId: row.id, agreementId: Number(a.id), amountAtOpening: decimalToCents(a.amount) })),
      ]);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'legal-case',
        entityId: row.id,
        after: { numero: number, entidad: entity.name, monto: centsToDecimal(total) },
        scopeEntityId: entity.id,
      },
      tx,
    );
    return row.id;
  });
  return getCase(ctx, { id });
}

// ─── Reading ────────────────────────────────────────────────────────────────────────────────────────

const lawyerName = sql<string | null>`(select u.email from ${users} u where u.id = ${c.lawyerId})`;
const nextDeadline = sql<
  string | null
>`(select min(dl.due_date)::text from legal_case_deadlines dl where dl.case_id = ${c.id} and not dl.done)`;

function selectCases(db: Db) {
  return db
    .select({ c, entityName: municipalEntities.name, lawyer: lawyerName, nextDeadline })
    .from(c)
    .innerJoin(municipalEntities, eq(municipalEntities.id, c.entityId));
}
type Row = Awaited<ReturnType<ReturnType<typeof selectCases>['where']>>[number];

const toItem = (r: Row, amountNow: string): LegalCaseListItem => ({
  id: r.c.id,
  number: r.c.number,
  entityId: r.c.entityId,
  entityName: r.entityName,
  stage: r.c.state,
  openedOn: r.c.openedOn,
  amountAtOpening: centsToDecimal(r.c.amountAtOpening),
  amountNow,
  lawyer: r.lawyer,
  nextDeadline: r.nextDeadline,
});

const sumNow = (rows: { now: string }[]) => centsToDecimal(rows.reduce((s, x) => s + decimalToCents(x.now), 0n));

export async function findCases(ctx: RequestContext, q: LegalCaseListQuery): Promise<Page<LegalCaseListItem>> {
  const where: (SQL | undefined)[] = [ctx.inScope(c.entityId)];
  if (q.stage) where.push(eq(c.state, q.stage));
  if (q.entityId) where.push(eq(c.entityId, q.entityId));
  const text = q.q?.trim();
  if (text) where.push(sql`(${c.number} ilike ${`%${text}%`} or ${municipalEntities.name} ilike ${`%${text}%`})`);
  const cond = and(...where);
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: c.id, openedOn: c.openedOn },
    defaultSort: '-id',
    rows: (x) =>
      selectCases(ctx.db)
        .where(and(cond, x.where))
        .orderBy(...x.order)
        .limit(x.limit)
        .offset(x.offset),
    idOf: (r) => r.c.id,
    count: () =>
      ctx.db.select({ id: c.id }).from(c).innerJoin(municipalEntities, eq(municipalEntities.id, c.entityId)).where(cond),
  });
  const today = guatemalaToday();
  const items: LegalCaseListItem[] = [];
  for (const r of page.items) items.push(toItem(r, sumNow(await itemsNow(ctx.db, r.c.id, today))));
  return { ...page, items };
}

export async function getCase(ctx: RequestContext, input: { id: number }): Promise<LegalCase> {
  const [r] = await selectCases(ctx.db).where(and(eq(c.id, input.id), ctx.inScope(c.entityId)));
  if (!r) throw notFound();
  const today = guatemalaToday();
  const items = await itemsNow(ctx.db, r.c.id, today);
  const actions = await ctx.db
    .select({ a: legalCaseActions, lawyer: users.email })
    .from(legalCaseActions)
    .leftJoin(users, eq(users.id, legalCaseActions.lawyerId))
    .where(eq(legalCaseActions.caseId, r.c.id))
    .orderBy(desc(legalCaseActions.actionDate), desc(legalCaseActions.id));
  const deadlines = await deadlinesWhere(ctx.db, sql`dl.case_id = ${r.c.id}`);
  const docs = await ctx.db
    .select()
    .from(legalCaseDocuments)
    .where(eq(legalCaseDocuments.caseId, r.c.id))
    .orderBy(legalCaseDocuments.id);
  const transitions =
    r.c.state !== 'CERRADO' && ctx.scopeFor('legal-module', 'UPDATE')
      ? legalCaseMachine.transitions.filter((t) => t.from.includes(r.c.state)).map(toAvailable)
      : [];
  const labelOf = (label: string, isOrder: boolean) => {
    if (!isOrder) return `Convenio ${label}`;
    const [kind, period, ref] = label.split(' ');
    return `${orderKindLabels[kind as keyof typeof orderKindLabels] ?? kind} ${formatPeriod(period)} · ${formatPaymentReference(ref)}`;
  };
  return {
    ...toItem(r, sumNow(items)),
    closedOn: r.c.closedOn,
    closeReason: r.c.closeReason,
    items: items.map((i) => ({
      kind: i.order_id ? ('ORDEN' as const) : ('CONVENIO' as const),
      id: Number(i.order_id ?? i.agreement_id),
      label: labelOf(i.label, !!i.order_id),
      amountAtOpening: d(i.at_opening),
      amountNow: d(i.now),
    })),
    actions: actions.map((x) => ({
      id: x.a.id,
      actionDate: x.a.actionDate,
      kind: x.a.kind as LegalCase['actions'][number]['kind'],
      description: x.a.description,
      lawyer: x.lawyer,
      createdAt: x.a.createdAt.toISOString(),
    })),
    deadlines,
    documents: docs.map((x) => ({ id: x.id, documentId: x.documentId, title: x.title, createdAt: x.createdAt.toISOString() })),
    notices: await noticesOfEntity(ctx.db, r.c.entityId),
    transitions,
  };
}

/** Deadlines with their case and entity, by a condition on `dl` (a deadline) and `lc` (its case). */
export async function deadlinesWhere(db: Db, where: SQL): Promise<LegalDeadline[]> {
  return rowsOf<{
    id: number;
    case_id: number;
    number: string;
    entity: string;
    due_date: string;
    description: string;
    responsible: string | null;
    done: boolean;
  }>(
    await db.execute(sql`
      select dl.id, dl.case_id, lc.number, me.name as entity, dl.due_date::text, dl.description,
        (select u.email from users u where u.id = coalesce(dl.responsible_id, lc.lawyer_id)) as responsible, dl.done
      from legal_case_deadlines dl join legal_cases lc on lc.id = dl.case_id join municipal_entities me on me.id = lc.entity_id
      where ${where} order by dl.done, dl.due_date, dl.id limit 500`),
  ).map((x) => ({
    id: Number(x.id),
    caseId: Number(x.case_id),
    caseNumber: x.number,
    entityName: x.entity,
    dueDate: x.due_date,
    description: x.description,
    responsible: x.responsible,
    done: x.done,
  }));
}

// ─── Changes ────────────────────────────────────────────────────────────────────────────────────────

/** The case in scope, locked for the change the caller makes in `tx`; 404 outside the scope. */
export async function lockCase(ctx: RequestContext, tx: Db, id: number) {
  const [row] = await tx
    .select()
    .from(c)
    .where(and(eq(c.id, id), ctx.inScope(c.entityId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/** Moves a case to another stage, checking what the stage needs (an agreement; the debt paid or an agreement). */
export async function transitionCase(
  ctx: RequestContext,
  input: { id: number; to: LegalStage; comment?: string },
): Promise<LegalCase> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockCase(ctx, tx, input.id);
    const items = await itemsNow(tx, row.id, guatemalaToday());
    const outstanding = items.reduce((s, x) => s + decimalToCents(x.now), 0n);
    const [ag] = await tx
      .select({ state: paymentAgreements.state })
      .from(paymentAgreements)
      .where(eq(paymentAgreements.entityId, row.entityId))
      .orderBy(sql`${paymentAgreements.state} = 'VIGENTE' desc`, desc(paymentAgreements.id))
      .limit(1);
    const problem = stageProblem(input.to, { outstanding, agreement: ag?.state ?? null });
    if (problem) throw new AppError('CONFLICT', problem);
    await applyTransition(ctx, {
      tx,
      machine: legalCaseMachine,
      table: c,
      id: row.id,
      expected: row.state,
      to: input.to,
      comment: input.comment ?? null,
      entityId: c.entityId,
      set: () => ({
        updatedAt: new Date(),
        ...(input.to === 'CERRADO' ? { closedOn: guatemalaToday(), closeReason: input.comment ?? null } : {}),
      }),
    });
  });
  return getCase(ctx, { id: input.id });
}

/** `lockCase`, refusing a closed case: actions, deadlines and documents go only on open ones. */
export async function openCaseRow(ctx: RequestContext, tx: Db, id: number) {
  const row = await lockCase(ctx, tx, id);
  if (row.state === 'CERRADO') throw new AppError('CONFLICT', msg('legal.caseClosed', { number: row.number }));
  return row;
}

export const stageLabel = (s: LegalStage) => legalStageLabels[s];
