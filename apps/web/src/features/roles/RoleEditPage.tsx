import { ceilingOf, type Grant, grantsBeyond, roleInputSchema, scopeFor } from '@aporta/domain';
import { Alert, Button, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { QueryState } from '../../components/QueryState.tsx';
import { RequirePermission } from '../../components/RequirePermission.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useCreateRole, useGetRole, useUpdateRole } from './api.ts';
import { fromGrantMap, type GrantMap, PermissionMatrix, toGrantMap } from './PermissionMatrix.tsx';

const headerSchema = roleInputSchema.pick({ name: true, description: true });

/** Create (`/roles/new`) or edit (`/roles/:id`) a role with its permission matrix. */
export function RoleEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id && params.id !== 'new' ? Number(params.id) : null;
  const role = useGetRole(id);
  const { data: me } = useCurrentUser();
  const ceiling = me ? ceilingOf(me) : null;
  // Nobody edits a role stronger than they are (privilege ceiling); the server refuses it too.
  const canSave =
    !!me &&
    !!ceiling &&
    !!scopeFor(me.permissions, 'roles', id === null ? 'CREATE' : 'UPDATE') &&
    (!role.data || grantsBeyond(ceiling.permissions, role.data.grants as Grant[]).length === 0);
  const create = useCreateRole();
  const update = useUpdateRole();
  const [grants, setGrants] = useState<GrantMap>({});
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', description: '' },
    validate: zod4Resolver(headerSchema),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: load the role once it arrives.
  useEffect(() => {
    if (!role.data) return;
    form.setValues({ name: role.data.name, description: role.data.description });
    setGrants(toGrantMap(role.data.grants));
  }, [role.data]);

  const submit = form.onSubmit((values) => {
    const body = { ...values, grants: fromGrantMap(grants) };
    const done = () => {
      notifySuccess(t('roles.saved', { name: values.name }));
      navigate('/roles');
    };
    const fail = (e: unknown) => showApiError(e, form, ['name', 'description']);
    if (id === null) create.mutate(body, { onSuccess: done, onError: fail });
    else update.mutate({ id, body }, { onSuccess: done, onError: fail });
  });

  if (id !== null && !role.data) return <QueryState query={role}>{null}</QueryState>;

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={1} size="h2">
          {id === null ? t('roles.newTitle') : t('roles.editTitle', { name: role.data?.name ?? '' })}
        </Title>
        <TextInput label={t('roles.name')} required maw={480} disabled={!canSave} {...form.getInputProps('name')} />
        <Textarea
          label={t('roles.description')}
          maw={720}
          autosize
          minRows={2}
          disabled={!canSave}
          {...form.getInputProps('description')}
        />
        {role.data && role.data.userCount > 0 && (
          <Alert color="blue" icon={<IconInfoCircle size={18} />}>
            {t('roles.inUse', { count: role.data.userCount })}
          </Alert>
        )}
        <Title order={2} size="h4">
          {t('roles.matrixTitle')}
        </Title>
        <PermissionMatrix value={grants} onChange={setGrants} readOnly={!canSave} ceiling={ceiling?.permissions} />
        <Group justify="flex-end">
          <Button variant="default" component={Link} to="/roles">
            {t('roles.cancel')}
          </Button>
          {canSave && (
            <Button type="submit" loading={create.isPending || update.isPending}>
              {t('roles.save')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** The route's element: the page behind its permission ("No autorizado" otherwise). */
export function RoleEditScreen() {
  return (
    <RequirePermission resource="roles">
      <RoleEditPage key={useParams().id} />
    </RequirePermission>
  );
}
