import type { Action, CurrentUser, Resource } from '@aporta/domain';
import { scopeFor } from '@aporta/domain';
import type { Db } from '../../db/client.ts';

/** What a work queue's count receives: the database and the signed-in user. */
export interface QueueContext {
  db: Db;
  user: CurrentUser;
}

/**
 * A work queue of the home page ("what waits for me"). Each module registers its queues from its own
 * folder with `registerWorkQueue`, as statistics panels and palette providers are registered; later
 * modules add planillas to review and overdue orders. `count` runs in SQL within the user's data scope
 * for `permission`.
 */
export interface WorkQueueDefinition {
  id: string;
  title: string;
  /** The permission a user needs to see the queue; its scope is the one `count` applies. */
  permission: { resource: Resource; action: Action };
  /** The screen that works the queue (a path of the web app). */
  link: string;
  count(ctx: QueueContext): Promise<number>;
}

const queues: WorkQueueDefinition[] = [];

export function registerWorkQueue(queue: WorkQueueDefinition): void {
  if (queues.some((q) => q.id === queue.id)) throw new Error(`Cola de trabajo repetida: ${queue.id}`);
  queues.push(queue);
}

export const workQueues = (): readonly WorkQueueDefinition[] => queues;

/** The queues the user may see, in registration order, with their counts. Callers: any signed-in user. */
export async function findWorkQueues(ctx: QueueContext) {
  const visible = queues.filter((q) => !!scopeFor(ctx.user.permissions, q.permission.resource, q.permission.action));
  const out: { id: string; title: string; link: string; count: number }[] = [];
  // One at a time: the embedded database has one connection.
  for (const q of visible) out.push({ id: q.id, title: q.title, link: q.link, count: await q.count(ctx) });
  return out;
}
