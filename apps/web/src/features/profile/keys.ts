/** Query keys of one's own profile: shared with lib/auth.ts, whose password change refreshes them. */
export { profileKeys } from '../../lib/queryKeys.ts';
