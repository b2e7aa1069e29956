import { type AvailableTransition, type CuiState, cuiStates } from '@aporta/domain';
import { Alert, Button, Group, Loader, Modal, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StateBadge } from '../../components/ContributorStateBadge.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { TransitionActions } from '../../components/TransitionActions.tsx';
import { TransitionHistory } from '../../components/TransitionHistory.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { formatDate } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { type CuiApproval, useContributor, useCuiApprovals, useCuiHistory, useCuiReview, useDecideCui } from './api.ts';
import { Cui, cuiRequestColumns } from './components.tsx';

function ReviewModal({ request, onClose }: { request: CuiApproval; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: me } = useCurrentUser();
  const can = useCan();
  // RENAP's side of the comparison is for those who decide; a reader sees the request and its history.
  const review = useCuiReview(can('cui-approval', 'APPROVE') ? request.id : null);
  const contributor = useContributor(request.contributorId);
  const history = useCuiHistory(request.id);
  const decide = useDecideCui();
  // The review answers with the request as it is now; the list row may be a few seconds old.
  const current = review.data?.request ?? request;
  const own = me?.id === current.requestedById;
  const p = review.data?.renap.person;
  const c = contributor.data;
  const rows: [string, string | null | undefined, string | null | undefined][] = c
    ? [
        [t('contributors.approvals.proposedCui'), request.proposedCui, p?.cui],
        [t('contributors.fields.firstName'), c.firstName, p?.firstName],
        [t('contributors.fields.secondName'), c.secondName, p?.secondName],
        [t('contributors.fields.firstSurname'), c.firstSurname, p?.firstSurname],
        [t('contributors.fields.secondSurname'), c.secondSurname, p?.secondSurname],
        [t('contributors.fields.birthDate'), formatDate(c.birthDate), p ? formatDate(p.birthDate) : null],
        [t('contributors.fields.sex'), c.sex, p?.sex],
      ]
    : [];
  const take = (transition: AvailableTransition, comment: string) =>
    decide.mutate(
      { id: request.id, to: transition.to as CuiState, comment, expected: current.state },
      {
        onSuccess: () => {
          notifySuccess(
            transition.to === 'APROBADO' ? t('contributors.approvals.approved') : t('contributors.approvals.rejected'),
          );
          onClose();
        },
        onError: notifyError,
      },
    );
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('contributors.approvals.reviewTitle', { name: request.contributorName })}
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Group>
          <Text size="sm">{t(`contributors.approvals.kinds.${request.kind}`)}</Text>
          {request.currentCui && (
            <Text size="sm">
              {t('contributors.approvals.currentCui')}: <Cui value={request.currentCui} />
            </Text>
          )}
          <StateBadge value={current.state} />
        </Group>
        {(review.isLoading || contributor.isLoading) && <Loader size="sm" aria-label={t('common.loading')} />}
        {review.data?.renap.warning && <Alert color="yellow">{review.data.renap.warning}</Alert>}
        {c && (
          <Table withTableBorder data-testid="approval-compare">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('contributors.renap.field')}</Table.Th>
                <Table.Th>{t('contributors.renap.registry')}</Table.Th>
                <Table.Th>RENAP</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(([label, mine, theirs]) => (
                <Table.Tr key={label}>
                  <Table.Td>{label}</Table.Td>
                  <Table.Td>{mine || '—'}</Table.Td>
                  <Table.Td>{theirs || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {own && current.state === 'PENDIENTE' && <Alert color="blue">{t('contributors.approvals.ownRequest')}</Alert>}
        <TransitionActions transitions={current.transitions} pending={decide.isPending} onTake={take} />
        <Title order={3} size="h5">
          {t('ui.transitions.history')}
        </Title>
        <QueryState query={history}>
          {() => (
            <TransitionHistory
              created={{ at: request.requestedAt, by: request.requestedByEmail, label: t('contributors.approvals.created') }}
              items={history.data?.items ?? []}
            />
          )}
        </QueryState>
      </Stack>
    </Modal>
  );
}

/** The list's state filter: the pending requests (the work queue) unless another state or all is chosen. */
const ALL = 'ALL';
const stateOf = (v: unknown): CuiState | undefined =>
  v === ALL ? undefined : cuiStates.includes(v as CuiState) ? (v as CuiState) : 'PENDIENTE';

/** The approvals list: `state` ALL is every state; none chosen yet is the pending ones. */
const useApprovalRows = (params: ListParams) => useCuiApprovals({ ...params, state: stateOf(params.state) });

export function CuiApprovalPage() {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<CuiApproval | null>(null);
  const cols = cuiRequestColumns(t);
  const columns: ListColumn<CuiApproval>[] = [
    { ...cols.requestedAt, sortable: true },
    {
      accessor: 'contributorName',
      title: t('contributors.fields.fullName'),
      render: (r) => (
        <Link to={`/contributors/${r.contributorId}`} onClick={(e) => e.stopPropagation()}>
          {r.contributorName}
        </Link>
      ),
    },
    cols.kind,
    cols.proposedCui,
    cols.requestedBy,
    { ...cols.state, sortable: true },
    {
      accessor: 'actions',
      title: '',
      render: (r) => (
        <Button
          size="xs"
          variant="light"
          onClick={(e) => {
            e.stopPropagation();
            setSelected(r);
          }}
        >
          {t('contributors.approvals.review')}
        </Button>
      ),
    },
  ];
  const filters: ListFilter[] = [
    {
      name: 'state',
      label: t('contributors.fields.state'),
      kind: 'enum',
      render: (p) => (
        <SegmentedControl
          aria-label={String(p.label)}
          value={stateOf(p.value) ?? ALL}
          onChange={p.onChange}
          data={[
            ...cuiStates.map((s) => ({ value: s, label: t(`contributors.states.${s}`) })),
            { value: ALL, label: t('contributors.approvals.all') },
          ]}
        />
      ),
    },
  ];
  return (
    <ListPage<CuiApproval>
      title={t('contributors.approvals.title')}
      defaultSort="-requestedAt"
      searchPlaceholder={t('contributors.approvals.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={useApprovalRows}
      emptyText={t('contributors.approvals.empty')}
      onRowClick={setSelected}
    >
      {selected && <ReviewModal request={selected} onClose={() => setSelected(null)} />}
    </ListPage>
  );
}
