/** Query keys of the auth module (the signed-in user). Kept apart so the sign-in page can name them without the query library. */
export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};
