import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { registerContributorTab } from '../contributors/contributorTabs.tsx';
import { Money, Period } from '../planillas/components.tsx';
import { useOrderList, usePaymentList } from './api.ts';
import { OrderStateBadge } from './components.tsx';
import { PaymentsTable } from './OrderPage.tsx';

function ContributorOrders({ contributorId }: { contributorId: number }) {
  const { t } = useTranslation();
  const orders = useOrderList({ contributorId, pageSize: 100 });
  const items = orders.data?.items ?? [];
  if (!items.length)
    return <Text c="dimmed">{orders.isPending ? t('payments.loading') : t('payments.orders.noneForContributor')}</Text>;
  return (
    <Stack gap="xs" data-testid="contributor-orders">
      {items.map((o) => (
        <Text key={o.id} size="sm">
          <Link to={`/ordenes-pago/${o.id}`}>{o.reference}</Link> · {t(`payments.kinds.${o.kind}`)} ·{' '}
          {o.periods.map((p) => (
            <Period key={p} value={p} />
          ))}{' '}
          · <OrderStateBadge state={o.state} /> · {t('payments.fields.balance')} <Money value={o.balance} />
        </Text>
      ))}
    </Stack>
  );
}

function ContributorPayments({ contributorId }: { contributorId: number }) {
  const { t } = useTranslation();
  const pays = usePaymentList({ contributorId, pageSize: 100 });
  return (
    <Stack>
      <Title order={3} size="h5">
        {t('payments.payments.title')}
      </Title>
      <PaymentsTable items={pays.data?.items ?? []} />
    </Stack>
  );
}

// The contributor's 360° page gains their payment orders (voluntary payments) and their payments.
registerContributorTab({
  value: 'payment-orders',
  labelKey: 'payments.contributorTabs.orders',
  order: 40,
  permission: { resource: 'payment-orders', action: 'READ' },
  render: (c) => <ContributorOrders contributorId={c.id} />,
});
registerContributorTab({
  value: 'payments',
  labelKey: 'payments.contributorTabs.payments',
  order: 41,
  permission: { resource: 'planilla-payments', action: 'READ' },
  render: (c) => <ContributorPayments contributorId={c.id} />,
});
