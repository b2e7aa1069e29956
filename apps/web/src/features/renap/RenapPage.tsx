import 'mantine-datatable/styles.layer.css';
import { cuiProblem, cuiProblemMessages, normalizeCui, type RenapLookupLog, type RenapLookupResponse } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isForbidden, QueryState } from '../../components/QueryState.tsx';
import { NotAuthorizedPage } from '../../components/RequirePermission.tsx';
import { api } from '../../lib/api.ts';
import { displayCui, formatDate, formatDateTime } from '../../lib/format.ts';
import { queryClient } from '../../lib/query.ts';
import { StateBadge } from '../contributors/components.tsx';
import { renapKeys } from './keys.ts';

export const useRenapLookup = () =>
  useMutation({
    mutationFn: (cui: string) => api<RenapLookupResponse>(`/api/renap/${cui}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: renapKeys.lookups() }),
  });

export const useRenapLookups = (page: number) =>
  useQuery({
    queryKey: renapKeys.lookupsPage(page),
    queryFn: () => api<ListResponse<RenapLookupLog>>('/api/renap/lookups', { query: { page, pageSize: 15 } }),
    placeholderData: keepPreviousData,
  });

export function RenapPage() {
  const { t } = useTranslation();
  const [cui, setCui] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const lookup = useRenapLookup();
  const log = useRenapLookups(page);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problem = cuiProblem(cui);
    if (problem) return setError(cuiProblemMessages[problem]);
    lookup.mutate(normalizeCui(cui));
  };
  const r = lookup.data;
  const p = r?.person;
  // The log needs the page's own permission: its refusal is the page's.
  if (isForbidden(log.error)) return <NotAuthorizedPage />;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('renap.title')}
      </Title>
      <Card withBorder>
        <form onSubmit={submit} noValidate>
          <Group align="end">
            <TextInput
              label="CUI"
              description={t('renap.hint')}
              value={cui}
              onChange={(e) => {
                setCui(e.currentTarget.value);
                setError(null);
              }}
              error={error}
              inputMode="numeric"
              w={260}
            />
            <Button type="submit" leftSection={<IconSearch size={16} />} loading={lookup.isPending}>
              {t('renap.search')}
            </Button>
          </Group>
        </form>
      </Card>
      {r && (
        <Card withBorder data-testid="renap-result">
          <Group mb="sm">
            <Text fw={600}>{displayCui(r.cui)}</Text>
            <StateBadge value={r.result} />
          </Group>
          {r.warning && (
            <Alert color="yellow" mb="sm">
              {r.warning}
            </Alert>
          )}
          {p && (
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Text size="sm">
                <b>{t('renap.names')}:</b> {[p.firstName, p.secondName, p.thirdName].filter(Boolean).join(' ')}
              </Text>
              <Text size="sm">
                <b>{t('renap.surnames')}:</b>{' '}
                {[p.firstSurname, p.secondSurname, p.marriedSurname && `de ${p.marriedSurname}`].filter(Boolean).join(' ')}
              </Text>
              <Text size="sm">
                <b>{t('renap.birthDate')}:</b> {formatDate(p.birthDate)}
              </Text>
              <Text size="sm">
                <b>{t('renap.sex')}:</b> {p.sex}
              </Text>
              <Text size="sm">
                <b>{t('renap.deathDate')}:</b> {p.deathDate ? formatDate(p.deathDate) : '—'}
              </Text>
            </SimpleGrid>
          )}
          <Text size="sm" mt="sm">
            {r.contributor ? (
              <>
                {t('renap.isContributor')}{' '}
                <Anchor component={Link} to={`/contributors/${r.contributor.id}`}>
                  {r.contributor.fullName}
                </Anchor>{' '}
                <StateBadge value={r.contributor.cuiState} />
              </>
            ) : (
              t('renap.notContributor')
            )}
          </Text>
        </Card>
      )}
      <Card withBorder>
        <Text fw={600} mb="sm">
          {t('renap.log')}
        </Text>
        <QueryState query={log} list>
          <DataTable<RenapLookupLog>
            withTableBorder
            minHeight={120}
            records={log.data?.items ?? []}
            totalRecords={log.data?.total ?? 0}
            recordsPerPage={15}
            page={page}
            onPageChange={setPage}
            fetching={log.isFetching}
            noRecordsText={t('renap.emptyLog')}
            columns={[
              { accessor: 'at', title: t('renap.at'), render: (l) => formatDateTime(l.at) },
              { accessor: 'userEmail', title: t('renap.user') },
              { accessor: 'cui', title: 'CUI', render: (l) => displayCui(l.cui) },
              { accessor: 'result', title: t('renap.result'), render: (l) => <StateBadge value={l.result} /> },
              { accessor: 'source', title: t('renap.source') },
              { accessor: 'purpose', title: t('renap.purpose') },
              { accessor: 'durationMs', title: 'ms' },
            ]}
          />
        </QueryState>
      </Card>
    </Stack>
  );
}
