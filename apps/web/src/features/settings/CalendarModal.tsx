import type { BusinessCalendar, SettingOverview } from '@aporta/domain/settings';
import { Divider, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format.ts';
import { CalendarPreview } from './CalendarPreview.tsx';
import { SettingValue } from './SettingValue.tsx';

/**
 * The business-day calendar in force (or the next value, when one is scheduled): its lists, and the days
 * of a chosen year with Holy Week and 30 June computed. Read-only: anyone who sees the settings may check it.
 */
export function CalendarModal({
  setting,
  today,
  onClose,
}: {
  setting: SettingOverview | null;
  today: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [which, setWhich] = useState<'current' | 'next'>('current');
  if (!setting) return null;
  const entry = which === 'next' && setting.next ? setting.next : setting.current;
  const year = Number((entry.effectiveFrom > today ? entry.effectiveFrom : today).slice(0, 4));
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t('settings.calendar.previewTitle', { label: setting.label })}
      size="xl"
    >
      <Stack>
        {setting.next && (
          <SegmentedControl
            value={which}
            onChange={(v) => setWhich(v as 'current' | 'next')}
            data={[
              { value: 'current', label: t('settings.current') },
              {
                value: 'next',
                label: `${t('settings.next')} (${t('settings.from', { date: formatDate(setting.next.effectiveFrom) })})`,
              },
            ]}
          />
        )}
        <Text size="xs" c="dimmed">
          {t('settings.since', { date: formatDate(entry.effectiveFrom) })}
        </Text>
        <SettingValue settingKey={setting.key} value={entry.value} />
        <Divider />
        <CalendarPreview key={`${which}-${entry.id}`} calendar={entry.value as BusinessCalendar} initialYear={year} />
      </Stack>
    </Modal>
  );
}
