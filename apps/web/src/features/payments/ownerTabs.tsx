/** An owner's payment orders and payments, as tabs of a municipal entity's page and of a contributor's page. */
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Money, Period } from '../../components/Money.tsx';
import { OrderStateBadge } from '../../components/OrderStateBadge.tsx';
import type { ContributorTab } from '../../lib/contributorTabs.ts';
import type { EntityTab } from '../../lib/entityTabs.ts';
import { ownerQuery, useOrderList, usePaymentList } from './api.ts';
import { Reference } from './components.tsx';
import { PaymentsTable } from './OrderPage.tsx';

/** Whose orders and payments: an entity's (its planillas, agreements) or a contributor's (voluntary). */
type Owner = { entityId: number } | { contributorId: number };

function OwnerOrders({ owner }: { owner: Owner }) {
  const { t } = useTranslation();
  const orders = useOrderList({ ...ownerQuery(owner), pageSize: 100 });
  const items = orders.data?.items ?? [];
  if (!items.length)
    return (
      <Text c="dimmed">
        {orders.isPending
          ? t('payments.loading')
          : t('entityId' in owner ? 'payments.orders.noneForEntity' : 'payments.orders.noneForContributor')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="owner-orders">
      {items.map((o) => (
        <Text key={o.id} size="sm">
          <Link to={`/ordenes-pago/${o.id}`}>
            <Reference value={o.reference} />
          </Link>{' '}
          · {t(`payments.kinds.${o.kind}`)} ·{' '}
          {o.periods.map((p) => (
            <Period key={p} value={p} />
          ))}{' '}
          · <OrderStateBadge state={o.state} /> · {t('payments.fields.balance')} <Money value={o.balance} />
        </Text>
      ))}
    </Stack>
  );
}

function OwnerPayments({ owner }: { owner: Owner }) {
  const { t } = useTranslation();
  const pays = usePaymentList({ ...ownerQuery(owner), pageSize: 100 });
  return (
    <Stack>
      <Title order={3} size="h5">
        {t('payments.payments.title')}
      </Title>
      <PaymentsTable items={pays.data?.items ?? []} />
    </Stack>
  );
}

/** A municipal entity's page opens on its payment orders and payments (the latest 100 of each). */
export const paymentEntityTabs: readonly EntityTab[] = [
  {
    value: 'orders',
    labelKey: 'payments.contributorTabs.orders',
    order: 1,
    permission: { resource: 'payment-orders', action: 'READ' },
    render: (entityId) => <OwnerOrders owner={{ entityId }} />,
  },
  {
    value: 'payments',
    labelKey: 'payments.contributorTabs.payments',
    order: 2,
    permission: { resource: 'planilla-payments', action: 'READ' },
    render: (entityId) => <OwnerPayments owner={{ entityId }} />,
  },
];

/** The contributor's 360° page gains their payment orders (voluntary payments) and their payments. */
export const paymentContributorTabs: readonly ContributorTab[] = [
  {
    value: 'payment-orders',
    labelKey: 'payments.contributorTabs.orders',
    order: 40,
    permission: { resource: 'payment-orders', action: 'READ' },
    render: (c) => <OwnerOrders owner={{ contributorId: c.id }} />,
  },
  {
    value: 'payments',
    labelKey: 'payments.contributorTabs.payments',
    order: 41,
    permission: { resource: 'planilla-payments', action: 'READ' },
    render: (c) => <OwnerPayments owner={{ contributorId: c.id }} />,
  },
];
