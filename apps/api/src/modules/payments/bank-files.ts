import {
  AppError,
  type BankFile,
  type BankFileCreate,
  type BankFileRow,
  bankRowPendingStates,
  centsToDecimal,
  detail,
  guatemalaToday,
  type ListQuery,
  msg,
  parseAmount,
  parseBankCsv,
  text,
} from '@aporta/domain';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { bankFileRows, bankFiles, jobs, paymentOrders, users } from '../../db/schema/index.ts';
import { type RequestContext, requireAllScope } from '../../platform/context.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { listPage, type Page } from '../../platform/list.ts';
import { activeBank } from './banks.ts';
import { balanceSql, interestRates } from './orders.ts';
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
 * refused whole. The bank is an active one of the catalogue; the file keeps its name as of the import.
 */
export async function importBankFile(ctx: RequestContext, input: BankFileCreate): Promise<BankFile> {
  assertAllScope(ctx);
  const bank = await activeBank(ctx.db, input.bankId);
  const parsed = parseBankCsv(input.content, (s) => parseAmount(s, { allowNegative: true }));
  if (parsed.headerProblem)
    throw new AppError('VALIDATION', parsed.headerProblem, [{ path: 'content', ...detail(parsed.headerProblem) }]);
  if (!parsed.rows.length)
    throw new AppError('VALIDATION', msg('payments.bankFileNoRows'), [
      { path: 'content', ...detail(msg('payments.bankFileNoRowsField')) },
    ]);
  if (parsed.rows.length > 50_000)
    throw new AppError('VALIDATION', msg('payments.bankFileTooManyRows'), [
      { path: 'content', ...detail(msg('payments.bankFileTooManyRowsField')) },
    ]);
  const today = guatemalaToday();
  for (const r of parsed.rows) if (r.payDate && r.payDate > today) r.problems.push(msg('payments.bankRowFutureDate'));
  const rates = await interestRates(ctx.db);
  const fileId = await ctx.db.transaction(async (tx) => {
    const [f] = await tx
      .insert(bankFiles)
      .values({
        bankId: bank.id,
        bank: bank.name,
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
        ${pgArray(col((r) => (r.problems.length ? r.problems.map((p) => p.text).join(' ') : null)))}::text[]) as t(n, d, ref, amt, msg)`);
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
      update ${bankFileRows} b set message = ${text('payments.bankRowNoOpenOrder')}
      where b.file_id = ${f.id} and b.state = 'SIN_COINCIDENCIA' and b.message is null`);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'bank-file',
        entityId: f.id,
        after: { banco: bank.name, archivo: input.fileName, filas: parsed.rows.length },
      },
      tx,
    );
    // In the import's transaction: matched rows exist only with the job that registers their payments.
    await enqueueJob(ctx, applyBankFileJob, { fileId: f.id }, { tx });
    return f.id;
  });
  return getBankFile(ctx, { id: fileId });
}

/** Bank files hold every entity's deposits: only a grant of scope ALL imports or reads them. */
const assertAllScope = (ctx: RequestContext) => requireAllScope(ctx, text('payments.bankFilesRequireAllScope'));

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

/** Why a matched row was left without its payment, kept on the row (NO_APLICADA) for the person who acts on it. */
export const NOT_APPLIED_MESSAGES = {
  cancelled: text('payments.bankRowApplyCancelled'),
  failed: (reason: string | null) =>
    (reason ? msg('payments.bankRowApplyFailedWithReason', { reason }).text : text('payments.bankRowApplyFailed')).slice(0, 2000),
  ended: text('payments.bankRowApplyEnded'),
} as const;

/** A live (queued or running) apply job of file `fileId` (SQL), as `jobs j`. */
const liveApplyJob = (fileId: SQL) => sql`select j.id from ${jobs} j
  where j.kind = 'payments.apply-bank-file' and j.state in ('QUEUED', 'RUNNING') and (j.payload->>'fileId')::int = ${fileId}`;

/** Matched rows without their payment and no job left to register it (`b` = bank_file_rows): stranded money. */
export const strandedRowsSql = sql`b.state = 'CONCILIADA' and b.payment_id is null
  and not exists (${liveApplyJob(sql`b.file_id`)})`;

/**
 * Marks NO_APLICADA, with `reason`, the matched rows still without payment — of one file whose job just
 * ended (`fileId`, `jobId`: unless another job of the file is live), or every stranded row (start-up).
 */
