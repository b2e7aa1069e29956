import type { ErrorDetail } from '@aporta/domain';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { ApiError } from './api.ts';
import { messageText } from './server-messages.ts';

/**
 * Where toasts appear (main.tsx mounts <Notifications {...notificationsProps} />): bottom centre, clear
 * of the topbar, of the page header's actions (top right), of form buttons (bottom right) and of the
 * back-to-top button; at most three at once.
 */
export const notificationsProps = { position: 'bottom-center', limit: 3 } as const;

const closeButtonProps = () => ({ 'aria-label': i18n.t('common.close') });

/** The one way screens tell the user something worked. */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, closeButtonProps: closeButtonProps() });
}

/** A refusal's own message in the user's language (the server's Spanish text when no key is known). */
export const apiErrorText = (err: ApiError): string => messageText({ message: err.message, ...err.keyed });

/** What a failed query or action says on a screen: the API's message in the user's language, or a generic one. */
export const errorText = (err: unknown): string =>
  err instanceof ApiError ? apiErrorText(err) : i18n.t('common.unexpectedError');

/** How many of an error's details a toast lists (the rest are summed up as "…"). */
const MAX_LISTED_DETAILS = 5;

/**
 * What a failure's toast says: the API's Spanish message, and under it the details that say more (which
 * field or row, and why) — a generic "Los datos enviados no son válidos." alone would hide them. Details
 * a form already shows next to its fields are left out by the caller (`showApiError`).
 */
export function errorToast(err: unknown, details?: readonly ErrorDetail[]): { title?: string; message: string } {
  if (!(err instanceof ApiError)) return { message: i18n.t('common.unexpectedError') };
  const title = apiErrorText(err);
  const lines = [...new Set((details ?? err.details).map(messageText))].filter((m) => m && m !== title);
  if (lines.length === 0) return { message: title };
  const listed = lines.slice(0, MAX_LISTED_DETAILS);
  if (lines.length > MAX_LISTED_DETAILS) listed.push('…');
  return { title, message: listed.join('\n') };
}

const showError = (toast: { title?: string; message: string }) =>
  notifications.show({
    color: 'red',
    ...toast,
    styles: { description: { whiteSpace: 'pre-line' } },
    closeButtonProps: closeButtonProps(),
  });

/**
 * The one way screens report a failure: the API's Spanish message with its details, or a generic one.
 * One parameter: it is passed as a mutation's `onError`, whose second argument is the mutation's input.
 */
export function notifyError(err: unknown): void {
  showError(errorToast(err));
}

/** A refusal whose other details a form already shows next to its fields (`showApiError`): lists only `details`. */
export function notifyUnplacedError(err: unknown, details: readonly ErrorDetail[]): void {
  showError(errorToast(err, details));
}

/** Something the user asked for did not happen, told in the screen's own words (not an API error). */
export function notifyWarning(message: string): void {
  notifications.show({ color: 'orange', message, closeButtonProps: closeButtonProps() });
}
