import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface WatchdogReport {
  /** Health checks answered while it ran. */
  count: number;
  /** The slowest answer, in milliseconds. */
  slowestMs: number;
  /** Checks that were not a 200 within `limitMs`: what, how long. */
  late: string[];
}

/**
 * Polls `/api/health` over a real socket every `intervalMs` while a test runs, and records every answer
 * slower than `limitMs` (or not a 200). The app listens on a free port of its own for it, so the health
 * requests interleave with what the test sends through `inject` on the same event loop: a request that
 * holds the loop (a synchronous walk, a huge allocation) shows as a late health check.
 */
export async function startWatchdog(app: FastifyInstance, { intervalMs = 50, limitMs = 200 } = {}) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/api/health`;
  // Settle before measuring: the first answer over a fresh socket pays for connecting, and work the test
  // started before (a warm-up's audit and job rows) may still hold the embedded database. Measuring starts
  // once a check answers promptly (at most 10 s of waiting), so what it reports is the test's own requests.
  for (let waited = 0; waited < 10_000; ) {
    const t0 = performance.now();
    await (await fetch(url)).arrayBuffer();
    const ms = performance.now() - t0;
    if (ms < limitMs / 4) break;
    waited += ms;
  }
  const report: WatchdogReport = { count: 0, slowestMs: 0, late: [] };
  let running = true;
  // What the test was sending when a check started (set by `doing`), so a late check names its cause.
  let current = '';
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const during = current;
      let status = 0;
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = -1;
      }
      const ms = performance.now() - started;
      report.count += 1;
      report.slowestMs = Math.max(report.slowestMs, ms);
      if (ms > limitMs || status !== 200)
        report.late.push(`${status} in ${Math.round(ms)} ms during ${during || '?'}${current !== during ? ` … ${current}` : ''}`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    /** Names what the test sends now (a late check reports it). */
    doing(what: string) {
      current = what;
    },
    /** Stops polling and answers what it saw. */
    async stop(): Promise<WatchdogReport> {
      running = false;
      await loop;
      return report;
    },
  };
}
