import { loginRequestSchema } from '@aporta/domain';
import { Alert, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useLogin } from './useAuth.ts';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: zod4Resolver(loginRequestSchema),
  });

  const submit = form.onSubmit((values) =>
    login.mutate(values, {
      onSuccess: (res) => {
        notifySuccess(t('auth.welcome', { name: res.data.firstName || res.data.email }));
        navigate('/', { replace: true });
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
      </Stack>
    </form>
  );
}
