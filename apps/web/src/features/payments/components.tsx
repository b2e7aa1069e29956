/** Small pieces of the payments screens; what other modules show too (order state, reason dialog) is in components/. */
import { Badge } from '@mantine/core';

export function StateBadge({ value, color }: { value: string; color: string }) {
  return (
    <Badge color={color} variant="light" c="var(--mantine-color-text)">
      {value}
    </Badge>
  );
}

/** A fresh idempotency key per submission attempt of a form (kept while the same form is retried). */
export const newIdempotencyKey = () => `web-${crypto.randomUUID()}`;
