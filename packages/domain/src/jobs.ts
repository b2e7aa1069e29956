import { z } from 'zod';
import { idTextSchema } from './fields.ts';
import { listQuerySchema } from './list.ts';

/** Life of a background job ("Procesos"): queued, running, then one of three ends. */
export const jobStates = ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED'] as const;
export const jobStateSchema = z.enum(jobStates);
export type JobState = z.infer<typeof jobStateSchema>;

export const jobStateLabels: Record<JobState, string> = {
  QUEUED: 'En espera',
  RUNNING: 'En curso',
  DONE: 'Terminado',
  FAILED: 'Falló',
  CANCELLED: 'Cancelado',
};

export const isJobFinished = (s: JobState): boolean => s === 'DONE' || s === 'FAILED' || s === 'CANCELLED';

/** A job as the web app polls it (GET /api/jobs/:id). */
export const jobSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  /** Spanish name of the kind of work ("Exportación de afiliados"). */
  title: z.string(),
  state: jobStateSchema,
  done: z.number().int(),
  total: z.number().int().nullable(),
  /** What it is doing now, in Spanish. */
  phase: z.string(),
  result: z.unknown().nullable(),
  /** Why it failed, in Spanish. */
  error: z.string().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** Null: started by the system (a daily run). */
  userId: z.number().int().nullable(),
  /** Who started it; «Sistema» for the system's own runs. */
  userEmail: z.string(),
  /** A result file can be downloaded (GET /api/jobs/:id/file): only by the user who started the job. */
  hasFile: z.boolean(),
  canCancel: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type Job = z.infer<typeof jobSchema>;

export const jobListQuerySchema = listQuerySchema.omit({ sort: true }).extend({
  state: jobStateSchema.optional(),
  /** Everyone's jobs, for holders of `jobs` READ; otherwise only one's own are listed. */
  scope: z.enum(['mine', 'all']).default('mine'),
  userId: idTextSchema.optional(),
});
export type JobListQuery = z.infer<typeof jobListQuerySchema>;

/** Answer of an action that starts a job: the client follows it with GET /api/jobs/:id. */
export const jobStartedSchema = z.object({ jobId: z.number().int() });
export type JobStarted = z.infer<typeof jobStartedSchema>;
