import { passwordProblemMessage } from '@aporta/domain/accounts';
import { resetPasswordSchema } from '@aporta/domain/auth';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { apiErrorText } from '../../lib/notify.ts';
import { messageText } from '../../lib/server-messages.ts';
import { clearSession } from '../../lib/session.ts';
import { resetPassword } from './api.ts';

/** The server's refusal of the link itself (unknown, used or expired), as opposed to the password's. */
const linkRefusal = (err: unknown): ApiError | null =>
  err instanceof ApiError && err.details.some((d) => d.path === 'token') ? err : null;

/**
 * What the link of a «Olvidé mi contraseña» e-mail opens (/restablecer-contrasena?token=…): a new password
 * under the product's rule, twice. The token is taken out of the address at once (it stays in memory), so
 * it is neither kept in the history nor shown over a shoulder. On success every session of the user has
 * ended: the page sends them to sign in with the new password.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [token] = useState(() => params.get('token') ?? '');
  useEffect(() => {
    if (params.has('token')) setParams({}, { replace: true });
  }, [params, setParams]);
  const reset = useMutation({ mutationFn: resetPassword });
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '', confirm: '' },
    validate: (values) => {
      const errors = zod4Resolver(resetPasswordSchema)({ token: token || '-', password: values.password });
      // The rule as the server applies it (with the default minimum; the server's own, if set higher, answers).
      const problem = values.password ? passwordProblemMessage(values.password) : null;
      if (problem && !errors.password) errors.password = messageText({ message: problem.text, ...problem });
      if (values.confirm !== values.password) errors.confirm = t('auth.passwordsDiffer');
      return errors;
    },
  });
  const submit = form.onSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        onSuccess: () => {
          clearSession();
          navigate('/auth/login', { replace: true, state: { passwordReset: true } });
        },
        onError: (e) => {
          if (!linkRefusal(e)) showApiError(e, form, ['password']);
        },
      },
    ),
  );
  const refused = linkRefusal(reset.error);
  const toggle = { 'aria-label': t('auth.togglePassword') };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {t('auth.resetTitle')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('auth.resetSubtitle')}
          </Text>
        </div>
        {!token || refused ? (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="reset-link-invalid">
            {refused ? apiErrorText(refused) : t('auth.resetLinkMissing')}
          </Alert>
        ) : (
          <>
            <PasswordInput
              label={t('auth.newPassword')}
              description={t('auth.passwordRule')}
              autoComplete="new-password"
              required
              visibilityToggleButtonProps={toggle}
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label={t('auth.confirmPassword')}
              autoComplete="new-password"
              required
              visibilityToggleButtonProps={toggle}
              key={form.key('confirm')}
              {...form.getInputProps('confirm')}
            />
            <Button type="submit" loading={reset.isPending} fullWidth>
              {t('auth.resetSubmit')}
            </Button>
          </>
        )}
        <Text size="sm" ta="center">
          {!token || refused ? (
            <Anchor component={Link} to="/auth/forgot-password">
              {t('auth.requestNewLink')}
            </Anchor>
          ) : (
            <Anchor component={Link} to="/auth/login">
              {t('auth.backToLogin')}
            </Anchor>
          )}
        </Text>
      </Stack>
    </form>
  );
}
