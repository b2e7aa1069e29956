import type { FormErrors } from '@mantine/form';

/**
 * The domain schema's errors placed on the form's fields: an issue on one item of a list (`orderIds.2`,
 * `periods.0`) shows on the list's own field (`orderIds`, `periods`), which is the one input that has it.
 */
export function onListFields(errors: FormErrors, lists: readonly string[]): FormErrors {
  const out: FormErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = lists.find((list) => path.startsWith(`${list}.`)) ?? path;
    if (!(field in out)) out[field] = message;
  }
  return out;
}
