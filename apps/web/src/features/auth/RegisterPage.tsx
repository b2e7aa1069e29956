import { passwordProblem, registerSchema } from '@aporta/domain/accounts';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useRegister } from '../../lib/auth.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const register = useRegister();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', first_name: '', last_name: '', password: '', confirm: '' },
    validate: (values) => {
      const errors = zod4Resolver(registerSchema)(values);
      const problem = values.password ? passwordProblem(values.password, { email: values.email }) : null;
      if (problem && !errors.password) errors.password = problem;
      if (values.confirm !== values.password) errors.confirm = t('auth.passwordsDiffer');
      return errors;
    },
  });
  const submit = form.onSubmit(({ confirm: _, ...body }) =>
    register.mutate(body, {
      onSuccess: () => navigate('/auth/login', { replace: true, state: { registered: true } }),
      onError: (e) => showApiError(e, form, ['email', 'first_name', 'last_name', 'password']),
    }),
  );
  const toggle = { 'aria-label': t('auth.togglePassword') };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {t('auth.registerTitle')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('auth.registerSubtitle')}
          </Text>
        </div>
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          required
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('auth.firstName')}
            autoComplete="given-name"
            required
            key={form.key('first_name')}
            {...form.getInputProps('first_name')}
          />
          <TextInput
            label={t('auth.lastName')}
            autoComplete="family-name"
            required
            key={form.key('last_name')}
            {...form.getInputProps('last_name')}
          />
        </Group>
        <PasswordInput
          label={t('auth.password')}
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
        <Button type="submit" loading={register.isPending} fullWidth>
          {t('auth.registerSubmit')}
        </Button>
        <Text size="sm" ta="center">
          {t('auth.haveAccount')}{' '}
          <Anchor component={Link} to="/auth/login">
            {t('auth.submit')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
