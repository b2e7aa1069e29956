import { modals } from '@mantine/modals';
import i18n from 'i18next';

type ConfirmOptions = Parameters<typeof modals.openConfirmModal>[0];

/** A confirmation dialog whose close button is named for screen readers. */
export const openConfirm = (opts: ConfirmOptions) =>
  modals.openConfirmModal({ closeButtonProps: { 'aria-label': i18n.t('common.close') }, centered: true, ...opts });
