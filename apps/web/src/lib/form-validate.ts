import type { FormErrors } from '@mantine/form';
import { zod4Resolver as mantineZod4Resolver } from 'mantine-form-zod-resolver';
import type { $ZodType } from 'zod/v4/core';
import { issueText } from './server-messages.ts';

/**
 * The one way a form is validated by the domain schema its route uses: mantine-form-zod-resolver's, with
 * each message said in the user's language — a rule's own text (a domain catalogue text) by its key, zod's
 * own messages by zod's locale of the language (lib/server-messages.ts). Same name, so forms read as before.
 */
export function zod4Resolver(
  schema: $ZodType,
  options?: { errorPriority?: 'first' | 'last' },
): (values: Record<string, unknown>) => FormErrors {
  const resolve = mantineZod4Resolver(schema, options);
  return (values) => {
    const errors = resolve(values);
    for (const [path, message] of Object.entries(errors)) {
      if (typeof message === 'string') errors[path] = issueText(message);
    }
    return errors;
  };
}
