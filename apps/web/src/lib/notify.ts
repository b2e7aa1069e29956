import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { ApiError } from './api.ts';

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
