import { scheduleDaily } from '../../platform/jobs.ts';
import { remindDeadlines } from './deadlines.ts';

/** The legal module's daily work, registered by its routes plugin (`registerLegalJobs`). */

let registered = false;

/** Registers the daily deadline reminder once (later calls do nothing). */
export function registerLegalJobs(): void {
  if (registered) return;
  registered = true;
  // Every morning, as the system: the deadlines of the coming week (and of the day) are announced to their lawyers.
  scheduleDaily({
    key: 'legal.deadline-reminders',
    title: 'Recordatorio diario de plazos de expedientes',
    at: '06:00',
    permission: { resource: 'legal-module', action: 'UPDATE' },
    async run(ctx, day, progress) {
      await progress({ done: 0, total: null, phase: `Buscando plazos próximos al ${day}` });
      return remindDeadlines(ctx, day);
    },
  });
}
