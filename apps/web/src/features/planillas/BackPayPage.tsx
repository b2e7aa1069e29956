import { backPayCreateSchema, planillaMachine } from '@aporta/domain';
import { Button, Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { PeriodField } from '../../components/PeriodField.tsx';
import type { ApiBody } from '../../lib/api.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type Planilla, useBackPay, useCreateBackPay } from './api.ts';
import { PlanillaStateBadge } from './components.tsx';

const FIELDS = [
  'entityId',
  'resolutionNumber',
  'resolutionDate',
  'cui',
  'fullName',
  'budgetLine',
  'fromPeriod',
  'toPeriod',
  'monthlySalary',
] as const;
type FormValues = Record<(typeof FIELDS)[number], string>;

/** The resolution as the API takes it: the entity chosen is an id. */
const toBody = (v: FormValues): ApiBody<'/api/back-pay'> => ({ ...v, entityId: Number(v.entityId) });

function BackPayForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const options = usePlanillaOptions();
  const entities = options.data?.entities ?? [];
  const create = useCreateBackPay();
  const form = useForm<FormValues>({
    initialValues: Object.fromEntries(FIELDS.map((f) => [f, f === 'budgetLine' ? '011' : ''])) as FormValues,
    // The first message of a field: an empty date or month is "no válido", not "fuera del rango".
    validate: (values) => zod4Resolver(backPayCreateSchema, { errorPriority: 'first' })(toBody(values)),
  });
  const submit = form.onSubmit((v) =>
    create.mutate(toBody(v), {
      onSuccess: (p) => {
        notifySuccess(t('planillas.backPay.created', { count: p.lineCount }));
        navigate(`/planilla/vista/${p.id}`);
      },
      onError: (err) => showApiError(err, form, FIELDS),
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Select
          label={t('planillas.fields.entity')}
          required
          searchable
          data={entities.map((e) => ({ value: String(e.id), label: `${e.name} (${e.code})` }))}
          {...form.getInputProps('entityId')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('planillas.backPay.resolutionNumber')} required {...form.getInputProps('resolutionNumber')} />
          <DateField
            label={t('planillas.backPay.resolutionDate')}
            required
            {...form.getInputProps('resolutionDate')}
            onChange={(d) => form.setFieldValue('resolutionDate', d ?? '')}
          />
          <TextInput label="CUI" required {...form.getInputProps('cui')} />
          <TextInput label={t('planillas.fields.fullName')} required {...form.getInputProps('fullName')} />
          <PeriodField
            label={t('planillas.backPay.from')}
            required
            {...form.getInputProps('fromPeriod')}
            onChange={(p) => form.setFieldValue('fromPeriod', p ?? '')}
          />
          <PeriodField
            label={t('planillas.backPay.to')}
            required
            {...form.getInputProps('toPeriod')}
            onChange={(p) => form.setFieldValue('toPeriod', p ?? '')}
          />
          <TextInput
            label={t('planillas.backPay.monthlySalary')}
            required
            placeholder="3,500.00"
            {...form.getInputProps('monthlySalary')}
          />
          <TextInput label={t('planillas.fields.budgetLine')} required {...form.getInputProps('budgetLine')} />
        </SimpleGrid>
        <FormActions onCancel={onClose} submitLabel={t('planillas.backPay.submit')} loading={create.isPending} />
      </Stack>
    </form>
  );
}

/** `/contributors/fallen-wages`: back-pay resolutions and their SALARIOS_CAIDOS planillas. */
export function BackPayPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const [open, setOpen] = useState(false);
  const columns: ListColumn<Planilla>[] = [
    {
      accessor: 'backPayResolution',
      title: t('planillas.backPay.resolution'),
      render: (p) => <Link to={`/planilla/vista/${p.id}`}>{p.backPayResolution}</Link>,
    },
    { accessor: 'entity', title: t('planillas.fields.entity'), render: (p) => p.entityName },
    { accessor: 'period', title: t('planillas.backPay.declared'), sortable: true, render: (p) => <Period value={p.period} /> },
    { accessor: 'lineCount', title: t('planillas.backPay.months'), textAlign: 'right' },
    { accessor: 'state', title: t('planillas.fields.state'), render: (p) => <PlanillaStateBadge state={p.state} /> },
    {
      accessor: 'totalEmployee',
      title: t('planillas.fields.employee'),
      textAlign: 'right',
      render: (p) => <Money value={p.totalEmployee} />,
    },
    {
      accessor: 'totalEmployer',
      title: t('planillas.fields.employer'),
      textAlign: 'right',
      render: (p) => <Money value={p.totalEmployer} />,
    },
  ];
  return (
    <ListPage<Planilla>
      title={t('planillas.backPay.title')}
      description={t('planillas.backPay.description')}
      defaultSort="-period"
      searchLabel={t('planillas.lists.search')}
      columns={columns}
      filters={[
        {
          name: 'state',
          label: t('planillas.fields.state'),
          kind: 'enum',
          options: planillaMachine.states.map((s) => ({ value: s, label: t(`planillas.states.${s}`) })),
        },
      ]}
      useRows={useBackPay}
      emptyText={t('planillas.backPay.empty')}
      onRowClick={(p) => navigate(`/planilla/vista/${p.id}`)}
      actions={
        can('fallen-wages', 'CREATE') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen(true)}>
            {t('planillas.backPay.new')}
          </Button>
        )
      }
    >
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t('planillas.backPay.new')}
        size="lg"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {open && <BackPayForm onClose={() => setOpen(false)} />}
      </Modal>
    </ListPage>
  );
}
