import { formatRate } from '@aporta/domain/money';
import { type BusinessCalendar, excessPaymentPolicyLabels, type SettingKey, settingDefinitions } from '@aporta/domain/settings';
import { Badge, Group, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format.ts';

/** `MM-DD` as `dd/mm`. */
const dayMonth = (md: string) => md.split('-').reverse().join('/');

/**
 * A setting's value formatted by its kind: a rate as `7.00 %`, a number with its unit, budget lines as
 * badges, a choice in words, the calendar as its lists of holidays. `compact` keeps the calendar to a line.
 */
export function SettingValue({
  settingKey,
  value,
  compact = false,
}: {
  settingKey: SettingKey;
  value: unknown;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const d = settingDefinitions[settingKey];
  switch (d.kind) {
    case 'rate':
      return <Text fw={600}>{`${formatRate(value as string).replace(' %', '')} ${d.unit}`}</Text>;
    case 'integer':
      return <Text fw={600}>{`${value as number} ${d.unit}`}</Text>;
    case 'budgetLines':
      return (
        <Group gap={4}>
          {(value as string[]).map((code) => (
            <Badge key={code} variant="outline" radius="sm">
              {code}
            </Badge>
          ))}
        </Group>
      );
    case 'choice':
      return <Text fw={600}>{excessPaymentPolicyLabels[value as keyof typeof excessPaymentPolicyLabels] ?? String(value)}</Text>;
    case 'calendar': {
      const c = value as BusinessCalendar;
      if (compact) {
        return (
          <Text fw={600}>
            {t('settings.calendarSummary', {
              fixed: c.fixed.length,
              local: c.local.length,
              extraordinary: c.extraordinary.length,
              half: c.halfDays.length,
            })}
          </Text>
        );
      }
      const yearly = (k: 'fixed' | 'local' | 'halfDays') => (
        <div>
          <Text size="sm" fw={600}>
            {t(`settings.calendar.${k}`)}
          </Text>
          <List size="sm">
            {c[k].map((h) => (
              <List.Item key={h.day}>{`${dayMonth(h.day)} — ${h.name}`}</List.Item>
            ))}
          </List>
        </div>
      );
      return (
        <Stack gap={6}>
          {yearly('fixed')}
          {yearly('local')}
          {yearly('halfDays')}
          <div>
            <Text size="sm" fw={600}>
              {t('settings.calendar.extraordinary')}
            </Text>
            {c.extraordinary.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('settings.calendar.noExtraordinary')}
              </Text>
            ) : (
              <List size="sm">
                {c.extraordinary.map((h) => (
                  <List.Item key={h.date}>{`${formatDate(h.date)} — ${h.name} (${h.legalBasis})`}</List.Item>
                ))}
              </List>
            )}
          </div>
        </Stack>
      );
    }
  }
}
