import {
  type ContributorInput,
  compareWithRenap,
  contributorInputSchema,
  contributorStates,
  cuiProblem,
  cuiProblemMessages,
  formatCui,
  maritalStatuses,
  normalizeCui,
  type RenapPerson,
} from '@aporta/domain';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Grid,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconId } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { StateBadge } from '../../components/ContributorStateBadge.tsx';
import { DateField } from '../../components/DateField.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { NotAuthorizedPage } from '../../components/RequirePermission.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { formatDate } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  type Contributor,
  type ContributorBody,
  useContributor,
  useContributorFormOptions,
  useCreateContributor,
  useRenapCheck,
  useUpdateContributor,
} from './api.ts';

/** The domain schema with the select fields as the strings Mantine's inputs hold. */
const formSchema = z.object({
  ...contributorInputSchema.shape,
  typeId: z.string({ error: 'Seleccione el tipo de afiliado.' }).min(1, { error: 'Seleccione el tipo de afiliado.' }),
  entityId: z.string().nullable(),
  municipalityId: z.string().nullable(),
});

type FormValues = {
  [K in keyof ContributorInput]-?: K extends 'typeId' | 'entityId' | 'municipalityId' ? string | null : string;
};

const empty: FormValues = {
  cui: '',
  nit: '',
  firstName: '',
  secondName: '',
  thirdName: '',
  firstSurname: '',
  secondSurname: '',
  marriedSurname: '',
  birthDate: '',
  sex: '',
  maritalStatus: '',
  address: '',
  municipalityId: null,
  phone: '',
  email: '',
  typeId: null,
  state: 'ACTIVO',
  entityId: null,
  budgetLineCode: '',
  hireDate: '',
  salary: '',
};

const fromContributor = (c: Contributor): FormValues => ({
  ...empty,
  ...Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v == null ? '' : String(v)])),
  cui: formatCui(c.cui),
  typeId: String(c.typeId),
  entityId: c.entityId ? String(c.entityId) : null,
  municipalityId: c.municipalityId ? String(c.municipalityId) : null,
});

const toInput = (v: FormValues): ContributorBody =>
  ({
    ...v,
    typeId: Number(v.typeId),
    entityId: v.entityId ? Number(v.entityId) : null,
    municipalityId: v.municipalityId ? Number(v.municipalityId) : null,
  }) as ContributorBody;

const renapFields = ['firstName', 'secondName', 'thirdName', 'firstSurname', 'secondSurname', 'birthDate', 'sex'] as const;

