import { agreementStateSchema, agreementStates, guatemalaToday } from '@aporta/domain';
import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { JobProgress } from '../../components/JobProgress.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { Money } from '../../components/Money.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { formatIsoDate } from '../../lib/dates.ts';
import { useTrackedJob } from '../../lib/jobs.ts';
import { notifyError } from '../../lib/notify.ts';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type AgreementRow, startDetection, useAgreements } from './api.ts';
import { AgreementStateBadge } from './components.tsx';

export function agreementColumns(t: (k: string) => string): ListColumn<AgreementRow>[] {
  return [
    {
      accessor: 'number',
      title: t('agreements.fields.number'),
      render: (a) => (
        <Anchor component={Link} to={`/planilla/convenios-pago/${a.id}`} size="sm">
          {a.number}
        </Anchor>
      ),
    },
    { accessor: 'entityName', title: t('agreements.fields.entity') },
    { accessor: 'agreementDate', title: t('agreements.fields.date'), sortable: true, kind: 'date' },
    { accessor: 'state', title: t('agreements.fields.state'), render: (a) => <AgreementStateBadge state={a.state} /> },
    {
      accessor: 'debt',
      title: t('agreements.fields.debt'),
      sortable: true,
      textAlign: 'right',
      render: (a) => <Money value={a.debt} />,
    },
    { accessor: 'paid', title: t('agreements.fields.paid'), textAlign: 'right', render: (a) => <Money value={a.paid} /> },
    {
      accessor: 'balance',
      title: t('agreements.fields.balance'),
      textAlign: 'right',
      render: (a) => <Money value={a.balance} />,
    },
    { accessor: 'overdueInstalments', title: t('agreements.fields.overdue'), textAlign: 'right' },
  ];
}

/** The list's rows; a state in the link (`?state=INCUMPLIDO`, from the home queue) filters until another is chosen. */
function useAgreementRows(q: ListParams) {
  const [search] = useSearchParams();
  const initialState = agreementStateSchema.safeParse(search.get('state')).data;
  return useAgreements({ ...q, ...(initialState && q.state === undefined ? { state: initialState } : {}) });
}

/** `/planilla/convenios-pago`: the agreements in scope, new agreement, export, the default detection as of a day. */
export function AgreementsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const options = usePlanillaOptions(can('planillas', 'READ'));
  const [job, setJob] = useTrackedJob('agreements.detection');
  const [asOf, setAsOf] = useState<string | null>(null);
  const filters: ListFilter[] = [
    {
      name: 'entityId',
      label: t('agreements.fields.entity'),
      kind: 'reference',
      options: entityOptions(options.data?.entities),
    },
    {
      name: 'state',
      label: t('agreements.fields.state'),
      kind: 'enum',
      options: agreementStates.map((s) => ({ value: s, label: t(`agreements.states.${s}`) })),
      w: { base: '100%', sm: 160 },
    },
  ];
  const detect = () =>
    openConfirm({
      title: t('agreements.detect'),
      children: (
        <Text size="sm">{t('agreements.detectConfirm', { date: asOf ? formatIsoDate(asOf) : t('agreements.today') })}</Text>
      ),
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      onConfirm: () => startDetection(asOf).then(setJob).catch(notifyError),
    });
  return (
    <ListPage<AgreementRow>
      title={t('agreements.title')}
      description={t('agreements.description')}
      defaultSort="-id"
      searchLabel={t('agreements.search')}
      filters={filters}
      columns={agreementColumns(t)}
      useRows={useAgreementRows}
      exportPath={can('payment-agreements', 'EXPORT') ? '/api/payment-agreements/export' : null}
      emptyText={t('agreements.empty')}
      onRowClick={(a) => navigate(`/planilla/convenios-pago/${a.id}`)}
      actions={
        can('payment-agreements', 'CREATE') ? (
          <Button component={Link} to="/planilla/convenios-pago/nuevo" leftSection={<IconPlus size={16} />}>
            {t('agreements.new')}
          </Button>
        ) : null
      }
      notice={
        can('payment-agreements', 'APPROVE') ? (
          <Paper withBorder p="sm">
            {job && <JobProgress jobId={job} onDismiss={() => setJob(null)} />}
            <Group align="flex-end" wrap="wrap">
              <DateField
                label={t('agreements.asOf')}
                description={t('agreements.asOfHint')}
                value={asOf}
                onChange={setAsOf}
                maxDate={guatemalaToday()}
                w={{ base: '100%', sm: 200 }}
              />
              <Button color="orange" leftSection={<IconPlayerPlay size={16} />} onClick={detect}>
                {t('agreements.detect')}
              </Button>
            </Group>
          </Paper>
        ) : undefined
      }
    />
  );
}
