import { modals } from '@mantine/modals';
import i18n from 'i18next';

type ConfirmOptions = Parameters<typeof modals.openConfirmModal>[0];

/**
 * A confirmation dialog whose close button is named for screen readers. It fades in without moving:
 * Mantine's default (`fade-down`) slides the buttons 30 px while the dialog opens, so a click made during
 * the opening (a quick user, or a browser test on a loaded machine) could press the button at one place
 * and release it 30 px away — the browser then fires no click and the dialog stays open.
 */
export const openConfirm = (opts: ConfirmOptions) =>
  modals.openConfirmModal({
    closeButtonProps: { 'aria-label': i18n.t('common.close') },
    centered: true,
    transitionProps: { transition: 'fade' },
    ...opts,
  });
