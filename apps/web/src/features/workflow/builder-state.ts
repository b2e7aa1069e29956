import type { DefinitionProblem, FormField } from '@aporta/domain/workflow';

/**
 * The form builder's state rules, kept pure so they are tested without a browser:
 * - a problem is shown once the user tried to save (all of them) or touched the field it names (that
 *   field's), never on a fresh form;
 * - the preview's data follows the current definition: a renamed field keeps its value under its new
 *   name, and a value whose field is gone is dropped (so the preview never checks an old name).
 */

/** The index of the builder's field a problem names (`fields.3.name` → 3), or null for the form's own. */
export const problemField = (path: string): number | null => {
  const m = /^fields\.(\d+)(?:\.|$)/.exec(path);
  return m ? Number(m[1]) : null;
};

/** The problems to show: all of them after a save was tried, else those of the fields touched. */
export function visibleProblems<P extends Pick<DefinitionProblem, 'path'>>(
  problems: readonly P[],
  attempted: boolean,
  touched: ReadonlySet<number>,
): P[] {
  if (attempted) return [...problems];
  return problems.filter((p) => {
    const i = problemField(p.path);
    return i != null && touched.has(i);
  });
}

/** The touched fields after moving one from `from` to `to` (the same fields, at their new places). */
export function touchedAfterMove(touched: ReadonlySet<number>, from: number, to: number): Set<number> {
  const out = new Set<number>();
  for (const i of touched) {
    if (i === from) out.add(to);
    else if (from < to && i > from && i <= to) out.add(i - 1);
    else if (from > to && i >= to && i < from) out.add(i + 1);
    else out.add(i);
  }
  return out;
}

/** The touched fields after removing the one at `removed`. */
export function touchedAfterRemove(touched: ReadonlySet<number>, removed: number): Set<number> {
  const out = new Set<number>();
  for (const i of touched) if (i !== removed) out.add(i > removed ? i - 1 : i);
  return out;
}

/** The preview's data after a field is renamed: its value moves to the new name. */
export function renameInPreview(data: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  if (from === to || !(from in data)) return data;
  const { [from]: value, ...rest } = data;
  return { ...rest, [to]: value };
}

/** The preview's data limited to the fields the definition has now (sections hold no value). */
export function previewData(data: Record<string, unknown>, fields: readonly FormField[]): Record<string, unknown> {
  const names = new Set(fields.filter((f) => f.type !== 'section').map((f) => f.name));
  return Object.fromEntries(Object.entries(data).filter(([k]) => names.has(k)));
}
