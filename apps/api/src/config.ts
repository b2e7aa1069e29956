import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { passwordProblem } from '@aporta/domain/accounts';
import { z } from 'zod';

/** Repository root: apps/api/src → ../../.. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'debe ser true o false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'debe ser un número' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'debe empezar con postgres:// o postgresql://' })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_EMAIL: z.email({ error: 'debe ser un correo electrónico válido' }).default('admin@aporta.local'),
  /** Checked against the product's password rule below (passwordProblem), with PASSWORD_MIN_LENGTH. */
  ADMIN_PASSWORD: z.string().optional(),
  DEMO_DATA: bool.optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(8),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(7),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(8).max(128).default(10),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  LOGIN_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Requests a minute one integration token may make (issue 30), counted across processes; beyond: 429. */
  API_TOKEN_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /** «Olvidé mi contraseña»: minutes a reset link stays valid, and requests per e-mail address per hour. */
  PASSWORD_RESET_MINUTES: z.coerce.number().int().min(5).max(1440).default(30),
  PASSWORD_RESET_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(100).default(5),
  REGISTRATION_ENABLED: bool.default(true),
  APP_TITLE: z.string().min(1).default('Aporta'),
  APP_ACRONYM: z.string().min(1).default('APORTA'),
  APP_CREDIT: z.string().min(1).default('Desarrollado por el equipo de Aporta'),
  RENAP_URL: z.url({ error: 'debe ser una URL http(s)' }).optional(),
  RENAP_TOKEN: z.string().min(1).optional(),
  RENAP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  RENAP_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  /** S3-compatible file storage; without S3_BUCKET files are kept in DATA_DIR/files. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_ENDPOINT: z.url({ error: 'debe ser una URL http(s)' }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._/-]*$/, { error: 'solo letras, números, . _ - y /' })
    .optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  /**
   * Key that encrypts the certification authority's and the seal's private keys at rest (any string of
   * 32+ characters); without it one is generated into DATA_DIR/signing-master.key on first start.
   */
  SIGNING_MASTER_KEY: z.string().min(32, { error: 'debe tener al menos 32 caracteres' }).optional(),
  /** The address users reach the app at, printed in certificates (CRL distribution point). */
  PUBLIC_URL: z.url({ error: 'debe ser una URL http(s)' }).optional(),
  /**
   * Outgoing mail (issue 29): `smtp://user:pass@host:port` or `smtps://…`. Without it mails stay in the outbox
   * (PENDING, never attempted; the «Correo saliente» screen shows them). Never logged: only its host is.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, { error: 'debe empezar con smtp:// o smtps://' })
    .optional(),
  /** The sender of every mail; default `"<APP_TITLE>" <no-responder@aporta.local>`. */
  MAIL_FROM: z.string().min(3).optional(),
  /** Attempts before an outbox message is FAILED (back-off 1, 2, 4… minutes, capped at an hour). */
  MAIL_MAX_ATTEMPTS: z.coerce.number({ error: 'debe ser un número' }).int().min(1).max(50).default(8),
  /** Attempts before a webhook delivery is FAILED (back-off 1, 2, 4… minutes, capped at an hour). */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number({ error: 'debe ser un número' }).int().min(1).max(50).default(8),
  /**
   * Webhooks to private, loopback or link-local addresses are refused in production (SSRF); `true` allows them
   * (a receiver inside the institution's network).
   */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /**
   * HTTP server processes `serve` starts (node:cluster, sharing the port): one per core on PostgreSQL. The
   * embedded database belongs to one process, so more than one needs DATABASE_URL. Pools, search slots and
   * jobs below are per process.
   */
  API_PROCESSES: z.coerce.number({ error: 'debe ser un número' }).int().min(1).max(64).default(1),
  /** Background jobs run at once by this process; 0 = this process runs none (another one does). */
  JOBS_CONCURRENCY: z.coerce.number({ error: 'debe ser un número' }).int().min(0).max(32).default(2),
  /**
   * How often an idle job worker looks for jobs queued by another process (ms). On PostgreSQL the 'aporta_jobs'
   * notification wakes it at once; this is the fallback while that channel is down.
   */
  JOBS_POLL_MS: z.coerce.number({ error: 'debe ser un número' }).int().min(100).max(600_000).default(1000),
  /** PostgreSQL: connections of the main pool, and the backstop timeout of any statement (platform/load.ts). */
  DB_POOL_SIZE: z.coerce.number({ error: 'debe ser un número' }).int().min(2).max(200).default(10),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number({ error: 'debe ser un número' }).int().min(1000).default(120_000),
  /** Expensive searches (a name search) run at once per process, how many may wait and for how long. */
  SEARCH_CONCURRENCY: z.coerce.number({ error: 'debe ser un número' }).int().min(1).max(64).default(4),
  SEARCH_QUEUE: z.coerce.number({ error: 'debe ser un número' }).int().min(0).max(1000).default(64),
  SEARCH_WAIT_MS: z.coerce.number({ error: 'debe ser un número' }).int().min(0).max(60_000).default(5000),
  /** A list or search asked while more than this many requests wait for a pool connection is answered 503. */
  MAX_POOL_WAITING: z.coerce.number({ error: 'debe ser un número' }).int().min(1).default(40),
  /**
   * Fair share per user (platform/load.ts): requests that generate a file (PDF, xlsx/csv export, report) at
   * once and open live streams (the chat's), per process; jobs queued or running, across processes (SQL).
   * Beyond each, 429 with a Spanish message.
   */
  HEAVY_REQUESTS_PER_USER: z.coerce.number({ error: 'debe ser un número' }).int().min(1).max(1000).default(4),
  STREAMS_PER_USER: z.coerce.number({ error: 'debe ser un número' }).int().min(1).max(1000).default(8),
  JOBS_PER_USER: z.coerce.number({ error: 'debe ser un número' }).int().min(1).max(100_000).optional(),
  /** Seconds a resolved session is reused before it is read again (0: no cache); changes invalidate it at once. */
  SESSION_CACHE_SECONDS: z.coerce.number({ error: 'debe ser un número' }).min(0).max(300).optional(),
  /** The template's data calls (/app/{collection}) answer after the spec's simulated 500 ms, for demos. */
  TEMPLATE_DELAY: bool.default(false),
  /**
   * Prometheus metrics (platform/metrics.ts): `/metrics` on a port of its own (METRICS_PORT, listening on
   * METRICS_HOST, 127.0.0.1 unless set) and/or on the main port with `Authorization: Bearer <METRICS_TOKEN>`
   * (the token is then asked on the metrics port too). With neither, metrics are off and `/metrics` is a 404.
   */
  METRICS_PORT: z.coerce.number({ error: 'debe ser un número' }).int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(32, { error: 'debe tener al menos 32 caracteres' }).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'DATA_DIR' | 'DEMO_DATA' | 'SESSION_CACHE_SECONDS' | 'JOBS_PER_USER' | 'MAIL_FROM'> {
  /** The sender of every mail (MAIL_FROM, or the institution's name at no-responder@aporta.local). */
  MAIL_FROM: string;
  /** 30 s by default; 0 (no cache) in tests unless set, so a test that edits the database sees it at once. */
  SESSION_CACHE_SECONDS: number;
  /**
   * 10 by default; 10 000 in tests unless set: most API tests enqueue work (uploads, exports) without running a
   * worker, so their queue only grows. The quota's own tests set it.
   */
  JOBS_PER_USER: number;
  dataDir: string;
  demoData: boolean;
  webDist: string;
  version: string;
}

