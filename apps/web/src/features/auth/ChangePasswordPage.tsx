import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ChangePasswordForm } from '../../components/ChangePasswordForm.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { getToken } from '../../lib/session.ts';

/** Where a user with a one-time password lands after signing in: nothing else works until it is changed. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  if (!getToken()) return <Navigate to="/auth/login" replace />;
  if (!user) return null;
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          {t('auth.changePasswordTitle')}
        </Title>
        <Text c="dimmed" size="sm">
          {user.email}
        </Text>
      </div>
      {user.mustChangePassword && (
        <Alert color="yellow" icon={<IconKey size={18} />}>
          {t('auth.mustChange')}
        </Alert>
      )}
      <ChangePasswordForm
        email={user.email}
        onDone={() => {
          notifySuccess(t('auth.passwordChanged'));
          navigate('/', { replace: true });
        }}
      />
    </Stack>
  );
}
