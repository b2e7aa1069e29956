import { userInputSchema } from '@aporta/domain';
import { Group, Modal, MultiSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { RecordHistory } from '../../components/RecordHistory.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { useCan } from '../../lib/useCan.ts';
import { type UserBody, type UserRow, useCreateUser, useUpdateUser, useUserOptions } from './api.ts';

interface FormValues {
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  roleIds: string[];
  institutionIds: string[];
}

const toInput = (v: FormValues): UserBody => ({
  ...v,
  roleIds: v.roleIds.map(Number),
  institutionIds: v.institutionIds.map(Number),
});
const fields = ['email', 'firstName', 'lastName', 'isActive', 'roleIds', 'institutionIds'];

/** Create (user = null) or edit a user. A new user gets a one-time password, handed to `onCreated`. */
export function UserFormModal({
  opened,
  user,
  onClose,
  onCreated,
}: {
  opened: boolean;
  user: UserRow | null;
  onClose: () => void;
  onCreated: (email: string, password: string) => void;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const options = useUserOptions();
  const create = useCreateUser();
  const update = useUpdateUser();
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: { email: '', firstName: '', lastName: '', isActive: true, roleIds: [], institutionIds: [] },
    validate: (values) => zod4Resolver(userInputSchema)(toInput(values)),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when another user is opened.
  useEffect(() => {
    if (!opened) return;
    form.setValues(
      user
        ? {
            email: user.email,
            firstName: user.firstName,
            lastName: user.lastName,
            isActive: user.isActive,
            roleIds: user.roles.map((r) => String(r.id)),
            institutionIds: user.institutions.map((i) => String(i.id)),
          }
        : { email: '', firstName: '', lastName: '', isActive: true, roleIds: [], institutionIds: [] },
    );
    form.clearErrors();
  }, [opened, user?.id]);

  const submit = form.onSubmit((values) => {
    const body = toInput(values);
    if (user) {
      update.mutate({ id: user.id, body }, { onSuccess: onClose, onError: (e) => showApiError(e, form, fields) });
    } else {
      create.mutate(body, {
        onSuccess: (res) => {
          onClose();
          onCreated(res.user.email, res.password);
        },
        onError: (e) => showApiError(e, form, fields),
      });
    }
  });

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={opened}
      onClose={onClose}
      title={user ? t('users.editTitle') : t('users.newTitle')}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('users.email')} type="email" required autoComplete="off" {...form.getInputProps('email')} />
          <Group grow align="flex-start">
            <TextInput label={t('users.firstName')} required {...form.getInputProps('firstName')} />
            <TextInput label={t('users.lastName')} required {...form.getInputProps('lastName')} />
          </Group>
          <MultiSelect
            label={t('users.roles')}
            searchable
            clearable
            clearButtonProps={{ 'aria-label': t('users.clear') }}
            data={(options.data?.roles ?? []).filter((r) => r.assignable).map((r) => ({ value: String(r.id), label: r.name }))}
            {...form.getInputProps('roleIds')}
          />
          <MultiSelect
            label={t('users.institutions')}
            description={t('users.institutionsHelp')}
            searchable
            clearable
            clearButtonProps={{ 'aria-label': t('users.clear') }}
            data={(options.data?.institutions ?? [])
              .filter((i) => i.assignable)
              .map((i) => ({ value: String(i.id), label: `${i.code} — ${i.name}` }))}
            {...form.getInputProps('institutionIds')}
          />
          <Switch label={t('users.active')} {...form.getInputProps('isActive', { type: 'checkbox' })} />
          {!user && (
            <Text size="sm" c="dimmed">
              {t('users.passwordNote')}
            </Text>
          )}
          <FormActions
            onCancel={onClose}
            cancelLabel={t('users.cancel')}
            submitLabel={user ? t('users.save') : t('users.create')}
            loading={create.isPending || update.isPending}
          />
        </Stack>
      </form>
      {user && can('audit', 'READ') && (
        <Stack mt="lg">
          <RecordHistory
            entityType="user"
            entityId={user.id}
            fieldLabel={(f) => t(f === 'isActive' ? 'users.active' : `users.${f}`, { defaultValue: f })}
          />
        </Stack>
      )}
    </Modal>
  );
}
