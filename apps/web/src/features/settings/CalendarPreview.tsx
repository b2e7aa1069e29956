import { type BusinessCalendar, type CalendarDaySource, calendarOfYear, weekdayOf } from '@aporta/domain/settings';
import { Badge, Group, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format.ts';

const sourceColor: Record<CalendarDaySource, string> = {
  national: 'blue',
  holyWeek: 'grape',
  armyDay: 'grape',
  local: 'teal',
  extraordinary: 'orange',
  halfDay: 'gray',
  holyWednesday: 'gray',
};

const MIN_YEAR = 1900;
const MAX_YEAR = 2100;

/**
 * The holidays and half days of a chosen year as `calendar` makes them, computed days (Holy Week, 30 June)
 * included and marked: read-only, so staff can check a year before it comes.
 */
export function CalendarPreview({ calendar, initialYear }: { calendar: BusinessCalendar; initialYear: number }) {
  const { t } = useTranslation();
  const [year, setYear] = useState<number>(initialYear);
  const valid = Number.isInteger(year) && year >= MIN_YEAR && year <= MAX_YEAR;
  const days = valid ? calendarOfYear(year, calendar) : [];
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <NumberInput
          label={t('settings.calendar.year')}
          w={120}
          min={MIN_YEAR}
          max={MAX_YEAR}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=""
          value={year}
          onChange={(v) => setYear(typeof v === 'number' ? v : Number.NaN)}
          error={valid ? undefined : t('settings.calendar.yearRange', { min: MIN_YEAR, max: MAX_YEAR })}
        />
        <Text size="xs" c="dimmed" style={{ flex: 1 }}>
          {t('settings.calendar.computedNote')}
        </Text>
      </Group>
      {valid && (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing={4} striped aria-label={t('settings.calendar.previewOf', { year })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.calendar.date')}</Table.Th>
                <Table.Th>{t('settings.calendar.weekday')}</Table.Th>
                <Table.Th>{t('settings.calendar.name')}</Table.Th>
                <Table.Th>{t('settings.calendar.kind')}</Table.Th>
                <Table.Th>{t('settings.calendar.legalBasis')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {days.map((d) => (
                <Table.Tr key={d.date} data-testid={`calendar-day-${d.date}`}>
                  <Table.Td>{formatDate(d.date)}</Table.Td>
                  <Table.Td>{t(`settings.calendar.weekdays.${weekdayOf(d.date)}`)}</Table.Td>
                  <Table.Td>{d.name}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Badge variant="light" color={sourceColor[d.source]} radius="sm">
                        {t(`settings.calendar.source.${d.source}`)}
                      </Badge>
                      {d.halfDay && d.source !== 'halfDay' && (
                        <Badge variant="outline" color="gray" radius="sm">
                          {t('settings.calendar.halfDayBadge')}
                        </Badge>
                      )}
                      {d.computed && (
                        <Badge variant="outline" color="grape" radius="sm">
                          {t('settings.calendar.computed')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{d.legalBasis ?? ''}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
