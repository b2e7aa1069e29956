import 'mantine-datatable/styles.layer.css';
import type { Contributor, ContributorListQuery } from '@aporta/domain';
import { contributorStates } from '@aporta/domain';
import { Button, Card, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { DataTable, type DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { useContributorOptions, useFindContributors } from './api.ts';
import { Cui, PageHeader, StateBadge } from './components.tsx';

export function ContributorListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const options = useContributorOptions();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 300);
  const [filters, setFilters] = useState<Partial<ContributorListQuery>>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<Contributor>>({
    columnAccessor: 'updatedAt',
    direction: 'desc',
  });
  const sort =
    q && sortStatus.columnAccessor === 'updatedAt'
      ? undefined
      : `${sortStatus.direction === 'desc' ? '-' : ''}${String(sortStatus.columnAccessor)}`;
  const query = { ...filters, q: q || undefined, page, pageSize, sort };
  const { data, isFetching } = useFindContributors(query);
  const setFilter = (key: keyof ContributorListQuery) => (v: string | null) => {
    setPage(1);
    setFilters((f) => ({ ...f, [key]: v ? (key === 'state' ? v : Number(v)) : undefined }));
  };

  return (
    <>
      <PageHeader title={t('contributors.list.title')}>
        <ExportButtons path="/api/contributors/export" query={{ ...filters, q: q || undefined, sort }} />
        <Button component={Link} to="/contributors/new" leftSection={<IconPlus size={16} />}>
          {t('contributors.new')}
        </Button>
      </PageHeader>
      <Card withBorder mb="md">
        <Group grow align="end" wrap="wrap">
          <TextInput
            label={t('contributors.list.search')}
            placeholder={t('contributors.list.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
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
      <DataTable<Contributor>
        withTableBorder
        borderRadius="sm"
        striped
        highlightOnHover
        minHeight={180}
        records={data?.items ?? []}
        totalRecords={data?.total ?? 0}
        page={page}
        onPageChange={setPage}
        recordsPerPage={pageSize}
        recordsPerPageOptions={[10, 25, 50, 100]}
        onRecordsPerPageChange={(n) => {
          setPageSize(n);
          setPage(1);
        }}
        recordsPerPageLabel={t('contributors.list.perPage')}
        paginationText={({ from, to, totalRecords }) => t('contributors.list.pagination', { from, to, total: totalRecords })}
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
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
    </>
  );
}
