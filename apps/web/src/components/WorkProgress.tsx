import { Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format.ts';

/**
 * Progress of long work (an import's validation, a background job): what it is doing, how far it is
 * (`done` of `total`, or a moving bar while the total is unknown) and a percentage. Announced politely to
 * screen readers as it changes.
 */
export function WorkProgress({
  phase,
  done,
  total,
  label,
  finished = false,
  color,
  testId,
}: {
  /** What it is doing now, already translated ("Validando filas"). */
  phase: string;
  done: number;
  total: number | null;
  /** Accessible name of the bar. */
  label: string;
  finished?: boolean;
  color?: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const known = total != null && total > 0;
  const percent = finished ? 100 : known ? Math.min(100, Math.floor((done / total) * 100)) : 0;
  const n = (v: number) => formatNumber(v, { language: i18n.language });
  return (
    <Stack gap={4} data-testid={testId}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" aria-live="polite">
          {phase}
        </Text>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid={testId ? `${testId}-count` : undefined}>
          {known ? t('ui.progressOf', { done: n(done), total: n(total), percent }) : t('ui.progressCount', { done: n(done) })}
        </Text>
      </Group>
      <Progress
        value={known || finished ? percent : 100}
        animated={!finished && !known}
        striped={!finished && !known}
        color={color ?? (finished ? 'green' : 'blue')}
        aria-label={label}
      />
    </Stack>
  );
}
