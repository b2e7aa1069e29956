import 'mantine-datatable/styles.css';
import type { CollectionRecord, CollectionSchema, FieldMeta } from '@aporta/domain';
import { ActionIcon, Alert, Button, Group, Modal, Select, Stack, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ApiError } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useListState } from '../../lib/useListState.ts';
import { FieldValue } from './FieldValue.tsx';
import { ReferenceSelect } from './ReferenceSelect.tsx';
import { type ListParams, useCollectionSchema, useDeleteRecord, useFindRecords, useUpdateRecord } from './useCollections.ts';

/** /dcrud/:collection: the collection comes from the URL. */
export function DcrudListPage() {
  const { collection = '' } = useParams();
  return <CollectionListPage key={collection} collection={collection} basePath={`/dcrud/${collection}`} />;
}

/**
 * The one list page of every catalogue: columns, filters, search, sort, paging and export all come
 * from the collection's schema and run on the server.
 */
export function CollectionListPage({ collection, basePath }: { collection: string; basePath: string }) {
  const { t } = useTranslation();
  const schema = useCollectionSchema(collection);
  const notFound = (
    <Alert color="red" title={t('catalogs.loadError')} data-testid="collection-error">
      {schema.error?.message}
    </Alert>
  );
  return (
    <QueryState query={schema} notFound={notFound}>
      {() => schema.data && <ListView schema={schema.data} basePath={basePath} />}
    </QueryState>
  );
}

function ListView({ schema, basePath }: { schema: CollectionSchema; basePath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = schema.name;
  const title = t(`catalogs.collections.${name}`, { defaultValue: schema.label });
  const label = (f: FieldMeta) => t(f.labelKey, { defaultValue: f.label });
  const listState = useListState<CollectionRecord>(schema.defaultSort);
  const [filters, setFilters] = useState<Record<string, string | number | null>>({});
  const [toDelete, setToDelete] = useState<CollectionRecord | null>(null);

  const filterQuery: ListParams = { q: listState.filterQuery.q, ...filters, sort: listState.filterQuery.sort };
  const list = useFindRecords(name, { ...filterQuery, ...listState.pageQuery });
  const filterable = schema.fields.filter((f) => f.filterable).slice(0, 3);
  const setFilter = (field: string, v: string | number | null) => {
    setFilters((cur) => ({ ...cur, [field]: v }));
    listState.resetPage();
  };
  const canUpdate = schema.actions.includes('UPDATE');
  const canDelete = schema.actions.includes('DELETE');

  const columns = useMemo(
    () => [
      ...schema.fields
        .filter((f) => f.inList)
        .map((f) => ({
          accessor: f.name,
          title: t(f.labelKey, { defaultValue: f.label }),
          sortable: true,
          render: (r: CollectionRecord) => <FieldValue field={f} record={r} />,
        })),
      {
        accessor: 'actions',
        title: <VisuallyHidden>{t('catalogs.actionsColumn')}</VisuallyHidden>,
        textAlign: 'right' as const,
        width: 100,
        render: (r: CollectionRecord) => (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label={canUpdate ? t('catalogs.edit') : t('catalogs.view')}>
              <ActionIcon
                variant="subtle"
                component={Link}
                to={`${basePath}/${r.id}`}
                aria-label={`${canUpdate ? t('catalogs.edit') : t('catalogs.view')} ${r.label}`}
                onClick={(e: React.MouseEvent) => e.stopPropagation()}
              >
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            {canDelete && (
              <Tooltip label={t('catalogs.delete')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`${t('catalogs.delete')} ${r.label}`}
                  onClick={(e: React.MouseEvent) => {
                    e.stopPropagation();
                    setToDelete(r);
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        ),
      },
    ],
    [schema, t, basePath, canUpdate, canDelete],
  );

  return (
    <Stack>
      <PageHeader title={title}>
        {schema.actions.includes('EXPORT') && <ExportButtons path={`/api/collections/${name}/export`} query={filterQuery} />}
        {schema.actions.includes('CREATE') && (
          <Button component={Link} to={`${basePath}/new`} leftSection={<IconPlus size={16} />}>
            {t('catalogs.new')}
          </Button>
        )}
      </PageHeader>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('catalogs.search')}
          placeholder={t('catalogs.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={listState.search}
          onChange={(e) => listState.setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 260 }}
        />
        {filterable.map((f) =>
          f.type === 'reference' ? (
            <ReferenceSelect
              key={f.name}
              collection={name}
              field={f}
              label={label(f)}
              placeholder={t('catalogs.all')}
              w={{ base: '100%', sm: 240 }}
              value={(filters[f.name] as number | null) ?? null}
              onChange={(v) => setFilter(f.name, v)}
            />
          ) : (
            <Select
              key={f.name}
              label={label(f)}
              placeholder={t('catalogs.all')}
              clearable
              w={{ base: '100%', sm: 180 }}
              value={(filters[f.name] as string | null) ?? null}
              onChange={(v) => setFilter(f.name, v)}
              data={
                f.type === 'boolean'
                  ? [
                      { value: 'true', label: t('catalogs.yes') },
                      { value: 'false', label: t('catalogs.no') },
                    ]
                  : (f.options ?? []).map((o) => ({
                      value: o,
                      label: f.name === 'color' ? t(`catalogs.colors.${o}`, { defaultValue: o }) : o,
                    }))
              }
            />
          ),
        )}
      </Group>
      <QueryState query={list} list>
        <DataTable<CollectionRecord>
          withTableBorder
          borderRadius="sm"
          striped
          highlightOnHover
          minHeight={180}
          records={list.data?.items ?? []}
          totalRecords={list.data?.total ?? 0}
          {...listState.tableProps}
          fetching={list.isFetching}
          noRecordsText={t('catalogs.empty')}
          columns={columns}
          onRowClick={({ record }) => navigate(`${basePath}/${record.id}`)}
          idAccessor="id"
        />
      </QueryState>
      <DeleteDialog schema={schema} record={toDelete} onClose={() => setToDelete(null)} />
    </Stack>
  );
}

/**
 * Confirms a delete. A refusal because the row is referenced shows the server's Spanish message and,
 * when the collection has an active flag, offers to deactivate the row instead.
 */
function DeleteDialog({
  schema,
  record,
  onClose,
}: {
  schema: CollectionSchema;
  record: CollectionRecord | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteRecord(schema.name);
  const update = useUpdateRecord(schema.name);
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const confirm = async () => {
    if (!record) return;
    try {
      await remove.mutateAsync(record.id);
      notifySuccess(t('catalogs.deleted'));
      close();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') setRefusal(err.message);
      else notifyError(err);
    }
  };
  const deactivate = async () => {
    if (!record) return;
    try {
      await update.mutateAsync({ id: record.id, body: { isActive: false } });
      notifySuccess(t('catalogs.deactivated'));
      close();
    } catch (err) {
      notifyError(err);
    }
  };
  const canDeactivate = schema.hasActiveFlag && schema.actions.includes('UPDATE') && record?.isActive === true;
  return (
    <Modal
      opened={!!record}
      onClose={close}
      title={t('catalogs.deleteTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        {refusal ? (
          <Alert color="orange" data-testid="delete-refused">
            {refusal}
          </Alert>
        ) : (
          <Text>{t('catalogs.deleteConfirm', { label: record?.label ?? '' })}</Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('catalogs.cancel')}
          </Button>
          {refusal ? (
            canDeactivate && (
              <Button onClick={deactivate} loading={update.isPending}>
                {t('catalogs.deactivate')}
              </Button>
            )
          ) : (
            <Button color="red" onClick={confirm} loading={remove.isPending}>
              {t('catalogs.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