export function ContributorFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const existing = useContributor(id);
  const can = useCan();
  const options = useContributorFormOptions();
  const create = useCreateContributor();
  const update = useUpdateContributor(id ?? 0);
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: empty,
    validate: zod4Resolver(formSchema),
    validateInputOnChange: ['cui', 'nit', 'email', 'birthDate', 'salary'],
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: load the record once when it arrives.
  useEffect(() => {
    if (existing.data) form.setValues(fromContributor(existing.data));
  }, [existing.data]);

  const cuiDigits = normalizeCui(form.values.cui);
  const cuiIsValid = cuiDigits.length === 13 && cuiProblem(cuiDigits) === null;
  const renap = useRenapCheck(cuiIsValid ? cuiDigits : null);
  const person = renap.data?.person ?? null;
  // Only fields the user has filled can differ; empty ones are waiting for the prefill.
  const differs = person ? compareWithRenap(form.values, person).filter((f) => form.values[f]) : [];

  const prefill = (p: RenapPerson) => {
    const title = (s: string | null) => (s ? s.toLowerCase().replace(/(^|\s)\p{L}/gu, (m) => m.toUpperCase()) : '');
    form.setValues({
      firstName: title(p.firstName),
      secondName: title(p.secondName),
      thirdName: title(p.thirdName),
      firstSurname: title(p.firstSurname),
      secondSurname: title(p.secondSurname),
      marriedSurname: title(p.marriedSurname),
      birthDate: p.birthDate,
      sex: p.sex,
      ...(renap.data?.municipalityId && !form.values.municipalityId ? { municipalityId: String(renap.data.municipalityId) } : {}),
    });
  };

  const submit = form.onSubmit((values) => {
    const mutation = id ? update : create;
    mutation.mutate(toInput(values), {
      onSuccess: (res) => {
        notifySuccess(id ? t('contributors.form.updated') : t('contributors.form.created'));
        for (const w of res.warnings) notifications.show({ color: 'yellow', message: w, autoClose: 10_000 });
        navigate(`/contributors/${res.contributor.id}`);
      },
      onError: (err) => showApiError(err, form, Object.keys(form.getValues()), { notify: 'always' }),
    });
  });

  const cuiError =
    form.values.cui && !cuiIsValid ? (cuiProblem(cuiDigits) ? cuiProblemMessages[cuiProblem(cuiDigits)!] : null) : null;
  const duplicate = renap.data?.contributor && renap.data.contributor.id !== id ? renap.data.contributor : null;
  const sel = (data: { value: string; label: string }[]) => data;

  if (!(id ? can('contributors', 'UPDATE') : can('contributor-new', 'CREATE'))) return <NotAuthorizedPage />;
  // The record (when editing) and the choices must be there: a form with empty selects can never be saved.
  const loads = id ? [existing, options] : [options];
  if (loads.some((q) => q.isPending || q.isError)) return <QueryState query={loads}>{null}</QueryState>;

  return (
    <form onSubmit={submit} noValidate>
      <PageHeader title={id ? t('contributors.form.editTitle') : t('contributors.form.newTitle')} mb="md">
        {id && existing.data && <StateBadge value={existing.data.cuiState} />}
      </PageHeader>
      <Grid>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack>
            <Card withBorder>
              <Text fw={600} mb="sm">
                {t('contributors.form.identity')}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="CUI"
                  description={t('contributors.form.cuiHint')}
                  required
                  inputMode="numeric"
                  {...form.getInputProps('cui')}
                  error={form.errors.cui ?? cuiError}
                  onBlur={() => cuiIsValid && form.setFieldValue('cui', formatCui(cuiDigits))}
                  rightSection={
                    renap.isFetching ? (
                      <Loader size="xs" />
                    ) : cuiIsValid ? (
                      <IconCheck size={16} color="var(--mantine-color-green-7)" />
                    ) : null
                  }
                />
                <TextInput label="NIT" description={t('contributors.form.nitHint')} {...form.getInputProps('nit')} />
                <TextInput label={t('contributors.fields.firstName')} required {...form.getInputProps('firstName')} />
                <TextInput label={t('contributors.fields.secondName')} {...form.getInputProps('secondName')} />
                <TextInput label={t('contributors.fields.thirdName')} {...form.getInputProps('thirdName')} />
                <TextInput label={t('contributors.fields.firstSurname')} required {...form.getInputProps('firstSurname')} />
                <TextInput label={t('contributors.fields.secondSurname')} {...form.getInputProps('secondSurname')} />
                <TextInput label={t('contributors.fields.marriedSurname')} {...form.getInputProps('marriedSurname')} />
                <DateField
                  label={t('contributors.fields.birthDate')}
                  required
                  {...form.getInputProps('birthDate')}
                  onChange={(v) => form.setFieldValue('birthDate', v ?? '')}
                />
                <Select
                  label={t('contributors.fields.sex')}
                  required
                  data={sel([
                    { value: 'F', label: t('contributors.sex.F') },
                    { value: 'M', label: t('contributors.sex.M') },
                  ])}
                  {...form.getInputProps('sex')}
                />
                <Select
                  label={t('contributors.fields.maritalStatus')}
                  clearable
                  data={maritalStatuses.map((m) => ({ value: m, label: t(`contributors.marital.${m}`) }))}
                  {...form.getInputProps('maritalStatus')}
                />
              </SimpleGrid>
            </Card>
            <Card withBorder>
              <Text fw={600} mb="sm">
                {t('contributors.form.contact')}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={t('contributors.fields.address')} {...form.getInputProps('address')} />
                <Select
                  label={t('contributors.fields.municipality')}
                  searchable
                  clearable
                  limit={50}
                  data={(options.data?.municipalities ?? []).map((m) => ({
                    value: String(m.id),
                    label: `${m.name} (${m.departmentName})`,
                  }))}
                  {...form.getInputProps('municipalityId')}
                />
                <TextInput label={t('contributors.fields.phone')} type="tel" {...form.getInputProps('phone')} />
                <TextInput label={t('contributors.fields.email')} type="email" {...form.getInputProps('email')} />
              </SimpleGrid>
            </Card>
            <Card withBorder>
              <Text fw={600} mb="sm">
                {t('contributors.form.employment')}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label={t('contributors.fields.type')}
                  required
                  data={(options.data?.types ?? []).map((x) => ({ value: String(x.id), label: x.name }))}
                  {...form.getInputProps('typeId')}
                />
                <Select
                  label={t('contributors.fields.state')}
                  data={contributorStates.map((s) => ({ value: s, label: t(`contributors.states.${s}`) }))}
                  {...form.getInputProps('state')}
                />
                <Select
                  label={t('contributors.fields.entity')}
                  searchable
                  clearable
                  data={(options.data?.entities ?? []).map((e) => ({ value: String(e.id), label: e.name }))}
                  {...form.getInputProps('entityId')}
                />
                <Select
                  label={t('contributors.fields.budgetLine')}
                  clearable
                  data={(options.data?.budgetLines ?? []).map((b) => ({ value: b.code, label: `${b.code} — ${b.name}` }))}
                  {...form.getInputProps('budgetLineCode')}
                />
                <DateField
                  label={t('contributors.fields.hireDate')}
                  {...form.getInputProps('hireDate')}
                  onChange={(v) => form.setFieldValue('hireDate', v ?? '')}
                />
                <TextInput
                  label={t('contributors.fields.salary')}
                  inputMode="decimal"
                  leftSection="Q"
                  {...form.getInputProps('salary')}
                />
              </SimpleGrid>
            </Card>
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={id ? `/contributors/${id}` : '/contributors/list'}>
                {t('contributors.form.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending || update.isPending}>
                {t('contributors.form.save')}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Card withBorder data-testid="renap-panel">
            <Group gap="xs" mb="sm">
              <IconId size={18} />
              <Text fw={600}>RENAP</Text>
              {renap.data && <StateBadge value={renap.data.result} />}
            </Group>
            {!cuiIsValid && <Text size="sm">{t('contributors.form.renapWaiting')}</Text>}
            {renap.isFetching && <Loader size="sm" aria-label={t('common.loading')} />}
            {duplicate && (
              <Alert color="red" icon={<IconAlertTriangle size={16} />} mb="sm">
                {t('contributors.form.duplicate')}{' '}
                <Anchor component={Link} to={`/contributors/${duplicate.id}`}>
                  {duplicate.fullName}
                </Anchor>
              </Alert>
            )}
            {renap.data?.warning && (
              <Alert color="yellow" icon={<IconAlertTriangle size={16} />}>
                {renap.data.warning}
              </Alert>
            )}
            {person && (
              <Stack gap="xs">
                <Table withRowBorders={false} fz="sm">
                  <Table.Tbody>
                    {renapFields.map((f) => (
                      <Table.Tr key={f} c={differs.includes(f) ? 'orange.9' : undefined}>
                        <Table.Th scope="row">{t(`contributors.fields.${f}`)}</Table.Th>
                        <Table.Td>{(f === 'birthDate' ? formatDate(person[f]) : person[f]) ?? '—'}</Table.Td>
                        <Table.Td>{differs.includes(f) ? t('contributors.form.differs') : ''}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                {person.deathDate && <Alert color="red">{t('contributors.form.deceased', { date: person.deathDate })}</Alert>}
                <Button variant="light" onClick={() => prefill(person)}>
                  {t('contributors.form.prefill')}
                </Button>
              </Stack>
            )}
          </Card>
        </Grid.Col>
      </Grid>
    </form>
  );
}
