/** Query keys of the users module: named in lib/ because institutions and roles invalidate its lists. */
export { userKeys } from '../../lib/queryKeys.ts';
