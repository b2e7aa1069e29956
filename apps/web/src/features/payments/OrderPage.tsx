import { centsToDecimal, decimalToCents, formatDay, guatemalaToday } from '@aporta/domain';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { Fact } from '../../components/Fact.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { OrderStateBadge } from '../../components/OrderStateBadge.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { ltr } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { downloadOrderPdf, type OrderRow, ownerQuery, type PaymentRow, useOrder, usePaymentList, useVoidOrder } from './api.ts';
import { ReceiptLink, Reference, referenceText } from './components.tsx';
import { isPayable, PaymentForm } from './PaymentForm.tsx';

/** Payments (with their receipts) of an owner, optionally only those touching one order. */
export function PaymentsTable({ items, orderId }: { items: PaymentRow[]; orderId?: number }) {
  const { t } = useTranslation();
  const rows = orderId ? items.filter((p) => p.allocations.some((a) => a.orderId === orderId)) : items;
  if (!rows.length) return <Text c="dimmed">{t('payments.payments.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped data-testid="payments-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('payments.fields.payDate')}</Table.Th>
            <Table.Th>{t('payments.fields.bank')}</Table.Th>
            <Table.Th>{t('payments.fields.bankReference')}</Table.Th>
            <Table.Th ta="right">{t('payments.fields.amount')}</Table.Th>
            <Table.Th>{t('payments.fields.receipt')}</Table.Th>
            <Table.Th>{t('payments.fields.state')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>{formatDay(p.payDate)}</Table.Td>
              <Table.Td>{p.bank}</Table.Td>
              <Table.Td dir="ltr">{ltr(p.bankReference)}</Table.Td>
              <Table.Td ta="right">
                <Money value={p.amount} />
              </Table.Td>
              <Table.Td data-testid="receipt-number">
                <ReceiptLink receipt={p.receipt} />
              </Table.Td>
              <Table.Td>{t(`payments.paymentStates.${p.state}`)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * An order's statement as of its date, which adds up on screen: principal and interest accrued, what of
 * each was paid (interest first), and what of each is due — principal + interest − paid = balance. Every
 * amount is the API's; the totals column adds cents.
 */
export function OrderStatement({ order: o }: { order: OrderRow }) {
  const { t } = useTranslation();
  const sum = (a: string, b: string) => centsToDecimal(decimalToCents(a) + decimalToCents(b));
  const rows = [
    { key: 'accrued', principal: o.principal, interest: o.interestAccrued, total: sum(o.principal, o.interestAccrued) },
    { key: 'paid', principal: o.principalPaid, interest: o.interestPaid, total: o.paid },
    { key: 'due', principal: o.principalDue, interest: o.interestDue, total: o.balance },
  ] as const;
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={420}>
        <Table withTableBorder data-testid="order-amounts" aria-label={t('payments.orders.statement')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('payments.orders.statement')}</Table.Th>
              <Table.Th ta="right">{t('payments.fields.principal')}</Table.Th>
              <Table.Th ta="right">{t('payments.fields.interest')}</Table.Th>
              <Table.Th ta="right">{t('payments.fields.total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key} data-testid={`order-${r.key}`} fw={r.key === 'due' ? 600 : undefined}>
                <Table.Th scope="row" fw={r.key === 'due' ? 700 : 500}>
                  {t(`payments.orders.statementRows.${r.key}`)}
                </Table.Th>
                <Table.Td ta="right">
                  <Money value={r.principal} />
                </Table.Td>
                <Table.Td ta="right">
                  <Money value={r.interest} />
                </Table.Td>
                <Table.Td ta="right" data-testid={r.key === 'due' ? 'order-balance' : undefined}>
                  <Money value={r.total} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        {t('payments.orders.statementHelp')}
      </Text>
    </Stack>
  );
}

/** `/ordenes-pago/:id`: principal, interest, paid and balance as of a date; PDF; payments; void. */
export function OrderPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const id = Number(useParams().id);
  const [asOf, setAsOf] = useState(guatemalaToday());
  const order = useOrder(id, asOf);
  const o = order.data;
  const pays = usePaymentList(
    { ...ownerQuery(o?.entityId ? { entityId: o.entityId } : { contributorId: o?.contributorId }), pageSize: 100 },
    !!o && can('planilla-payments', 'READ'),
  );
  const [voiding, setVoiding] = useState(false);
  const voidOrder = useVoidOrder(id);
  return (
    <QueryState query={order} notFound={<Text>{t('payments.orders.notFound')}</Text>}>
      {() => (
        <Stack>
          <PageHeader
            title={`${t('payments.orders.one')} ${referenceText(o!.reference, i18n.language)}`}
            description={`${t(`payments.kinds.${o!.kind}`)} · ${o!.entityName ?? o!.contributorName ?? ''}`}
          >
            <Group>
              <Button
                variant="default"
                leftSection={<IconFileTypePdf size={16} />}
                onClick={() => downloadOrderPdf(id, asOf).catch((err) => showApiError(err))}
              >
                {t('payments.orders.pdf')}
              </Button>
              <SpanishDocumentHint />
              {o!.transitions.some((x) => x.to === 'ANULADA') && (
                <Button color="red" variant="light" onClick={() => setVoiding(true)}>
                  {t('payments.orders.void')}
                </Button>
              )}
            </Group>
          </PageHeader>
          <Card withBorder>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Fact label={t('payments.fields.state')}>
                <OrderStateBadge state={o!.state} />
                {o!.state === 'VENCIDA' && decimalToCents(o!.paid) > 0n && (
                  <Text size="xs" c="dimmed" fw={400} data-testid="order-partly-paid">
                    {t('payments.orders.partlyPaidOverdue')}
                  </Text>
                )}
              </Fact>
              <Fact label={t('payments.fields.period')}>
                {o!.periods.map((p) => (
                  <Period key={p} value={p} />
                ))}
              </Fact>
              <Fact label={t('payments.fields.issueDate')}>{formatDay(o!.issueDate)}</Fact>
              <Fact label={t('payments.fields.dueDate')}>
                {formatDay(o!.dueDate)}
                {o!.dueBasis === 'AFTER_REVIEW' && (
                  <Text size="xs" c="dimmed" fw={400} data-testid="due-after-review">
                    {t('payments.orders.dueAfterReview', { date: formatDay(o!.issueDate) })}
                  </Text>
                )}
              </Fact>
              <Fact label={t('payments.fields.reference')}>
                <Reference value={o!.reference} testId="order-reference" />
              </Fact>
              {o!.planillaId && (
                <Fact label={t('payments.fields.planilla')}>
                  <Anchor component={Link} to={`/planilla/vista/${o!.planillaId}`}>
                    {t('payments.orders.seePlanilla')}
                  </Anchor>
                </Fact>
              )}
              <Fact label={t('payments.fields.overdueDays')}>{o!.overdueDays}</Fact>
              {o!.voidReason && <Fact label={t('payments.reason')}>{o!.voidReason}</Fact>}
            </SimpleGrid>
          </Card>
          <Card withBorder>
            <Group align="flex-end" mb="sm">
              <DateField label={t('payments.fields.asOf')} value={asOf} onChange={(v) => v && setAsOf(v)} w={170} />
            </Group>
            <OrderStatement order={o!} />
          </Card>
          {can('planilla-payments', 'CREATE') && isPayable(o!) && (
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t('payments.pay.title')}
              </Title>
              <PaymentForm
                owner={o!.entityId ? { entityId: o!.entityId } : { contributorId: o!.contributorId! }}
                preselected={[o!.id]}
              />
            </Card>
          )}
          {can('planilla-payments', 'READ') && (
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t('payments.payments.title')}
              </Title>
              <PaymentsTable items={pays.data?.items ?? []} orderId={o!.id} />
            </Card>
          )}
          <ReasonModal
            opened={voiding}
            title={t('payments.orders.void')}
            message={t('payments.orders.voidMessage')}
            confirmLabel={t('payments.orders.void')}
            loading={voidOrder.isPending}
            onClose={() => setVoiding(false)}
            onConfirm={(reason) =>
              voidOrder.mutate(
                { reason },
                {
                  onSuccess: () => {
                    setVoiding(false);
                    notifySuccess(t('payments.orders.voided'));
                  },
                  onError: (err) => showApiError(err),
                },
              )
            }
          />
        </Stack>
      )}
    </QueryState>
  );
}
