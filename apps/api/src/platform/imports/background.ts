import type { Db } from '../../db/client.ts';

/** Tasks in flight per database (a test process may hold several apps, each with its own database). */
const running = new Map<Db, Set<Promise<void>>>();

/**
 * Runs `task` after the current request, in this process: maintenance a user should not wait for
 * (ANALYZE after a bulk commit). Losing it to a restart costs nothing; real work is a job
 * (platform/jobs.ts). `stopBackgroundTasks` waits for it before the database closes.
 */
export function afterResponse(db: Db, task: () => Promise<unknown>, onError: (err: unknown) => void): void {
  let set = running.get(db);
  if (!set) {
    set = new Set();
    running.set(db, set);
  }
  const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(task)
    .then(
      () => {},
      (err) => onError(err),
    )
    .finally(() => set.delete(done));
  set.add(done);
}

/** Waits for the tasks on `db`: before the database closes. */
export async function stopBackgroundTasks(db: Db): Promise<void> {
  for (;;) {
    const set = running.get(db);
    if (!set?.size) break;
    await Promise.all([...set]);
  }
  running.delete(db);
}
