import {
  AppError,
  type BankFile,
  type BankFileCreate,
  type BankFileRow,
  centsToDecimal,
  guatemalaToday,
  type ListQuery,
  parseAmount,
  parseBankCsv,
} from '@aporta/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { bankFileRows, bankFiles, paymentOrders, users } from '../../db/schema/index.ts';
import { type RequestContext, requireAllScope } from '../../platform/context.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { listPage, type Page } from '../../platform/list.ts';
import { balanceSql, interestRates, rowsOf } from './orders.ts';
import { registerPayment } from './payments.ts';

/** The payment a bank file row becomes: its idempotency key and bank reference are the row's own, so
 * importing the same file again (or applying a row twice) is recognised and never counts twice. */
const rowKey = (r: { reference: string; payDate: string | null }) => `banco-${r.reference}-${r.payDate ?? ''}`;

/**
 * Imports a bank's CSV: every row is read and checked (date, reference with its check digit, amount,
 * duplicates in the file), then matched in one set-based statement against the orders in scope: the
 * reference names an open order and the amount equals its balance on the deposit date → CONCILIADA (its
 * payment is registered by a job, one transaction per row); no such order → SIN_COINCIDENCIA; another
 * amount → MONTO_DIFERENTE. The unmatched wait for a person (resolveBankRow). A file with a bad header is
 * refused whole.
 */
export async function importBankFile(ctx: RequestContext, input: BankFileCreate): Promise<BankFile> {
  assertAllScope(ctx);
  const parsed = parseBankCsv(input.content, (s) => parseAmount(s, { allowNegative: true }));
  if (parsed.headerProblem)
    throw new AppError('VALIDATION', parsed.headerProblem, [{ path: 'content', message: parsed.headerProblem }]);
  if (!parsed.rows.length)
    throw new AppError('VALIDATION', 'El archivo no tiene filas de depósitos.', [{ path: 'content', message: 'Sin filas.' }]);
  if (parsed.rows.length > 50_000)
    throw new AppError('VALIDATION', 'El archivo admite hasta 50 000 filas.', [
      { path: 'content', message: 'Demasiadas filas.' },
    ]);
  const today = guatemalaToday();
  for (const r of parsed.rows) if (r.payDate && r.payDate > today) r.problems.push('La fecha del depósito es futura.');
  const rates = await interestRates(ctx.db);
  const fileId = await ctx.db.transaction(async (tx) => {
    const [f] = await tx
      .insert(bankFiles)
      .values({
        bank: input.bank,
        office: input.office,
        fileName: input.fileName,
        rowCount: parsed.rows.length,
        createdBy: ctx.actor.id,
      })
      .returning({ id: bankFiles.id });
    // One INSERT of every row (arrays unnested), then one UPDATE that matches them all.
    const col = <T>(f: (r: (typeof parsed.rows)[number]) => T) => parsed.rows.map(f);
    await tx.execute(sql`
      insert into ${bankFileRows} (file_id, row_number, pay_date, reference, amount, state, message)
      select ${f.id}, t.n, t.d::date, t.ref, t.amt::numeric, case when t.msg is null then 'SIN_COINCIDENCIA' else 'ERROR' end, t.msg
      from unnest(${`{${col((r) => r.rowNumber).join(',')}}`}::int[], ${pgArray(col((r) => r.payDate))}::text[],
        ${pgArray(col((r) => r.reference))}::text[], ${pgArray(col((r) => (r.amount === null ? null : centsToDecimal(r.amount))))}::text[],
        ${pgArray(col((r) => (r.problems.length ? r.problems.join(' ') : null)))}::text[]) as t(n, d, ref, amt, msg)`);
    const balance = rowBalance(rates);
    await tx.execute(sql`
      update ${bankFileRows} b set order_id = o.id, entity_id = o.entity_id,
        state = case when b.amount = ${balance} then 'CONCILIADA' else 'MONTO_DIFERENTE' end,
        message = case when b.amount = ${balance} then null
          else 'El monto del depósito (' || b.amount::text || ') no es el saldo de la orden a esa fecha (' || (${balance})::text || ').' end
      from ${paymentOrders} o
      where b.file_id = ${f.id} and b.state = 'SIN_COINCIDENCIA' and o.reference = b.reference and o.state = 'EMITIDA'
        and b.pay_date >= o.issue_date ${scopeOf(ctx)}`);
    await tx.execute(sql`
      update ${bankFileRows} b set message = 'Ninguna orden abierta dentro de su alcance tiene esta referencia.'
      where b.file_id = ${f.id} and b.state = 'SIN_COINCIDENCIA' and b.message is null`);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'bank-file',
        entityId: f.id,
        after: { banco: input.bank, archivo: input.fileName, filas: parsed.rows.length },
      },
      tx,
    );
    return f.id;
  });
  await enqueueJob(ctx, applyBankFileJob, { fileId });
  return getBankFile(ctx, { id: fileId });
}

