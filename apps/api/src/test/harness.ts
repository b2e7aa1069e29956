import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Grant, SYSTEM_INSTITUTION } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { institutions, roleGrants, roles, userInstitutions, userRoles, users } from '../db/schema/index.ts';
import { hashPassword } from '../platform/passwords.ts';

export interface TestUser {
  id: number;
  email: string;
  password: string;
  token: string;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** A signed-in user holding exactly `grants` (or every permission with `system: true`). */
  createUser(opts?: {
    grants?: Grant[];
    system?: boolean;
    email?: string;
    password?: string;
    isActive?: boolean;
  }): Promise<TestUser>;
  login(email: string, password: string): Promise<string>;
  /** app.inject with the bearer token of `token` when given. */
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A fresh PostgreSQL database cloned from the migrated template of the global setup (TEST_DATABASE_URL):
 * its URL, for a server a test starts in another process, and how to drop it (forced: such a server may
 * still hold connections).
 */
export async function clonePgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('templateDatabase');
  if (!url || !template) throw new Error('clonePgDatabase: TEST_DATABASE_URL is not set');
  const name = `aporta_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`).catch(async (err) => {
    await admin.end();
    throw err;
  });
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** Opens a fresh database cloned from the migrated template of the global setup. */
export async function cloneDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL && inject('templateDatabase')) {
    const cloned = await clonePgDatabase();
    const database = await openDatabase({ url: cloned.url, poolSize: 4 });
    return {
      database,
      drop: async () => {
        await database.close();
        await cloned.drop();
      },
    };
  }
  const dump = readFileSync(inject('templateDump'));
  const database = await openDatabase({ loadDataDir: new Blob([dump]) });
  return { database, drop: () => database.close() };
}

let counter = 0;

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { database, drop } = await cloneDatabase();
  // Files (export results) go to a folder of this test app, never to the repository's data folder.
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'aporta-test-data-'));
  const config = { ...loadConfig({ NODE_ENV: 'test', LOGIN_RATE_PER_MINUTE: '10000', ...env, DATA_DIR: dataDir }), webDist: '' };
  // The job worker is off: a test that needs it starts app.jobs (and so knows when jobs run).
  const app = await buildApp({ config, database, startJobs: false });
  await app.ready();
  const db = database.db;

  const request: TestApp['request'] = ({ token, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  const login = async (email: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
    return res.json().token as string;
  };

  const createUser: TestApp['createUser'] = async (opts = {}) => {
    counter += 1;
    const email = opts.email ?? `user${counter}-${randomBytes(3).toString('hex')}@test.local`;
    const password = opts.password ?? `Clave-${randomBytes(6).toString('hex')}`;
    const [user] = await db
      .insert(users)
      .values({ email, firstName: 'Usuario', lastName: `Prueba ${counter}`, passwordHash: await hashPassword(password) })
      .returning();
    if (opts.system) {
      const [sys] = await db.select().from(institutions).where(eq(institutions.code, SYSTEM_INSTITUTION));
      await db.insert(userInstitutions).values({ userId: user.id, institutionId: sys.id });
    }
    if (opts.grants?.length) {
      const [role] = await db
        .insert(roles)
        .values({ name: `rol-prueba-${counter}-${user.id}` })
        .returning();
      await db.insert(roleGrants).values(opts.grants.map((g) => ({ roleId: role.id, ...g, scope: g.scope ?? 'ALL' })));
      await db.insert(userRoles).values({ userId: user.id, roleId: role.id });
    }
    const token = await login(email, password);
    if (opts.isActive === false) await db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    return { id: user.id, email, password, token };
  };

  return {
    app,
    database,
    config,
    createUser,
    login,
    request,
    close: async () => {
      await app.close();
      await drop();
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