async function markNotApplied(db: Db, reason: string, only?: { fileId: number; jobId: number }): Promise<number> {
  const where = only
    ? sql`b.file_id = ${only.fileId} and b.state = 'CONCILIADA' and b.payment_id is null
        and not exists (${liveApplyJob(sql`b.file_id`)} and j.id <> ${only.jobId})`
    : strandedRowsSql;
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`update ${bankFileRows} b set state = 'NO_APLICADA', message = ${reason} where ${where} returning b.id`),
  );
  return rows.length;
}

/**
 * Registers the payments of a file's matched rows (CONCILIADA, and NO_APLICADA on a retry), one transaction
 * each — the payment and the row's link together, a repeat recognised by the row's key. A payment refused
 * (the order paid or changed since) leaves its row NO_APLICADA with the reason. An unexpected error is
 * retried by the queue (rows already applied are skipped); once the job fails for good or is cancelled,
 * `onFailedForGood` leaves every row still without payment NO_APLICADA with the reason, and `recover` at
 * start-up does the same for rows of a job that vanished — so no row ever shows matched without payment.
 */
export const applyBankFileJob = defineJob<{ fileId: number; retry?: boolean }>({
  kind: 'payments.apply-bank-file',
  title: 'Aplicación de pagos de un archivo bancario',
  permission: { resource: 'planilla-payments', action: 'CREATE' },
  async run({ ctx, payload, progress }) {
    const [f] = await ctx.db.select().from(bankFiles).where(eq(bankFiles.id, payload.fileId));
    if (!f) return { applied: 0 };
    const states: ('CONCILIADA' | 'NO_APLICADA')[] = payload.retry ? ['CONCILIADA', 'NO_APLICADA'] : ['CONCILIADA'];
    const rows = await ctx.db
      .select()
      .from(bankFileRows)
      .where(and(eq(bankFileRows.fileId, f.id), inArray(bankFileRows.state, states), sql`${bankFileRows.paymentId} is null`))
      .orderBy(bankFileRows.rowNumber);
    let applied = 0;
    let refused = 0;
    let done = 0;
    for (const r of rows) {
      try {
        const res = await registerPayment(ctx, {
          idempotencyKey: rowKey(r),
          bankReference: rowKey(r),
          orderIds: [r.orderId!],
          bankId: f.bankId,
          bankName: f.bank,
          office: f.office,
          payDate: r.payDate!,
          amount: centsToDecimal(r.amount!),
          bankFileRow: { id: r.id, state: 'CONCILIADA' },
        });
        // A repeat (its payment registered before the row could be linked, by an older version): linked now.
        if (res.replayed)
          await ctx.db
            .update(bankFileRows)
            .set({ paymentId: res.payment.id, state: 'CONCILIADA', message: null })
            .where(and(eq(bankFileRows.id, r.id), sql`${bankFileRows.paymentId} is null`));
        applied += 1;
      } catch (err) {
        // Bad input does not improve on retry: the row waits for a person with the reason. Anything else is
        // retried by the queue.
        if (!(err instanceof AppError)) throw err;
        await ctx.db
          .update(bankFileRows)
          .set({ state: 'NO_APLICADA', message: err.message.slice(0, 2000) })
          .where(and(eq(bankFileRows.id, r.id), sql`${bankFileRows.paymentId} is null`));
        refused += 1;
      }
      done += 1;
      if (done % 50 === 0) await progress({ done, total: rows.length, phase: 'Registrando pagos' });
    }
    return { applied, refused };
  },
  async onFailedForGood(db, job) {
    const reason = job.state === 'CANCELLED' ? NOT_APPLIED_MESSAGES.cancelled : NOT_APPLIED_MESSAGES.failed(job.error);
    await markNotApplied(db, reason, { fileId: job.payload.fileId, jobId: job.id });
  },
  recover: (db) => markNotApplied(db, NOT_APPLIED_MESSAGES.ended),
});

/**
 * Applies again the rows of a file left NO_APLICADA (or matched without payment by a job that ended): queues
 * the apply job for them, in one transaction with the check that no job of the file is live (409 then).
 */
