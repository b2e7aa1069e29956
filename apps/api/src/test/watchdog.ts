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
  const report: WatchdogReport = { count: 0, slowestMs: 0, late: [] };
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
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
      if (ms > limitMs || status !== 200) report.late.push(`${new Date().toISOString()} ${status} in ${Math.round(ms)} ms`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    /** Stops polling and answers what it saw. */
    async stop(): Promise<WatchdogReport> {
      running = false;
      await loop;
      return report;
    },
  };
}
