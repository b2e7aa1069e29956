import { type ArrearsRow, centsToDecimal, decimalToCents, noticeCampaignCreateSchema } from '@aporta/domain';
import { Anchor, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmSummary } from '../../components/ConfirmSummary.tsx';
import { JobProgress } from '../../components/JobProgress.tsx';
import { Money } from '../../components/Money.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { formatIsoDate } from '../../lib/dates.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { useTrackedJob } from '../../lib/jobs.ts';
import { issueText } from '../../lib/server-messages.ts';
import { useStartCampaign } from './api.ts';

type Mode = 'selected' | 'minTotal';

/**
 * Starting a campaign of arrears notices from the ranking: the entities ticked in it, or every entity
 * owing at least an amount on the ranking's day. The choice is checked with the schema the API uses, then
 * confirmed with what it will do (how many letters, how much, as of when, what it creates); the campaign's
 * job then shows its progress here (remembered if the user leaves), with a link to the campaign.
 */
export function CampaignStart({
  selected,
  asOf,
  onStarted,
}: {
  selected: ArrearsRow[];
  asOf: string | null;
  onStarted: () => void;
}) {
  const { t } = useTranslation();
  const start = useStartCampaign();
  const [opened, setOpened] = useState(false);
  const [mode, setMode] = useState<Mode>(selected.length ? 'selected' : 'minTotal');
  const [minTotal, setMinTotal] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [job, setJob] = useTrackedJob('financial.arrears-notices');
  const [campaignId, setCampaignId] = useState<number | null>(null);
  const day = asOf ? formatIsoDate(asOf) : t('financial.campaign.today');

  const open = () => {
    setMode(selected.length ? 'selected' : 'minTotal');
    setError(null);
    setOpened(true);
  };

  const proceed = () => {
    const body = {
      ...(asOf ? { asOf } : {}),
      ...(mode === 'selected' ? { entityIds: selected.map((r) => r.entityId) } : { minTotal }),
    };
    const parsed = noticeCampaignCreateSchema.safeParse(body);
    if (!parsed.success) {
      setError(issueText(parsed.error.issues[0].message));
      return;
    }
    setOpened(false);
    const total = centsToDecimal(selected.reduce((s, r) => s + decimalToCents(r.total), 0n));
    openConfirm({
      title: t('financial.campaign.confirmTitle'),
      size: 'lg',
      children: (
        <ConfirmSummary
          lead={t('financial.campaign.lead', { date: day })}
          facts={[
            mode === 'selected'
              ? { label: t('financial.campaign.entities'), value: selected.length, testId: 'campaign-entities' }
              : { label: t('financial.campaign.minTotal'), value: <Money value={parsed.data.minTotal ?? '0'} /> },
            ...(mode === 'selected' ? [{ label: t('financial.campaign.debt'), value: <Money value={total} /> }] : []),
            { label: t('financial.campaign.asOf'), value: day },
          ]}
          creates={t('financial.campaign.creates')}
        />
      ),
      labels: { confirm: t('financial.campaign.send'), cancel: t('common.cancel') },
      onConfirm: () =>
        start.mutate(parsed.data, {
          onSuccess: (r) => {
            setJob(r.jobId);
            setCampaignId(r.campaign.id);
            onStarted();
          },
          onError: (err) => showApiError(err),
        }),
    });
  };

  return (
    <Stack gap="xs">
      {job && <JobProgress jobId={job} onDismiss={() => setJob(null)} />}
      {job && campaignId && (
        <Anchor component={Link} to={`/contributors/financial-module/campaigns/${campaignId}`} size="sm">
          {t('financial.campaign.see', { id: campaignId })}
        </Anchor>
      )}
      <Group gap="sm">
        <Button leftSection={<IconMailForward size={16} />} onClick={open} loading={start.isPending}>
          {t('financial.campaign.start')}
        </Button>
        {selected.length > 0 && (
          <Text size="sm" c="dimmed" data-testid="arrears-selected">
            {t('financial.campaign.selected', { count: selected.length })}
          </Text>
        )}
      </Group>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('financial.campaign.title')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        centered
      >
        <Stack>
          <Text size="sm">{t('financial.campaign.help', { date: day })}</Text>
          <SegmentedControl
            value={mode}
            onChange={(v) => {
              setMode(v as Mode);
              setError(null);
            }}
            data={[
              {
                value: 'selected',
                label: t('financial.campaign.modeSelected', { count: selected.length }),
                disabled: !selected.length,
              },
              { value: 'minTotal', label: t('financial.campaign.modeMinTotal') },
            ]}
            fullWidth
          />
          {mode === 'minTotal' ? (
            <TextInput
              label={t('financial.campaign.minTotal')}
              description={t('financial.campaign.minTotalHint')}
              inputMode="decimal"
              value={minTotal}
              onChange={(e) => {
                setMinTotal(e.currentTarget.value);
                setError(null);
              }}
              error={error}
              data-autofocus
            />
          ) : (
            error && (
              <Text c="red" size="sm">
                {error}
              </Text>
            )
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={proceed}>{t('financial.campaign.continue')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
