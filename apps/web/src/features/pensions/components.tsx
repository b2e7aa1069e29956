import type { SurvivalCheck } from '@aporta/domain';
import { type PensionState, pensionStateLabels, type SurvivalStatus, survivalStatusLabels } from '@aporta/domain';
import { Anchor, Badge } from '@mantine/core';
import { formatIsoDate } from '../../lib/dates.ts';
import { notifyError } from '../../lib/notify.ts';
import { downloadAct } from './api.ts';

const stateColors: Record<PensionState, string> = { ACTIVA: 'green', SUSPENDIDA: 'orange', FINALIZADA: 'gray' };

/** A pension's state as a coloured badge with the machine's Spanish label. */
export function PensionStateBadge({ state }: { state: PensionState }) {
  return (
    <Badge color={stateColors[state]} variant="light" c="var(--mantine-color-text)" data-testid="pension-state">
      {pensionStateLabels[state]}
    </Badge>
  );
}

const survivalColors: Record<SurvivalStatus, string> = {
  AL_DIA: 'green',
  PENDIENTE: 'blue',
  VENCIDA: 'orange',
  SUSPENDER: 'red',
};

/** Where a pension's yearly check stands (al día, por presentar, vencida…). */
export function SurvivalStatusBadge({ status }: { status: SurvivalStatus }) {
  return (
    <Badge color={survivalColors[status]} variant="light" c="var(--mantine-color-text)">
      {survivalStatusLabels[status]}
    </Badge>
  );
}

/** An ISO date as dd/mm/aaaa, a dash for none. */
export const IsoDate = ({ value }: { value: string | null | undefined }) => (
  <span style={{ whiteSpace: 'nowrap' }}>{value ? formatIsoDate(value) : '—'}</span>
);

/** A check's notarised act: its name, downloading it (with the session's token); a dash when there is none. */
export const ActLink = ({ check }: { check: Pick<SurvivalCheck, 'id' | 'attachmentName'> }) =>
  check.attachmentName ? (
    <Anchor component="button" type="button" onClick={() => downloadAct(check.id).catch(notifyError)}>
      {check.attachmentName}
    </Anchor>
  ) : (
    '—'
  );
