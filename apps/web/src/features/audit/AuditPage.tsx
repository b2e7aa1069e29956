import 'mantine-datatable/styles.css';
import { type AuditEntry, auditDiff } from '@aporta/domain';
import { Code, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/useCan.ts';
import { useListState } from '../../lib/useListState.ts';
import { auditActionLabel, auditEntityLabel } from './labels.ts';
import { useAuditFacets, useFindAudit } from './useAudit.ts';

/**
 * The audit trail: filter by user, entity type, record, action and dates, with each change's
 * before/after. `fixed` pins the view to one entity type (the planilla audit log), whose API route
 * enforces the same restriction.
 */
export function AuditPage({ variant }: { variant: 'general' | 'planillas' }) {
  const { t } = useTranslation();
  const base = variant === 'planillas' ? '/api/audit/planillas' : '/api/audit';
  const listState = useListState<AuditEntry>('-at');
  const [actor, setActor] = useState('');
  const [entityId, setEntityId] = useState('');
  const [entityType, setEntityType] = useState<string | null>(null);
  const [action, setAction] = useState<string | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const can = useCan();
  const [debActor] = useDebouncedValue(actor.trim(), 300);
  const [debEntityId] = useDebouncedValue(entityId.trim(), 300);
  const facets = useAuditFacets(base);
  const filters = {
    actor: debActor || undefined,
    entityId: debEntityId || undefined,
    entityType: variant === 'general' ? (entityType ?? undefined) : undefined,
    action: action ?? undefined,
    from: from ?? undefined,
    to: to ?? undefined,
    sort: listState.filterQuery.sort,
  };
  const list = useFindAudit(base, { ...filters, ...listState.pageQuery });
  const reset =
    <T,>(fn: (v: T) => void) =>
    (v: T) => {
      fn(v);
      listState.resetPage();
    };
  const title = variant === 'planillas' ? t('audit.planillaTitle') : t('audit.title');

  return (
    <Stack>
      <PageHeader title={title}>
        {can(variant === 'planillas' ? 'planilla-audit-logs' : 'audit', 'EXPORT') && (
          <ExportButtons path={`${base}/export`} query={filters} />
        )}
      </PageHeader>
      {variant === 'planillas' && <Text c="dimmed">{t('audit.planillaIntro')}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, md: variant === 'general' ? 6 : 5 }}>
        <TextInput
          label={t('audit.user')}
          placeholder={t('audit.userPlaceholder')}
          value={actor}
          onChange={(e) => reset(setActor)(e.currentTarget.value)}
        />
        {variant === 'general' && (
          <Select
            label={t('audit.entityType')}
            placeholder={t('audit.all')}
            clearable
            searchable
            data={(facets.data?.entityTypes ?? []).map((e) => ({ value: e, label: auditEntityLabel(t, e) }))}
            value={entityType}
            onChange={reset(setEntityType)}
          />
        )}
        <TextInput label={t('audit.record')} value={entityId} onChange={(e) => reset(setEntityId)(e.currentTarget.value)} />
        <Select
          label={t('audit.action')}
          placeholder={t('audit.all')}
          clearable
          data={(facets.data?.actions ?? []).map((a) => ({ value: a, label: auditActionLabel(t, a) }))}
          value={action}
          onChange={reset(setAction)}
        />
        <DateField label={t('ui.dateFrom')} value={from} onChange={reset(setFrom)} maxDate={to ?? undefined} />
        <DateField label={t('ui.dateTo')} value={to} onChange={reset(setTo)} minDate={from ?? undefined} />
      </SimpleGrid>
      <QueryState query={list} list>
        <DataTable<AuditEntry>
          withTableBorder
          borderRadius="sm"
          striped
          minHeight={180}
          records={list.data?.items ?? []}
          totalRecords={list.data?.total ?? 0}
          {...listState.tableProps}
          fetching={list.isFetching}
          noRecordsText={variant === 'planillas' ? t('audit.emptyPlanillas') : t('audit.empty')}
          rowExpansion={{ content: ({ record }) => <Diff entry={record} /> }}
          columns={[
            { accessor: 'at', title: t('audit.when'), sortable: true, render: (r) => formatDateTime(r.at) },
            { accessor: 'actorEmail', title: t('audit.user'), sortable: true },
            {
              accessor: 'action',
              title: t('audit.action'),
              sortable: true,
              render: (r) => auditActionLabel(t, r.action),
            },
            {
              accessor: 'entityType',
              title: t('audit.entityType'),
              sortable: true,
              render: (r) => auditEntityLabel(t, r.entityType),
            },
            { accessor: 'entityId', title: t('audit.record'), sortable: true },
          ]}
        />
      </QueryState>
    </Stack>
  );
}

function Diff({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const rows = auditDiff(entry.before, entry.after);
  const show = (v: unknown) => (v == null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed" p="sm">
        {t('audit.noChanges')}
      </Text>
    );
  }
  return (
    <Table p="sm" withColumnBorders data-testid="audit-diff">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('audit.field')}</Table.Th>
          <Table.Th>{t('audit.before')}</Table.Th>
          <Table.Th>{t('audit.after')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((d) => (
          <Table.Tr key={d.field}>
            <Table.Td>{d.field}</Table.Td>
            <Table.Td>
              <Code>{show(d.before)}</Code>
            </Table.Td>
            <Table.Td>
              <Code>{show(d.after)}</Code>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
