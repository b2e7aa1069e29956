import { AppError, centsToDecimal, type ErrorDetail, msg, planillaMachine, SUBMITTING_STATE, text } from '@aporta/domain';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { jobs as jobsTable, planillaLines, planillas } from '../../db/schema/index.ts';
import { type RequestContext, systemContext } from '../../platform/context.ts';
import { contextFromRequest, defineJob, enqueueJob, JobCancelledError, type JobRun, jobMessages } from '../../platform/jobs.ts';
import { countMetric } from '../../platform/metrics.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { recalculateLines, refreshTotals } from './calculation.ts';
import { notifyPlanillaStep } from './notify.ts';

/**
 * Submitting a planilla as a background job (docs/decisions.md, "Planilla submit as a job"). The user's
 * step moves it to ENVIANDO and queues `planillas.submit` in the same transaction; the job re-validates
 * and recalculates every line in chunks with progress, then — in one short transaction — sends it
 * (ENVIADA, the reviewers notified) or, when a blocking error remains, puts it back where it was
 * (BORRADOR or OBSERVADA) with the list. A cancel, a refusal or a failure puts it back with the reason;
 * a job that ended any other way (its attempts spent after crashes) is found by `settleStalledSubmits`,
 * so a planilla is never left ENVIANDO.
 */

/** Why a submit did not complete, as the planilla keeps it (`submit_message`, the history's comment). */
export const SUBMIT_MESSAGES = {
  cancelled: text('planillas.submitCancelled'),
  interrupted: text('planillas.submitInterrupted'),
  failed: text('planillas.submitFailed'),
} as const;

/**
 * Why a planilla cannot be sent as its lines stand (as stored), or null: no lines at all, or (`errors`) a
 * blocking error on any line (409 naming the first 50 lines: a detail per error, keyed when it was stored
 * with its key). The request checks only the first (stored
 * errors may be stale — a repeat whose first line was deleted — and only the job's recalculation knows);
 * the job checks both after recalculating.
 */
export async function submitRefusal(db: Db, planillaId: number, opts: { errors: boolean }): Promise<AppError | null> {
  const [{ n, e }] = rowsOf<{ n: number; e: number }>(
    await db.execute(sql`
      select count(*)::int as n, count(*) filter (where has_errors)::int as e
      from ${planillaLines} where planilla_id = ${planillaId}`),
  );
  if (opts.errors && Number(e) > 0) {
    const bad = await db
      .select({ rowNumber: planillaLines.rowNumber, errors: planillaLines.errors })
      .from(planillaLines)
      .where(and(eq(planillaLines.planillaId, planillaId), eq(planillaLines.hasErrors, true)))
      .orderBy(planillaLines.rowNumber)
      .limit(50);
    return new AppError(
      'CONFLICT',
      msg('planillas.linesWithErrors', { count: Number(e) }),
      bad.flatMap((b) =>
        (b.errors ?? []).map(
          (x): ErrorDetail => ({
            path: `línea ${b.rowNumber}`,
            row: b.rowNumber,
            message: x.message,
            ...(x.key ? { key: x.key } : {}),
            ...(x.params ? { params: x.params } : {}),
          }),
        ),
      ),
    );
  }
  if (Number(n) === 0) return new AppError('CONFLICT', msg('planillas.noLines'));
  return null;
}

/**
 * A refusal as the one line a planilla keeps (`submit_message`): the message and its first ten fields
 * or lines, a line's several errors together.
 */
const refusalText = (err: AppError) => {
  const byPath = new Map<string, string[]>();
  for (const d of err.details ?? []) byPath.set(d.path, [...(byPath.get(d.path) ?? []), d.message]);
  const lines = [...byPath]
    .slice(0, 10)
    .map(([path, messages]) => `${path}: ${messages.join(' ')}`)
    .join('; ');
  return (lines ? `${err.message} (${lines}${byPath.size > 10 ? '; …' : ''})` : err.message).slice(0, 2000);
};

/** The refusal said as refusalText, keyed as the refusal itself (its details carry the lines). */
const refusalMessage = (err: AppError) =>
  err.key ? { key: err.key, ...(err.params ? { params: err.params } : {}), text: refusalText(err) } : refusalText(err);

