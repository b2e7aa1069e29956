import { forgotPasswordSchema } from '@aporta/domain/auth';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { errorText } from '../../lib/notify.ts';
import { requestPasswordReset } from './api.ts';

/**
 * «¿Olvidó su contraseña?»: asks for a link to set a new one. The answer never tells whether the address
 * has an account, so the page says the same thing after any accepted request.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const request = useMutation({ mutationFn: requestPasswordReset });
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: zod4Resolver(forgotPasswordSchema),
  });
  const submit = form.onSubmit((body) => request.mutate(body));

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {t('auth.forgotTitle')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('auth.forgotSubtitle')}
          </Text>
        </div>
        {request.isSuccess ? (
          <Alert color="blue" icon={<IconMailForward size={18} />} role="status" data-testid="forgot-sent">
            {t('auth.forgotSent')}
          </Alert>
        ) : (
          <>
            {request.isError && (
              <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="forgot-error">
                {errorText(request.error)}
              </Alert>
            )}
            <TextInput
              label={t('auth.email')}
              placeholder="usuario@institucion.gt"
              type="email"
              autoComplete="email"
              required
              key={form.key('email')}
              {...form.getInputProps('email')}
            />
            <Button type="submit" loading={request.isPending} fullWidth>
              {t('auth.forgotSubmit')}
            </Button>
          </>
        )}
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/auth/login">
            {t('auth.backToLogin')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
