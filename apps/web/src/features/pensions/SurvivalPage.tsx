import {
  notAfterToday,
  pensionTypeLabels,
  reviewDecisionSchema,
  reviewStateLabels,
  reviewStates,
  survivalMethodLabels,
} from '@aporta/domain';
import { ActionIcon, Badge, Button, Group, Modal, Select, Stack, Tabs, Text, Textarea, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFileText, IconGavel, IconHeartbeat, IconId, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { JobProgress } from '../../components/JobProgress.tsx';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { formatIsoDate } from '../../lib/dates.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useTrackedJob } from '../../lib/jobs.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useTabParam } from '../../lib/useTabParam.ts';
import {
  downloadSurvivalLetter,
  type ReviewRow,
  type SurvivalCheckRow,
  type SurvivalDueRow,
  startLetterJob,
  startRenapJob,
  startSuspensionJob,
  survivalChecksHook,
  survivalDueHook,
  useDecideReview,
  useReviews,
} from './api.ts';
import { CheckModal } from './CheckModal.tsx';
import { ActLink, IsoDate, SurvivalStatusBadge } from './components.tsx';

const tabs = ['due', 'overdue', 'done', 'reviews'] as const;

const pensionLink = (id: number, name: string) => <Link to={`/contributors/passive-classes/${id}`}>{name}</Link>;

/**
 * `/contributors/supervivencia`: the checks due this month, overdue and done as of a day (today unless
 * chosen), the death reviews opened by RENAP, and the survival jobs (letters, daily suspension, RENAP).
 */