/** Queues the submit job of a planilla the caller just moved to ENVIANDO, in that transaction. */
export async function queueSubmit(ctx: RequestContext, tx: Db, planillaId: number): Promise<number> {
  const job = await enqueueJob(ctx, submitPlanillaJob, { planillaId, ip: ctx.actor.ip ?? null }, { tx });
  await tx.update(planillas).set({ submitJobId: job.id }).where(eq(planillas.id, planillaId));
  return job.id;
}

/**
 * Puts a planilla that is ENVIANDO back in the state it was submitted from, in `tx`, with `reason` kept on
 * it and in its history (the machine's `system` step), its counts summed again from its lines, and
 * `recipients` told. Nothing when it is no longer ENVIANDO (or, given `jobId`, no longer this job's).
 */
async function undoSubmitIn(
  ctx: RequestContext,
  tx: Db,
  planillaId: number,
  reason: string,
  opts: { jobId?: number; recipients: readonly number[] },
): Promise<boolean> {
  const [p] = await tx.select().from(planillas).where(eq(planillas.id, planillaId)).for('update');
  if (p?.state !== SUBMITTING_STATE || (opts.jobId != null && p.submitJobId !== opts.jobId)) return false;
  await refreshTotals(tx, planillaId);
  const applied = await applyTransition(ctx, {
    tx,
    machine: planillaMachine,
    table: planillas,
    id: planillaId,
    to: p.submitFrom ?? 'BORRADOR',
    comment: reason.slice(0, 1000),
    system: true,
    entityId: planillas.entityId,
    set: () => ({ submitMessage: reason, updatedAt: new Date() }),
  });
  await notifyPlanillaStep(
    tx,
    applied.row,
    { key: applied.transition.key, label: applied.transition.label, comment: reason, actorId: null, actorEmail: ctx.actor.email },
    opts.recipients,
  );
  return true;
}

const undoSubmit = (
  ctx: RequestContext,
  planillaId: number,
  reason: string,
  opts: { jobId?: number; recipients: readonly number[] },
) => ctx.db.transaction((tx) => undoSubmitIn(ctx, tx, planillaId, reason, opts));

interface SubmitPayload {
  planillaId: number;
  ip?: string | null;
}
interface SubmitResult {
  planillaId: number;
  state: string | null;
  lines: number;
}

/**
 * The job: recalculates every line (progress: lines checked, then lines written), then sends the planilla
 * or puts it back with the lines that block it. A stop (shutdown, lost lease) leaves it ENVIANDO for the
 * job's next run, which starts over (the recalculation gives the same lines); a cancel or a refusal puts it
 * back at once; an unexpected error is retried, and once the attempts are spent `settleStalledSubmits` puts
 * it back.
 */
