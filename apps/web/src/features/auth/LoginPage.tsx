import { loginRequestSchema } from '@aporta/domain/auth';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconClock, IconInfoCircle } from '@tabler/icons-react';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { takeSessionEndedFlag, useLogin } from './useAuth.ts';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  const location = useLocation();
  const registered = (location.state as { registered?: boolean } | null)?.registered === true;
  const [sessionEnded] = useState(takeSessionEndedFlag);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: zod4Resolver(loginRequestSchema),
  });

  const submit = form.onSubmit((values) =>
    login.mutate(values, {
      onSuccess: (res) => {
        notifySuccess(t('auth.welcome', { name: res.data.firstName || res.data.email }));
        // A one-time password (new account, reset by an administrator) must be replaced first.
        navigate(res.data.mustChangePassword ? '/auth/change-password' : '/', { replace: true });
      },
    }),
  );

  const error = login.error instanceof ApiError ? login.error.message : login.error ? t('common.unexpectedError') : null;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {t('auth.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('auth.subtitle')}
          </Text>
        </div>
        {registered && !error && (
          <Alert color="blue" icon={<IconInfoCircle size={18} />} data-testid="registered-notice">
            {t('auth.registeredNotice')}
          </Alert>
        )}
        {sessionEnded && !error && !registered && (
          <Alert color="yellow" icon={<IconClock size={18} />} data-testid="session-ended-notice">
            {t('auth.sessionEnded')}
          </Alert>
        )}
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
            {error}
          </Alert>
        )}
        <TextInput
          label={t('auth.email')}
          placeholder="usuario@institucion.gt"
          autoComplete="username"
          type="email"
          required
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          required
          visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={login.isPending} fullWidth>
          {t('auth.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('auth.noAccount')}{' '}
          <Anchor component={Link} to="/auth/register">
            {t('auth.registerLink')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
