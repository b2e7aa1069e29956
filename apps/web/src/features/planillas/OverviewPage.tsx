import { centsToDecimal, decimalToCents, formatPeriod, periodSchema, previousPeriod } from '@aporta/domain';
import { Anchor, Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Money, Period } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PeriodField } from '../../components/PeriodField.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatMoneyDecimal } from '../../lib/format.ts';
import { usePlanillaOverview } from './api.ts';
import { PlanillaStateBadge } from './components.tsx';

const month = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .slice(0, 7);

/** `/planilla`: the period at a glance — by state, the entities that have not declared, totals against last month, trend. */
export function OverviewPage() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState(previousPeriod(month()));
  const valid = periodSchema.safeParse(period).success;
  const overview = usePlanillaOverview(valid ? period : null);
  return (
    <Stack>
      <PageHeader title={t('planillas.overview.title')} description={t('planillas.overview.description')}>
        <PeriodField
          label={t('planillas.fields.period')}
          value={period}
          // Text that is not yet a month keeps the period shown (the field says what is wrong).
          onChange={(p) => p && setPeriod(p)}
          required
          w={160}
          data-testid="overview-period"
        />
      </PageHeader>
      <QueryState query={overview}>
        {() => {
          const o = overview.data!;
          const sum = (x: { employee: string; employer: string }) => decimalToCents(x.employee) + decimalToCents(x.employer);
          let max = 1n;
          for (const x of o.trend) if (sum(x) > max) max = sum(x);
          return (
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
                <Card withBorder>
                  <Text size="sm">{t('planillas.overview.declared')}</Text>
                  <Text fw={700} fz="xl" data-testid="overview-declared">
                    {t('planillas.overview.declaredOf', { declared: o.declared, total: o.entitiesInScope })}
                  </Text>
                </Card>
                <Card withBorder>
                  <Text size="sm">{t('planillas.overview.omisos')}</Text>
                  <Text fw={700} fz="xl" c={o.omisos.length ? 'red.9' : undefined}>
                    {o.omisos.length}
                  </Text>
                </Card>
                <Card withBorder>
                  <Text size="sm">{t('planillas.fields.employee')}</Text>
                  <Text fw={700} fz="xl">
                    <Money value={o.totals.employee} />
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('planillas.overview.lastMonth', { amount: formatMoneyDecimal(o.previousTotals.employee) })}
                  </Text>
                </Card>
                <Card withBorder>
                  <Text size="sm">{t('planillas.fields.employer')}</Text>
                  <Text fw={700} fz="xl">
                    <Money value={o.totals.employer} />
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('planillas.overview.lastMonth', { amount: formatMoneyDecimal(o.previousTotals.employer) })}
                  </Text>
                </Card>
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <Card withBorder>
                  <Title order={2} size="h4" mb="sm">
                    {t('planillas.overview.byState', { period: formatPeriod(o.period) })}
                  </Title>
                  {o.byState.length ? (
                    <Stack gap="xs">
                      {o.byState.map((s) => (
                        <Group key={s.state} justify="space-between">
                          <Anchor component={Link} to="/planilla/vista">
                            <PlanillaStateBadge state={s.state} />
                          </Anchor>
                          <Text fw={600}>{s.count}</Text>
                        </Group>
                      ))}
                    </Stack>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('planillas.overview.none')}
                    </Text>
                  )}
                </Card>
                <Card withBorder>
                  <Title order={2} size="h4" mb="sm">
                    {t('planillas.overview.trend')}
                  </Title>
                  <Stack gap={6} aria-label={t('planillas.overview.trend')}>
                    {o.trend.map((x) => (
                      <Group key={x.period} gap="sm" wrap="nowrap">
                        <Text size="xs" w={60}>
                          {formatPeriod(x.period)}
                        </Text>
                        <Progress
                          value={Number((sum(x) * 1000n) / max) / 10}
                          style={{ flex: 1 }}
                          aria-label={`${formatPeriod(x.period)}: ${formatMoneyDecimal(x.employee)} + ${formatMoneyDecimal(x.employer)}`}
                        />
                        <Text size="xs" w={150} ta="right">
                          <Money value={centsToDecimal(sum(x))} />
                        </Text>
                      </Group>
                    ))}
                  </Stack>
                </Card>
              </SimpleGrid>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  {t('planillas.overview.omisosTitle', { period: formatPeriod(o.period) })}
                </Title>
                {o.omisos.length ? (
                  <Table.ScrollContainer minWidth={480}>
                    <Table striped data-testid="omisos">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>{t('planillas.fields.entity')}</Table.Th>
                          <Table.Th>{t('planillas.overview.code')}</Table.Th>
                          <Table.Th>{t('planillas.overview.lastPeriod')}</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {o.omisos.map((e) => (
                          <Table.Tr key={e.entityId}>
                            <Table.Td>{e.name}</Table.Td>
                            <Table.Td>{e.code}</Table.Td>
                            <Table.Td>{e.lastPeriod ? <Period value={e.lastPeriod} /> : t('planillas.overview.never')}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('planillas.overview.allDeclared')}
                  </Text>
                )}
              </Card>
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
