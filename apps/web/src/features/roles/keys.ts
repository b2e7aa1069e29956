/** Query keys of the roles module: named in lib/ because institutions invalidate its lists. */
export { roleKeys } from '../../lib/queryKeys.ts';
