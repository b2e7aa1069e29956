import '@mantine/charts/styles.css';
import type { StatisticsPanel } from '@aporta/domain';
import { BarChart, DonutChart } from '@mantine/charts';
import { Card, ColorSwatch, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/QueryState.tsx';
import { useStatistics } from './api.ts';
import { CollectionPanels } from './CollectionPanel.tsx';

const palette = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.6', 'lime.7', 'pink.6', 'indigo.6', 'yellow.7', 'red.6'];

/** /administrative/statistics: every panel the server offers this user, rendered by its kind. */
export function StatisticsPage() {
  const { t } = useTranslation();
  const statistics = useStatistics();
  const { data } = statistics;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('statistics.title')}
      </Title>
      <QueryState query={statistics}>
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          {(data ?? []).map((p) => (
            <Panel key={p.key} panel={p} />
          ))}
        </SimpleGrid>
      </QueryState>
      <CollectionPanels />
    </Stack>
  );
}

function Panel({ panel }: { panel: StatisticsPanel }) {
  const { t } = useTranslation();
  const title = t(panel.titleKey, { defaultValue: panel.title });
  const data = panel.items.map((i) => ({ label: i.label, value: i.value }));
  return (
    <Card withBorder data-testid={`panel-${panel.key}`}>
      <Title order={2} size="h4">
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t(`statistics.totals.${panel.key}`, { count: panel.total, defaultValue: String(panel.total) })}
      </Text>
      {panel.items.length === 0 ? (
        <Text c="dimmed">{t('statistics.noData')}</Text>
      ) : panel.kind === 'bar' ? (
        <BarChart
          h={Math.max(220, data.length * 26)}
          data={data}
          dataKey="label"
          orientation="vertical"
          yAxisProps={{ width: 150 }}
          // What the bars count (entities, contributors, quetzales), named per panel.
          series={[
            {
              name: 'value',
              label: t(`statistics.series.${panel.key}`, { defaultValue: t('statistics.entities') }),
              color: 'blue.6',
            },
          ]}
          withBarValueLabel
        />
      ) : panel.kind === 'donut' ? (
        <Group justify="center" align="center" wrap="wrap">
          <DonutChart
            size={220}
            thickness={32}
            withLabelsLine
            withLabels
            data={data.map((d, i) => ({ name: d.label, value: d.value, color: palette[i % palette.length] }))}
          />
          <Stack gap={4}>
            {data.map((d, i) => (
              <Group key={d.label} gap={6} wrap="nowrap">
                <ColorSwatch color={`var(--mantine-color-${palette[i % palette.length].replace('.', '-')})`} size={12} />
                <Text size="sm">
                  {d.label}: {d.value}
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      ) : (
        // Focusable so keyboard users can scroll the list (WCAG scrollable region).
        <List size="sm" spacing={2} style={{ maxHeight: 320, overflow: 'auto' }} tabIndex={0} aria-label={title}>
          {panel.items.map((i) => (
            <List.Item key={`${i.value}-${i.label}`}>{i.label}</List.Item>
          ))}
        </List>
      )}
    </Card>
  );
}
