import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerPdfFinisher } from '../../platform/pdf.ts';
import { uploadLimits } from '../../platform/uploads.ts';
import { ensureAuthority } from './authority.ts';
import { setBatchConfig } from './batch.ts';
import { registerSigningReminders } from './mail-events.ts';
import { registerAdminRoutes } from './routes-admin.ts';
import { registerRequestRoutes } from './routes-requests.ts';
import { registerRuleRoutes } from './routes-rules.ts';
import { sealByRule } from './rules.ts';

/**
 * The signing module's routes plugin: its dependencies (configuration, file store), the certification
 * authority at start, automatic sealing as a PDF finisher, and the routes of each part: the PKI and its
 * administration, the signing flow, verification and automatic sealing.
 */
export const signingRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: uploadLimits });
  // The file store is decorated after the modules register: read it when a request needs it.
  const deps = {
    config: app.config,
    get files() {
      return app.files;
    },
  };
  setBatchConfig(app.config);
  registerSigningReminders();
  // The certification authority exists from the first start on.
  app.addHook('onReady', async () => {
    await ensureAuthority(app.db, app.config);
  });
  // Automatic sealing of generated documents, and of library documents as they are filed, whose kind has an active rule.
  registerPdfFinisher((ctx, kind, pdf) => sealByRule(ctx, deps, kind, pdf));

  registerAdminRoutes(app, deps);
  registerRequestRoutes(app, deps);
  registerRuleRoutes(app, deps);
};
