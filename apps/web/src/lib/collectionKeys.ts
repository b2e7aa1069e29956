/** Query keys of the catalogue engine (one collection's keys sit under its name). */
export const collectionKeys = {
  all: ['collections'] as const,
  names: () => [...collectionKeys.all, 'names'] as const,
  summary: () => [...collectionKeys.all, 'summary'] as const,
  schema: (name: string) => [...collectionKeys.all, name, 'schema'] as const,
  list: (name: string, params: unknown) => [...collectionKeys.all, name, 'list', params] as const,
  record: (name: string, id: number | null) => [...collectionKeys.all, name, 'record', id] as const,
  options: (name: string, field: string, search: string, selected: number | null) =>
    [...collectionKeys.all, name, 'options', field, search, selected] as const,
};
