import type { CollectionRecord } from '@aporta/domain';
import { ActionIcon, Alert, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, type Schemas } from '../../lib/api.ts';
import { PlaceholderAvatar } from '../../lib/field-types.tsx';
import { apiErrorText, errorText, notifyError, notifySuccess } from '../../lib/notify.ts';
import {
  type BulkDeletePath,
  collectionRoute,
  findRecordsHookOf,
  useBulkDelete,
  useCollectionSchema,
  useDeleteRecord,
  useUpdateRecord,
} from '../../lib/useCollections.ts';
import { type ListColumn, type ListFilter, ListPage } from '../ListPage.tsx';
import { QueryState } from '../QueryState.tsx';
import { FieldValue, fieldKindOf, fieldLabel, fieldOptions } from './FieldValue.tsx';
import { ReferenceSelect } from './ReferenceSelect.tsx';

/** /dcrud/:collection: the collection comes from the URL. */
export function DcrudListPage() {
  const { collection = '' } = useParams();
  return <CollectionListPage key={collection} collection={collection} basePath={`/dcrud/${collection}`} />;
}

/**
 * The one list page of every catalogue: columns, filters, search, sort, paging and export all come
 * from the collection's schema and run on the server.
 */
/**
 * Options of the template's screens (issue 18), all optional: a title of their own, exact-match filters
 * fixed by the screen (sale or rent properties), cards instead of the table, and the deletion of
 * several ticked rows at once through the spec's data call (`DELETE /app/{collection}` with the ids).
 */
export interface ListOptions {
  title?: string;
  fixedFilters?: Record<string, string>;
  grid?: boolean;
  bulkDeletePath?: BulkDeletePath;
}

export function CollectionListPage({ collection, basePath, ...options }: { collection: string; basePath: string } & ListOptions) {
  const { t } = useTranslation();
  const schema = useCollectionSchema(collection);
  const notFound = (
    <Alert color="red" title={t('catalogs.loadError')} data-testid="collection-error">
      {schema.error && errorText(schema.error)}
    </Alert>
  );
  return (
    <QueryState query={schema} notFound={notFound}>
      {() => schema.data && <ListView schema={schema.data} basePath={basePath} options={options} />}
    </QueryState>
  );
}

