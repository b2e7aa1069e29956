import { formatPeriod, guatemalaToday, periodOf, previousPeriod, voluntaryOrderCreateSchema } from '@aporta/domain';
import { Anchor, Button, Card, Group, MultiSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { OrderStateBadge } from '../../components/OrderStateBadge.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { displayCui } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { type OrderRow, useCreateVoluntaryOrder, useVoluntaryLimits, useVoluntaryOrders } from './api.ts';
import { Reference } from './components.tsx';
import { onListFields } from './form-validation.ts';

/** The last 24 months, newest first, for the months a voluntary payment covers. */
function recentPeriods(): string[] {
  const out: string[] = [];
  let p = periodOf(guatemalaToday());
  for (let i = 0; i < 24; i++, p = previousPeriod(p)) out.push(p);
  return out;
}

function VoluntaryForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const limits = useVoluntaryLimits();
  const create = useCreateVoluntaryOrder();
  const form = useForm({
    initialValues: { cui: '', periods: [] as string[], salary: '' },
    validate: (values) => onListFields(zod4Resolver(voluntaryOrderCreateSchema)(values), ['periods']),
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        {t('payments.voluntary.new')}
      </Title>
      {limits.data && (
        <Text size="sm" c="dimmed" mb="sm">
          {t('payments.voluntary.limits', {
            min: limits.data.minSalary,
            max: limits.data.maxSalary,
            employee: limits.data.employeeRate,
            employer: limits.data.employerRate,
          })}
        </Text>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          create.mutate(v, {
            onSuccess: (o) => {
              notifySuccess(t('payments.voluntary.created'));
              navigate(`/ordenes-pago/${o.id}`);
            },
            onError: (e) => showApiError(e, form, ['cui', 'periods', 'salary'], { notify: 'always' }),
          }),
        )}
      >
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="CUI" required {...form.getInputProps('cui')} />
          <MultiSelect
            label={t('payments.voluntary.months')}
            required
            data={recentPeriods().map((p) => ({ value: p, label: formatPeriod(p) }))}
            {...form.getInputProps('periods')}
          />
          <TextInput label={t('payments.voluntary.salary')} required inputMode="decimal" {...form.getInputProps('salary')} />
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button type="submit" loading={create.isPending}>
            {t('payments.voluntary.submit')}
          </Button>
        </Group>
      </form>
    </Card>
  );
}

/** `/contributors/voluntary-payments`: orders of contributors without employer, and issuing one. */
export function VoluntaryPage() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const columns: ListColumn<OrderRow>[] = [
    {
      accessor: 'reference',
      title: t('payments.fields.reference'),
      render: (o) => (
        <Anchor component={Link} to={`/ordenes-pago/${o.id}`} size="sm">
          <Reference value={o.reference} />
        </Anchor>
      ),
    },
    { accessor: 'contributorName', title: t('payments.fields.contributor') },
    { accessor: 'contributorCui', title: 'CUI', render: (o) => displayCui(o.contributorCui) },
    {
      accessor: 'periods',
      title: t('payments.voluntary.months'),
      render: (o) => o.periods.map((p) => <Period key={p} value={p} />),
    },
    { accessor: 'state', title: t('payments.fields.state'), render: (o) => <OrderStateBadge state={o.state} /> },
    {
      accessor: 'principal',
      title: t('payments.fields.principal'),
      textAlign: 'right',
      render: (o) => <Money value={o.principal} />,
    },
    { accessor: 'balance', title: t('payments.fields.balance'), textAlign: 'right', render: (o) => <Money value={o.balance} /> },
  ];
  return (
    <Stack>
      {can('voluntary-payments', 'CREATE', 'ALL') && <VoluntaryForm />}
      <ListPage<OrderRow>
        title={t('payments.voluntary.title')}
        description={t('payments.voluntary.description')}
        defaultSort="-id"
        searchLabel={t('payments.orders.search')}
        columns={columns}
        useRows={useVoluntaryOrders}
        emptyText={t('payments.voluntary.empty')}
        onRowClick={(o) => navigate(`/ordenes-pago/${o.id}`)}
      />
    </Stack>
  );
}
