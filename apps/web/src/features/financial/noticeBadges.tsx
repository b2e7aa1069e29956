import type { NoticeCampaignState, NoticeMailState, NoticeOutcome } from '@aporta/domain';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const outcomeColors: Record<NoticeOutcome, string> = {
  PENDIENTE: 'gray',
  NOTIFICADA: 'green',
  SIN_DIRECCION: 'orange',
  SIN_DEUDA: 'blue',
  YA_NOTIFICADA: 'violet',
  NO_ENVIADA: 'red',
};
const mailColors: Record<NoticeMailState, string> = { QUEUED: 'yellow', SENT: 'green', FAILED: 'red' };
const campaignColors: Record<NoticeCampaignState, string> = { EN_CURSO: 'blue', TERMINADA: 'green', FALLIDA: 'red' };

// Tinted background, body-colour text: legible (AA) whatever the hue, light or dark.
const tint = { variant: 'light', c: 'var(--mantine-color-text)' } as const;

/** What became of one entity of a campaign (notified, without address, …). */
export function OutcomeBadge({ outcome }: { outcome: NoticeOutcome }) {
  const { t } = useTranslation();
  return (
    <Badge color={outcomeColors[outcome]} {...tint}>
      {t(`financial.notices.outcomes.${outcome}`)}
    </Badge>
  );
}

/** The state of a notice's mail in the outbox (queued, sent, failed); a dash when no mail went. */
export function MailStateBadge({ state }: { state: NoticeMailState | null }) {
  const { t } = useTranslation();
  if (!state) return <>—</>;
  return (
    <Badge color={mailColors[state]} {...tint}>
      {t(`financial.notices.mailStates.${state}`)}
    </Badge>
  );
}

export function CampaignStateBadge({ state }: { state: NoticeCampaignState }) {
  const { t } = useTranslation();
  return (
    <Badge color={campaignColors[state]} {...tint}>
      {t(`financial.campaigns.states.${state}`)}
    </Badge>
  );
}
