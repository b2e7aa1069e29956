/** Query keys of the signed-in user: shared with lib/auth.ts, which reads and refreshes them. */
export { authKeys } from '../../lib/queryKeys.ts';
