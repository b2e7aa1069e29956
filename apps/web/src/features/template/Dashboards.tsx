import { COUNT_UP_DECIMALS } from '@aporta/domain/template';
import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import {
  IconAddressBook,
  IconBook,
  IconCash,
  IconChecklist,
  IconClick,
  IconCoin,
  IconHourglass,
  IconReceipt2,
  IconSchool,
  IconShoppingCart,
  IconTicket,
  IconTrendingDown,
  IconTrendingUp,
  IconUsers,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CollectionListPage } from '../../components/collections/CollectionListPage.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { StatCard } from '../../components/StatCard.tsx';
import { PlaceholderAvatar } from '../../lib/field-types.tsx';
import { formatDate, formatMoneyDecimal } from '../../lib/format.ts';
import { type Summary, useBrowsers, useDeals, useRecentCourses, useSummary, useTasks } from './api.ts';

const num = (decimal: string) => Number(decimal);

function WithSummary({ children }: { children: (s: Summary) => React.ReactNode }) {
  const summary = useSummary();
  return <QueryState query={summary}>{() => summary.data && children(summary.data)}</QueryState>;
}

const cols = { base: 1, xs: 2, lg: 4 };

/** CRM dashboard: leads, deals and tasks, figures from the tables; the newest deals and the next tasks. */
export function CrmDashboard() {
  const { t } = useTranslation();
  const deals = useDeals();
  const tasks = useTasks();
  return (
    <Stack>
      <PageHeader title={t('menu.tplCrmDashboard')} />
      <WithSummary>
        {(s) => (
          <SimpleGrid cols={cols}>
            <StatCard title={t('tpl.leads')} value={s.crm.leads} icon={<IconAddressBook />} />
            <StatCard
              title={t('tpl.averageScore')}
              value={num(s.crm.averageScore)}
              decimals={COUNT_UP_DECIMALS}
              color="teal"
              icon={<IconTrendingUp />}
            />
            <StatCard
              title={t('tpl.dealsValue')}
              value={num(s.crm.dealsValue)}
              decimals={COUNT_UP_DECIMALS}
              prefix="Q "
              color="grape"
              icon={<IconCoin />}
              note={t('tpl.dealsCount', { count: s.crm.deals })}
            />
            <StatCard title={t('tpl.tasks')} value={s.crm.tasks} color="orange" icon={<IconChecklist />} />
          </SimpleGrid>
        )}
      </WithSummary>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t('menu.tplDeals')}
          </Title>
          <QueryState query={deals}>
            {() => (
              <Stack gap="xs">
                {deals.data?.map((d) => (
                  <Group key={d.id} justify="space-between" wrap="nowrap">
                    <Group wrap="nowrap" gap="sm">
                      <PlaceholderAvatar src={d.img} name={d.title ?? ''} size={32} />
                      <div>
                        <Text size="sm" fw={600}>
                          {d.title}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {d.subtitle}
                        </Text>
                      </div>
                    </Group>
                    <Text size="sm">{formatMoneyDecimal(d.price)}</Text>
                  </Group>
                ))}
              </Stack>
            )}
          </QueryState>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t('menu.tplTasks')}
          </Title>
          <QueryState query={tasks}>
            {() => (
              <Stack gap="xs">
                {tasks.data?.map((task) => (
                  <Group key={task.id} justify="space-between" wrap="nowrap">
                    <div>
                      <Text size="sm" fw={600}>
                        {task.title}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {task.content}
                      </Text>
                    </div>
                    <Badge variant="light">{formatDate(task.date)}</Badge>
                  </Group>
                ))}
              </Stack>
            )}
          </QueryState>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/** Sales: the e-commerce figures with the daily orders' sparkline, and the sales orders list. */
export function SalesPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <WithSummary>
        {(s) => (
          <SimpleGrid cols={cols}>
            <StatCard
              title={t('tpl.salesTotal')}
              value={num(s.ecommerce.salesTotal)}
              decimals={COUNT_UP_DECIMALS}
              prefix="Q "
              icon={<IconCash />}
            />
            <StatCard
              title={t('tpl.ordersTotal')}
              value={num(s.ecommerce.ordersTotal)}
              decimals={COUNT_UP_DECIMALS}
              prefix="Q "
              color="teal"
              icon={<IconShoppingCart />}
              series={s.ecommerce.dailyOrders.map((d) => num(d.total))}
            />
            <StatCard title={t('tpl.customers')} value={s.ecommerce.customers} color="grape" icon={<IconUsers />} />
            <StatCard
              title={t('tpl.stock')}
              value={s.ecommerce.stock}
              color="orange"
              icon={<IconBook />}
              note={t('tpl.productsCount', { count: s.ecommerce.products })}
            />
          </SimpleGrid>
        )}
      </WithSummary>
      <CollectionListPage collection="sales-orders" basePath="/plantilla/comercio/ventas" title={t('menu.tplSales')} />
    </Stack>
  );
}