export async function retryBankFile(ctx: RequestContext, input: { id: number }): Promise<BankFile> {
  assertAllScope(ctx);
  await ctx.db.transaction(async (tx) => {
    // The file's row locked: two retries at once queue one job.
    const [f] = await tx.select({ id: bankFiles.id }).from(bankFiles).where(eq(bankFiles.id, input.id)).for('update');
    if (!f) throw new AppError('NOT_FOUND', msg('payments.bankFileNotFound'));
    const [live] = rowsOf<{ id: number }>(await tx.execute(liveApplyJob(sql`${f.id}`)));
    if (live) throw new AppError('CONFLICT', msg('payments.bankFileApplying'));
    const [{ n }] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from ${bankFileRows} b
        where b.file_id = ${f.id} and b.state in ('CONCILIADA', 'NO_APLICADA') and b.payment_id is null`),
    );
    if (Number(n) === 0) throw new AppError('CONFLICT', msg('payments.bankFileNothingToApply'));
    await enqueueJob(ctx, applyBankFileJob, { fileId: f.id, retry: true }, { tx });
    await ctx.audit({ action: 'UPDATE', entityType: 'bank-file', entityId: f.id, after: { reintento: Number(n) } }, tx);
  });
  return getBankFile(ctx, { id: input.id });
}

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
  if (!f || !r) throw new AppError('NOT_FOUND', msg('payments.bankRowNotFound'));
  if (!(bankRowPendingStates as readonly string[]).includes(r.state))
    throw new AppError(
      'CONFLICT',
      r.state === 'CONCILIADA' && r.paymentId === null
        ? msg('payments.bankRowBeingApplied')
        : msg('payments.bankRowAlreadyResolved'),
    );
  if (r.state === 'NO_APLICADA') {
    const [live] = rowsOf<{ id: number }>(await ctx.db.execute(liveApplyJob(sql`${f.id}`)));
    if (live) throw new AppError('CONFLICT', msg('payments.bankFileApplyingAgain'));
  }
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
    if (!r.payDate || r.amount === null) throw new AppError('VALIDATION', msg('payments.bankRowWithoutDateOrAmount'));
    const res = await registerPayment(ctx, {
      idempotencyKey: rowKey(r),
      bankReference: rowKey(r),
      orderIds: input.orderIds ?? [],
      bankId: f.bankId,
      bankName: f.bank,
      office: f.office,
      payDate: r.payDate,
      amount: centsToDecimal(r.amount),
      bankFileRow: { id: r.id, state: 'RESUELTA' },
    });
    // A repeat (the row's payment registered before, never linked): linked now.
    if (res.replayed)
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
      select f.id, f.bank_id, f.bank, f.office, f.file_name, f.row_count, f.created_at, u.email,
        count(*) filter (where b.state = 'CONCILIADA')::int as matched,
        count(*) filter (where b.state = 'SIN_COINCIDENCIA')::int as unmatched,
        count(*) filter (where b.state = 'MONTO_DIFERENTE')::int as mismatched,
        count(*) filter (where b.state = 'ERROR')::int as errors,
        count(*) filter (where b.state in ('RESUELTA', 'DESCARTADA'))::int as resolved,
        count(*) filter (where b.state = 'NO_APLICADA' or (b.state = 'CONCILIADA' and b.payment_id is null))::int as pending_apply,
        (${liveApplyJob(sql`f.id`)} order by j.id desc limit 1) as apply_job_id
      from ${bankFiles} f left join ${bankFileRows} b on b.file_id = f.id left join ${users} u on u.id = f.created_by
      where f.id = ${input.id} group by f.id, u.email`),
  );
  if (!f) throw new AppError('NOT_FOUND', msg('payments.bankFileNotFound'));
  return {
    id: Number(f.id),
    bankId: f.bank_id == null ? null : Number(f.bank_id),
    bank: String(f.bank),
    office: String(f.office),
    fileName: String(f.file_name),
    rows: Number(f.row_count),
    matched: Number(f.matched),
    unmatched: Number(f.unmatched),
    mismatched: Number(f.mismatched),
    errors: Number(f.errors),
    resolved: Number(f.resolved),
    // While a job applies them, the rows are its work, not yet anyone's to act on.
    notApplied: f.apply_job_id == null ? Number(f.pending_apply) : 0,
    applyJobId: f.apply_job_id == null ? null : Number(f.apply_job_id),
    createdAt: new Date(String(f.created_at)).toISOString(),
    createdByEmail: (f.email as string | null) ?? null,
  };
}

/** Bank files, newest first; `state: 'NO_APLICADAS'` keeps those with rows whose payment is not registered (stranded money). */
export async function findBankFiles(ctx: RequestContext, q: ListQuery & { state?: 'NO_APLICADAS' }): Promise<Page<BankFile>> {
  assertAllScope(ctx);
  const cond =
    q.state === 'NO_APLICADAS'
      ? sql`exists (select 1 from ${bankFileRows} b where b.file_id = ${bankFiles.id}
          and (b.state = 'NO_APLICADA' or (${strandedRowsSql})))`
      : undefined;
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: bankFiles.id },
    defaultSort: '-id',
    rows: (c) =>
      ctx.db
        .select({ id: bankFiles.id })
        .from(bankFiles)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: bankFiles.id }).from(bankFiles).where(cond),
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
      ? inArray(bankFileRows.state, [...bankRowPendingStates])
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
