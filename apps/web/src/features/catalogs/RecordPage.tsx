import { auditDiff, type CollectionSchema } from '@aporta/domain';
import { Anchor, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { QueryState } from '../../components/QueryState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { RecordForm } from './RecordForm.tsx';
import { useCollectionSchema, useCreateRecord, useRecord, useRecordHistory, useUpdateRecord } from './useCollections.ts';

/** New record (`…/new`) or one record (`…/:id`): the generic form plus the record's change history. */
export function RecordPage({ collection, basePath }: { collection: string; basePath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id: idParam } = useParams();
  const id = idParam && idParam !== 'new' ? Number(idParam) : null;
  const schema = useCollectionSchema(collection);
  const record = useRecord(collection, id);
  const create = useCreateRecord(collection);
  const update = useUpdateRecord(collection);
  const title = t(`catalogs.collections.${collection}`, { defaultValue: schema.data?.label ?? collection });

  if (!schema.data || (id != null && !record.data))
    return <QueryState query={id != null ? [schema, record] : [schema]}>{null}</QueryState>;
  const s = schema.data;
  const canWrite = id == null ? s.actions.includes('CREATE') : s.actions.includes('UPDATE');

  const save = async (values: Record<string, unknown>) => {
    if (id == null) {
      const created = await create.mutateAsync(values);
      notifySuccess(t('catalogs.created'));
      navigate(`${basePath}/${created.id}`, { replace: true });
    } else {
      await update.mutateAsync({ id, body: values });
      notifySuccess(t('catalogs.saved'));
    }
  };

  return (
    <Stack>
      <Anchor component={Link} to={basePath} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {title}
        </Group>
      </Anchor>
      <Title order={1} size="h2">
        {id == null ? t('catalogs.newRecord', { collection: title }) : record.data?.label}
      </Title>
      <Card withBorder>
        <RecordForm
          key={record.data ? `${record.data.id}-${record.dataUpdatedAt}` : 'new'}
          schema={s}
          record={record.data}
          readOnly={!canWrite}
          submitting={create.isPending || update.isPending}
          onSubmit={save}
          onCancel={() => navigate(basePath)}
        />
      </Card>
      {id != null && <History collection={collection} id={id} schema={s} />}
    </Stack>
  );
}

function History({ collection, id, schema }: { collection: string; id: number; schema: CollectionSchema }) {
  const { t } = useTranslation();
  const history = useRecordHistory(collection, id);
  const { data } = history;
  const labelOf = (name: string) => {
    const f = schema.fields.find((x) => x.name === name);
    return f ? t(f.labelKey, { defaultValue: f.label }) : name;
  };
  const show = (v: unknown) =>
    v == null || v === '' ? '—' : typeof v === 'boolean' ? (v ? t('catalogs.yes') : t('catalogs.no')) : String(v);
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('catalogs.history')}
      </Title>
      <QueryState query={history}>
        {!data?.length ? (
          <Text c="dimmed" size="sm">
            {t('catalogs.noHistory')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={600}>
            <Table striped data-testid="record-history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('catalogs.when')}</Table.Th>
                  <Table.Th>{t('catalogs.who')}</Table.Th>
                  <Table.Th>{t('catalogs.action')}</Table.Th>
                  <Table.Th>{t('catalogs.changes')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td>{formatDateTime(e.at)}</Table.Td>
                    <Table.Td>{e.actorEmail}</Table.Td>
                    <Table.Td>
                      <Badge variant="outline">{t(`catalogs.actions.${e.action}`, { defaultValue: e.action })}</Badge>
                    </Table.Td>
                    <Table.Td>
                      {auditDiff(e.before, e.after).map((d) => (
                        <Text size="sm" key={d.field}>
                          <b>{labelOf(d.field)}</b>: {show(d.before)} → {show(d.after)}
                        </Text>
                      ))}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Card>
  );
}
