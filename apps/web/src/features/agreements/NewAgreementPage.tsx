import { addDays, agreementCreateSchema, guatemalaToday } from '@aporta/domain';
import { Alert, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCalculator, IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { Fact } from '../../components/Fact.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ScheduleTable } from '../../components/ScheduleTable.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { formatIsoDate } from '../../lib/dates.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { errorText, notifySuccess } from '../../lib/notify.ts';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type AgreementSimulation, type AgreementTerms, useAgreementDebt, useCreateAgreement, useSimulate } from './api.ts';
import { OrdersTable } from './components.tsx';

const FIELDS = ['downPayment', 'instalments', 'firstDueDate', 'orderIds'] as const;

type TermsValues = { downPayment: string; instalments: number | string; firstDueDate: string };

/** The entity's terms as the API takes them, to simulate or create (and as its schema checks them here). */
const toTerms = (entityId: number, v: TermsValues): AgreementTerms => ({
  entityId,
  downPayment: v.downPayment,
  instalments: Number(v.instalments),
  firstDueDate: v.firstDueDate,
});

/**
 * `/planilla/convenios-pago/nuevo`: choose an entity, see its overdue orders with interest to today and
 * the administrative charge, simulate the down payment and instalments within the limits in force, see
 * the schedule, then create the agreement (after a confirmation).
 */
export function NewAgreementPage() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const entityId = Number(search.get('entityId')) || null;
  const options = usePlanillaOptions(can('planillas', 'READ'));
  const debt = useAgreementDebt(entityId);
  const simulate = useSimulate();
  const create = useCreateAgreement();
  const [sim, setSim] = useState<AgreementSimulation | null>(null);
  const form = useForm<TermsValues>({
    initialValues: { downPayment: '', instalments: 12, firstDueDate: addDays(guatemalaToday(), 30) },
    // Without an entity there are no terms to check (nor buttons to use them).
    validate: (values) => (entityId ? zod4Resolver(agreementCreateSchema)(toTerms(entityId, values)) : {}),
  });
  const d = debt.data;
  // A new entity's debt: the down payment starts at its minimum and the old simulation goes.
  const [seen, setSeen] = useState<string | null>(null);
  const debtKey = d ? `${d.entityId}:${d.debt}` : null;
  if (d && debtKey !== seen) {
    setSeen(debtKey);
    form.setFieldValue('downPayment', d.minDownPayment);
    setSim(null);
  }
  const body = (): AgreementTerms | null => (entityId ? toTerms(entityId, form.values) : null);
  const run = () => {
    const b = body();
    if (!b) return;
    if (form.validate().hasErrors) {
      setSim(null);
      return;
    }
    simulate.mutate(b, {
      onSuccess: setSim,
      onError: (err) => {
        setSim(null);
        showApiError(err, form, FIELDS);
      },
    });
  };
  const confirmCreate = () => {
    const b = body();
    if (!b || !sim || form.validate().hasErrors) return;
    openConfirm({
      title: t('agreements.create'),
      children: <Text size="sm">{t('agreements.createConfirm', { count: sim.instalments, entity: d?.entityName ?? '' })}</Text>,
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      onConfirm: () =>
        create.mutate(b, {
          onSuccess: (a) => {
            notifySuccess(t('agreements.created', { number: a.number }));
            navigate(`/planilla/convenios-pago/${a.id}`);
          },
          onError: (err) => showApiError(err, form, FIELDS),
        }),
    });
  };
  return (
    <Stack>
      <PageHeader title={t('agreements.new')} description={t('agreements.newDescription')} />
      <Card withBorder>
        <Select
          label={t('agreements.fields.entity')}
          placeholder={t('agreements.chooseEntity')}
          searchable
          data={entityOptions(options.data?.entities)}
          value={entityId ? String(entityId) : null}
          onChange={(v) => setSearch(v ? { entityId: v } : {}, { replace: true })}
          maw={520}
        />
      </Card>
      {entityId && debt.isError && <Alert color="red">{errorText(debt.error)}</Alert>}
      {d && !d.orders.length && (
        <Alert color="blue" data-testid="no-arrears">
          {t('agreements.noArrears')}
        </Alert>
      )}
      {d?.currentAgreementId && <Alert color="orange">{t('agreements.alreadyCurrent')}</Alert>}
      {d && d.orders.length > 0 && (
        <>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('agreements.overdueOrders', { date: formatIsoDate(d.agreementDate) })}
            </Title>
            <OrdersTable orders={d.orders} testId="debt-orders" />
            <SimpleGrid cols={{ base: 2, sm: 4 }} mt="md">
              <Fact label={t('agreements.fields.principal')}>
                <Money value={d.principal} />
              </Fact>
              <Fact label={t('agreements.fields.interest')}>
                <Money value={d.interest} />
              </Fact>
              <Fact label={t('agreements.adminCharge', { rate: Number(d.adminChargeRate) })}>
                <Money value={d.adminCharge} />
              </Fact>
              <Fact label={t('agreements.fields.debt')}>
                <span data-testid="agreement-debt">
                  <Money value={d.debt} />
                </span>
              </Fact>
            </SimpleGrid>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('agreements.terms')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label={t('agreements.fields.downPayment')}
                description={t('agreements.minDown', { amount: d.minDownPayment, rate: Number(d.downPaymentRate) })}
                {...form.getInputProps('downPayment')}
              />
              <NumberInput
                label={t('agreements.fields.instalments')}
                description={t('agreements.maxInstalments', { max: d.maxInstalments })}
                min={1}
                allowDecimal={false}
                {...form.getInputProps('instalments')}
              />
              <DateField
                label={t('agreements.fields.firstDueDate')}
                {...form.getInputProps('firstDueDate')}
                onChange={(v) => form.setFieldValue('firstDueDate', v ?? '')}
              />
            </SimpleGrid>
            <Group mt="md">
              <Button variant="default" leftSection={<IconCalculator size={16} />} onClick={run} loading={simulate.isPending}>
                {t('agreements.simulate')}
              </Button>
              {sim && can('payment-agreements', 'CREATE') && !d.currentAgreementId && (
                <Button leftSection={<IconCheck size={16} />} onClick={confirmCreate} loading={create.isPending}>
                  {t('agreements.create')}
                </Button>
              )}
            </Group>
          </Card>
          {sim && (
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t('agreements.schedule')}
              </Title>
              <ScheduleTable lines={sim.schedule} />
              <Text mt="sm" fw={600} data-testid="schedule-total">
                {t('agreements.scheduleTotal')}: <Money value={sim.total} />
              </Text>
            </Card>
          )}
        </>
      )}
    </Stack>
  );
}
