import { Button, type ButtonProps, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The end of a form or a modal's form: cancel on the left, the form's submit on the right (red for a
 * destructive one), spinning while the request runs.
 */
export function FormActions({
  onCancel,
  cancelLabel,
  submitLabel,
  loading,
  disabled,
  color,
  mt,
}: {
  onCancel: () => void;
  /** «Cancelar» unless the form says otherwise (e.g. «Conservar» when the submit cancels something). */
  cancelLabel?: ReactNode;
  submitLabel: ReactNode;
  loading?: boolean;
  disabled?: boolean;
  color?: ButtonProps['color'];
  mt?: ButtonProps['mt'];
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel}>
        {cancelLabel ?? t('common.cancel')}
      </Button>
      <Button type="submit" color={color} loading={loading} disabled={disabled}>
        {submitLabel}
      </Button>
    </Group>
  );
}