export function SurvivalPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [tab, setTab] = useTabParam(tabs);
  const [asOf, setAsOf] = useState<string | null>(null);
  const [job, setJob] = useTrackedJob('pensions.survival');
  const [checking, setChecking] = useState<SurvivalDueRow | null>(null);
  const [deciding, setDeciding] = useState<ReviewRow | null>(null);

  const start = (job: () => Promise<number>, confirm?: { title: string; text: string }) => {
    const run = () => job().then(setJob).catch(notifyError);
    if (!confirm) return void run();
    openConfirm({
      title: confirm.title,
      children: <Text size="sm">{confirm.text}</Text>,
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      onConfirm: run,
    });
  };
  const day = asOf ?? undefined;
  const actions = (
    <>
      {can('supervivencia', 'EXPORT') && (
        <Button variant="light" leftSection={<IconFileText size={16} />} onClick={() => start(() => startLetterJob(day))}>
          {t('pensions.survival.letters')}
        </Button>
      )}
      {can('supervivencia', 'APPROVE') && (
        <>
          <Button
            variant="light"
            leftSection={<IconId size={16} />}
            onClick={() =>
              start(startRenapJob, { title: t('pensions.survival.renapJob'), text: t('pensions.survival.renapJobConfirm') })
            }
          >
            {t('pensions.survival.renapJob')}
          </Button>
          <Button
            color="orange"
            leftSection={<IconPlayerPlay size={16} />}
            // The suspension acts only up to today: the lists may look ahead, the job may not.
            disabled={!!day && !notAfterToday(day)}
            onClick={() =>
              start(() => startSuspensionJob(day), {
                title: t('pensions.survival.suspendJob'),
                text: t('pensions.survival.suspendJobConfirm', { date: day ?? t('pensions.survival.today') }),
              })
            }
          >
            {t('pensions.survival.suspendJob')}
          </Button>
        </>
      )}
    </>
  );
  const notice = (
    <Stack gap="sm">
      {job && <JobProgress jobId={job} onDismiss={() => setJob(null)} />}
      <Group align="flex-end" justify="space-between" wrap="wrap">
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List>
            {tabs.map((x) => (
              <Tabs.Tab key={x} value={x}>
                {t(`pensions.survival.tabs.${x}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        {tab !== 'reviews' && (
          <DateField
            label={t('pensions.survival.asOf')}
            description={t('pensions.survival.asOfHint')}
            value={asOf}
            onChange={setAsOf}
            w={{ base: '100%', sm: 200 }}
          />
        )}
      </Group>
    </Stack>
  );
  const common = {
    title: t('pensions.survival.title'),
    description: t('pensions.survival.description'),
    actions,
    notice,
    searchLabel: t('pensions.list.search'),
    searchPlaceholder: t('pensions.list.searchByPerson'),
  };

  const rowActions = (p: SurvivalDueRow) => (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {can('supervivencia', 'EXPORT') && p.state === 'ACTIVA' && (
        <Tooltip label={t('pensions.letter')}>
          <ActionIcon
            variant="subtle"
            aria-label={`${t('pensions.letter')}: ${p.fullName}`}
            onClick={(e) => {
              e.stopPropagation();
              downloadSurvivalLetter(p.id).catch(notifyError);
            }}
          >
            <IconFileText size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {can('supervivencia', 'CREATE') && (
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconHeartbeat size={14} />}
          onClick={(e) => {
            e.stopPropagation();
            setChecking(p);
          }}
        >
          {t('pensions.check.registerShort')}
        </Button>
      )}
    </Group>
  );

  let page: React.ReactNode;
  if (tab === 'reviews') {
    const columns: ListColumn<ReviewRow>[] = [
      { accessor: 'cui', title: 'CUI', kind: 'cui' },
      { accessor: 'fullName', title: t('pensions.fields.pensioner'), render: (r) => pensionLink(r.pensionId, r.fullName) },
      { accessor: 'deathDate', title: t('pensions.reviews.deathDate'), render: (r) => <IsoDate value={r.deathDate} /> },
      {
        accessor: 'state',
        title: t('pensions.fields.state'),
        render: (r) => (
          <Badge
            variant="light"
            c="var(--mantine-color-text)"
            color={r.state === 'ABIERTA' ? 'red' : r.state === 'CONFIRMADA' ? 'gray' : 'green'}
          >
            {reviewStateLabels[r.state]}
          </Badge>
        ),
      },
      { accessor: 'openedAt', title: t('pensions.reviews.openedAt'), render: (r) => formatDateTime(r.openedAt) },
      { accessor: 'resolution', title: t('pensions.reviews.resolution'), render: (r) => r.resolution ?? '—' },
      {
        accessor: 'actions',
        title: '',
        textAlign: 'right',
        render: (r) =>
          r.state === 'ABIERTA' &&
          can('supervivencia', 'APPROVE') && (
            <Button size="compact-sm" variant="light" leftSection={<IconGavel size={14} />} onClick={() => setDeciding(r)}>
              {t('pensions.reviews.decide')}
            </Button>
          ),
      },
    ];
    page = (
      <ListPage<ReviewRow>
        key="reviews"
        {...common}
        search={false}
        defaultSort="-openedAt"
        filters={[
          {
            name: 'state',
            label: t('pensions.fields.state'),
            kind: 'enum',
            options: reviewStates.map((s) => ({ value: s, label: reviewStateLabels[s] })),
          },
        ]}
        columns={columns}
        useRows={useReviews}
        emptyText={t('pensions.reviews.empty')}
      />
    );
  } else if (tab === 'done') {
    const columns: ListColumn<SurvivalCheckRow>[] = [
      { accessor: 'checkDate', title: t('pensions.check.date'), render: (c) => <IsoDate value={c.checkDate} /> },
      { accessor: 'cui', title: 'CUI', kind: 'cui' },
      { accessor: 'fullName', title: t('pensions.fields.pensioner'), render: (c) => pensionLink(c.pensionId, c.fullName) },
      { accessor: 'method', title: t('pensions.check.method'), render: (c) => survivalMethodLabels[c.method] },
      { accessor: 'coversDue', title: t('pensions.check.covers'), render: (c) => <IsoDate value={c.coversDue} /> },
      {
        accessor: 'attachmentName',
        title: t('pensions.check.act'),
        render: (c) => <ActLink check={c} />,
      },
      { accessor: 'reactivated', title: t('pensions.check.reactivated'), kind: 'boolean' },
    ];
    page = (
      <ListPage<SurvivalCheckRow>
        key={`done-${asOf}`}
        {...common}
        defaultSort="-checkDate"
        columns={columns}
        useRows={survivalChecksHook(asOf)}
        emptyText={t('pensions.survival.emptyDone')}
      />
    );
  } else {
    const columns: ListColumn<SurvivalDueRow>[] = [
      { accessor: 'cui', title: 'CUI', kind: 'cui' },
      { accessor: 'fullName', title: t('pensions.fields.pensioner'), render: (p) => pensionLink(p.id, p.fullName) },
      { accessor: 'type', title: t('pensions.fields.type'), render: (p) => pensionTypeLabels[p.type] },
      { accessor: 'survivalDue', title: t('pensions.fields.survivalDue'), render: (p) => <IsoDate value={p.survivalDue} /> },
      { accessor: 'windowEnd', title: t('pensions.fields.windowEnd'), render: (p) => <IsoDate value={p.windowEnd} /> },
      { accessor: 'graceEnd', title: t('pensions.fields.graceEnd'), render: (p) => <IsoDate value={p.graceEnd} /> },
      {
        accessor: 'status',
        title: t('pensions.fields.survivalStatus'),
        render: (p) =>
          p.state === 'SUSPENDIDA' ? (
            <Badge color="orange" variant="light" c="var(--mantine-color-text)">
              {t('pensions.survival.suspended')}
            </Badge>
          ) : (
            <SurvivalStatusBadge status={p.status} />
          ),
      },
      {
        accessor: 'actions',
        // The letters (PDF) are in Spanish: said once, over the column.
        title: can('supervivencia', 'EXPORT') ? <SpanishDocumentHint /> : '',
        textAlign: 'right',
        render: rowActions,
      },
    ];
    page = (
      <ListPage<SurvivalDueRow>
        key={`${tab}-${asOf}`}
        {...common}
        defaultSort="survivalDue"
        columns={columns}
        useRows={survivalDueHook(tab, asOf)}
        emptyText={t(tab === 'due' ? 'pensions.survival.emptyDue' : 'pensions.survival.emptyOverdue')}
      />
    );
  }
  return (
    <>
      {page}
      <CheckModal pension={checking} onClose={() => setChecking(null)} />
      <DecideModal review={deciding} onClose={() => setDeciding(null)} />
    </>
  );
}

function DecideModal({ review, onClose }: { review: ReviewRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const decide = useDecideReview();
  const form = useForm<{ decision: 'CONFIRMADA' | 'DESCARTADA' | null; resolution: string }>({
    initialValues: { decision: null, resolution: '' },
    validate: (values) => {
      const errors = zod4Resolver(reviewDecisionSchema)(values);
      // The schema's own rules, said in the user's language.
      if (!values.decision) errors.decision = t('pensions.reviews.decisionRequired');
      if (values.resolution.trim().length < 5) errors.resolution = t('pensions.reviews.resolutionRequired');
      return errors;
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((v) => {
    // The form's own check has named a missing decision already.
    if (!v.decision) return;
    decide.mutate(
      { id: review!.id, decision: v.decision, resolution: v.resolution },
      {
        onSuccess: () => {
          notifySuccess(t('pensions.reviews.decided'));
          close();
        },
        onError: (err) => showApiError(err, form, ['decision', 'resolution']),
      },
    );
  });
  return (
    <Modal opened={!!review} onClose={close} title={t('pensions.reviews.decide')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {review && (
            <Text size="sm">
              {t('pensions.reviews.summary', { name: review.fullName, date: formatIsoDate(review.deathDate) })}
            </Text>
          )}
          <Select
            label={t('pensions.reviews.decision')}
            required
            data={[
              { value: 'CONFIRMADA', label: reviewStateLabels.CONFIRMADA },
              { value: 'DESCARTADA', label: reviewStateLabels.DESCARTADA },
            ]}
            {...form.getInputProps('decision')}
          />
          <Textarea
            label={t('pensions.reviews.resolution')}
            required
            autosize
            minRows={3}
            maxLength={1000}
            {...form.getInputProps('resolution')}
          />
          <FormActions onCancel={close} submitLabel={t('pensions.reviews.save')} loading={decide.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
