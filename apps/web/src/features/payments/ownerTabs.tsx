import type { Action, Resource } from '@aporta/domain/permissions';
import { Card, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Money, Period } from '../../components/Money.tsx';
import { OrderStateBadge } from '../../components/OrderStateBadge.tsx';
import { tabRegistry } from '../../lib/tabRegistry.ts';
import { useCan } from '../../lib/useCan.ts';
import { registerContributorTab } from '../contributors/contributorTabs.tsx';
import { useOrderList, usePaymentList } from './api.ts';
import { PaymentsTable } from './OrderPage.tsx';

/** Whose orders and payments: an entity's (its planillas, agreements) or a contributor's (voluntary). */
type Owner = { entityId: number } | { contributorId: number };

function OwnerOrders({ owner }: { owner: Owner }) {
  const { t } = useTranslation();
  const orders = useOrderList({ ...owner, pageSize: 100 });
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

function OwnerPayments({ owner }: { owner: Owner }) {
  const { t } = useTranslation();
  const pays = usePaymentList({ ...owner, pageSize: 100 });
  return (
    <Stack>
      <Title order={3} size="h5">
        {t('payments.payments.title')}
      </Title>
      <PaymentsTable items={pays.data?.items ?? []} />
    </Stack>
  );
}

/**
 * More tabs of a municipal entity's page, registered by other modules (agreements, account statement,
 * legal cases) — `{ value, labelKey, order, permission, render }` — shown after orders and payments.
 */
export interface EntityTab {
  value: string;
  labelKey: string;
  order: number;
  permission: { resource: Resource; action: Action };
  render: (entityId: number) => ReactNode;
}

const entityTabs = tabRegistry<EntityTab>();
export const registerEntityTab = entityTabs.register;

/** A municipal entity's record page: its payment orders and payments (the latest 100), and the registered tabs. */
export function EntityPaymentTabs({ entityId }: { entityId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const orders = can('payment-orders', 'READ');
  const payments = can('planilla-payments', 'READ');
  const more = entityTabs.tabs.filter((x) => can(x.permission.resource, x.permission.action));
  if (!orders && !payments && !more.length) return null;
  return (
    <Card withBorder data-testid="entity-payment-tabs">
      <Tabs defaultValue={orders ? 'orders' : payments ? 'payments' : more[0].value} keepMounted={false}>
        <Tabs.List>
          {orders && <Tabs.Tab value="orders">{t('payments.contributorTabs.orders')}</Tabs.Tab>}
          {payments && <Tabs.Tab value="payments">{t('payments.contributorTabs.payments')}</Tabs.Tab>}
          {more.map((x) => (
            <Tabs.Tab key={x.value} value={x.value}>
              {t(x.labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="orders" pt="md">
          <OwnerOrders owner={{ entityId }} />
        </Tabs.Panel>
        <Tabs.Panel value="payments" pt="md">
          <OwnerPayments owner={{ entityId }} />
        </Tabs.Panel>
        {more.map((x) => (
          <Tabs.Panel key={x.value} value={x.value} pt="md">
            {x.render(entityId)}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}

// The contributor's 360° page gains their payment orders (voluntary payments) and their payments.
registerContributorTab({
  value: 'payment-orders',
  labelKey: 'payments.contributorTabs.orders',
  order: 40,
  permission: { resource: 'payment-orders', action: 'READ' },
  render: (c) => <OwnerOrders owner={{ contributorId: c.id }} />,
});
registerContributorTab({
  value: 'payments',
  labelKey: 'payments.contributorTabs.payments',
  order: 41,
  permission: { resource: 'planilla-payments', action: 'READ' },
  render: (c) => <OwnerPayments owner={{ contributorId: c.id }} />,
});
