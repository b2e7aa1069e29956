import { pensionStateLabels, pensionStates, pensionTypeLabels, pensionTypes } from '@aporta/domain';
import { Button } from '@mantine/core';
import { IconCalendarDollar, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type ListColumn, type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { Money } from '../../components/Money.tsx';
import { useContributorOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type PensionRow, useFindPensions } from './api.ts';
import { IsoDate, PensionStateBadge } from './components.tsx';

/** `/contributors/passive-classes`: every pension in scope, with filters and export. */
export function PensionListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  // The entities' names come with the contributors' choices; without that grant the filter stays empty.
  const options = useContributorOptions(can('contributors', 'READ'));
  const filters: ListFilter[] = [
    {
      name: 'type',
      label: t('pensions.fields.type'),
      kind: 'enum',
      options: pensionTypes.map((v) => ({ value: v, label: pensionTypeLabels[v] })),
      w: { base: '100%', sm: 160 },
    },
    {
      name: 'state',
      label: t('pensions.fields.state'),
      kind: 'enum',
      options: pensionStates.map((v) => ({ value: v, label: pensionStateLabels[v] })),
      w: { base: '100%', sm: 160 },
    },
    ...(options.data?.entities.length
      ? [
          {
            name: 'entityId',
            label: t('pensions.fields.entity'),
            kind: 'reference' as const,
            options: options.data.entities.map((e) => ({ value: String(e.id), label: e.name })),
          },
        ]
      : []),
  ];
  const columns: ListColumn<PensionRow>[] = [
    { accessor: 'cui', title: 'CUI', sortable: true, kind: 'cui' },
    {
      accessor: 'fullName',
      title: t('pensions.fields.pensioner'),
      sortable: true,
      render: (p) => <Link to={`/contributors/passive-classes/${p.id}`}>{p.fullName}</Link>,
    },
    { accessor: 'type', title: t('pensions.fields.type'), sortable: true, render: (p) => pensionTypeLabels[p.type] },
    {
      accessor: 'state',
      title: t('pensions.fields.state'),
      sortable: true,
      render: (p) => <PensionStateBadge state={p.state} />,
    },
    {
      accessor: 'monthlyAmount',
      title: t('pensions.fields.monthlyAmount'),
      sortable: true,
      textAlign: 'right',
      render: (p) => <Money value={p.monthlyAmount} />,
    },
    {
      accessor: 'startDate',
      title: t('pensions.fields.startDate'),
      sortable: true,
      render: (p) => <IsoDate value={p.startDate} />,
    },
    {
      accessor: 'survivalDue',
      title: t('pensions.fields.survivalDue'),
      sortable: true,
      render: (p) => <IsoDate value={p.survivalDue} />,
    },
    { accessor: 'entityName', title: t('pensions.fields.entity'), render: (p) => p.entityName ?? '—' },
  ];
  return (
    <ListPage<PensionRow>
      title={t('pensions.list.title')}
      description={t('pensions.list.description')}
      defaultSort="-updatedAt"
      searchLabel={t('pensions.list.search')}
      searchPlaceholder={t('pensions.list.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={useFindPensions}
      exportPath={can('passive-classes', 'EXPORT') ? '/api/pensions/export' : null}
      actions={
        <>
          <Button
            component={Link}
            to="/contributors/passive-classes/planilla"
            variant="light"
            leftSection={<IconCalendarDollar size={16} />}
          >
            {t('pensions.payroll.title')}
          </Button>
          {can('passive-classes', 'CREATE') && (
            <Button component={Link} to="/contributors/passive-classes/new" leftSection={<IconPlus size={16} />}>
              {t('pensions.new')}
            </Button>
          )}
        </>
      }
      emptyText={t('pensions.list.empty')}
      onRowClick={(p) => navigate(`/contributors/passive-classes/${p.id}`)}
    />
  );
}
