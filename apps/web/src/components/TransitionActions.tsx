import type { AvailableTransition } from '@aporta/domain';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The actions a record's state machine allows the current user, exactly as the API lists them
 * (`transitions` of the record): one button each, and the comment box when any of them takes one. A
 * transition that requires a comment refuses to start without it, naming the field. Nothing here
 * decides who may do what — the server did, and refuses the rest anyway.
 */
export function TransitionActions({
  transitions,
  pending,
  onTake,
}: {
  transitions: AvailableTransition[];
  pending: boolean;
  onTake: (transition: AvailableTransition, comment: string) => void;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!transitions.length) return null;
  const needing = transitions.filter((x) => x.commentRequired).map((x) => x.label);
  const take = (x: AvailableTransition) => {
    if (x.commentRequired && !comment.trim()) {
      setError(t('ui.transitions.commentRequired', { action: x.label }));
      return;
    }
    onTake(x, comment);
  };
  // Steps that need a reason (reject, observe, void) are the ones that turn a record back or end it:
  // shown apart, before the step forward.
  const ordered = [...transitions].sort((a, b) => Number(b.commentRequired) - Number(a.commentRequired));
  return (
    <Stack gap="sm">
      <Textarea
        label={t('ui.transitions.comment')}
        description={needing.length ? t('ui.transitions.commentHint', { actions: needing.join(', ') }) : undefined}
        value={comment}
        error={error}
        maxLength={1000}
        autosize
        minRows={2}
        onChange={(e) => {
          setComment(e.currentTarget.value);
          setError(null);
        }}
      />
      <Group justify="flex-end">
        {ordered.map((x) => (
          <Button
            key={x.key}
            color={x.commentRequired ? 'red.9' : undefined}
            variant={x.commentRequired ? 'outline' : 'filled'}
            loading={pending}
            onClick={() => take(x)}
          >
            {x.label}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
