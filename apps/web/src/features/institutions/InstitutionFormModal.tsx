import { institutionInputSchema } from '@aporta/domain';
import { Group, Modal, MultiSelect, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import {
  type InstitutionBody,
  type InstitutionRow,
  useCreateInstitution,
  useInstitutionOptions,
  useUpdateInstitution,
} from './api.ts';

interface FormValues {
  code: string;
  name: string;
  kind: 'INSTITUCION' | 'ENTIDAD';
  entityId: string | null;
  isActive: boolean;
  roleIds: string[];
}

const empty: FormValues = { code: '', name: '', kind: 'INSTITUCION', entityId: null, isActive: true, roleIds: [] };
const toInput = (v: FormValues): InstitutionBody => ({
  ...v,
  entityId: v.kind === 'ENTIDAD' && v.entityId ? Number(v.entityId) : null,
  roleIds: v.roleIds.map(Number),
});
const fields = ['code', 'name', 'kind', 'entityId', 'isActive', 'roleIds'];

export function InstitutionFormModal({
  opened,
  institution,
  onClose,
}: {
  opened: boolean;
  institution: InstitutionRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const options = useInstitutionOptions();
  const create = useCreateInstitution();
  const update = useUpdateInstitution();
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: empty,
    validate: (values) => zod4Resolver(institutionInputSchema)(toInput(values)),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when another institution is opened.
  useEffect(() => {
    if (!opened) return;
    form.setValues(
      institution && institution.kind !== 'SISTEMA'
        ? {
            code: institution.code,
            name: institution.name,
            kind: institution.kind,
            entityId: institution.entityId ? String(institution.entityId) : null,
            isActive: institution.isActive,
            roleIds: institution.roles.map((r) => String(r.id)),
          }
        : empty,
    );
    form.clearErrors();
  }, [opened, institution?.id]);

  const submit = form.onSubmit((values) => {
    const body = toInput(values);
    const onError = (e: unknown) => showApiError(e, form, fields);
    if (institution) update.mutate({ id: institution.id, body }, { onSuccess: onClose, onError });
    else create.mutate(body, { onSuccess: onClose, onError });
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={institution ? t('institutions.editTitle') : t('institutions.newTitle')}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group grow align="flex-start">
            <TextInput label={t('institutions.code')} required {...form.getInputProps('code')} />
            <Select
              label={t('institutions.kind')}
              required
              allowDeselect={false}
              data={[
                { value: 'INSTITUCION', label: t('institutions.kindOption.INSTITUCION') },
                { value: 'ENTIDAD', label: t('institutions.kindOption.ENTIDAD') },
              ]}
              {...form.getInputProps('kind')}
            />
          </Group>
          <TextInput label={t('institutions.name')} required {...form.getInputProps('name')} />
          {form.values.kind === 'ENTIDAD' && (
            <Select
              label={t('institutions.entity')}
              required
              searchable
              nothingFoundMessage={t('institutions.noEntities')}
              data={(options.data?.entities ?? []).map((e) => ({ value: String(e.id), label: `${e.code} — ${e.name}` }))}
              {...form.getInputProps('entityId')}
            />
          )}
          <MultiSelect
            label={t('institutions.defaultRoles')}
            description={t('institutions.defaultRolesHelp')}
            searchable
            clearable
            clearButtonProps={{ 'aria-label': t('users.clear') }}
            data={(options.data?.roles ?? []).filter((r) => r.assignable).map((r) => ({ value: String(r.id), label: r.name }))}
            {...form.getInputProps('roleIds')}
          />
          <Switch label={t('institutions.active')} {...form.getInputProps('isActive', { type: 'checkbox' })} />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('institutions.cancel')}
            submitLabel={t('institutions.save')}
            loading={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
