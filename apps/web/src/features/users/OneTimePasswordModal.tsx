import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Shows a one-time password exactly once; closing the dialog forgets it. */
export function OneTimePasswordModal({
  email,
  password,
  onClose,
}: {
  email: string;
  password: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={!!password}
      onClose={onClose}
      title={t('users.otpTitle')}
      centered
    >
      <Stack>
        <Text size="sm">{t('users.otpFor', { email })}</Text>
        <Group justify="center">
          <Code fz="lg" data-testid="one-time-password">
            {password}
          </Code>
        </Group>
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
          {t('users.otpWarning')}
        </Alert>
        <Group justify="flex-end">
          <CopyButton value={password ?? ''}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? t('users.copied') : t('users.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>{t('users.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
