import type { Action, Resource, WorkQueue } from '@aporta/domain';
import { type RequestContext, withPermission } from '../../platform/context.ts';

/**
 * A work queue of the home page ("what waits for me"). Each module registers its queues from its own
 * folder with `registerWorkQueue`, as statistics panels and palette providers are registered; later
 * modules add planillas to review and overdue orders. `count` runs in SQL within the user's data scope
 * for `permission`: the context it receives carries that permission's scope (`ctx.inScope`).
 */
export interface WorkQueueDefinition {
  id: string;
  title: string;
  /** The permission a user needs to see the queue; its scope is the one `count` applies. */
  permission: { resource: Resource; action: Action };
  /** The screen that works the queue (a path of the web app). */
  link: string;
  /** Offered only when the permission's scope is ALL (work on institution-wide records, e.g. bank files). */
  allScope?: boolean;
  /**
   * A check that should read zero — stranded money: records a job left without the change it was to make
   * (a bank row matched with no payment). Shown as an alert when it is not zero.
   */
  alert?: boolean;
  count(ctx: RequestContext): Promise<number>;
}

const queues: WorkQueueDefinition[] = [];

export function registerWorkQueue(queue: WorkQueueDefinition): void {
  if (queues.some((q) => q.id === queue.id)) throw new Error(`Cola de trabajo repetida: ${queue.id}`);
  // A queue is work to do: it follows an action that does the work, never a read-only grant (Consulta
  // reads everything and has no tasks).
  if (queue.permission.action === 'READ' || queue.permission.action === 'EXPORT')
    throw new Error(`La cola ${queue.id} debe pedir una acción que la trabaje, no ${queue.permission.action}.`);
  queues.push(queue);
}

export const workQueues = (): readonly WorkQueueDefinition[] => queues;

/** The queues the user may see, in registration order, with their counts. Callers: any signed-in user. */
export async function findWorkQueues(ctx: RequestContext): Promise<{ items: WorkQueue[] }> {
  const visible = queues.filter((q) => {
    const scope = ctx.scopeFor(q.permission.resource, q.permission.action);
    return q.allScope ? scope === 'ALL' : !!scope;
  });
  const items: WorkQueue[] = [];
  // One at a time: the embedded database has one connection.
  for (const q of visible) {
    const count = await q.count(withPermission(ctx, q.permission.resource, q.permission.action));
    items.push({ id: q.id, title: q.title, link: q.link, count, ...(q.alert ? { alert: true } : {}) });
  }
  return { items };
}