function ListView({
  schema,
  basePath,
  options = {},
}: {
  schema: Schemas['CollectionSchema'];
  basePath: string;
  options?: ListOptions;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = schema.name;
  const title = options.title ?? t(`catalogs.collections.${name}`, { defaultValue: schema.label });
  const [selected, setSelected] = useState<CollectionRecord[]>([]);
  const [bulkOpen, setBulkOpen] = useState(false);
  const fixed = options.fixedFilters;
  const [toDelete, setToDelete] = useState<CollectionRecord | null>(null);
  const canUpdate = schema.actions.includes('UPDATE');
  const canDelete = schema.actions.includes('DELETE');

  const filters = useMemo(
    (): ListFilter[] =>
      schema.fields
        .filter((f) => f.filterable && !(fixed && f.name in fixed))
        .slice(0, 3)
        .map((f) => ({
          name: f.name,
          label: fieldLabel(t, f),
          kind: fieldKindOf(f),
          options: fieldOptions(t, f),
          w: { base: '100%', sm: f.type === 'reference' ? 240 : 180 },
          render:
            f.type === 'reference'
              ? (p) => (
                  <ReferenceSelect
                    collection={name}
                    field={f}
                    label={fieldLabel(t, f)}
                    placeholder={p.placeholder}
                    w={p.w}
                    value={p.value == null ? null : Number(p.value)}
                    onChange={p.onChange}
                  />
                )
              : undefined,
        })),
    [schema, name, t, fixed],
  );

  const columns = useMemo(
    (): ListColumn<CollectionRecord>[] => [
      ...schema.fields
        .filter((f) => f.inList)
        .map((f) => ({
          accessor: f.name,
          title: fieldLabel(t, f),
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
    <ListPage<CollectionRecord>
      title={title}
      defaultSort={schema.defaultSort}
      searchLabel={t('catalogs.search')}
      searchPlaceholder={t('catalogs.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={findRecordsHookOf(name, fixed)}
      selection={options.bulkDeletePath && canDelete ? { selected, onChange: setSelected } : undefined}
      renderGrid={options.grid ? (rows) => <RecordGrid schema={schema} rows={rows} basePath={basePath} /> : undefined}
      exportPath={schema.actions.includes('EXPORT') ? collectionRoute(name, '/export') : null}
      actions={
        <>
          {selected.length > 0 && options.bulkDeletePath && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setBulkOpen(true)}>
              {t('catalogs.deleteSelected', { count: selected.length })}
            </Button>
          )}
          {schema.actions.includes('CREATE') && (
            <Button component={Link} to={`${basePath}/new`} leftSection={<IconPlus size={16} />}>
              {t('catalogs.new')}
            </Button>
          )}
        </>
      }
      emptyText={t('catalogs.empty')}
      onRowClick={(record) => navigate(`${basePath}/${record.id}`)}
    >
      <DeleteDialog schema={schema} record={toDelete} onClose={() => setToDelete(null)} />
      {options.bulkDeletePath && (
        <BulkDeleteDialog
          path={options.bulkDeletePath}
          name={name}
          records={bulkOpen ? selected : []}
          onClose={() => setBulkOpen(false)}
          onDone={() => {
            setBulkOpen(false);
            setSelected([]);
          }}
        />
      )}
    </ListPage>
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
  schema: Schemas['CollectionSchema'];
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
      if (err instanceof ApiError && err.code === 'CONFLICT') setRefusal(apiErrorText(err));
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

/** Cards of the grid view: picture, name, and the first few listed fields through the field-type registry. */
function RecordGrid({
  schema,
  rows,
  basePath,
}: {
  schema: Schemas['CollectionSchema'];
  rows: CollectionRecord[];
  basePath: string;
}) {
  const { t } = useTranslation();
  const picture = schema.fields.find((f) => f.type === 'image');
  const shown = schema.fields.filter((f) => f.inList && f.type !== 'image').slice(1, 6);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="md" data-testid="record-grid">
      {rows.map((r) => (
        <Card
          key={r.id}
          withBorder
          radius="md"
          padding="md"
          component={Link}
          to={`${basePath}/${r.id}`}
          data-testid="record-card"
        >
          <Group wrap="nowrap" mb="sm">
            <PlaceholderAvatar src={picture ? ((r[picture.name] as string | null) ?? null) : null} name={r.label} size={48} />
            <Text fw={600} lineClamp={2}>
              {r.label}
            </Text>
          </Group>
          <Stack gap={6}>
            {shown.map((f) => (
              <Group key={f.name} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="xs" c="dimmed">
                  {fieldLabel(t, f)}
                </Text>
                <FieldValue field={f} record={r} />
              </Group>
            ))}
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** Confirms deleting the ticked rows, then deletes them all at once (or none) through the data call. */
function BulkDeleteDialog({
  path,
  name,
  records,
  onClose,
  onDone,
}: {
  path: BulkDeletePath;
  name: string;
  records: CollectionRecord[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const remove = useBulkDelete(path, name);
  const confirm = async () => {
    try {
      await remove.mutateAsync(records.map((r) => r.id));
      notifySuccess(t('catalogs.deletedMany', { count: records.length }));
      onDone();
    } catch (err) {
      notifyError(err);
    }
  };
  return (
    <Modal
      opened={records.length > 0}
      onClose={onClose}
      title={t('catalogs.deleteTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Text>{t('catalogs.deleteManyConfirm', { count: records.length })}</Text>
        <Text size="sm" c="dimmed">
          {records.map((r) => r.label).join(', ')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('catalogs.cancel')}
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending}>
            {t('catalogs.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
