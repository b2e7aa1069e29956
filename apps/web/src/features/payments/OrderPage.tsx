import { formatDay, formatPaymentReference, guatemalaToday } from '@aporta/domain';
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
import { notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { downloadOrderPdf, ownerQuery, type PaymentRow, useOrder, usePaymentList, useVoidOrder } from './api.ts';
import { PaymentForm } from './PaymentForm.tsx';

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
              <Table.Td>{p.bankReference}</Table.Td>
              <Table.Td ta="right">
                <Money value={p.amount} />
              </Table.Td>
              <Table.Td data-testid="receipt-number">
                {p.receipt
                  ? `${p.receipt.series}-${p.receipt.number}${p.receipt.state === 'ANULADO' ? ` (${t('payments.receiptStates.ANULADO')})` : ''}`
                  : '—'}
              </Table.Td>
              <Table.Td>{t(`payments.paymentStates.${p.state}`)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** `/ordenes-pago/:id`: principal, interest, paid and balance as of a date; PDF; payments; void. */
export function OrderPage() {
  const { t } = useTranslation();
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
            title={`${t('payments.orders.one')} ${formatPaymentReference(o!.reference)}`}
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
              </Fact>
              <Fact label={t('payments.fields.period')}>
                {o!.periods.map((p) => (
                  <Period key={p} value={p} />
                ))}
              </Fact>
              <Fact label={t('payments.fields.issueDate')}>{formatDay(o!.issueDate)}</Fact>
              <Fact label={t('payments.fields.dueDate')}>{formatDay(o!.dueDate)}</Fact>
              <Fact label={t('payments.fields.reference')}>
                <span data-testid="order-reference">{formatPaymentReference(o!.reference)}</span>
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
            <SimpleGrid cols={{ base: 2, sm: 4 }} data-testid="order-amounts">
              <Fact label={t('payments.fields.principal')}>
                <Money value={o!.principal} />
              </Fact>
              <Fact label={t('payments.fields.interest')}>
                <Money value={o!.interestDue} />
              </Fact>
              <Fact label={t('payments.fields.paid')}>
                <Money value={o!.paid} />
              </Fact>
              <Fact label={t('payments.fields.balance')}>
                <span data-testid="order-balance">
                  <Money value={o!.balance} />
                </span>
              </Fact>
            </SimpleGrid>
          </Card>
          {can('planilla-payments', 'CREATE') && (o!.state === 'EMITIDA' || o!.state === 'VENCIDA') && (
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