/** Bank files hold every entity's deposits: only a grant of scope ALL imports or reads them. */
const assertAllScope = (ctx: RequestContext) =>
  requireAllScope(ctx, 'Los archivos bancarios son de la tesorería central (alcance total).');

const pgArray = (xs: (string | null)[]) =>
  `{${xs.map((x) => (x === null ? 'NULL' : `"${x.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;

function scopeOf(ctx: RequestContext): SQL {
  const cond = ctx.inScope(sql`o.entity_id`);
  return cond ? sql`and ${cond}` : sql``;
}

/** The balance of order `o` as of each row's own date `b.pay_date` (the interest rule of orders.ts, per row). */
function rowBalance(rates: Awaited<ReturnType<typeof interestRates>>): SQL {
  // The one interest rule of the lists (balanceSql), as of each row's deposit date.
  return balanceSql(rates, sql`b.pay_date`, sql.raw('o')).balance;
}

/** Registers the payments of a file's matched rows, one transaction each (a repeat is recognised). */
export const applyBankFileJob = defineJob<{ fileId: number }>({
  kind: 'payments.apply-bank-file',
  title: 'Aplicación de pagos de un archivo bancario',
  permission: { resource: 'planilla-payments', action: 'CREATE' },
  async run({ ctx, payload, progress }) {
    const [f] = await ctx.db.select().from(bankFiles).where(eq(bankFiles.id, payload.fileId));
    if (!f) return { applied: 0 };
    const rows = await ctx.db
      .select()
      .from(bankFileRows)
      .where(and(eq(bankFileRows.fileId, f.id), eq(bankFileRows.state, 'CONCILIADA'), sql`${bankFileRows.paymentId} is null`))
      .orderBy(bankFileRows.rowNumber);
    let done = 0;
    for (const r of rows) {
      try {
        const res = await registerPayment(ctx, {
          idempotencyKey: rowKey(r),
          bankReference: rowKey(r),
          orderIds: [r.orderId!],
          bank: f.bank,
          office: f.office,
          payDate: r.payDate!,
          amount: centsToDecimal(r.amount!),
          bankFileRowId: r.id,
        });
        await ctx.db.update(bankFileRows).set({ paymentId: res.payment.id }).where(eq(bankFileRows.id, r.id));
      } catch (err) {
        const message = err instanceof AppError ? err.message : 'No se pudo registrar el pago.';
        await ctx.db.update(bankFileRows).set({ state: 'MONTO_DIFERENTE', message }).where(eq(bankFileRows.id, r.id));
      }
      done += 1;
      if (done % 50 === 0) await progress({ done, total: rows.length, phase: 'Registrando pagos' });
    }
    return { applied: done };
  },
});

/** A person resolves an unmatched row: pays it against orders they choose, or discards it with a note. */
export async function resolveBankRow(
  ctx: RequestContext,
  input: { fileId: number; rowId: number; decision: 'PAGAR' | 'DESCARTAR'; orderIds?: number[]; reason?: string },
): Promise<BankFileRow> {
  assertAllScope(ctx);
  const [f] = await ctx.db.select().from(bankFiles).where(eq(bankFiles.id, input.fileId));
  const [r] = await ctx.db
    .select()
    .from(bankFileRows)
    .where(and(eq(bankFileRows.id, input.rowId), eq(bankFileRows.fileId, input.fileId)));
  if (!f || !r) throw new AppError('NOT_FOUND', 'La fila no existe.');
  if (!['SIN_COINCIDENCIA', 'MONTO_DIFERENTE', 'ERROR'].includes(r.state))
    throw new AppError('CONFLICT', 'La fila ya está resuelta.');
  if (input.decision === 'DESCARTAR') {
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(bankFileRows)
        .set({ state: 'DESCARTADA', message: input.reason ?? null, resolvedBy: ctx.actor.id, resolvedAt: new Date() })
        .where(eq(bankFileRows.id, r.id));
      await ctx.audit(
        {
          action: 'UPDATE',
          entityType: 'bank-file',
          entityId: f.id,
          after: { fila: r.rowNumber, estado: 'DESCARTADA', nota: input.reason },
        },
        tx,
      );
    });
  } else {
    if (!r.payDate || r.amount === null) throw new AppError('VALIDATION', 'La fila no tiene fecha o monto válidos: descártela.');
    const res = await registerPayment(ctx, {
      idempotencyKey: rowKey(r),
      bankReference: rowKey(r),
      orderIds: input.orderIds ?? [],
      bank: f.bank,
      office: f.office,
      payDate: r.payDate,
      amount: centsToDecimal(r.amount),
      bankFileRowId: r.id,
    });
    await ctx.db
      .update(bankFileRows)
      .set({ state: 'RESUELTA', paymentId: res.payment.id, message: null, resolvedBy: ctx.actor.id, resolvedAt: new Date() })
      .where(eq(bankFileRows.id, r.id));
  }
  const [u] = await ctx.db.select().from(bankFileRows).where(eq(bankFileRows.id, r.id));
  return toRow(u);
}

