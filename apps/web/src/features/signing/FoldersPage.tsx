import { documentTypeLabels, documentTypes, type LibraryDocument } from '@aporta/domain/signing';
import {
  ActionIcon,
  Anchor,
  Breadcrumbs,
  Button,
  Card,
  FileInput,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFolder, IconTrash } from '@tabler/icons-react';
import { createContext, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { type ListColumn, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { entityOptions } from '../../lib/options.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  documentsExportPath,
  downloadDocument,
  fetchDocumentPdf,
  useCreateFolder,
  useDeleteLibraryItem,
  useDocumentOptions,
  useDocuments,
  useFolders,
  useUploadDocument,
  useUploadVersion,
} from './api.ts';

// Inside a folder the list is that folder's documents (and a search searches it); at the start, every one in reach.
const OpenFolder = createContext<number | null>(null);
const useFolderDocuments = (params: ListParams) => useDocuments({ ...params, folderId: useContext(OpenFolder) ?? undefined });

const typeOptions = documentTypes.map((d) => ({ value: d, label: documentTypeLabels[d] }));

/**
 * /folders (Documentos): the folders of one level (with their owner unit), and the documents of the
 * folder open (all those in reach at the start, or what the search finds), with upload, new versions,
 * preview, download, deletion (confirmed) and export.
 */
export function FoldersPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [parentId, setParentId] = useState<number | null>(null);
  const folders = useFolders(parentId);
  const remove = useDeleteLibraryItem();
  const [folderOpen, folderModal] = useDisclosure(false);
  const [uploadOpen, uploadModal] = useDisclosure(false);
  const [versionOf, setVersionOf] = useState<LibraryDocument | null>(null);
  const preview = async (d: LibraryDocument) => {
    if (d.contentType !== 'application/pdf') return downloadDocument(d.id).catch(notifyError);
    try {
      const { url } = await fetchDocumentPdf(d.id);
      window.open(url, '_blank', 'noopener');
    } catch (e) {
      notifyError(e);
    }
  };
  const confirmDelete = (kind: 'folder' | 'document', id: number, name: string) =>
    openConfirm({
      title: t(kind === 'folder' ? 'signing.library.deleteFolderTitle' : 'signing.library.deleteDocTitle', { name }),
      children: (
        <Text size="sm">{t(kind === 'folder' ? 'signing.library.deleteFolderText' : 'signing.library.deleteDocText')}</Text>
      ),
      labels: { confirm: t('signing.library.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(
          { kind, id },
          {
            onSuccess: () => notifySuccess(t(kind === 'folder' ? 'signing.library.folderDeleted' : 'signing.library.docDeleted')),
            onError: notifyError,
          },
        ),
    });

  const columns: ListColumn<LibraryDocument>[] = [
    { accessor: 'title', title: t('signing.upload.docTitle'), sortable: true },
    { accessor: 'docType', title: t('signing.library.type'), kind: 'enum', options: typeOptions },
    { accessor: 'folderName', title: t('signing.library.folder') },
    {
      accessor: 'concerns',
      title: t('signing.library.concerns'),
      render: (d) =>
        [d.contributorName && `${d.contributorName} (${d.contributorCui})`, d.aboutEntityName].filter(Boolean).join(' · ') || '—',
    },
    { accessor: 'version', title: t('signing.library.version') },
    { accessor: 'updatedAt', title: t('signing.library.updated'), kind: 'datetime', sortable: true },
    {
      accessor: 'actions',
      title: '',
      render: (d) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => preview(d)}>
            {t('signing.preview')}
          </Button>
          <Button size="xs" variant="subtle" onClick={() => downloadDocument(d.id).catch(notifyError)}>
            {t('signing.download')}
          </Button>
          {can('documents', 'UPDATE') && (
            <Button size="xs" variant="subtle" onClick={() => setVersionOf(d)}>
              {t('signing.library.newVersion')}
            </Button>
          )}
          {can('documents', 'DELETE') && (
            <Tooltip label={t('signing.library.delete')}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`${t('signing.library.delete')} ${d.title}`}
                onClick={() => confirmDelete('document', d.id, d.title)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      ),
    },
  ];

  const current = folders.data?.path.at(-1);
  const browser = (
    <QueryState query={folders}>
      <Breadcrumbs>
        <Anchor component="button" onClick={() => setParentId(null)}>
          {t('signing.library.root')}
        </Anchor>
        {folders.data?.path.map((p) => (
          <Anchor key={p.id} component="button" onClick={() => setParentId(p.id)}>
            {p.name}
          </Anchor>
        ))}
      </Breadcrumbs>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mt="sm">
        {folders.data?.items.map((f) => (
          <Card key={f.id} withBorder padding="sm">
            <Group gap="xs" wrap="nowrap" justify="space-between">
              <UnstyledButton onClick={() => setParentId(f.id)} style={{ flex: 1, minWidth: 0 }}>
                <Group gap="xs" wrap="nowrap">
                  <IconFolder size={20} aria-hidden="true" />
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} truncate>
                      {f.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('signing.library.counts', { documents: f.documents, folders: f.subfolders })}
                      {` · ${f.entityName ?? t('signing.library.institution')}`}
                    </Text>
                  </div>
                </Group>
              </UnstyledButton>
              {can('documents', 'DELETE') && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`${t('signing.library.deleteFolder')} ${f.name}`}
                  onClick={() => confirmDelete('folder', f.id, f.name)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      {folders.data?.items.length === 0 && parentId === null && (
        <Text c="dimmed" mt="sm">
          {t('signing.library.noFolders')}
        </Text>
      )}
    </QueryState>
  );

  return (
    <OpenFolder.Provider value={parentId}>
      <ListPage<LibraryDocument>
        key={parentId ?? 'root'}
        title={current ? `${t('signing.library.title')} · ${current.name}` : t('signing.library.title')}
        description={t('signing.library.intro')}
        defaultSort="-updatedAt"
        searchLabel={t('signing.search')}
        filters={[{ name: 'docType', label: t('signing.library.type'), kind: 'enum', options: typeOptions }]}
        columns={columns}
        useRows={useFolderDocuments}
        exportPath={can('documents', 'EXPORT') ? documentsExportPath(parentId) : null}
        notice={browser}
        emptyText={t('signing.library.empty')}
        actions={
          <>
            {can('documents', 'CREATE') && (
              <Button variant="default" onClick={folderModal.open}>
                {t('signing.library.newFolder')}
              </Button>
            )}
            {can('documents', 'CREATE') && parentId !== null && (
              <Button onClick={uploadModal.open}>{t('signing.library.upload')}</Button>
            )}
          </>
        }
      >
        <FolderModal opened={folderOpen} onClose={folderModal.close} parentId={parentId} />
        {parentId !== null && <UploadModal opened={uploadOpen} onClose={uploadModal.close} folderId={parentId} />}
        <VersionModal document={versionOf} onClose={() => setVersionOf(null)} />
      </ListPage>
    </OpenFolder.Provider>
  );
}

/** The owner units the user may give a folder: the institution (ALL grants) and the entities in reach. */
function useUnitOptions(enabled: boolean) {
  const { t } = useTranslation();
  const options = useDocumentOptions(enabled);
  const data = [
    ...(options.data?.institution ? [{ value: 'institution', label: t('signing.library.institution') }] : []),
    ...entityOptions(options.data?.entities),
  ];
  return { options, data };
}

function FolderModal({ opened, onClose, parentId }: { opened: boolean; onClose: () => void; parentId: number | null }) {
  const { t } = useTranslation();
  const create = useCreateFolder();
  const units = useUnitOptions(opened && parentId === null);
  const [name, setName] = useState('');
  const [unit, setUnit] = useState<string | null>(null);
  const chosen = unit ?? units.data[0]?.value ?? null;
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={opened}
      onClose={onClose}
      title={t('signing.library.newFolder')}
      centered
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { name, parentId, entityId: parentId !== null || chosen === 'institution' || !chosen ? null : Number(chosen) },
            {
              onSuccess: () => {
                setName('');
                setUnit(null);
                notifySuccess(t('signing.library.folderCreated'));
                onClose();
              },
              onError: (err) => showApiError(err),
            },
          );
        }}
      >
        <Stack>
          <TextInput
            label={t('signing.library.folderName')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={120}
            data-autofocus
          />
          {parentId === null ? (
            <Select
              label={t('signing.library.owner')}
              description={t('signing.library.ownerHelp')}
              required
              searchable
              data={units.data}
              value={chosen}
              onChange={setUnit}
              disabled={units.options.isLoading}
            />
          ) : (
            <Text size="sm" c="dimmed">
              {t('signing.library.ownerInherited')}
            </Text>
          )}
          <FormActions
            onCancel={onClose}
            submitLabel={t('signing.library.create')}
            loading={create.isPending}
            disabled={!name.trim() || (parentId === null && !chosen)}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function UploadModal({ opened, onClose, folderId }: { opened: boolean; onClose: () => void; folderId: number }) {
  const { t } = useTranslation();
  const upload = useUploadDocument();
  const units = useUnitOptions(opened);
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [docType, setDocType] = useState<string | null>('OTRO');
  const [entity, setEntity] = useState<string | null>(null);
  const [cui, setCui] = useState('');
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={opened}
      onClose={onClose}
      title={t('signing.library.upload')}
      centered
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!file) return;
          upload.mutate(
            {
              fields: {
                folderId: String(folderId),
                title,
                docType: docType ?? 'OTRO',
                aboutEntityId: entity ?? undefined,
                contributorCui: cui.trim() || undefined,
              },
              file,
            },
            {
              onSuccess: () => {
                setFile(null);
                setTitle('');
                setEntity(null);
                setCui('');
                notifySuccess(t('signing.library.uploaded'));
                onClose();
              },
              onError: (err) => showApiError(err),
            },
          );
        }}
      >
        <Stack>
          <FileInput label={t('signing.upload.file')} required value={file} onChange={setFile} />
          <TextInput
            label={t('signing.upload.docTitle')}
            required
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            maxLength={200}
          />
          <Select label={t('signing.library.type')} required data={typeOptions} value={docType} onChange={setDocType} />
          <Select
            label={t('signing.library.aboutEntity')}
            clearable
            searchable
            data={units.data.filter((u) => u.value !== 'institution')}
            value={entity}
            onChange={setEntity}
          />
          <TextInput
            label={t('signing.library.contributorCui')}
            description={t('signing.library.contributorHelp')}
            value={cui}
            onChange={(e) => setCui(e.currentTarget.value)}
            inputMode="numeric"
            maxLength={15}
            dir="ltr"
          />
          <FormActions
            onCancel={onClose}
            submitLabel={t('signing.library.upload')}
            loading={upload.isPending}
            disabled={!file || !title.trim()}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function VersionModal({ document, onClose }: { document: LibraryDocument | null; onClose: () => void }) {
  const { t } = useTranslation();
  const upload = useUploadVersion();
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState('');
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={document !== null}
      onClose={onClose}
      title={document ? t('signing.library.newVersionOf', { title: document.title, version: document.version + 1 }) : ''}
      centered
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!file || !document) return;
          upload.mutate(
            { id: document.id, file, note: note.trim() || undefined },
            {
              onSuccess: () => {
                setFile(null);
                setNote('');
                notifySuccess(t('signing.library.versionAdded'));
                onClose();
              },
              onError: (err) => showApiError(err),
            },
          );
        }}
      >
        <Stack>
          <FileInput label={t('signing.upload.file')} required value={file} onChange={setFile} />
          <TextInput
            label={t('signing.library.versionNote')}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={200}
          />
          <FormActions
            onCancel={onClose}
            submitLabel={t('signing.library.addVersion')}
            loading={upload.isPending}
            disabled={!file}
          />
        </Stack>
      </form>
    </Modal>
  );
}
