import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Anchor, Button, Card, Group, SimpleGrid, Table, Text } from '@mantine/core';
import { IconPlus, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StateBadge } from '../../components/ContributorStateBadge.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/useCan.ts';
import { useContributorOverview } from './api.ts';
import { Cui } from './components.tsx';

export function ContributorsOverviewPage() {
  const { t } = useTranslation();
  const can = useCan();
  const overview = useContributorOverview();
  const { data } = overview;
  const count = (state: string) => data?.byState.find((s) => s.key === state)?.total ?? 0;
  return (
    <>
      <PageHeader title={t('contributors.overview.title')} mb="md">
        {can('contributor-bulk-upload', 'CREATE') && (
          <Button component={Link} to="/contributors/bulk-upload" variant="default" leftSection={<IconUpload size={16} />}>
            {t('contributors.upload.title')}
          </Button>
        )}
        {can('contributor-new', 'CREATE') && (
          <Button component={Link} to="/contributors/new" leftSection={<IconPlus size={16} />}>
            {t('contributors.new')}
          </Button>
        )}
      </PageHeader>
      <QueryState query={overview}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} mb="md">
          {[
            ['total', data?.total ?? 0],
            ['ACTIVO', count('ACTIVO')],
            ['INACTIVO', count('INACTIVO')],
            ['FALLECIDO', count('FALLECIDO')],
          ].map(([key, value]) => (
            <Card withBorder key={key}>
              <Text size="sm">{key === 'total' ? t('contributors.overview.total') : t(`contributors.states.${key}`)}</Text>
              <Text fw={700} fz="xl" data-testid={`overview-${key}`}>
                {Number(value).toLocaleString('es-GT')}
              </Text>
            </Card>
          ))}
          <Card withBorder>
            <Text size="sm">{t('contributors.overview.pending')}</Text>
            {can('cui-approval', 'READ') ? (
              <Anchor component={Link} to="/contributors/cui-approval" fw={700} fz="xl">
                {data?.pendingApprovals ?? 0}
              </Anchor>
            ) : (
              <Text fw={700} fz="xl">
                {data?.pendingApprovals ?? 0}
              </Text>
            )}
          </Card>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder>
            <Text fw={600} mb="sm">
              {t('contributors.overview.byType')}
            </Text>
            <BarChart
              h={240}
              data={(data?.byType ?? []).map((x) => ({ tipo: x.key, total: x.total }))}
              dataKey="tipo"
              series={[{ name: 'total', label: t('contributors.overview.total'), color: 'blue.7' }]}
            />
          </Card>
          <Card withBorder>
            <Text fw={600} mb="sm">
              {t('contributors.overview.recent')}
            </Text>
            <Table.ScrollContainer minWidth={400}>
              <Table>
                <Table.Tbody>
                  {(data?.recent ?? []).map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/contributors/${c.id}`}>
                          {c.fullName}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Cui value={c.cui} />
                      </Table.Td>
                      <Table.Td>
                        <StateBadge value={c.cuiState} />
                      </Table.Td>
                      <Table.Td>{formatDateTime(c.updatedAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Group justify="flex-end" mt="sm">
              <Anchor component={Link} to="/contributors/list">
                {t('contributors.overview.seeAll')}
              </Anchor>
            </Group>
          </Card>
        </SimpleGrid>
      </QueryState>
    </>
  );
}
