import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A destructive action that needs a reason (void an order, a receipt, reverse a payment): the dialog
 * explains what happens, the reason is required, and the action runs only on confirmation.
 */
export function ReasonModal({
  opened,
  title,
  message,
  confirmLabel,
  loading,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  loading?: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      transitionProps={{ transition: 'fade' }}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Text size="sm">{message}</Text>
        <Textarea
          label={t('payments.reason')}
          required
          autosize
          minRows={2}
          maxLength={500}
          value={reason}
          error={error}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setError(null);
          }}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            loading={loading}
            onClick={() => (reason.trim() ? onConfirm(reason.trim()) : setError(t('payments.reasonRequired')))}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
