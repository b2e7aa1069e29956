import { registerWorkQueue } from '../home/queues.ts';
import { waitingCount } from './requests.ts';

/** Requests waiting for the user: a role they hold (or they as requester) may move them now, within their scope. */
registerWorkQueue({
  id: 'sig-requests-waiting',
  title: 'Solicitudes que esperan mi acción',
  permission: { resource: 'sig-items', action: 'UPDATE' },
  link: '/sig/item?waiting=true',
  count: (ctx) => waitingCount(ctx),
});
