import 'mantine-datatable/styles.layer.css';
import type { RecordHistoryEntry } from '@aporta/domain/audit';
import { Card, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auditActionLabel } from '../features/audit/labels.ts';
import { type ApiAnswer, type ApiPath, api, fillPath } from '../lib/api.ts';
import { formatDateTime } from '../lib/format.ts';
import { QueryState } from './QueryState.tsx';

const PAGE_SIZE = 20;

/** Query keys of record histories; a module invalidates `recordHistoryKeys.all` after it changes a record. */
export const recordHistoryKeys = {
  all: ['record-history'] as const,
  page: (path: string, page: number) => [...recordHistoryKeys.all, path, page] as const,
};

/** The audit API's history of one record (`audit` READ, in its scope). */
const AUDIT_HISTORY = '/api/audit/records/{entityType}/{entityId}';

/** A module's own history route of one record by its id (`/api/pensions/{id}/history`): pages of history entries. */
export type RecordHistoryPath = {
  [P in ApiPath]: P extends `${string}/{id}/history` ? (ApiAnswer<P> extends { items: RecordHistoryEntry[] } ? P : never) : never;
}[ApiPath];

/**
 * The change history of any record: who, when, what (in Spanish) and each field before → after, newest
 * first, paged on the server. Fed by the audit log, through the audit API (`entityType` + `entityId`)
 * or a module's own history route of the same shape (`path`, its `{id}` being `entityId`) when the
 * module's permission, rather than the audit one, decides who reads it (a contributor's history is part
 * of reading the contributor).
 */
export function RecordHistory({
  entityType,
  entityId,
  path,
  fieldLabel,
  actionLabel,
  withTitle = true,
}: {
  entityType?: string;
  /** The record's id. */
  entityId: string | number;
  path?: RecordHistoryPath;
  /** The field's name on screen (its form label); the code name otherwise. */
  fieldLabel?: (field: string) => string;
  actionLabel?: (action: string) => string;
  withTitle?: boolean;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const source = path ? fillPath(path, { id: entityId }) : fillPath(AUDIT_HISTORY, { entityType: entityType ?? '', entityId });
  const history = useQuery({
    queryKey: recordHistoryKeys.page(source, page),
    queryFn: ({ signal }) => {
      const query = { page, pageSize: PAGE_SIZE };
      return path
        ? api.get(path, { path: { id: entityId }, query, signal })
        : api.get(AUDIT_HISTORY, { path: { entityType: entityType ?? '', entityId }, query, signal });
    },
    placeholderData: keepPreviousData,
  });
  const labelOf = fieldLabel ?? ((f: string) => f);
  const actionOf = actionLabel ?? ((a: string) => auditActionLabel(t, a));
  // The audit log keeps flags as true/false; the history reads them as Sí/No.
  const shown = (v: string | null) => (v === null ? '—' : v === 'true' ? t('ui.yes') : v === 'false' ? t('ui.no') : v);
  return (
    <Card withBorder data-testid="record-history-card">
      {withTitle && (
        <Title order={2} size="h4" mb="sm">
          {t('ui.history')}
        </Title>
      )}
      <QueryState query={history} list>
        <DataTable<RecordHistoryEntry>
          withTableBorder
          striped
          minHeight={120}
          fetching={history.isFetching}
          records={history.data?.items ?? []}
          totalRecords={history.data?.total ?? 0}
          recordsPerPage={PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => t('ui.pagination', { from, to, total: totalRecords })}
          noRecordsText={t('ui.noHistory')}
          data-testid="record-history"
          columns={[
            { accessor: 'at', title: t('ui.when'), render: (h) => formatDateTime(h.at), width: 150 },
            { accessor: 'actorEmail', title: t('ui.who'), render: (h) => h.actorEmail ?? t('ui.system') },
            { accessor: 'action', title: t('ui.action'), render: (h) => actionOf(h.action) },
            {
              accessor: 'changes',
              title: t('ui.changes'),
              render: (h) =>
                h.changes.map((c) => (
                  <Text size="xs" key={c.field}>
                    <b>{labelOf(c.field)}</b>: {shown(c.before)} → {shown(c.after)}
                  </Text>
                )),
            },
          ]}
        />
      </QueryState>
    </Card>
  );
}
