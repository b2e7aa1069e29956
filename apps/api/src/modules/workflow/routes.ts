import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uploadLimits } from '../../platform/uploads.ts';
import { registerWorkflowQueues } from './queues.ts';
import { registerDesignRoutes } from './routes-design.ts';
import { registerRequestRoutes } from './routes-requests.ts';

/** The workflow module's routes plugin: its home-page queue, the designer's routes (forms, flows) and the requests'. */
export const workflowRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: uploadLimits });
  registerWorkflowQueues();
  registerDesignRoutes(app);
  registerRequestRoutes(app);
};
