import 'mantine-datatable/styles.layer.css';
import type { Contributor, ContributorListQuery } from '@aporta/domain';
import { contributorStates } from '@aporta/domain';
import { Button, Card, Group, Select, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { JobProgress } from '../../components/JobProgress.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useListState } from '../../lib/useListState.ts';
import { useTrackedJob } from '../jobs/api.ts';
import { useContributorOptions, useFindContributors } from './api.ts';
import { Cui, StateBadge } from './components.tsx';

export function ContributorListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListState<Contributor>('-updatedAt');
  const [filters, setFilters] = useState<Partial<ContributorListQuery>>({});
  // A search left on the default order is ranked by relevance (the server's order when no sort is sent).
  const sort = list.q && list.sortStatus.columnAccessor === 'updatedAt' ? undefined : list.filterQuery.sort;
  const filterQuery = { ...filters, q: list.filterQuery.q, sort };
  const can = useCan();
  // Up to a million rows: the export runs as a job whose progress stays here when the user comes back.
  const [exportJob, setExportJob] = useTrackedJob('contributors.export');
  // The filters' choices need contributors READ; without it the filters stay empty rather than failing.
  const options = useContributorOptions(can('contributors', 'READ'));
  const found = useFindContributors({ ...filterQuery, ...list.pageQuery });
  const { data, isFetching } = found;
  const setFilter = (key: keyof ContributorListQuery) => (v: string | null) => {
    list.resetPage();
    setFilters((f) => ({ ...f, [key]: v ? (key === 'state' ? v : Number(v)) : undefined }));
  };

  return (
    <>
      <PageHeader title={t('contributors.list.title')} mb="md">
        {can('contributor-list', 'EXPORT') && (
          <ExportButtons
            path="/api/contributors/export"
            query={filterQuery}
            background={{ path: '/api/contributors/export-jobs', onStarted: setExportJob }}
          />
        )}
        {can('contributor-new', 'CREATE') && (
          <Button component={Link} to="/contributors/new" leftSection={<IconPlus size={16} />}>
            {t('contributors.new')}
          </Button>
        )}
      </PageHeader>
      {exportJob !== null && <JobProgress jobId={exportJob} onDismiss={() => setExportJob(null)} />}
      <Card withBorder mb="md">
        <Group grow align="end" wrap="wrap">
          <TextInput
            label={t('contributors.list.search')}
            placeholder={t('contributors.list.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={list.search}
            onChange={(e) => list.setSearch(e.currentTarget.value)}
            miw={240}
          />
          <Select
            label={t('contributors.fields.entity')}
            data={(options.data?.entities ?? []).map((e) => ({ value: String(e.id), label: e.name }))}
            searchable
            clearable
            onChange={setFilter('entityId')}
            miw={180}
          />
          <Select
            label={t('contributors.fields.municipality')}
            data={(options.data?.municipalities ?? []).map((m) => ({
              value: String(m.id),
              label: `${m.name} (${m.departmentName})`,
            }))}
            searchable
            clearable
            limit={50}
            onChange={setFilter('municipalityId')}
            miw={180}
          />
          <Select
            label={t('contributors.fields.type')}
            data={(options.data?.types ?? []).map((x) => ({ value: String(x.id), label: x.name }))}
            clearable
            onChange={setFilter('typeId')}
            miw={140}
          />
          <Select
            label={t('contributors.fields.state')}
            data={contributorStates.map((s) => ({ value: s, label: t(`contributors.states.${s}`) }))}
            clearable
            onChange={setFilter('state')}
            miw={140}
          />
        </Group>
      </Card>
      <QueryState query={found} list>
        <DataTable<Contributor>
          withTableBorder
          borderRadius="sm"
          striped
          highlightOnHover
          minHeight={180}
          records={data?.items ?? []}
          totalRecords={data?.total ?? 0}
          {...list.tableProps}
          fetching={isFetching}
          noRecordsText={t('contributors.list.empty')}
          onRowClick={({ record }) => navigate(`/contributors/${record.id}`)}
          idAccessor="id"
          columns={[
            { accessor: 'cui', title: 'CUI', sortable: true, render: (c) => <Cui value={c.cui} /> },
            {
              accessor: 'name',
              title: t('contributors.fields.fullName'),
              sortable: true,
              render: (c) => <Link to={`/contributors/${c.id}`}>{c.fullName}</Link>,
            },
            { accessor: 'typeName', title: t('contributors.fields.type') },
            { accessor: 'entityName', title: t('contributors.fields.entity') },
            { accessor: 'municipalityName', title: t('contributors.fields.municipality') },
            {
              accessor: 'state',
              title: t('contributors.fields.state'),
              sortable: true,
              render: (c) => <StateBadge value={c.state} />,
            },
            {
              accessor: 'cuiState',
              title: t('contributors.fields.cuiState'),
              sortable: true,
              render: (c) => <StateBadge value={c.cuiState} />,
            },
          ]}
        />
      </QueryState>
    </>
  );
}
