import type { OutboxState } from '@aporta/domain/mail';
import type { OutboxEvent } from '@aporta/domain/mail-outbox';
import { Badge } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

const stateColors: Record<OutboxState, string> = {
  PENDING: 'yellow',
  SENDING: 'blue',
  SENT: 'green',
  FAILED: 'red',
  DIGEST: 'grape',
};

/** A message's state as a coloured badge. */
export function OutboxStateBadge({ state }: { state: OutboxState }) {
  const { t } = useTranslation();
  return (
    <Badge color={stateColors[state]} variant="light" c="var(--mantine-color-text)" data-testid="outbox-state">
      {t(`mail.states.${state}`)}
    </Badge>
  );
}

/** The name of an event (or of the daily digest) in the user's language. */
export const eventLabel = (t: TFunction, event: OutboxEvent | string): string => t(`mail.events.${event.replace('.', '_')}`);

/**
 * A mail's HTML in a frame with every sandbox restriction (no scripts, forms, pop-ups, plugins or navigation
 * of the page): whatever the message holds, it cannot act on the application. Its own white page, also in
 * the dark theme, as the recipient's mail program shows it.
 */
export function MailFrame({ html, title, height = 560 }: { html: string; title: string; height?: number }) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={html}
      referrerPolicy="no-referrer"
      data-testid="mail-html"
      style={{
        width: '100%',
        height,
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
        background: '#ffffff',
        display: 'block',
      }}
    />
  );
}
