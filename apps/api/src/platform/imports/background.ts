import type { Db } from '../../db/client.ts';
import type { RequestContext } from '../context.ts';

/**
 * The shape of a background job's run (the jobs API agreed for issue 10, platform/jobs.ts): the
 * validation is written against it so it moves onto the jobs platform unchanged.
 */
export interface JobRunLike<P> {
  ctx: RequestContext;
  payload: P;
  jobId: number;
  /** Reports progress; throws once the run has been cancelled or the server is stopping. */
  progress(p: { done: number; total: number | null; phase: string }): Promise<void>;
  signal: AbortSignal;
}

export class RunStoppedError extends Error {
  constructor() {
    super('run stopped');
  }
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/** Runs in flight per database (a test process may hold several apps, each with its own database). */
const running = new Map<Db, Set<Running>>();
let nextId = 1;

/**
 * Starts `run` after the current request, in this process. Until the jobs platform is merged this is
 * the runner of import validations; what makes it safe across restarts is the batch itself (every
 * validated chunk is committed with its progress, and `recoverImports` resumes the rest at start-up).
 */
export function runInBackground<P>(
  ctx: RequestContext,
  payload: P,
  run: (job: JobRunLike<P>) => Promise<unknown>,
  onError: (err: unknown) => void,
): void {
  const controller = new AbortController();
  const job: JobRunLike<P> = {
    ctx,
    payload,
    jobId: nextId++,
    signal: controller.signal,
    async progress() {
      if (controller.signal.aborted) throw new RunStoppedError();
    },
  };
  let set = running.get(ctx.db);
  if (!set) {
    set = new Set();
    running.set(ctx.db, set);
  }
  const entry: Running = {
    controller,
    done: new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => run(job))
      .then(
        () => {},
        (err) => {
          if (!(err instanceof RunStoppedError)) onError(err);
        },
      )
      .finally(() => set.delete(entry)),
  };
  set.add(entry);
}

/** Stops the runs on `db` between two chunks and waits for them: before the database closes. */
export async function stopBackgroundRuns(db: Db): Promise<void> {
  const set = running.get(db);
  if (!set) return;
  for (const r of set) r.controller.abort();
  await Promise.all([...set].map((r) => r.done));
  running.delete(db);
}

/** Resolves when no run is in flight on `db` (tests and the bench wait for a validation this way). */
export async function backgroundIdle(db: Db): Promise<void> {
  for (;;) {
    const set = running.get(db);
    if (!set?.size) return;
    await Promise.all([...set].map((r) => r.done));
  }
}
