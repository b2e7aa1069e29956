import type { CollectionRecord } from '@aporta/domain';
import { Anchor, Card, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { Schemas } from '../../lib/api.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { collectionRoute, useCollectionSchema, useCreateRecord, useRecord, useUpdateRecord } from '../../lib/useCollections.ts';
import { QueryState } from '../QueryState.tsx';
import { RecordHistory } from '../RecordHistory.tsx';
import { RecordForm } from './RecordForm.tsx';

/** New record (`…/new`) or one record (`…/:id`): the generic form plus the record's change history. */
export function RecordPage({
  collection,
  basePath,
  extra,
}: {
  collection: string;
  basePath: string;
  /** What a screen shows of an existing record above its form (the template's product, seller, invoice). */
  extra?: (record: CollectionRecord) => ReactNode;
}) {
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
      {id != null && record.data && extra?.(record.data)}
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

/**
 * The record's change history through the platform's RecordHistory, fed by the collection's own history
 * route (its READ decides who sees it); fields named by their form labels, actions as the catalogue says them.
 */
function History({ collection, id, schema }: { collection: string; id: number; schema: Schemas['CollectionSchema'] }) {
  const { t } = useTranslation();
  const labelOf = (name: string) => {
    const f = schema.fields.find((x) => x.name === name);
    return f ? t(f.labelKey, { defaultValue: f.label }) : name;
  };
  return (
    <RecordHistory
      path={collectionRoute(collection, '/{id}/history')}
      entityId={id}
      fieldLabel={labelOf}
      actionLabel={(a) => t(`catalogs.actions.${a}`, { defaultValue: a })}
    />
  );
}
