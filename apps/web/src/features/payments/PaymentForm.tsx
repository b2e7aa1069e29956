import { centsToDecimal, decimalToCents, guatemalaToday, parseAmount, paymentCreateSchema } from '@aporta/domain';
import { Alert, Anchor, Button, Checkbox, Group, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { formatDate, ltr } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import {
  fetchOrdersAsOf,
  type NewPayment,
  type OrderRow,
  ownerQuery,
  type PaymentResult,
  useBankOptions,
  useOffices,
  useOrderList,
  useRegisterPayment,
} from './api.ts';
import { newIdempotencyKey, ReceiptLink, Reference, referenceText } from './components.tsx';
import { onListFields } from './form-validation.ts';
import { type PaymentPreview, previewPayment } from './payment-preview.ts';

const FIELDS = ['orderIds', 'bankId', 'payDate', 'bankReference', 'amount', 'office'] as const;

type PaymentValues = {
  orderIds: string[];
  bankId: string;
  payDate: string;
  bankReference: string;
  amount: string;
  office: string;
};

/** The orders a payment may name: issued and owing (not yet due, partly paid or overdue). */
export const isPayable = (o: Pick<OrderRow, 'state'>) =>
  o.state === 'EMITIDA' || o.state === 'PAGADA_PARCIAL' || o.state === 'VENCIDA';

/** The payment as the API takes it, under the form's idempotency key (and as its schema checks it here). */
const toPayment = (v: PaymentValues, idempotencyKey: string): NewPayment => ({
  idempotencyKey,
  orderIds: v.orderIds.map(Number),
  bankId: v.bankId ? Number(v.bankId) : undefined,
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
  const { t, i18n } = useTranslation();
  const orders = useOrderList(
    { ...ownerQuery(owner), pageSize: 100, sort: 'dueDate', state: undefined },
    !!(owner.entityId || owner.contributorId),
  );
  const open = (orders.data?.items ?? []).filter(isPayable);
  const offices = useOffices();
  const banks = useBankOptions();
  const [checking, setChecking] = useState(false);
  const register = useRegisterPayment();
  const [key, setKey] = useState(newIdempotencyKey);
  const [result, setResult] = useState<PaymentResult | null>(null);
  const form = useForm<PaymentValues>({
    initialValues: {
      orderIds: preselected.map(String),
      bankId: '',
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

  const send = (v: PaymentValues) =>
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

  /**
   * Before registering: what will happen, from the orders as the API computes them on the payment's date
   * and the same split the server applies (interest first): a payment that exceeds the balances goes
   * straight to the server, whose refusal says by how much.
   */
  const submit = form.onSubmit(async (v) => {
    const cents = parseAmount(v.amount);
    if (!cents.ok) return send(v);
    setChecking(true);
    let asOfPay: OrderRow[];
    try {
      const r = await fetchOrdersAsOf({ ...ownerQuery(owner), pageSize: 100, sort: 'dueDate', asOf: v.payDate });
      asOfPay = r.items.filter((o) => v.orderIds.includes(String(o.id)) && isPayable(o));
    } catch (err) {
      showApiError(err);
      return;
    } finally {
      setChecking(false);
    }
    if (asOfPay.length !== v.orderIds.length) return send(v);
    const preview = previewPayment(cents.cents, asOfPay);
    if (preview.excess > 0n) return send(v);
    const bankName = banks.data?.find((b) => String(b.id) === v.bankId)?.name ?? '';
    openConfirm({
      title: t('payments.pay.confirmTitle'),
      size: 'lg',
      children: (
        <PaymentConfirmation
          preview={preview}
          amount={centsToDecimal(cents.cents)}
          owner={asOfPay[0]?.entityName ?? asOfPay[0]?.contributorName ?? ''}
          bank={bankName}
          bankReference={v.bankReference}
          payDate={v.payDate}
          office={v.office}
        />
      ),
      labels: { confirm: t('payments.pay.confirm'), cancel: t('common.cancel') },
      onConfirm: () => send(v),
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {result && <PaymentResultAlert result={result} />}
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
                        <Checkbox value={String(o.id)} aria-label={referenceText(o.reference, i18n.language)} />
                      </Table.Td>
                      <Table.Td>
                        <Reference value={o.reference} />
                      </Table.Td>
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
          <Select
            label={t('payments.fields.bank')}
            required
            searchable
            // The bank stays chosen for the next payment; picking it again must not clear it.
            allowDeselect={false}
            placeholder={t('payments.pay.bankPlaceholder')}
            data={(banks.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))}
            nothingFoundMessage={banks.isFetching ? t('common.loading') : t('payments.bank.noBanks')}
            {...form.getInputProps('bankId')}
          />
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
          <Button type="submit" loading={register.isPending || checking}>
            {t('payments.pay.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What registering the payment will do: who pays, how much, how it splits per order, the balances after and the receipt. */
function PaymentConfirmation(p: {
  preview: PaymentPreview;
  amount: string;
  owner: string;
  bank: string;
  bankReference: string;
  payDate: string;
  office: string;
}) {
  const { t } = useTranslation();
  const m = (c: bigint) => <Money value={centsToDecimal(c)} />;
  return (
    <Stack gap="sm" data-testid="payment-confirmation">
      <Text size="sm">
        {t('payments.pay.confirmIntro', { owner: p.owner, bank: p.bank, date: formatDate(p.payDate) })}{' '}
        <b>
          <Money value={p.amount} />
        </b>
        {' · '}
        {t('payments.fields.bankReference')}: <span dir="ltr">{ltr(p.bankReference)}</span>
      </Text>
      <Table.ScrollContainer minWidth={520}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('payments.fields.reference')}</Table.Th>
              <Table.Th ta="right">{t('payments.fields.interestPaid')}</Table.Th>
              <Table.Th ta="right">{t('payments.fields.principalPaid')}</Table.Th>
              <Table.Th ta="right">{t('payments.pay.balanceAfter')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {p.preview.lines.map((l) => (
              <Table.Tr key={l.order.id}>
                <Table.Td>
                  <Reference value={l.order.reference} />
                  <Text size="xs" c="dimmed">
                    {t(`payments.kinds.${l.order.kind}`)} · <Period value={l.order.period} />
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{m(l.interest)}</Table.Td>
                <Table.Td ta="right">{m(l.principal)}</Table.Td>
                <Table.Td ta="right" data-testid="confirm-balance-after">
                  {m(l.balanceAfter)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th>{t('payments.fields.total')}</Table.Th>
              <Table.Th ta="right">{m(p.preview.interest)}</Table.Th>
              <Table.Th ta="right">{m(p.preview.principal)}</Table.Th>
              <Table.Th ta="right">{m(p.preview.balanceAfter)}</Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm">{t('payments.pay.confirmReceipt', { office: p.office })}</Text>
      {p.preview.balanceAfter === 0n ? (
        <Text size="sm">{t('payments.pay.confirmPaysOff')}</Text>
      ) : (
        <Text size="sm">{t('payments.pay.confirmPartial')}</Text>
      )}
    </Stack>
  );
}

/**
 * After registering: the receipt issued as a link to its PDF and the orders paid; a repeat (the same
 * submission or bank reference) shows the original payment — its date, bank, amount, receipt and orders.
 */
export function PaymentResultAlert({ result }: { result: PaymentResult }) {
  const { t } = useTranslation();
  const p = result.payment;
  return (
    <Alert color={result.replayed ? 'yellow' : 'teal'} data-testid="payment-result">
      <Stack gap={4}>
        <Text size="sm">
          {result.replayed
            ? t('payments.pay.replayed')
            : t('payments.pay.done', { series: p.receipt?.series ?? '', number: p.receipt?.number ?? '' })}
        </Text>
        {result.replayed && (
          <Text size="sm" data-testid="payment-original">
            {t('payments.pay.original', { date: formatDate(p.payDate), bank: p.bank })} <Money value={p.amount} /> ·{' '}
            {t('payments.fields.bankReference')}: <span dir="ltr">{ltr(p.bankReference)}</span>
          </Text>
        )}
        <Text size="sm">
          {t('payments.fields.receipt')}: <ReceiptLink receipt={p.receipt} />
        </Text>
        <Group gap="xs">
          <Text size="sm">{t('payments.pay.ordersPaid')}:</Text>
          {p.allocations.map((a) => (
            <Anchor key={a.orderId} component={Link} to={`/ordenes-pago/${a.orderId}`} size="sm" data-testid="payment-order-link">
              <Reference value={a.reference} />
            </Anchor>
          ))}
        </Group>
        {result.warnings.map((w) => (
          <Text key={w} size="sm" c="orange.9">
            {w}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
