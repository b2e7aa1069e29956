/** Municipal entities as the options of a select or a list filter: «Name (code)», valued by id. */
export const entityOptions = (entities: readonly { id: number; name: string; code: string }[] | undefined) =>
  (entities ?? []).map((e) => ({ value: String(e.id), label: `${e.name} (${e.code})` }));
