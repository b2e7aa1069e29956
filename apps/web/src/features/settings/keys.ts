/** Query keys of the Parámetros module (effective-dated settings). */
export const settingKeys = {
  all: ['settings'] as const,
  overview: () => [...settingKeys.all, 'overview'] as const,
  history: (key: string | null) => [...settingKeys.all, 'history', key] as const,
};
