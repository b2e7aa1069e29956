import { guatemalaToday, orderKinds, orderShownStateSchema, orderShownStates } from '@aporta/domain';
import { Anchor, Group, Paper, Text } from '@mantine/core';
import { createContext, useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { OrderStateBadge } from '../../components/OrderStateBadge.tsx';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type OrderRow, type OrdersQuery, useOrders, useOrderTotals } from './api.ts';
import { Reference } from './components.tsx';

export function orderColumns(t: (k: string) => string): ListColumn<OrderRow>[] {
  return [
    {
      accessor: 'reference',
      title: t('payments.fields.reference'),
      render: (o) => (
        <Anchor component={Link} to={`/ordenes-pago/${o.id}`} size="sm">
          <Reference value={o.reference} />
        </Anchor>
      ),
    },
    { accessor: 'kind', title: t('payments.fields.kind'), render: (o) => t(`payments.kinds.${o.kind}`) },
    { accessor: 'owner', title: t('payments.fields.owner'), render: (o) => o.entityName ?? o.contributorName },
    { accessor: 'period', title: t('payments.fields.period'), sortable: true, render: (o) => <Period value={o.period} /> },
    { accessor: 'dueDate', title: t('payments.fields.dueDate'), sortable: true, kind: 'date' },
    { accessor: 'state', title: t('payments.fields.state'), render: (o) => <OrderStateBadge state={o.state} /> },
    { accessor: 'overdueDays', title: t('payments.fields.overdueDays'), textAlign: 'right' },
    {
      accessor: 'principal',
      title: t('payments.fields.principal'),
      sortable: true,
      textAlign: 'right',
      render: (o) => <Money value={o.principal} />,
    },
    {
      accessor: 'interestAccrued',
      title: t('payments.fields.interestAccrued'),
      textAlign: 'right',
      render: (o) => <Money value={o.interestAccrued} />,
    },
    { accessor: 'paid', title: t('payments.fields.paid'), textAlign: 'right', render: (o) => <Money value={o.paid} /> },
    { accessor: 'balance', title: t('payments.fields.balance'), textAlign: 'right', render: (o) => <Money value={o.balance} /> },
  ];
}

/** What the list's hook needs from the page: the as-of date, a state from the link, and where to report its filters (for the totals). */
const OrdersContext = createContext<{ asOf: string; initialState: OrdersQuery['state']; report: (filters: string) => void }>({
  asOf: '',
  initialState: undefined,
  report: () => {},
});

function useOrderRows(q: ListParams) {
  const ctx = useContext(OrdersContext);
  const query: OrdersQuery = {
    ...q,
    asOf: ctx.asOf,
    ...(ctx.initialState && q.state === undefined ? { state: ctx.initialState } : {}),
  };
  const { page: _p, pageSize: _s, after: _a, before: _b, sort: _o, ...filters } = query;
  const json = JSON.stringify(filters);
  useEffect(() => ctx.report(json), [ctx, json]);
  return useOrders(query);
}

/** `/ordenes-pago`: the orders in scope with filters, interest and balance as of a chosen date, totals and export. */
export function OrdersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const [search] = useSearchParams();
  const [asOf, setAsOf] = useState(guatemalaToday());
  const [last, setLast] = useState('{}');
  const options = usePlanillaOptions(can('planillas', 'READ'));
  const initialState = orderShownStateSchema.safeParse(search.get('state')).data;
  const [ctx] = useState(() => ({ report: (f: string) => setLast(f) }));
  const totalsQuery: OrdersQuery = JSON.parse(last);
  const totals = useOrderTotals(totalsQuery);
  const filters: ListFilter[] = [
    {
      name: 'entityId',
      label: t('payments.fields.entity'),
      kind: 'reference',
      options: entityOptions(options.data?.entities),
    },
    { name: 'period', label: t('payments.fields.period'), kind: 'period', w: { base: '100%', sm: 150 } },
    {
      name: 'state',
      label: t('payments.fields.state'),
      kind: 'enum',
      options: orderShownStates.map((s) => ({ value: s, label: t(`payments.orderStates.${s}`) })),
      w: { base: '100%', sm: 150 },
    },
    {
      name: 'kind',
      label: t('payments.fields.kind'),
      kind: 'enum',
      options: orderKinds.map((s) => ({ value: s, label: t(`payments.kinds.${s}`) })),
      w: { base: '100%', sm: 160 },
    },
    { name: 'minOverdueDays', label: t('payments.fields.minOverdueDays'), kind: 'number', w: { base: '100%', sm: 130 } },
  ];
  return (
    <OrdersContext.Provider value={{ asOf, initialState, report: ctx.report }}>
      <ListPage<OrderRow>
        title={t('payments.orders.title')}
        description={t('payments.orders.description')}
        defaultSort="-id"
        searchLabel={t('payments.orders.search')}
        searchPlaceholder={t('payments.orders.searchPlaceholder')}
        filters={filters}
        columns={orderColumns(t)}
        useRows={useOrderRows}
        exportPath={can('payment-orders', 'EXPORT') ? '/api/payment-orders/export' : null}
        emptyText={t('payments.orders.empty')}
        onRowClick={(o) => navigate(`/ordenes-pago/${o.id}`)}
        notice={
          <Paper withBorder p="sm" data-testid="order-totals">
            <Group gap="lg" wrap="wrap" align="flex-end">
              <DateField label={t('payments.fields.asOf')} value={asOf} onChange={(v) => v && setAsOf(v)} w={170} />
              {totals.data && (
                <>
                  <Text size="sm">
                    {t('payments.totals.count')}: <b>{totals.data.count}</b>
                  </Text>
                  <Text size="sm">
                    {t('payments.fields.principal')}: <Money value={totals.data.principal} />
                  </Text>
                  <Text size="sm">
                    {t('payments.fields.interestAccrued')}: <Money value={totals.data.interestAccrued} />
                  </Text>
                  <Text size="sm">
                    {t('payments.fields.paid')}: <Money value={totals.data.paid} />
                  </Text>
                  <Text size="sm">
                    {t('payments.fields.interestDue')}: <Money value={totals.data.interestDue} />
                  </Text>
                  <Text size="sm" fw={600}>
                    {t('payments.fields.balance')}: <Money value={totals.data.balance} />
                  </Text>
                </>
              )}
            </Group>
          </Paper>
        }
      />
    </OrdersContext.Provider>
  );
}
