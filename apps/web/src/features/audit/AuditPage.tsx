import { type AuditEntry, auditDiff } from '@aporta/domain';
import { Code, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { useCan } from '../../lib/useCan.ts';
import { type AuditView, auditViews, useAuditFacets, useFindAudit, useVerifyAuditChain } from './api.ts';
import { ChainCheckButton, ChainCheckResult } from './ChainCheck.tsx';
import { auditActionLabel, auditEntityLabel } from './labels.ts';

// ListPage calls its `useRows` as a hook: one per view keeps each a plain, stable hook.
const useGeneralAudit = (params: ListParams) => useFindAudit('general', params);
const usePlanillaAudit = (params: ListParams) => useFindAudit('planillas', params);

/**
 * The audit trail: filter by user, entity type, record, action and dates, with each change's
 * before/after. The planilla view is pinned to the planilla entity types, a restriction its API route
 * enforces too.
 */
export function AuditPage({ variant }: { variant: AuditView }) {
  const { t } = useTranslation();
  const can = useCan();
  const facets = useAuditFacets(variant);
  // The hash chain is the whole institution's: verified from the general view, with `audit` READ over ALL.
  const verify = useVerifyAuditChain();
  const canVerify = variant === 'general' && can('audit', 'READ', 'ALL');
  // Kept here too so each date bounds the other in its calendar.
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);

  const filters: ListFilter[] = [
    {
      name: 'actor',
      label: t('audit.user'),
      kind: 'text',
      render: (p) => (
        <TextInput
          label={p.label}
          placeholder={t('audit.userPlaceholder')}
          value={(p.value as string | null) ?? ''}
          onChange={(e) => p.onChange(e.currentTarget.value)}
          w={p.w}
        />
      ),
    },
    ...(variant === 'general'
      ? [
          {
            name: 'entityType',
            label: t('audit.entityType'),
            kind: 'enum',
            options: (facets.data?.entityTypes ?? []).map((e) => ({ value: e, label: auditEntityLabel(t, e) })),
            w: { base: '100%', sm: 220 },
          } satisfies ListFilter,
        ]
      : []),
    { name: 'entityId', label: t('audit.record'), kind: 'text', w: { base: '100%', sm: 140 } },
    {
      name: 'action',
      label: t('audit.action'),
      kind: 'enum',
      options: (facets.data?.actions ?? []).map((a) => ({ value: a, label: auditActionLabel(t, a) })),
      w: { base: '100%', sm: 220 },
    },
    {
      name: 'from',
      label: t('ui.dateFrom'),
      kind: 'date',
      render: (p) => (
        <DateField
          label={p.label}
          value={from}
          maxDate={to ?? undefined}
          onChange={(v) => {
            setFrom(v);
            p.onChange(v);
          }}
          w={p.w}
        />
      ),
      w: { base: '100%', sm: 160 },
    },
    {
      name: 'to',
      label: t('ui.dateTo'),
      kind: 'date',
      render: (p) => (
        <DateField
          label={p.label}
          value={to}
          minDate={from ?? undefined}
          onChange={(v) => {
            setTo(v);
            p.onChange(v);
          }}
          w={p.w}
        />
      ),
      w: { base: '100%', sm: 160 },
    },
  ];

  const columns: ListColumn<AuditEntry>[] = [
    { accessor: 'at', title: t('audit.when'), sortable: true, kind: 'datetime' },
    { accessor: 'actorEmail', title: t('audit.user'), sortable: true },
    { accessor: 'action', title: t('audit.action'), sortable: true, render: (r) => auditActionLabel(t, r.action) },
    { accessor: 'entityType', title: t('audit.entityType'), sortable: true, render: (r) => auditEntityLabel(t, r.entityType) },
    { accessor: 'entityId', title: t('audit.record'), sortable: true },
  ];

  return (
    <ListPage<AuditEntry>
      title={variant === 'planillas' ? t('audit.planillaTitle') : t('audit.title')}
      description={variant === 'planillas' ? t('audit.planillaIntro') : undefined}
      actions={canVerify ? <ChainCheckButton verify={verify} /> : undefined}
      notice={canVerify && !verify.isIdle ? <ChainCheckResult verify={verify} /> : undefined}
      defaultSort="-at"
      search={false}
      filters={filters}
      columns={columns}
      useRows={variant === 'planillas' ? usePlanillaAudit : useGeneralAudit}
      exportPath={can(variant === 'planillas' ? 'planilla-audit-logs' : 'audit', 'EXPORT') ? auditViews[variant].export : null}
      emptyText={variant === 'planillas' ? t('audit.emptyPlanillas') : t('audit.empty')}
      rowExpansion={{ content: ({ record }) => <Diff entry={record} /> }}
    />
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
