/** Query keys of the Procesos module: shared with lib/jobs.ts, which follows and cancels one job. */
export { jobKeys } from '../../lib/jobs.ts';