const toRow = (r: typeof bankFileRows.$inferSelect): BankFileRow => ({
  id: r.id,
  fileId: r.fileId,
  rowNumber: r.rowNumber,
  payDate: r.payDate,
  reference: r.reference,
  amount: r.amount === null ? null : centsToDecimal(r.amount),
  state: r.state,
  message: r.message,
  orderId: r.orderId,
  paymentId: r.paymentId,
});

export async function getBankFile(ctx: RequestContext, input: { id: number }): Promise<BankFile> {
  assertAllScope(ctx);
  const [f] = rowsOf<Record<string, unknown>>(
    await ctx.db.execute(sql`
      select f.id, f.bank, f.office, f.file_name, f.row_count, f.created_at, u.email,
        count(*) filter (where b.state = 'CONCILIADA')::int as matched,
        count(*) filter (where b.state = 'SIN_COINCIDENCIA')::int as unmatched,
        count(*) filter (where b.state = 'MONTO_DIFERENTE')::int as mismatched,
        count(*) filter (where b.state = 'ERROR')::int as errors,
        count(*) filter (where b.state in ('RESUELTA', 'DESCARTADA'))::int as resolved
      from ${bankFiles} f left join ${bankFileRows} b on b.file_id = f.id left join ${users} u on u.id = f.created_by
      where f.id = ${input.id} group by f.id, u.email`),
  );
  if (!f) throw new AppError('NOT_FOUND', 'El archivo no existe.');
  return {
    id: Number(f.id),
    bank: String(f.bank),
    office: String(f.office),
    fileName: String(f.file_name),
    rows: Number(f.row_count),
    matched: Number(f.matched),
    unmatched: Number(f.unmatched),
    mismatched: Number(f.mismatched),
    errors: Number(f.errors),
    resolved: Number(f.resolved),
    createdAt: new Date(String(f.created_at)).toISOString(),
    createdByEmail: (f.email as string | null) ?? null,
  };
}

export async function findBankFiles(ctx: RequestContext, q: ListQuery): Promise<Page<BankFile>> {
  assertAllScope(ctx);
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: bankFiles.id },
    defaultSort: '-id',
    rows: (c) =>
      ctx.db
        .select({ id: bankFiles.id })
        .from(bankFiles)
        .where(c.where)
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: bankFiles.id }).from(bankFiles),
  });
  return { ...page, items: await Promise.all(page.items.map((r) => getBankFile(ctx, { id: r.id }))) };
}

export async function findBankFileRows(
  ctx: RequestContext,
  input: { id: number; query: ListQuery & { state?: BankFileRow['state'] | 'PENDIENTES' } },
): Promise<Page<BankFileRow>> {
  assertAllScope(ctx);
  const q = input.query;
  const cond = and(
    eq(bankFileRows.fileId, input.id),
    q.state === 'PENDIENTES'
      ? sql`${bankFileRows.state} in ('SIN_COINCIDENCIA', 'MONTO_DIFERENTE', 'ERROR')`
      : q.state
        ? eq(bankFileRows.state, q.state)
        : undefined,
  );
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: bankFileRows.id, rowNumber: bankFileRows.rowNumber },
    defaultSort: 'rowNumber',
    rows: (c) =>
      ctx.db
        .select()
        .from(bankFileRows)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: bankFileRows.id }).from(bankFileRows).where(cond),
  });
  return { ...page, items: page.items.map(toRow) };
}
