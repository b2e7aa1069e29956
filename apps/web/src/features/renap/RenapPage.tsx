import { cuiProblem, cuiProblemMessages, normalizeCui, type RenapLookupLog } from '@aporta/domain';
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StateBadge } from '../../components/ContributorStateBadge.tsx';
import { type ListColumn, type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { displayCui, formatDate } from '../../lib/format.ts';
import { useRenapLookup, useRenapLookups } from './api.ts';

export function RenapPage() {
  const { t } = useTranslation();
  const [cui, setCui] = useState('');
  const [error, setError] = useState<string | null>(null);
  const lookup = useRenapLookup();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problem = cuiProblem(cui);
    if (problem) return setError(cuiProblemMessages[problem]);
    lookup.mutate(normalizeCui(cui));
  };
  const r = lookup.data;
  const p = r?.person;
  const lookupCard = (
    <Stack>
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
      <Title order={2} size="h4">
        {t('renap.log')}
      </Title>
    </Stack>
  );
  const filters: ListFilter[] = [
    { name: 'cui', label: 'CUI', kind: 'cui' },
    { name: 'from', label: t('renap.from'), kind: 'date' },
    { name: 'to', label: t('renap.to'), kind: 'date' },
  ];
  const columns: ListColumn<RenapLookupLog>[] = [
    { accessor: 'at', title: t('renap.at'), kind: 'datetime' },
    { accessor: 'userEmail', title: t('renap.user') },
    { accessor: 'cui', title: 'CUI', kind: 'cui' },
    { accessor: 'result', title: t('renap.result'), render: (l) => <StateBadge value={l.result} /> },
    { accessor: 'source', title: t('renap.source') },
    { accessor: 'purpose', title: t('renap.purpose') },
    { accessor: 'durationMs', title: 'ms', kind: 'number' },
  ];
  return (
    <ListPage<RenapLookupLog>
      title={t('renap.title')}
      notice={lookupCard}
      defaultSort="-at"
      // Newest first, always: the log takes no other order.
      sortParam={() => undefined}
      search={false}
      filters={filters}
      columns={columns}
      useRows={useRenapLookups}
      emptyText={t('renap.emptyLog')}
    />
  );
}
