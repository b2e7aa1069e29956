import 'mantine-datatable/styles.layer.css';
import { type Contributor, compareWithRenap, renapComparedFields } from '@aporta/domain';
import { Alert, Anchor, Button, Card, Group, Loader, SimpleGrid, Stack, Table, Tabs, Text } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { StateBadge } from '../../components/ContributorStateBadge.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { RecordHistory } from '../../components/RecordHistory.tsx';
import { contributorTabs, registerContributorTab } from '../../lib/contributorTabs.ts';
import { formatDate, formatDateTime, formatMoneyDecimal } from '../../lib/format.ts';
import { useCan } from '../../lib/useCan.ts';
import { useContributor, useCuiApprovals, useRenapCheck } from './api.ts';
import { Cui, cuiRequestColumns } from './components.tsx';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children || '—'}</Text>
    </div>
  );
}

function DataTab({ c }: { c: Contributor }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
      <Field label="CUI">
        <Cui value={c.cui} />
      </Field>
      <Field label="NIT">{c.nit}</Field>
      <Field label={t('contributors.fields.birthDate')}>{formatDate(c.birthDate)}</Field>
      <Field label={t('contributors.fields.sex')}>{t(`contributors.sex.${c.sex}`)}</Field>
      <Field label={t('contributors.fields.maritalStatus')}>
        {c.maritalStatus ? t(`contributors.marital.${c.maritalStatus}`) : ''}
      </Field>
      <Field label={t('contributors.fields.type')}>{c.typeName}</Field>
      <Field label={t('contributors.fields.entity')}>{c.entityName}</Field>
      <Field label={t('contributors.fields.budgetLine')}>{c.budgetLineCode}</Field>
      <Field label={t('contributors.fields.hireDate')}>{formatDate(c.hireDate)}</Field>
      <Field label={t('contributors.fields.salary')}>{formatMoneyDecimal(c.salary)}</Field>
      <Field label={t('contributors.fields.municipality')}>
        {c.municipalityName ? `${c.municipalityName}, ${c.departmentName}` : ''}
      </Field>
      <Field label={t('contributors.fields.address')}>{c.address}</Field>
      <Field label={t('contributors.fields.phone')}>{c.phone}</Field>
      <Field label={t('contributors.fields.email')}>{c.email}</Field>
      <Field label={t('contributors.fields.renapCheckedAt')}>
        {formatDateTime(c.renapCheckedAt)} {c.renapResult && <StateBadge value={c.renapResult} />}
      </Field>
    </SimpleGrid>
  );
}

function RenapTab({ c }: { c: Contributor }) {
  const { t } = useTranslation();
  const renap = useRenapCheck(c.cui);
  if (renap.isLoading) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (!renap.data) return null;
  const p = renap.data.person;
  const differs = p ? compareWithRenap(c, p) : [];
  return (
    <Stack>
      {renap.data.warning && <Alert color="yellow">{renap.data.warning}</Alert>}
      {p && (
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('contributors.renap.field')}</Table.Th>
              <Table.Th>{t('contributors.renap.registry')}</Table.Th>
              <Table.Th>RENAP</Table.Th>
              <Table.Th>{t('contributors.renap.match')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {renapComparedFields.map((f) => (
              <Table.Tr key={f}>
                <Table.Td>{t(`contributors.fields.${f}`)}</Table.Td>
                <Table.Td>{c[f] ?? '—'}</Table.Td>
                <Table.Td>{p[f] ?? '—'}</Table.Td>
                <Table.Td>{differs.includes(f) ? <StateBadge value="DIFIERE" /> : <StateBadge value="COINCIDE" />}</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td>{t('contributors.renap.deathDate')}</Table.Td>
              <Table.Td>—</Table.Td>
              <Table.Td>{p.deathDate ? formatDate(p.deathDate) : '—'}</Table.Td>
              <Table.Td />
            </Table.Tr>
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function ApprovalsTab({ c }: { c: Contributor }) {
  const { t } = useTranslation();
  const approvals = useCuiApprovals({ contributorId: String(c.id), pageSize: 50 });
  const { data, isFetching } = approvals;
  return (
    <QueryState query={approvals} list>
      <DataTable
        withTableBorder
        minHeight={120}
        fetching={isFetching}
        records={data?.items ?? []}
        noRecordsText={t('contributors.approvals.empty')}
        columns={[
          ...Object.values(cuiRequestColumns(t)),
          { accessor: 'decidedByEmail', title: t('contributors.approvals.decidedBy') },
          { accessor: 'reason', title: t('contributors.approvals.reason') },
        ]}
      />
    </QueryState>
  );
}

function HistoryTab({ c }: { c: Contributor }) {
  const { t } = useTranslation();
  return (
    <RecordHistory
      path="/api/contributors/{id}/history"
      entityId={c.id}
      withTitle={false}
      fieldLabel={(f) => t(`contributors.fields.${f}`, { defaultValue: f })}
      actionLabel={(a) => t(`contributors.history.actions.${a}`, { defaultValue: a })}
    />
  );
}

registerContributorTab({ value: 'data', labelKey: 'contributors.tabs.data', order: 10, render: (c) => <DataTab c={c} /> });
registerContributorTab({ value: 'renap', labelKey: 'contributors.tabs.renap', order: 20, render: (c) => <RenapTab c={c} /> });
registerContributorTab({
  value: 'approvals',
  labelKey: 'contributors.tabs.approvals',
  order: 30,
  permission: { resource: 'cui-approval', action: 'READ' },
  render: (c) => <ApprovalsTab c={c} />,
});
registerContributorTab({
  value: 'history',
  labelKey: 'contributors.tabs.history',
  order: 90,
  render: (c) => <HistoryTab c={c} />,
});

export function ContributorPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const can = useCan();
  const contributor = useContributor(id);
  const c = contributor.data;
  const tabs = contributorTabs.filter((tab) => !tab.permission || can(tab.permission.resource, tab.permission.action));
  const notFound = (
    <Alert color="red">
      {contributor.error?.message ?? t('contributors.notFound')}{' '}
      <Anchor component={Link} to="/contributors/list">
        {t('contributors.list.title')}
      </Anchor>
    </Alert>
  );
  if (!c)
    return (
      <QueryState query={contributor} notFound={notFound}>
        {notFound}
      </QueryState>
    );
  return (
    <>
      <PageHeader title={c.fullName} mb="md">
        <StateBadge value={c.state} />
        <StateBadge value={c.cuiState} />
        {can('contributors', 'UPDATE') && (
          <Button component={Link} to={`/contributors/${c.id}/edit`} leftSection={<IconEdit size={16} />} variant="light">
            {t('contributors.edit')}
          </Button>
        )}
      </PageHeader>
      <Group mb="md" gap="xl">
        <Text>
          CUI <Cui value={c.cui} />
        </Text>
        {c.entityName && <Text c="dimmed">{c.entityName}</Text>}
      </Group>
      <Card withBorder>
        <Tabs defaultValue="data" keepMounted={false}>
          <Tabs.List mb="md">
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {t(tab.labelKey)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Panel key={tab.value} value={tab.value}>
              {tab.render(c)}
            </Tabs.Panel>
          ))}
        </Tabs>
      </Card>
    </>
  );
}