/** Learning dashboard: courses, students, instructors and subscriptions, and the recent courses. */
export function LearningDashboard() {
  const { t } = useTranslation();
  const recent = useRecentCourses();
  return (
    <Stack>
      <PageHeader title={t('menu.tplLearningDashboard')} />
      <WithSummary>
        {(s) => (
          <SimpleGrid cols={cols}>
            <StatCard title={t('tpl.courses')} value={s.learning.courses} icon={<IconSchool />} />
            <StatCard title={t('tpl.students')} value={s.learning.students} color="teal" icon={<IconUsers />} />
            <StatCard title={t('tpl.instructors')} value={s.learning.instructors} color="grape" icon={<IconAddressBook />} />
            <StatCard
              title={t('tpl.subscriptionsValue')}
              value={num(s.learning.subscriptionsValue)}
              decimals={COUNT_UP_DECIMALS}
              prefix="Q "
              color="orange"
              icon={<IconCoin />}
              note={t('tpl.activeSubscriptions', { count: s.learning.activeSubscriptions })}
            />
          </SimpleGrid>
        )}
      </WithSummary>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t('tpl.recentCourses')}
        </Title>
        <QueryState query={recent}>
          {() => (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('tpl.course')}</Table.Th>
                  <Table.Th>{t('tpl.category')}</Table.Th>
                  <Table.Th>{t('tpl.students')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {recent.data?.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <PlaceholderAvatar src={c.img} name={c.name ?? ''} size={28} />
                        {c.name}
                      </Group>
                    </Table.Td>
                    <Table.Td>{c.labels.categoryId}</Table.Td>
                    <Table.Td>{c.students}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </QueryState>
      </Card>
    </Stack>
  );
}

/** Earnings: credits, debits, pending and balance from the transactions, and the transactions list. */
export function EarningsPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <WithSummary>
        {(s) => (
          <SimpleGrid cols={cols}>
            <StatCard
              title={t('tpl.credits')}
              value={num(s.earnings.credits)}
              decimals={COUNT_UP_DECIMALS}
              prefix="Q "
              color="green"
              icon={<IconTrendingUp />}
            />
            <StatCard
              title={t('tpl.debits')}
              value={num(s.earnings.debits)}
              decimals={COUNT_UP_DECIMALS}
              prefix="Q "
              color="red"
              icon={<IconTrendingDown />}
            />
            <StatCard
              title={t('tpl.pending')}
              value={num(s.earnings.pending)}
              decimals={COUNT_UP_DECIMALS}
              prefix="Q "
              color="yellow"
              icon={<IconHourglass />}
            />
            <StatCard
              title={t('tpl.balance')}
              value={num(s.earnings.balance)}
              decimals={COUNT_UP_DECIMALS}
              prefix="Q "
              icon={<IconCoin />}
            />
          </SimpleGrid>
        )}
      </WithSummary>
      <CollectionListPage collection="transactions" basePath="/plantilla/ganancias" title={t('menu.tplEarnings')} />
    </Stack>
  );
}

/** The ticket states in the order of their cards, and each card's colour. */
const ticketOrder = ['New', 'Open', 'Pending', 'Close'] as const;
const ticketColors = { New: 'cyan', Open: 'blue', Pending: 'yellow', Close: 'gray' } as const;

/** Support tickets: how many in each state, and the tickets. */
export function TicketsPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <WithSummary>
        {(s) => (
          <SimpleGrid cols={cols}>
            {ticketOrder.map((k) => (
              <StatCard
                key={k}
                title={t(`tpl.ticket${k}`)}
                value={s.tickets[k] ?? 0}
                color={ticketColors[k]}
                icon={<IconTicket />}
              />
            ))}
          </SimpleGrid>
        )}
      </WithSummary>
      <CollectionListPage collection="support-tickets" basePath="/plantilla/tickets" title={t('menu.tplTickets')} />
    </Stack>
  );
}

/** Invoices: totals per state, and the invoices (ticked ones deleted at once). */
export function InvoicesPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <WithSummary>
        {(s) => (
          <SimpleGrid cols={cols}>
            {s.invoices.map((i) => (
              <StatCard
                key={i.status}
                title={t(`tpl.invoice${i.status}`)}
                value={num(i.amount)}
                decimals={COUNT_UP_DECIMALS}
                prefix="Q "
                icon={<IconReceipt2 />}
                note={t('tpl.invoiceCount', { count: i.count })}
              />
            ))}
          </SimpleGrid>
        )}
      </WithSummary>
      <CollectionListPage
        collection="invoices"
        basePath="/plantilla/facturas"
        title={t('menu.tplInvoices')}
        bulkDeletePath="/app/invoiceList"
      />
    </Stack>
  );
}

/** Top pages and browser statistics: the browsers' shares as cards, and both lists. */
export function TopPagesPage() {
  const { t } = useTranslation();
  const browsers = useBrowsers();
  return (
    <Stack>
      <PageHeader title={t('menu.tplTopPages')} />
      <QueryState query={browsers}>
        {() => (
          <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }}>
            {browsers.data?.map((b) => (
              <StatCard
                key={b.id}
                title={b.browser ?? ''}
                value={b.rate ?? 0}
                decimals={COUNT_UP_DECIMALS}
                icon={<PlaceholderAvatar src={b.img} name={b.browser ?? ''} size={32} />}
                color="gray"
                note={
                  <Group gap={4}>
                    <IconClick size={12} />
                    {t('tpl.visits', { count: b.click })}
                  </Group>
                }
              />
            ))}
          </SimpleGrid>
        )}
      </QueryState>
      <CollectionListPage collection="top-pages" basePath="/plantilla/estadisticas/paginas" />
      <CollectionListPage collection="browser-stats" basePath="/plantilla/estadisticas/navegadores" />
    </Stack>
  );
}
