import { ApiError } from './api.ts';
import { notifyError, notifyUnplacedError } from './notify.ts';
import { messageText } from './server-messages.ts';

interface FormLike {
  setFieldError: (path: string, message: string) => void;
}

/**
 * When the notification is shown besides the field errors:
 * - `unplaced` (default): only for what no field of this form can show;
 * - `non-validation`: also for any refusal other than VALIDATION (a DUPLICATE names its field, but
 *   the message says why the save failed);
 * - `always`: every time.
 */
export type NotifyMode = 'unplaced' | 'non-validation' | 'always';

/**
 * The one way a form shows an API refusal: each `details` entry naming one of `fields` goes onto that
 * field; the rest (or the whole error, see `notify`) becomes a notification through lib/notify.ts.
 */
export function showApiError(
  err: unknown,
  form?: FormLike,
  fields: readonly string[] = [],
  { notify = 'unplaced' }: { notify?: NotifyMode } = {},
): void {
  if (form && err instanceof ApiError && err.details.length > 0) {
    const placed = err.details.filter((d) => fields.includes(d.path));
    for (const d of placed) form.setFieldError(d.path, messageText(d));
    const unplaced = err.details.filter((d) => !fields.includes(d.path));
    if (unplaced.length === 0 && notify === 'unplaced') return;
    if (unplaced.length === 0 && notify === 'non-validation' && err.code === 'VALIDATION') return;
    // The toast lists only what no field shows.
    notifyUnplacedError(err, unplaced);
    return;
  }
  notifyError(err);
}
