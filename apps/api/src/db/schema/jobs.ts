import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * The background-job queue (platform/jobs.ts). A row is claimed by one worker with
 * `FOR UPDATE SKIP LOCKED` and held under a lease the worker renews (heartbeat); a lease that runs out
 * means the worker died, and the job is queued again or failed — never left RUNNING.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial().primaryKey(),
    kind: text().notNull(),
    state: text({ enum: ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED'] })
      .notNull()
      .default('QUEUED'),
    payload: jsonb().notNull().default({}),
    result: jsonb(),
    /** Spanish message shown to the user when the job failed. */
    error: text(),
    /** Who started it: the job runs with this user's current permissions. Null: the system (a daily run, `scheduleDaily`). */
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    /** The scope the user had when starting it (used when the job's kind declares no permission). */
    scope: text({ enum: ['ALL', 'REGION', 'ENTITY'] }),
    done: integer().notNull().default(0),
    total: integer(),
    phase: text().notNull().default(''),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(3),
    /** Not claimed before this instant (retry back-off). */
    runAfter: ts().notNull().defaultNow(),
    leaseOwner: text(),
    leaseExpiresAt: ts(),
    heartbeatAt: ts(),
    cancelRequestedAt: ts(),
    createdAt: ts().notNull().defaultNow(),
    startedAt: ts(),
    finishedAt: ts(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    // The claim query: the oldest QUEUED job that may run now.
    index('jobs_claim_idx').on(t.runAfter, t.id).where(sql`${t.state} = 'QUEUED'`),
    index('jobs_lease_idx').on(t.leaseExpiresAt).where(sql`${t.state} = 'RUNNING'`),
    index('jobs_user_idx').on(t.userId, t.id),
  ],
);

/** Files kept in storage (platform/files.ts): an export's result, an uploaded spreadsheet. */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: serial().primaryKey(),
    /** The storage key (a path under DATA_DIR/files, or an S3 object key). */
    key: text().notNull().unique(),
    /** The name offered on download. */
    filename: text().notNull(),
    contentType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull().default(0),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
    /** Removed from storage after this instant (exports are temporary). */
    expiresAt: ts(),
  },
  (t) => [index('stored_files_expires_idx').on(t.expiresAt)],
);

/**
 * Fixed-window request counters shared by every API process (the per-address login rate limit):
 * in process memory, two processes would each allow the full rate.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text().primaryKey(),
  hits: integer().notNull().default(0),
  windowEndsAt: ts().notNull(),
});

/**
 * Recurring jobs (platform/jobs.ts `scheduleDaily`): the last slot (the day) each one ran for. A process
 * claims a slot by moving `last_slot` forward in one statement, so a day's run happens once whatever the
 * number of processes.
 */
export const jobSchedules = pgTable('job_schedules', {
  key: text().primaryKey(),
  lastSlot: text().notNull(),
  lastRunAt: ts().notNull().defaultNow(),
  lastFinishedAt: ts(),
  lastResult: jsonb(),
  lastError: text(),
  /** The job of the latest run (shown in Procesos with its progress). */
  lastJobId: integer(),
});
