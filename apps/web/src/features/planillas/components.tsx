import type { LineIssue, PlanillaLineObservation, PlanillaState } from '@aporta/domain';
import { Badge, List, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleX, IconMessageCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';
import { messageText } from '../../lib/server-messages.ts';

const stateColors: Record<PlanillaState, string> = {
  BORRADOR: 'gray',
  ENVIANDO: 'cyan',
  ENVIADA: 'blue',
  EN_REVISION: 'indigo',
  OBSERVADA: 'orange',
  APROBADA: 'green',
  RECHAZADA: 'red',
  PAGADA: 'teal',
  ANULADA: 'dark',
};

/** A planilla's state as a coloured badge with its label in the user's language. */
export function PlanillaStateBadge({ state }: { state: PlanillaState }) {
  const { t } = useTranslation();
  return (
    <Badge color={stateColors[state]} variant="light" c="var(--mantine-color-text)" data-testid="planilla-state">
      {t(`planillas.states.${state}`)}
    </Badge>
  );
}

/** A line's blocking errors (red) and warnings (orange), each with its message. */
export function LineIssues({ errors, warnings }: { errors: LineIssue[]; warnings: LineIssue[] }) {
  if (!errors.length && !warnings.length) return null;
  return (
    <List size="xs" spacing={2} listStyleType="none" data-testid="line-issues">
      {errors.map((e) => (
        <List.Item
          key={`e-${e.code}-${e.message}`}
          icon={<IconCircleX size={14} color="var(--mantine-color-red-8)" aria-label="Error" />}
        >
          <Text size="xs" c="red.9" span>
            {messageText(e)}
          </Text>
        </List.Item>
      ))}
      {warnings.map((w) => (
        <List.Item
          key={`w-${w.code}-${w.message}`}
          icon={<IconAlertTriangle size={14} color="var(--mantine-color-orange-8)" aria-label="Advertencia" />}
        >
          <Text size="xs" span>
            {messageText(w)}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

/** What the reviewer wrote about a line (its observations), on the line itself, with who and when (issue 28). */
export function LineObservations({ observations }: { observations: PlanillaLineObservation[] }) {
  const { t } = useTranslation();
  if (!observations.length) return null;
  return (
    <List size="xs" spacing={2} listStyleType="none" data-testid="line-observations">
      {observations.map((o) => (
        <List.Item key={o.id} icon={<IconMessageCircle size={14} color="var(--mantine-color-blue-8)" aria-hidden />}>
          <Text size="xs" fs="italic" span>
            {t('planillas.review.noteOnLine', { comment: o.body })}
          </Text>{' '}
          <Text size="xs" c="dimmed" span>
            {t('planillas.lines.observationBy', { author: o.authorEmail, date: formatDateTime(o.createdAt) })}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
