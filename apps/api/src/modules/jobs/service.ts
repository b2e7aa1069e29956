import type { Readable } from 'node:stream';
import { AppError, type Job, type JobListQuery, msg } from '@aporta/domain';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { jobs, storedFiles, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { FileNotFoundError, type FileStore } from '../../platform/files.ts';
import { isActiveState, type JobRow, jobKinds, jobPermission, jobTitle, requestCancel } from '../../platform/jobs.ts';
import { listPage, type Page } from '../../platform/list.ts';

/** The result of a job that wrote a file (an export): the stored file to download. */
export interface FileResult {
  fileId: number;
}

const fileIdOf = (result: unknown): number | null => {
  const id = (result as Partial<FileResult> | null)?.fileId;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
};

const mayReadAll = (ctx: RequestContext) => !!ctx.scopeFor('jobs', 'READ');
const mayCancelAny = (ctx: RequestContext) => !!ctx.scopeFor('jobs', 'UPDATE');

/**
 * Whether the caller could run a kind of job over everything: it holds the kind's permission with scope ALL.
 * A job's result (rows exported, deaths found, payments applied) holds data in its starter's scope; only one who
 * could have run the same job over every entity may read someone else's. A kind without a permission (an
 * import's validation or commit) is its starter's alone.
 */
function mayRunOverAll(ctx: RequestContext, kind: string): boolean {
  const permission = jobPermission(kind);
  return !!permission && ctx.scopeFor(permission.resource, permission.action) === 'ALL';
}

/**
 * Who reads a job (docs/decisions.md, "A job belongs to its starter"): its starter; a job of the system (no
 * user: the daily sweeps) whoever may run its kind over everything; another user's job a holder of `jobs`
 * READ (Procesos, everyone's) who may also run its kind over everything. Anyone else is told it does not exist.
 */
function mayRead(ctx: RequestContext, job: Pick<JobRow, 'userId' | 'kind'>): boolean {
  if (job.userId === ctx.user.id) return true;
  if (!mayRunOverAll(ctx, job.kind)) return false;
  return job.userId === null || mayReadAll(ctx);
}

/** The kinds of job of others the caller may read (see `mayRead`), for the list in SQL. */
const kindsReadable = (ctx: RequestContext) => jobKinds().filter((kind) => mayRunOverAll(ctx, kind));

function toJob(ctx: RequestContext, row: JobRow, userEmail: string): Job {
  const own = row.userId === ctx.user.id;
  return {
    id: row.id,
    kind: row.kind,
    title: jobTitle(row.kind),
    state: row.state,
    done: row.done,
    total: row.total,
    phase: row.phase,
    result: row.result ?? null,
    error: row.error,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    userId: row.userId,
    userEmail,
    // The file holds data in its starter's scope: only they download it.
    hasFile: own && row.state === 'DONE' && fileIdOf(row.result) !== null,
    canCancel: isActiveState(row.state) && (own || mayCancelAny(ctx)),
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Who started a job, as Procesos shows it: the user's e-mail, or «Sistema» for the system's own runs (no user). */
const starter = sql<string>`coalesce(${users.email}, 'Sistema')`;

/**
 * The jobs "Procesos" lists, newest first: one's own, or everyone's (`scope=all`) for holders of
 * `jobs` READ — of the kinds they may run over everything (`mayRead`). Any signed-in user.
 */
export async function findJobs(ctx: RequestContext, query: JobListQuery): Promise<Page<Job>> {
  const all = query.scope === 'all';
  if (all && !mayReadAll(ctx)) throw new AppError('FORBIDDEN');
  const kinds = kindsReadable(ctx);
  // Everyone's: one's own, and the others' (users' and the system's) of the kinds one may run over everything.
  const readable = kinds.length ? or(eq(jobs.userId, ctx.user.id), inArray(jobs.kind, kinds)) : eq(jobs.userId, ctx.user.id);
  const conditions: (SQL | undefined)[] = [
    all ? readable : eq(jobs.userId, ctx.user.id),
    all && query.userId ? eq(jobs.userId, query.userId) : undefined,
    query.state ? eq(jobs.state, query.state) : undefined,
  ];
  const where = and(...conditions);
  const page = await listPage(ctx.db, {
    query,
    sortable: { id: jobs.id },
    defaultSort: '-id',
    rows: (c) =>
      ctx.db
        .select({ job: jobs, email: starter })
        .from(jobs)
        .leftJoin(users, eq(users.id, jobs.userId))
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.job.id,
    count: () => ctx.db.select({ id: jobs.id }).from(jobs).where(where),
  });
  return { ...page, items: page.items.map((r) => toJob(ctx, r.job, r.email)) };
}

/** One job, if the caller may read it (`mayRead`); otherwise NOT_FOUND (its existence is not told). */
async function visibleJob(ctx: RequestContext, id: number): Promise<{ job: JobRow; email: string }> {
  const [row] = await ctx.db
    .select({ job: jobs, email: starter })
    .from(jobs)
    .leftJoin(users, eq(users.id, jobs.userId))
    .where(eq(jobs.id, id));
  if (!row || !mayRead(ctx, row.job)) throw new AppError('NOT_FOUND', msg('platform.jobNotFound'));
  return row;
}

/** What the progress component polls. Any signed-in user, for the jobs they may read (`mayRead`). */
export async function getJob(ctx: RequestContext, id: number): Promise<Job> {
  const { job, email } = await visibleJob(ctx, id);
  return toJob(ctx, job, email);
}

/**
 * Cancels a queued job at once, a running one at its next progress report. The starter, or a holder
 * of `jobs` UPDATE for anyone's. Audited.
 */
export async function cancelJob(ctx: RequestContext, id: number): Promise<Job> {
  const { job, email } = await visibleJob(ctx, id);
  if (job.userId !== ctx.user.id && !mayCancelAny(ctx)) throw new AppError('FORBIDDEN');
  if (!isActiveState(job.state)) throw new AppError('CONFLICT', msg('platform.jobFinished'));
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await requestCancel(tx, id);
    await ctx.audit(
      { action: 'CANCEL', entityType: 'job', entityId: id, before: { state: job.state }, after: { state: row?.state } },
      tx,
    );
    return row;
  });
  return toJob(ctx, updated ?? job, email);
}

/** The result file of a finished job, for the user who started it. */
export async function openJobFile(
  ctx: RequestContext,
  store: FileStore,
  id: number,
): Promise<{ body: Readable; size: number; filename: string; contentType: string }> {
  const { job } = await visibleJob(ctx, id);
  const fileId = fileIdOf(job.result);
  if (job.userId !== ctx.user.id) throw new AppError('FORBIDDEN', msg('platform.jobFileNotOwner'));
  if (job.state !== 'DONE' || fileId === null) throw new AppError('NOT_FOUND', msg('platform.jobNoFile'));
  const [file] = await ctx.db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
  const gone = () => new AppError('NOT_FOUND', msg('platform.jobFileGone'));
  if (!file) throw gone();
  try {
    const { body, size } = await store.get(file.key);
    return { body, size, filename: file.filename, contentType: file.contentType };
  } catch (err) {
    if (err instanceof FileNotFoundError) throw gone();
    throw err;
  }
}
