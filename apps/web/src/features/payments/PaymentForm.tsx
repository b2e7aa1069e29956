import { centsToDecimal, decimalToCents, formatPaymentReference, guatemalaToday, paymentCreateSchema } from '@aporta/domain';
import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { type NewPayment, ownerQuery, type PaymentResult, useOffices, useOrderList, useRegisterPayment } from './api.ts';
import { newIdempotencyKey } from './components.tsx';
import { onListFields } from './form-validation.ts';

const FIELDS = ['orderIds', 'bank', 'payDate', 'bankReference', 'amount', 'office'] as const;

type PaymentValues = { orderIds: string[]; bank: string; payDate: string; bankReference: string; amount: string; office: string };

/** The payment as the API takes it, under the form's idempotency key (and as its schema checks it here). */
const toPayment = (v: PaymentValues, idempotencyKey: string): NewPayment => ({
  idempotencyKey,
  orderIds: v.orderIds.map(Number),
  bank: v.bank,
  payDate: v.payDate,
  bankReference: v.bankReference,
  amount: v.amount,
  office: v.office,
});

/**
 * Registers a payment: the open orders of one owner (an entity or a contributor) to choose from, bank,
 * date, bank reference, amount and issuing office. The idempotency key is made once per form and kept
 * while it is retried, so a double click or a retry after a lost answer never pays twice.
 */
export function PaymentForm({
  owner,
  preselected = [],
  onDone,
}: {
  owner: { entityId?: number; contributorId?: number };
  preselected?: number[];
  onDone?: (r: PaymentResult) => void;
}) {
  const { t } = useTranslation();
  const orders = useOrderList(
    { ...ownerQuery(owner), pageSize: 100, sort: 'dueDate', state: undefined },
    !!(owner.entityId || owner.contributorId),
  );
  const open = (orders.data?.items ?? []).filter((o) => o.state === 'EMITIDA' || o.state === 'VENCIDA');
  const offices = useOffices();
  const register = useRegisterPayment();
  const [key, setKey] = useState(newIdempotencyKey);
  const [result, setResult] = useState<PaymentResult | null>(null);
  const form = useForm<PaymentValues>({
    initialValues: {
      orderIds: preselected.map(String),
      bank: '',
      payDate: guatemalaToday(),
      bankReference: '',
      amount: '',
      office: '',
    },
    validate: (values) => onListFields(zod4Resolver(paymentCreateSchema)(toPayment(values, key)), ['orderIds']),
  });
  useEffect(() => {
    const first = offices.data?.items[0]?.office;
    if (first && !form.values.office) form.setFieldValue('office', first);
  }, [offices.data, form]);
  const chosen = open.filter((o) => form.values.orderIds.includes(String(o.id)));
  const balance = chosen.reduce((s, o) => s + decimalToCents(o.balance), 0n);

  const submit = form.onSubmit((v) => {
    register.mutate(toPayment(v, key), {
      onSuccess: (r) => {
        setResult(r);
        setKey(newIdempotencyKey());
        notifySuccess(
          r.replayed
            ? t('payments.pay.replayed')
            : t('payments.pay.done', { series: r.payment.receipt?.series ?? '', number: r.payment.receipt?.number ?? '' }),
        );
        form.setValues({ bankReference: '', amount: '' });
        onDone?.(r);
      },
      onError: (err) => showApiError(err, form, FIELDS, { notify: 'always' }),
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {result && (
          <Alert color={result.replayed ? 'yellow' : 'teal'} data-testid="payment-result">
            {result.replayed
              ? t('payments.pay.replayed')
              : t('payments.pay.done', {
                  series: result.payment.receipt?.series ?? '',
                  number: result.payment.receipt?.number ?? '',
                })}
            {result.warnings.map((w) => (
              <Text key={w} size="sm" c="orange.9">
                {w}
              </Text>
            ))}
          </Alert>
        )}
        <Checkbox.Group
          label={t('payments.pay.orders')}
          value={form.values.orderIds}
          onChange={(v) => form.setFieldValue('orderIds', v)}
          error={form.errors.orderIds}
        >
          {open.length === 0 ? (
            <Text size="sm" c="dimmed" mt="xs">
              {orders.isPending ? t('payments.loading') : t('payments.pay.noOpenOrders')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={520}>
              <Table mt="xs">
                <Table.Tbody>
                  {open.map((o) => (
                    <Table.Tr key={o.id}>
                      <Table.Td>
                        <Checkbox value={String(o.id)} aria-label={formatPaymentReference(o.reference)} />
                      </Table.Td>
                      <Table.Td ff="monospace">{formatPaymentReference(o.reference)}</Table.Td>
                      <Table.Td>{t(`payments.kinds.${o.kind}`)}</Table.Td>
                      <Table.Td>
                        <Period value={o.period} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Money value={o.balance} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Checkbox.Group>
        {chosen.length > 0 && (
          <Text size="sm">
            {t('payments.pay.balanceChosen')}: <Money value={centsToDecimal(balance)} />
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label={t('payments.fields.bank')} required {...form.getInputProps('bank')} />
          <DateField label={t('payments.fields.payDate')} required {...form.getInputProps('payDate')} />
          <TextInput label={t('payments.fields.bankReference')} required {...form.getInputProps('bankReference')} />
          <TextInput
            label={t('payments.fields.amount')}
            required
            inputMode="decimal"
            placeholder="1,234.50"
            {...form.getInputProps('amount')}
          />
          <Select
            label={t('payments.fields.office')}
            required
            data={(offices.data?.items ?? []).map((o) => ({
              value: o.office,
              label: t('payments.pay.officeOption', { office: o.office, count: o.remaining }),
            }))}
            {...form.getInputProps('office')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={register.isPending}>
            {t('payments.pay.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
