import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { ApiError } from './api.ts';

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

/** The one way screens report a failure: the API's Spanish message, or a generic one. */
export function notifyError(err: unknown): void {
  const message = err instanceof ApiError ? err.message : i18n.t('common.unexpectedError');
  notifications.show({ color: 'red', message, closeButtonProps: closeButtonProps() });
}

/** Something the user asked for did not happen, told in the screen's own words (not an API error). */
export function notifyWarning(message: string): void {
  notifications.show({ color: 'orange', message, closeButtonProps: closeButtonProps() });
}
