import type { LoginRequest } from '@aporta/domain';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconClock, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { storeSession } from '../../lib/session.ts';
import { takeSessionEndedFlag } from '../../lib/session-ended.ts';
import { login } from './api.ts';
import { authKeys } from './keys.ts';

type Field = keyof LoginRequest;

/**
 * The sign-in page. It is the whole entry bundle's reason to exist, so it keeps to React, Mantine's
 * inputs and the API client: the shared zod schema (the same rule the server applies) is imported on
 * the first submit, which also starts downloading what the application needs next.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as { registered?: boolean; passwordReset?: boolean } | null;
  const registered = state?.registered === true;
  const passwordReset = state?.passwordReset === true;
  const [sessionEnded] = useState(takeSessionEndedFlag);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (pending) return;
    const data = new FormData(e.currentTarget);
    setPending(true);
    try {
      const { loginRequestSchema } = await import('@aporta/domain/auth');
      const parsed = loginRequestSchema.safeParse({ email: data.get('email'), password: data.get('password') });
      if (!parsed.success) {
        const found: Partial<Record<Field, string>> = {};
        const { issueText } = await import('../../lib/server-messages.ts');
        for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issueText(issue.message);
        setErrors(found);
        return;
      }
      setErrors({});
      const res = await login(parsed.data);
      storeSession(res.token, res.data);
      // Another account may have been signed in on this tab: its cached data must not show.
      const { queryClient } = await import('../../lib/query.ts');
      queryClient.clear();
      queryClient.setQueryData(authKeys.me(), res.data);
      setFailure(null);
      // The toast machinery comes with the application, not with the sign-in page.
      const welcome = t('auth.welcome', { name: res.data.firstName || res.data.email });
      void import('../../lib/notify.ts').then((n) => n.notifySuccess(welcome));
      // A one-time password (new account, reset by an administrator) must be replaced first.
      navigate(res.data.mustChangePassword ? '/auth/change-password' : '/', { replace: true });
    } catch (err) {
      const { errorText } = await import('../../lib/notify.ts');
      setFailure(errorText(err));
    } finally {
      setPending(false);
    }
  };
  const clearError = (field: Field) => () => errors[field] && setErrors((cur) => ({ ...cur, [field]: undefined }));

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
        {registered && !failure && (
          <Alert color="blue" icon={<IconInfoCircle size={18} />} data-testid="registered-notice">
            {t('auth.registeredNotice')}
          </Alert>
        )}
        {passwordReset && !failure && (
          <Alert color="green" icon={<IconInfoCircle size={18} />} role="status" data-testid="password-reset-notice">
            {t('auth.passwordResetDone')}
          </Alert>
        )}
        {sessionEnded && !failure && !registered && !passwordReset && (
          <Alert color="yellow" icon={<IconClock size={18} />} data-testid="session-ended-notice">
            {t('auth.sessionEnded')}
          </Alert>
        )}
        {failure && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
            {failure}
          </Alert>
        )}
        <TextInput
          name="email"
          label={t('auth.email')}
          placeholder="usuario@institucion.gt"
          autoComplete="username"
          type="email"
          required
          error={errors.email}
          onChange={clearError('email')}
        />
        <PasswordInput
          name="password"
          label={t('auth.password')}
          autoComplete="current-password"
          required
          visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
          error={errors.password}
          onChange={clearError('password')}
        />
        <Anchor component={Link} to="/auth/forgot-password" size="sm" ta="right">
          {t('auth.forgotLink')}
        </Anchor>
        <Button type="submit" loading={pending} fullWidth>
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
