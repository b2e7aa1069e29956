import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clonePgDatabase } from './test/harness.ts';

/**
 * `serve` with API_PROCESSES=2 on PostgreSQL: one primary prepares the database once and starts two server
 * processes on one port; a session opened through one is good on every request; a process that dies is
 * replaced while the others keep answering; SIGTERM stops them all. Needs PostgreSQL (TEST_DATABASE_URL).
 */
const url = process.env.TEST_DATABASE_URL;
const api = fileURLToPath(new URL('..', import.meta.url));
const password = 'Tortuga-Verde-2026';

/** The server processes the primary started (node:cluster workers running main.ts). */
function workersOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('main.ts')) found.push(Number(entry));
    } catch {
      // The process ended while it was being read.
    }
  }
  return found;
}

async function until<T>(what: string, check: () => Promise<T | null> | T | null, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== null && v !== false) return v;
    if (Date.now() > end) throw new Error(`not reached: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.runIf(!!url)('serve with API_PROCESSES=2 on PostgreSQL', () => {
  let dropDatabase: (() => Promise<void>) | undefined;
  let primary: ChildProcess;
  let out = '';
  let base = '';

  beforeAll(async () => {
    const cloned = await clonePgDatabase();
    dropDatabase = cloned.drop;
    primary = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
      cwd: api,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: cloned.url,
        API_PROCESSES: '2',
        PORT: '0',
        HOST: '127.0.0.1',
        DEMO_DATA: 'false',
        JOBS_CONCURRENCY: '0',
        LOG_LEVEL: 'silent',
        ADMIN_EMAIL: 'admin@procesos.local',
        ADMIN_PASSWORD: password,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    primary.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    base = await until('Listo', () => /Listo en (http:\/\/\S+)/.exec(out)?.[1] ?? null, 110_000);
  }, 120_000);

  afterAll(async () => {
    if (primary && primary.exitCode === null) {
      primary.kill('SIGKILL');
      for (const w of workersOf(primary.pid!)) process.kill(w, 'SIGKILL');
    }
    await dropDatabase?.().catch(() => {});
  }, 30_000);

  it('prepares once, serves from two processes, replaces one that dies and stops them all on SIGTERM', async () => {
    expect(out).toContain('Aplicando migraciones');
    expect(out.match(/Aplicando migraciones/g)).toHaveLength(1);
    expect(out).toContain('(base de datos: PostgreSQL, 2 procesos)');
    const first = workersOf(primary.pid!);
    expect(first).toHaveLength(2);

    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@procesos.local', password }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    // Many requests on fresh connections: the port is shared, so both processes answer some of them.
    const me = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}`, connection: 'close' } }).then(
          (r) => r.status,
        ),
      ),
    );
    expect(me).toEqual(Array(20).fill(200));

    // One dies: the others keep answering and it is replaced.
    process.kill(first[0], 'SIGKILL');
    // The connection handed to the dying process in that instant is reset; the next ones are answered.
    const healthAfter = await until(
      'health after a death',
      () =>
        fetch(`${base}/api/health`, { headers: { connection: 'close' } }).then(
          (r) => (r.status === 200 ? r.status : null),
          () => null,
        ),
      10_000,
    );
    expect(healthAfter).toBe(200);
    const replaced = await until('replacement', () => {
      const now = workersOf(primary.pid!);
      return now.length === 2 && !now.includes(first[0]) ? now : null;
    });
    expect(replaced).toContain(first[1]);
    await until('replacement serving', () => out.includes('se inicia otro') || null);

    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(replaced.filter(alive)).toEqual([]);
  }, 120_000);
});
