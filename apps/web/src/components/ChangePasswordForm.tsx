import { changePasswordSchema, passwordProblem } from '@aporta/domain/accounts';
import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useChangePassword } from '../lib/auth.ts';
import { showApiError } from '../lib/form-errors.ts';
import { zod4Resolver } from '../lib/form-validate.ts';

/** Current, new and repeated password; the rule is checked here and again on the server. */
export function ChangePasswordForm({ email, onDone }: { email: string; onDone: () => void }) {
  const { t } = useTranslation();
  const change = useChangePassword();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { currentPassword: '', newPassword: '', confirm: '' },
    validate: (values) => {
      const errors = zod4Resolver(changePasswordSchema)(values);
      const problem = values.newPassword ? passwordProblem(values.newPassword, { email }) : null;
      if (problem && !errors.newPassword) errors.newPassword = problem;
      if (values.confirm !== values.newPassword) errors.confirm = t('auth.passwordsDiffer');
      return errors;
    },
  });
  const submit = form.onSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          form.reset();
          onDone();
        },
        onError: (e) => showApiError(e, form, ['currentPassword', 'newPassword']),
      },
    ),
  );
  const toggle = { 'aria-label': t('auth.togglePassword') };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <PasswordInput
          label={t('auth.currentPassword')}
          autoComplete="current-password"
          required
          visibilityToggleButtonProps={toggle}
          key={form.key('currentPassword')}
          {...form.getInputProps('currentPassword')}
        />
        <PasswordInput
          label={t('auth.newPassword')}
          description={t('auth.passwordRule')}
          autoComplete="new-password"
          required
          visibilityToggleButtonProps={toggle}
          key={form.key('newPassword')}
          {...form.getInputProps('newPassword')}
        />
        <PasswordInput
          label={t('auth.confirmPassword')}
          autoComplete="new-password"
          required
          visibilityToggleButtonProps={toggle}
          key={form.key('confirm')}
          {...form.getInputProps('confirm')}
        />
        <Button type="submit" loading={change.isPending}>
          {t('auth.changePassword')}
        </Button>
      </Stack>
    </form>
  );
}