export async function runSubmit(job: JobRun<SubmitPayload>): Promise<SubmitResult> {
  const { db } = job.ctx;
  const ctx = contextFromRequest(job);
  const id = job.payload.planillaId;
  const [p] = await db.select().from(planillas).where(eq(planillas.id, id));
  if (p?.state !== SUBMITTING_STATE || p.submitJobId !== job.jobId)
    return { planillaId: id, state: p?.state ?? null, lines: p?.lineCount ?? 0 };
  const recipients = [ctx.user.id];
  try {
    const settings = await recalculateLines(db, p, (x) => job.progress(x));
    // Also where a cancel asked during the last chunk is noticed (it throws): nothing is sent then.
    await job.progress({ done: 1, total: 1, phase: 'Enviando a revisión' });
    const outcome = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(planillas).where(eq(planillas.id, id)).for('update');
      if (locked?.state !== SUBMITTING_STATE || locked.submitJobId !== job.jobId) return { refusal: null, row: locked ?? null };
      await refreshTotals(tx, id, settings);
      const refusal = await submitRefusal(tx, id, { errors: true });
      if (refusal) {
        await undoSubmitIn(ctx, tx, id, refusalText(refusal), { jobId: job.jobId, recipients });
        return { refusal, row: null };
      }
      const now = new Date();
      const applied = await applyTransition(ctx, {
        tx,
        machine: planillaMachine,
        table: planillas,
        id,
        to: 'ENVIADA',
        system: true,
        entityId: planillas.entityId,
        set: () => ({ submittedBy: ctx.actor.id, submittedAt: now, submitMessage: null, updatedAt: now }),
        auditAfter: (row) => ({
          period: row.period,
          type: row.type,
          lineCount: row.lineCount,
          totalEmployee: centsToDecimal(row.totalEmployee),
          totalEmployer: centsToDecimal(row.totalEmployer),
        }),
      });
      await notifyPlanillaStep(tx, applied.row, {
        key: applied.transition.key,
        label: applied.transition.label,
        comment: null,
        actorId: ctx.actor.id,
        actorEmail: ctx.actor.email,
      });
      return { refusal: null, row: applied.row };
    });
    // Refused: the planilla is back where it was with the list; the job fails with the same reason.
    if (outcome.refusal) throw new AppError('CONFLICT', refusalMessage(outcome.refusal), outcome.refusal.details);
    // Sent, and committed: counted (platform/metrics.ts).
    if (outcome.row?.state === 'ENVIADA') countMetric('planillasSubmitted');
    return { planillaId: id, state: outcome.row?.state ?? null, lines: outcome.row?.lineCount ?? 0 };
  } catch (err) {
    const { signal } = job;
    // A shutdown or a lost lease: still ENVIANDO; the job runs again and starts over.
    if (signal.aborted && signal.reason !== 'cancelled') throw err;
    if (err instanceof JobCancelledError || signal.reason === 'cancelled') {
      await undoSubmit(ctx, id, SUBMIT_MESSAGES.cancelled, { jobId: job.jobId, recipients });
      throw err;
    }
    if (err instanceof AppError && err.code !== 'INTERNAL') {
      await undoSubmit(ctx, id, refusalText(err), { jobId: job.jobId, recipients });
      throw err;
    }
    // Unexpected: retried by the queue; once its attempts are spent `settleStalledSubmits` puts it back.
    throw err;
  }
}

/** The submit of a planilla, as a background job (Procesos and the planilla's page show its progress). */
export const submitPlanillaJob = defineJob<SubmitPayload, SubmitResult>({
  kind: 'planillas.submit',
  title: 'Envío de planilla a revisión',
  permission: { resource: 'planillas', action: 'UPDATE' },
  run: runSubmit,
  // Failed for good or cancelled while queued: the planilla goes back at once, with the reason (not only
  // when someone next reads it); at start-up, those whose job vanished.
  onFailedForGood: async (db, job) => {
    await settleStalledSubmits(db, { id: job.payload.planillaId });
  },
  recover: async (db) => (await settleStalledSubmits(db)).length,
});

/**
 * Planillas left ENVIANDO whose submit job has ended without ending them (failed after its attempts,
 * cancelled while queued, gone): put back where they were with the reason, their submitter told. One
 * whose job is queued or running is left to it. Runs at start-up and when such a planilla is read, so
 * none is ever shown stuck. Returns the ids put back.
 */
export async function settleStalledSubmits(db: Db, opts: { id?: number } = {}): Promise<number[]> {
  const only = opts.id != null ? sql`and p.id = ${opts.id}` : sql``;
  const stalled = rowsOf<{ id: number; user_id: number | null; message: string }>(
    await db.execute(sql`
      select p.id, j.user_id, case
          when j.state = 'CANCELLED' then ${SUBMIT_MESSAGES.cancelled}
          when j.state = 'FAILED' and j.error = ${jobMessages.unexpected} then ${SUBMIT_MESSAGES.failed}
          when j.state = 'FAILED' and j.error is not null and j.error <> ${jobMessages.interrupted} then j.error
          else ${SUBMIT_MESSAGES.interrupted} end as message
      from ${planillas} p left join ${jobsTable} j on j.id = p.submit_job_id
      where p.state = ${SUBMITTING_STATE} ${only} and (j.id is null or j.state in ('DONE', 'FAILED', 'CANCELLED'))`),
  );
  const done: number[] = [];
  const system = systemContext(db);
  for (const s of stalled) {
    const recipients = s.user_id == null ? [] : [Number(s.user_id)];
    if (await undoSubmit(system, Number(s.id), s.message, { recipients })) done.push(Number(s.id));
  }
  return done;
}
