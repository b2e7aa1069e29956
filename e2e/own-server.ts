import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_ADMIN } from './constants.mjs';

/**
 * A server of a spec's own (its own port and embedded database, no demo data), for the specs that kill
 * it in the middle of some work and start it again on the same data (the `restart` projects).
 */
export const root = fileURLToPath(new URL('..', import.meta.url));

export function startServer(port: number, dataDir: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/api/src/main.ts'), 'serve'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
  });
}

export async function waitForHealth(port: number, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Stops the server at once (SIGKILL: a crash, nothing is given back cleanly), or gently with SIGTERM. */
export function killed(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
