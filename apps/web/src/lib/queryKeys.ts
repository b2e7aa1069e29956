/**
 * Query keys more than one feature names (to read a query or to invalidate it after a change): the
 * signed-in user and their profile, users and roles. A feature's other keys stay in its own keys.ts.
 * Kept apart from the query library so the sign-in page can name them without loading it.
 */

/** The auth module's keys (the signed-in user). */
export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

/** One's own profile (a password change refreshes it). */
export const profileKeys = {
  all: ['profile'] as const,
  sessions: () => [...profileKeys.all, 'sessions'] as const,
};

/** The users module (institutions and roles invalidate its lists). */
export const userKeys = {
  all: ['users'] as const,
  list: (query: unknown) => [...userKeys.all, 'list', query] as const,
  options: () => [...userKeys.all, 'options'] as const,
};

/** The roles module (institutions invalidate its lists). */
export const roleKeys = {
  all: ['roles'] as const,
  list: (query: unknown) => [...roleKeys.all, 'list', query] as const,
  one: (id: number | null) => [...roleKeys.all, 'one', id] as const,
};
