import { and, count, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { contributors, cuiApprovalRequests, importBatches } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';

let registered = false;

/**
 * The contributors' work queues of the home page. A CUI request waits for any other holder of
 * cui-approval APPROVE whose scope reaches the contributor's entity (maker-checker: never one's own).
 * Registered by the routes plugin; idempotent (the app may be built more than once in a process).
 */
export function registerContributorQueues(): void {
  if (registered) return;
  registered = true;
  registerWorkQueue({
    id: 'cui-approvals-pending',
    title: 'Aprobaciones de CUI pendientes',
    permission: { resource: 'cui-approval', action: 'APPROVE' },
    link: '/contributors/cui-approval',
    count: async (ctx) => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(cuiApprovalRequests)
        .innerJoin(contributors, eq(contributors.id, cuiApprovalRequests.contributorId))
        .where(
          and(
            eq(cuiApprovalRequests.state, 'PENDIENTE'),
            or(isNull(cuiApprovalRequests.requestedBy), ne(cuiApprovalRequests.requestedBy, ctx.user.id)),
            ctx.inScope(contributors.entityId),
          ),
        );
      return row?.n ?? 0;
    },
  });

  /** The user's own uploads that wait for a decision: validated but not committed, or failed (to discard). */
  registerWorkQueue({
    id: 'contributor-imports-waiting',
    title: 'Cargas masivas por confirmar o descartar',
    permission: { resource: 'contributor-bulk-upload', action: 'CREATE' },
    link: '/contributors/bulk-upload',
    count: async (ctx) => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(importBatches)
        .where(
          and(
            eq(importBatches.kind, 'contributors'),
            eq(importBatches.createdBy, ctx.user.id),
            inArray(importBatches.status, ['VALIDADO', 'FALLIDO']),
          ),
        );
      return row?.n ?? 0;
    },
  });
}
