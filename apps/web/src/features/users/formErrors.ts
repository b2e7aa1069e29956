import { ApiError } from '../../lib/api.ts';
import { notifyError } from '../../lib/notify.ts';

/**
 * Puts the API's field errors on the form fields they name; anything else (or a detail naming no field
 * of this form) becomes a notification.
 */
export function showApiError(
  err: unknown,
  form?: { setFieldError: (path: string, message: string) => void },
  fields: string[] = [],
) {
  if (form && err instanceof ApiError && err.details.length > 0) {
    const mine = err.details.filter((d) => fields.includes(d.path));
    for (const d of mine) form.setFieldError(d.path, d.message);
    if (mine.length === err.details.length) return;
  }
  notifyError(err);
}
