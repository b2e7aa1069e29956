/**
 * The pensions module's HTTP plugin: the multipart parser for the notarised act, the job environment,
 * what the module adds to other modules' registries (home queues, statistics panels, the workflow action),
 * and its routes by sub-domain (pensions, payroll, survival checks).
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { renapAdapterFor } from '../renap/adapter.ts';
import { jobEnv } from './jobs.ts';
import { registerPensionQueues } from './queues.ts';
import { registerSurvivalNotices } from './reminders.ts';
import { payrollRoutes } from './routes-payroll.ts';
import { pensionCoreRoutes } from './routes-pensions.ts';
import { survivalRoutes } from './routes-survival.ts';
import { registerPensionStatistics } from './statistics.ts';
import { ATTACHMENT_MAX_BYTES } from './survival.ts';
import { registerPensionWorkflowActions } from './workflow-actions.ts';

export const pensionRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024 } });
  const adapter = () => renapAdapterFor(app.config, app.db);
  jobEnv.adapter = adapter;
  jobEnv.appTitle = app.config.APP_TITLE;
  jobEnv.publicOrigin = app.config.PUBLIC_URL?.replace(/\/+$/, '') ?? null;

  registerPensionQueues();
  registerPensionStatistics();
  registerPensionWorkflowActions();
  registerSurvivalNotices();

  await app.register(pensionCoreRoutes);
  await app.register(payrollRoutes);
  await app.register(survivalRoutes, { adapter });
};
