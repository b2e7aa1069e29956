import { type SettingOverview, type SettingTopic, settingTopicLabels, settingTopics } from '@aporta/domain/settings';
import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconCalendarPlus, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatDate } from '../../lib/format.ts';
import { useCan } from '../../lib/useCan.ts';
import { type SettingsBase, useSettingsOverview } from './api.ts';
import { CalendarModal } from './CalendarModal.tsx';
import { HistoryModal } from './HistoryModal.tsx';
import { ScheduleModal } from './ScheduleModal.tsx';
import { SettingValue } from './SettingValue.tsx';

/**
 * Administración → Parámetros: every effective-dated setting grouped by topic, with its value in force
 * today and the next scheduled one; the history of each, and (with UPDATE) scheduling a new value from
 * a date or cancelling one not yet in force.
 */
export function SettingsPage({
  topic: only,
  base,
  title,
  description,
}: {
  /** One topic only (Planillas → Cuotas shows the contributions' settings). */
  topic?: SettingTopic;
  /** The API answering the overview and histories (default `/api/settings`). */
  base?: SettingsBase;
  title?: string;
  description?: string;
} = {}) {
  const { t } = useTranslation();
  const can = useCan();
  const canUpdate = can('settings', 'UPDATE');
  const overview = useSettingsOverview(base);
  const [history, setHistory] = useState<SettingOverview | null>(null);
  const [scheduling, setScheduling] = useState<SettingOverview | null>(null);
  const [calendar, setCalendar] = useState<SettingOverview | null>(null);

  const current = (s: SettingOverview) => (
    <>
      <SettingValue settingKey={s.key} value={s.current.value} compact />
      <Text size="xs" c="dimmed">
        {t('settings.since', { date: formatDate(s.current.effectiveFrom) })}
      </Text>
    </>
  );
  const next = (s: SettingOverview) =>
    s.next ? (
      <>
        <SettingValue settingKey={s.key} value={s.next.value} compact />
        <Text size="xs" c="dimmed">
          {t('settings.from', { date: formatDate(s.next.effectiveFrom) })}
        </Text>
      </>
    ) : (
      <Text size="sm" c="dimmed">
        {t('settings.noNext')}
      </Text>
    );
  const actions = (s: SettingOverview) => (
    <Group gap={4} wrap="nowrap">
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconHistory size={14} />}
        onClick={() => setHistory(s)}
        aria-label={t('settings.historyOf', { label: s.label })}
      >
        {t('settings.historyButton')}
      </Button>
      {s.kind === 'calendar' && (
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconCalendarEvent size={14} />}
          onClick={() => setCalendar(s)}
          aria-label={t('settings.calendar.previewButtonOf', { label: s.label })}
        >
          {t('settings.calendar.previewButton')}
        </Button>
      )}
      {canUpdate && (
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconCalendarPlus size={14} />}
          onClick={() => setScheduling(s)}
          aria-label={t('settings.scheduleOf', { label: s.label })}
        >
          {t('settings.scheduleButton')}
        </Button>
      )}
    </Group>
  );

  return (
    <Stack>
      <PageHeader title={title ?? t('settings.title')} description={description ?? t('settings.intro')} />
      <QueryState query={overview}>
        {() => {
          const { items, today } = overview.data!;
          return (
            <>
              {settingTopics
                .filter((topic) => !only || topic === only)
                .map((topic) => {
                  const rows = items.filter((i) => i.topic === topic);
                  if (rows.length === 0) return null;
                  return (
                    <Card key={topic} withBorder padding="md" component="section" aria-labelledby={`topic-${topic}`}>
                      <Title order={2} size="h4" mb="sm" id={`topic-${topic}`}>
                        {settingTopicLabels[topic]}
                      </Title>
                      <Stack hiddenFrom="sm" gap={0}>
                        {rows.map((s) => (
                          <Stack
                            key={s.key}
                            gap={6}
                            py="sm"
                            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
                          >
                            <div>
                              <Text fw={600} size="sm">
                                {s.label}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {s.description}
                              </Text>
                            </div>
                            <Group gap="lg" align="flex-start">
                              <div>
                                <Text size="xs" c="dimmed">
                                  {t('settings.current')}
                                </Text>
                                {current(s)}
                              </div>
                              <div>
                                <Text size="xs" c="dimmed">
                                  {t('settings.next')}
                                </Text>
                                {next(s)}
                              </div>
                            </Group>
                            {actions(s)}
                          </Stack>
                        ))}
                      </Stack>
                      <Table.ScrollContainer minWidth={720} visibleFrom="sm">
                        <Table verticalSpacing="sm">
                          <Table.Thead>
                            <Table.Tr>
                              <Table.Th w="34%">{t('settings.setting')}</Table.Th>
                              <Table.Th>{t('settings.current')}</Table.Th>
                              <Table.Th>{t('settings.next')}</Table.Th>
                              <Table.Th>{t('settings.actions')}</Table.Th>
                            </Table.Tr>
                          </Table.Thead>
                          <Table.Tbody>
                            {rows.map((s) => (
                              <Table.Tr key={s.key} data-testid={`setting-${s.key}`}>
                                <Table.Td>
                                  <Text fw={600} size="sm">
                                    {s.label}
                                  </Text>
                                  <Text size="xs" c="dimmed">
                                    {s.description}
                                  </Text>
                                </Table.Td>
                                <Table.Td data-testid="current">{current(s)}</Table.Td>
                                <Table.Td data-testid="next">{next(s)}</Table.Td>
                                <Table.Td>{actions(s)}</Table.Td>
                              </Table.Tr>
                            ))}
                          </Table.Tbody>
                        </Table>
                      </Table.ScrollContainer>
                    </Card>
                  );
                })}
              <ScheduleModal setting={scheduling} today={today} onClose={() => setScheduling(null)} />
              <CalendarModal key={calendar?.key} setting={calendar} today={today} onClose={() => setCalendar(null)} />
              <HistoryModal setting={history} canUpdate={canUpdate} onClose={() => setHistory(null)} base={base} />
            </>
          );
        }}
      </QueryState>
    </Stack>
  );
}