export class ConfigError extends Error {}

/**
 * Reads the environment once. A bad value stops start-up with a message naming the variable. Relative
 * DATA_DIR is taken from where the user ran the command (npm's INIT_CWD), else the repository root.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Configuración inválida — ${problems}`);
  }
  const e = parsed.data;
  // The first administrator's password follows the rule every other password follows.
  const weak = e.ADMIN_PASSWORD && passwordProblem(e.ADMIN_PASSWORD, { email: e.ADMIN_EMAIL, minLength: e.PASSWORD_MIN_LENGTH });
  if (weak) throw new ConfigError(`Configuración inválida — ADMIN_PASSWORD: ${weak}`);
  if (e.METRICS_PORT && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(
      'Configuración inválida — METRICS_PORT: debe ser distinto de PORT (o quite METRICS_PORT y use METRICS_TOKEN)',
    );
  }
  if (e.API_PROCESSES > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      'Configuración inválida — API_PROCESSES: más de un proceso necesita PostgreSQL (DATABASE_URL); la base embebida admite uno solo',
    );
  }
  const base = env.INIT_CWD ?? repoRoot;
  const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'apps/api/package.json'), 'utf8')) as { version: string };
  const webDist = resolve(repoRoot, 'apps/web/dist');
  return {
    ...e,
    dataDir: isAbsolute(e.DATA_DIR) ? e.DATA_DIR : resolve(base, e.DATA_DIR),
    // Demo users have documented passwords: on by default only for the embedded database.
    demoData: e.DEMO_DATA ?? !e.DATABASE_URL,
    webDist: existsSync(webDist) ? webDist : '',
    SESSION_CACHE_SECONDS: e.SESSION_CACHE_SECONDS ?? (e.NODE_ENV === 'test' ? 0 : 30),
    JOBS_PER_USER: e.JOBS_PER_USER ?? (e.NODE_ENV === 'test' ? 10_000 : 10),
    MAIL_FROM: e.MAIL_FROM ?? `"${e.APP_TITLE.replace(/["\\\r\n]/g, '')}" <no-responder@aporta.local>`,
    version: pkg.version,
  };
}
