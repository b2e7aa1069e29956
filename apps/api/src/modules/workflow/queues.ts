import { registerWorkQueue } from '../home/queues.ts';
import { waitingCount } from './request-list.ts';

/**
 * The workflow's home-page queues, registered by the routes plugin (explicitly, not by importing this file).
 * A process builds the app more than once (tests), and the registry refuses a repeated id: registered once.
 */
let registered = false;

export function registerWorkflowQueues(): void {
  if (registered) return;
  registered = true;
  /** Requests waiting for the user: a role they hold (or they as requester) may move them now, within their scope. */
  registerWorkQueue({
    id: 'sig-requests-waiting',
    title: 'Solicitudes que esperan mi acción',
    permission: { resource: 'sig-items', action: 'UPDATE' },
    link: '/sig/item?waiting=true',
    count: (ctx) => waitingCount(ctx),
  });
}
