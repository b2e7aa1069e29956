import type { StateTransition } from '@aporta/domain';
import { Text, Timeline } from '@mantine/core';
import { IconArrowRight, IconFilePlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format.ts';

/**
 * A record's history from its state machine: who created it, then each step — the action, from
 * which state to which, who, when and the comment — oldest first.
 */
export function TransitionHistory({
  created,
  items,
}: {
  created?: { at: string; by: string | null; label: string };
  items: StateTransition[];
}) {
  const { t } = useTranslation();
  const steps = (created ? 1 : 0) + items.length;
  if (!steps) return <Text size="sm">{t('ui.transitions.empty')}</Text>;
  return (
    <Timeline active={steps - 1} bulletSize={22} lineWidth={2} data-testid="transition-history">
      {created && (
        <Timeline.Item bullet={<IconFilePlus size={13} />} title={created.label}>
          <Text size="xs" c="dimmed">
            {formatDateTime(created.at)} · {created.by ?? t('ui.transitions.system')}
          </Text>
        </Timeline.Item>
      )}
      {items.map((s) => (
        <Timeline.Item key={s.id} bullet={<IconArrowRight size={13} />} title={`${s.label}: ${s.fromLabel} → ${s.toLabel}`}>
          <Text size="xs" c="dimmed">
            {formatDateTime(s.at)} · {s.actorEmail ?? t('ui.transitions.system')}
          </Text>
          {s.comment && (
            <Text size="sm" mt={4}>
              {t('ui.transitions.commentSaid', { comment: s.comment })}
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
