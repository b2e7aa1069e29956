import type { Permission } from '@aporta/domain';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { RequestContext } from './context.ts';
import { errorBodySchema } from './errors.ts';
import type { FileStore } from './files.ts';
import type { JobWorker } from './jobs.ts';
import type { Gate } from './load.ts';
import type { AuthContext, AuthPolicy, SessionCache } from './session.ts';

/** What a route may be called by: anyone, any signed-in user, or holders of one permission. */
export type Access = 'public' | 'authenticated' | Permission;

export interface RouteInfo {
  method: string;
  url: string;
  access: Access | undefined;
  /** Generates a file: under the per-user limit of platform/load.ts (`config.heavy`). */
  heavy: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** Built by the access guard on every non-public /api route (null on public ones). */
    ctx: RequestContext;
  }
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    authPolicy: AuthPolicy;
    routeTable: RouteInfo[];
    /** This process's background-job worker (started by buildApp unless in tests). */
    jobs: JobWorker;
    /** Where files are kept: DATA_DIR/files or an S3-compatible bucket. */
    files: FileStore;
    /** Resolved sessions of this process (platform/session.ts). */
    sessionCache: SessionCache;
    /** The bound on concurrent expensive searches of this process (platform/load.ts). */
    searchGate: Gate;
  }
}

/** Response schemas for the error statuses a route can answer, all with the one error shape. */
export function errorResponses<const S extends number>(...statuses: S[]): Record<S, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((s) => [s, errorBodySchema])) as Record<S, typeof errorBodySchema>;
}
