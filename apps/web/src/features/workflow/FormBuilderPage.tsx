import type { ErrorDetail } from '@aporta/domain';
import {
  compileForm,
  FORM_DEFINITION_FORMAT,
  type FormCatalog,
  type FormField,
  type FormFieldType,
  type FormVersionState,
  formCatalogs,
  formDefinitionSchema,
  formFieldsProblems,
  formFieldTypes,
} from '@aporta/domain/workflow';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Container,
  FileButton,
  Grid,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconDeviceFloppy,
  IconDownload,
  IconGripVertical,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { issueText, messageText } from '../../lib/server-messages.ts';
import { getToken } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import { useFormDefinition, useFormVersionAction, useSaveForm } from './api.ts';
import { previewData, renameInPreview, touchedAfterMove, touchedAfterRemove, visibleProblems } from './builder-state.ts';
import { VersionBadge } from './components.tsx';
import { FormRenderer } from './FormRenderer.tsx';

/**
 * `/form-builder`: standalone and open without signing in (the specification's route). Anyone composes a
 * form from field types, reorders by dragging, sets validation and conditions, previews it live and
 * exports/imports the definition as JSON; saving needs a session with `forms` CREATE (or UPDATE to save
 * a new version of an existing form, `?form=<id>`). The work in progress is kept in this browser, so
 * signing in to save loses nothing.
 */

interface Draft {
  formId: number | null;
  title: string;
  description: string;
  fields: FormField[];
}
const STORAGE_KEY = 'aporta-form-builder';
const emptyDraft = (t: TFunction): Draft => ({ formId: null, title: t('workflow.builder.newForm'), description: '', fields: [] });

const loadDraft = (t: TFunction): Draft => {
  const empty = emptyDraft(t);
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? { ...empty, ...(JSON.parse(raw) as Draft) } : empty;
  } catch {
    return empty;
  }
};

const slug = (label: string) =>
  label
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9 ]/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((w, i) => (i ? w[0].toUpperCase() + w.slice(1).toLowerCase() : w.toLowerCase()))
    .join('')
    .replace(/^[^a-zA-Z]+/, '')
    .slice(0, 40) || 'campo';

const uniqueName = (base: string, taken: string[]) => {
  let name = base;
  for (let i = 2; taken.includes(name); i++) name = `${base.slice(0, 36)}${i}`;
  return name;
};

const columnTypes: FormFieldType[] = ['text', 'number', 'money', 'date', 'cui'];

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function FormBuilderPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const editId = Number(params.get('form')) || null;
  const [draft, setDraft] = useState<Draft>(() => loadDraft(t));
  const [selected, setSelected] = useState<number | null>(draft.fields.length ? 0 : null);
  const [preview, setPreview] = useState<Record<string, unknown>>({});
  const [importError, setImportError] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<ErrorDetail[]>([]);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  // Problems show once a save was tried, or for the fields the user touched: never on a fresh form.
  const [attempted, setAttempted] = useState(false);
  const [touched, setTouched] = useState<Set<number>>(() => new Set());
  const signedIn = !!getToken();
  const can = useCan();
  const existing = useFormDefinition(signedIn ? editId : null);
  const save = useSaveForm();
  const versionAction = useFormVersionAction();
  // The state of the form in the library, read from its latest version (what the library lists).
  const [stored, setStored] = useState<{ version: number; state: FormVersionState } | null>(null);
  const resetChecks = () => {
    setAttempted(false);
    setTouched(new Set());
  };

  useEffect(() => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(draft));
  }, [draft]);
  // Opening an existing form (from the library) loads its latest version into the builder.
  useEffect(() => {
    const f = existing.data;
    const fields = f?.versions[0]?.fields as FormField[] | null | undefined;
    if (f && fields) {
      setDraft({ formId: f.id, title: f.title, description: f.description, fields });
      setSelected(fields.length ? 0 : null);
      setAttempted(false);
      setTouched(new Set());
    }
    if (f?.versions[0]) setStored({ version: f.versions[0].version, state: f.versions[0].state });
  }, [existing.data]);

  const problems = useMemo(() => formFieldsProblems(draft.fields), [draft.fields]);
  const shownProblems = visibleProblems(problems, attempted, touched);
  const compiled = useMemo(() => compileForm(draft.title, draft.fields), [draft.title, draft.fields]);
  const setFields = (fn: (fields: FormField[]) => FormField[]) => setDraft((d) => ({ ...d, fields: fn(d.fields) }));
  const field = selected != null ? draft.fields[selected] : undefined;
  const update = (patch: Partial<FormField>) => {
    if (selected == null) return;
    const before = draft.fields[selected];
    // The preview follows a rename: the value moves to the new name, the old name is not checked any more.
    if (before && patch.name !== undefined && patch.name !== before.name) {
      const to = patch.name;
      setPreview((p) => renameInPreview(p, before.name, to));
    }
    setTouched((prev) => new Set(prev).add(selected));
    setFields((fs) => fs.map((f, i) => (i === selected ? ({ ...f, ...patch } as FormField) : f)));
  };

  const add = (type: FormFieldType) => {
    const label = type === 'section' ? t('workflow.builder.section') : t(`workflow.fieldTypes.${type}`);
    const f: FormField = {
      name: uniqueName(
        slug(label),
        draft.fields.map((x) => x.name),
      ),
      label,
      type,
    };
    if (type === 'select')
      f.options = [
        { value: 'SI', label: t('workflow.builder.yes') },
        { value: 'NO', label: t('workflow.builder.no') },
      ];
    if (type === 'table')
      f.columns = [{ name: 'descripcion', label: t('workflow.builder.columnDescription'), type: 'text', required: true }];
    setFields((fs) => [...fs, f]);
    setSelected(draft.fields.length);
  };
  const move = (from: number, to: number) => {
    if (to < 0 || to >= draft.fields.length || from === to) return;
    setFields((fs) => {
      const copy = [...fs];
      const [x] = copy.splice(from, 1);
      copy.splice(to, 0, x);
      return copy;
    });
    setTouched((prev) => touchedAfterMove(prev, from, to));
    setSelected(to);
  };
  const remove = (i: number) =>
    openConfirm({
      title: t('workflow.builder.removeFieldTitle'),
      children: <Text size="sm">{t('workflow.builder.removeFieldText', { label: draft.fields[i].label })}</Text>,
      labels: { confirm: t('workflow.remove'), cancel: t('workflow.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        setFields((fs) => fs.filter((_, j) => j !== i));
        setTouched((prev) => touchedAfterRemove(prev, i));
        setSelected(null);
      },
    });

  const exportJson = () =>
    download(
      `formulario-${slug(draft.title)}.json`,
      JSON.stringify(
        { format: FORM_DEFINITION_FORMAT, title: draft.title, description: draft.description, fields: draft.fields, ...compiled },
        null,
        2,
      ),
    );
  const importJson = async (file: File | null) => {
    setImportError(null);
    if (!file) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      setImportError(t('workflow.builder.notJson', { file: file.name }));
      return;
    }
    const def = formDefinitionSchema.safeParse(parsed);
    if (!def.success) {
      setImportError(
        t('workflow.builder.importProblem', {
          file: file.name,
          problems: def.error.issues
            .map((i) => `${i.path.join('.') || t('workflow.builder.definition')}: ${issueText(i.message)}`)
            .join('; '),
        }),
      );
      return;
    }
    const bad = formFieldsProblems(def.data.fields);
    if (bad.length) {
      setImportError(
        t('workflow.builder.importProblem', { file: file.name, problems: bad.map((b) => issueText(b.message)).join(' ') }),
      );
      return;
    }
    setDraft((d) => ({ ...d, title: def.data.title, description: def.data.description ?? '', fields: def.data.fields }));
    setSelected(def.data.fields.length ? 0 : null);
    resetChecks();
    notifySuccess(t('workflow.builder.imported', { title: def.data.title }));
  };
  const mayCreate = can('forms', 'CREATE');
  const mayUpdate = can('forms', 'UPDATE');
  const maySave = draft.formId ? mayUpdate : mayCreate;
  const onSave = () => {
    setAttempted(true);
    if (problems.length) return;
    save.mutate(
      { id: draft.formId, data: { title: draft.title, description: draft.description || undefined, fields: draft.fields } },
      {
        onSuccess: (f) => {
          setServerErrors([]);
          setDraft((d) => ({ ...d, formId: f.id }));
          // Announced from the saved version itself: the same row the library and the detail show.
          const v = f.versions[0];
          setStored(v ? { version: v.version, state: v.state } : null);
          if (v)
            notifySuccess(
              t('workflow.builder.saved', {
                version: v.version,
                state:
                  v.state === 'BORRADOR'
                    ? t('workflow.builder.savedDraft')
                    : t(`workflow.versionStates.${v.state}`).toLowerCase(),
              }),
            );
        },
        onError: (err) => {
          if (err instanceof ApiError)
            setServerErrors(err.details.length ? err.details : [{ path: '', message: err.message, ...err.keyed }]);
          notifyError(err);
        },
      },
    );
  };
  const onPublish = (version: number) => {
    if (!draft.formId) return;
    versionAction.mutate(
      { id: draft.formId, version, action: 'publish' },
      {
        onSuccess: (f) => {
          const v = f.versions.find((x) => x.version === version);
          if (v) setStored({ version: v.version, state: v.state });
          notifySuccess(t('workflow.versionPublished', { version }));
        },
        onError: notifyError,
      },
    );
  };

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={1} size="h2">
              {t('workflow.builder.title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('workflow.builder.subtitle')}
            </Text>
          </div>
          <Group gap="xs">
            <Button variant="default" leftSection={<IconDownload size={16} />} onClick={exportJson}>
              {t('workflow.builder.exportJson')}
            </Button>
            <FileButton onChange={importJson} accept="application/json,.json">
              {(props) => (
                <Button variant="default" leftSection={<IconUpload size={16} />} {...props}>
                  {t('workflow.builder.importJson')}
                </Button>
              )}
            </FileButton>
            {signedIn && maySave && (
              <Button leftSection={<IconDeviceFloppy size={16} />} onClick={onSave} loading={save.isPending}>
                {draft.formId ? t('workflow.builder.saveVersion') : t('workflow.builder.saveToLibrary')}
              </Button>
            )}
            {signedIn && (
              <Button component={Link} to="/forms" variant="subtle">
                {t('workflow.builder.goToForms')}
              </Button>
            )}
          </Group>
        </Group>
        {!signedIn && (
          <Alert color="blue" title={t('workflow.builder.signedOutTitle')}>
            {t('workflow.builder.signedOutBefore')}{' '}
            <Anchor component={Link} to="/auth/login" c="inherit" fw={700} underline="always">
              {t('workflow.builder.signIn')}
            </Anchor>{' '}
            {t('workflow.builder.signedOutAfter')}
          </Alert>
        )}
        {signedIn && !maySave && <Alert color="yellow">{t('workflow.builder.noPermission')}</Alert>}
        {importError && (
          <Alert color="red" title={t('workflow.builder.importFailed')} withCloseButton onClose={() => setImportError(null)}>
            {importError}
          </Alert>
        )}
        {signedIn && draft.formId && stored && (
          <Alert color={stored.state === 'PUBLICADA' ? 'green' : 'yellow'} data-testid="builder-stored-state">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap="xs">
                <VersionBadge state={stored.state} />
                <Text size="sm">
                  {t(
                    stored.state === 'PUBLICADA'
                      ? 'workflow.builder.publishedNotice'
                      : stored.state === 'BORRADOR'
                        ? 'workflow.builder.draftNotice'
                        : 'workflow.builder.retiredNotice',
                    { version: stored.version },
                  )}
                </Text>
              </Group>
              {stored.state === 'BORRADOR' && mayUpdate && (
                <Button size="xs" color="green" onClick={() => onPublish(stored.version)} loading={versionAction.isPending}>
                  {t('workflow.builder.publishVersion', { version: stored.version })}
                </Button>
              )}
            </Group>
          </Alert>
        )}
        {serverErrors.length > 0 && (
          <Alert color="red" title={t('workflow.builder.serverRefused')}>
            {serverErrors.map((e) => (
              <Text key={e.path + e.message} size="sm">
                {messageText(e)}
              </Text>
            ))}
          </Alert>
        )}
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Card withBorder>
              <Stack gap="xs">
                <TextInput
                  label={t('workflow.builder.formTitle')}
                  value={draft.title}
                  onChange={(e) => setDraft({ ...draft, title: e.currentTarget.value })}
                  required
                />
                <Textarea
                  label={t('workflow.description')}
                  value={draft.description}
                  autosize
                  minRows={2}
                  onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
                />
                <Text fw={600} size="sm" mt="xs">
                  {t('workflow.builder.addField')}
                </Text>
                <Group gap={6}>
                  {formFieldTypes.map((type) => (
                    <Button key={type} size="xs" variant="light" onClick={() => add(type)}>
                      {t(`workflow.fieldTypes.${type}`)}
                    </Button>
                  ))}
                </Group>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() =>
                    openConfirm({
                      title: t('workflow.builder.startOver'),
                      children: <Text size="sm">{t('workflow.builder.startOverText')}</Text>,
                      labels: { confirm: t('workflow.builder.discard'), cancel: t('workflow.cancel') },
                      confirmProps: { color: 'red' },
                      onConfirm: () => {
                        setDraft(emptyDraft(t));
                        setSelected(null);
                        setPreview({});
                        setStored(null);
                        resetChecks();
                      },
                    })
                  }
                >
                  {t('workflow.builder.startOver')}
                </Button>
              </Stack>
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="xs">
              <Text fw={600}>{t('workflow.builder.fieldsCount', { count: draft.fields.length })}</Text>
              {draft.fields.length === 0 && <Text c="dimmed">{t('workflow.builder.noFields')}</Text>}
              <Stack gap={4} aria-label={t('workflow.builder.fieldList')}>
                {draft.fields.map((f, i) => (
                  <Paper
                    // biome-ignore lint/suspicious/noArrayIndexKey: a field may be renamed while edited; its place is its identity.
                    key={i}
                    withBorder
                    p={6}
                    draggable
                    onDragStart={() => setDragFrom(i)}
                    onDragOver={(e) => e.preventDefault()}
                    onDrop={() => {
                      if (dragFrom != null) move(dragFrom, i);
                      setDragFrom(null);
                    }}
                    onClick={() => setSelected(i)}
                    data-testid={`builder-field-${f.name}`}
                    style={{
                      cursor: 'pointer',
                      borderColor: i === selected ? 'var(--mantine-primary-color-filled)' : undefined,
                      marginInlineStart: f.type === 'section' ? 0 : 12,
                    }}
                  >
                    <Group gap={6} wrap="nowrap">
                      <IconGripVertical size={16} aria-hidden />
                      <Box style={{ flex: 1, minWidth: 0 }}>
                        <Text size="sm" fw={f.type === 'section' ? 700 : 500} truncate>
                          {f.label}
                          {f.required ? ' *' : ''}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {t(`workflow.fieldTypes.${f.type}`)} · {f.name}
                          {f.visibleIf
                            ? t('workflow.builder.visibleIfShort', {
                                field: f.visibleIf.field,
                                value: String(f.visibleIf.equals),
                              })
                            : ''}
                        </Text>
                      </Box>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('workflow.builder.moveUp', { label: f.label })}
                        onClick={() => move(i, i - 1)}
                        disabled={i === 0}
                      >
                        <IconArrowUp size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('workflow.builder.moveDown', { label: f.label })}
                        onClick={() => move(i, i + 1)}
                        disabled={i === draft.fields.length - 1}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('workflow.builder.removeField', { label: f.label })}
                        onClick={() => remove(i)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Paper>
                ))}
              </Stack>
              {shownProblems.length > 0 && (
                <Alert color="red" title={t('workflow.builder.fixBeforeSaving')}>
                  {shownProblems.map((p) => (
                    <Text key={p.path + p.message} size="sm">
                      {messageText(p)}
                    </Text>
                  ))}
                </Alert>
              )}
              {field && (
                <FieldEditor key={selected} field={field} earlier={draft.fields.slice(0, selected ?? 0)} onChange={update} />
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Card withBorder>
              <Group justify="space-between" mb="xs">
                <Text fw={600}>{t('workflow.builder.preview')}</Text>
                <Badge variant="outline">
                  {t('workflow.builder.previewFields', { count: draft.fields.filter((f) => f.type !== 'section').length })}
                </Badge>
              </Group>
              <Title order={3} size="h4" mb="xs">
                {draft.title}
              </Title>
              {problems.length === 0 && draft.fields.length > 0 ? (
                <FormRenderer
                  // A new definition is a new form: nothing the renderer checked before is kept.
                  key={JSON.stringify(compiled)}
                  schema={compiled.schema}
                  uiSchema={compiled.uiSchema}
                  data={previewData(preview, draft.fields)}
                  onChange={setPreview}
                  onSubmit={() => notifySuccess(t('workflow.builder.previewValid'))}
                  submitLabel={t('workflow.builder.tryValidation')}
                />
              ) : (
                <Text c="dimmed" size="sm">
                  {t('workflow.builder.previewEmpty')}
                </Text>
              )}
            </Card>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}

const optionsText = (f: FormField) => (f.options ?? []).map((o) => `${o.value}|${o.label}`).join('\n');
const parseOptions = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [value, ...rest] = l.split('|');
      return { value: value.trim(), label: (rest.join('|') || value).trim() };
    });

function FieldEditor({
  field,
  earlier,
  onChange,
}: {
  field: FormField;
  earlier: FormField[];
  onChange: (p: Partial<FormField>) => void;
}) {
  const { t } = useTranslation();
  const num = (v: string | number) => (v === '' ? undefined : Number(v));
  const conditionTarget = earlier.find((f) => f.name === field.visibleIf?.field);
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Text fw={600}>{t('workflow.builder.fieldProperties')}</Text>
        <TextInput
          label={t('workflow.builder.label')}
          value={field.label}
          onChange={(e) => onChange({ label: e.currentTarget.value })}
          required
        />
        <TextInput
          label={t('workflow.builder.name')}
          value={field.name}
          onChange={(e) => onChange({ name: e.currentTarget.value })}
          description={t('workflow.builder.nameHelp')}
        />
        {field.type !== 'section' && (
          <>
            <Checkbox
              label={t('workflow.builder.required')}
              checked={!!field.required}
              onChange={(e) => onChange({ required: e.currentTarget.checked })}
            />
            <TextInput
              label={t('workflow.builder.help')}
              value={field.help ?? ''}
              onChange={(e) => onChange({ help: e.currentTarget.value || undefined })}
            />
          </>
        )}
        {(field.type === 'text' || field.type === 'textarea') && (
          <Group grow>
            <NumberInput
              label={t('workflow.builder.minLength')}
              min={0}
              value={field.minLength ?? ''}
              onChange={(v) => onChange({ minLength: num(v) })}
            />
            <NumberInput
              label={t('workflow.builder.maxLength')}
              min={1}
              value={field.maxLength ?? ''}
              onChange={(v) => onChange({ maxLength: num(v) })}
            />
          </Group>
        )}
        {field.type === 'text' && (
          <TextInput
            label={t('workflow.builder.pattern')}
            value={field.pattern ?? ''}
            onChange={(e) => onChange({ pattern: e.currentTarget.value || undefined })}
          />
        )}
        {field.type === 'number' && (
          <Group grow>
            <NumberInput label={t('workflow.builder.min')} value={field.min ?? ''} onChange={(v) => onChange({ min: num(v) })} />
            <NumberInput label={t('workflow.builder.max')} value={field.max ?? ''} onChange={(v) => onChange({ max: num(v) })} />
          </Group>
        )}
        {field.type === 'select' && (
          <>
            <Select
              label={t('workflow.builder.optionsSource')}
              data={[
                { value: '', label: t('workflow.builder.ownList') },
                ...formCatalogs.map((c) => ({
                  value: c,
                  label: t('workflow.builder.catalog', { name: t(`workflow.catalogs.${c}`) }),
                })),
              ]}
              value={field.catalog ?? ''}
              onChange={(v) =>
                onChange({ catalog: (v || undefined) as FormCatalog | undefined, options: v ? undefined : (field.options ?? []) })
              }
              allowDeselect={false}
            />
            {!field.catalog && (
              <Textarea
                label={t('workflow.builder.options')}
                autosize
                minRows={3}
                defaultValue={optionsText(field)}
                onBlur={(e) => onChange({ options: parseOptions(e.currentTarget.value) })}
              />
            )}
          </>
        )}
        {field.type === 'table' && (
          <>
            <Group grow>
              <NumberInput
                label={t('workflow.builder.minRows')}
                min={0}
                value={field.minRows ?? ''}
                onChange={(v) => onChange({ minRows: num(v) })}
              />
              <NumberInput
                label={t('workflow.builder.maxRows')}
                min={1}
                value={field.maxRows ?? ''}
                onChange={(v) => onChange({ maxRows: num(v) })}
              />
            </Group>
            <Text size="sm" fw={500}>
              {t('workflow.builder.columns')}
            </Text>
            {(field.columns ?? []).map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a column may be renamed while edited; its place is its identity.
              <Group key={i} gap={6} align="end" wrap="nowrap">
                <TextInput
                  label={t('workflow.builder.label')}
                  value={c.label}
                  onChange={(e) => {
                    const label = e.currentTarget.value;
                    onChange({
                      columns: (field.columns ?? []).map((x, j) => (j === i ? { ...x, label, name: slug(label) } : x)),
                    });
                  }}
                />
                <Select
                  label={t('workflow.builder.columnType')}
                  w={110}
                  data={columnTypes.map((x) => ({ value: x, label: t(`workflow.fieldTypes.${x}`) }))}
                  value={c.type}
                  allowDeselect={false}
                  onChange={(v) =>
                    onChange({ columns: (field.columns ?? []).map((x, j) => (j === i ? { ...x, type: v as FormFieldType } : x)) })
                  }
                />
                <Checkbox
                  label={t('workflow.builder.columnRequired')}
                  mb={8}
                  checked={!!c.required}
                  onChange={(e) => {
                    const required = e.currentTarget.checked;
                    onChange({ columns: (field.columns ?? []).map((x, j) => (j === i ? { ...x, required } : x)) });
                  }}
                />
                <ActionIcon
                  mb={4}
                  variant="subtle"
                  color="red"
                  aria-label={t('workflow.builder.removeColumn', { label: c.label })}
                  onClick={() => onChange({ columns: (field.columns ?? []).filter((_, j) => j !== i) })}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            <Button
              size="xs"
              variant="light"
              onClick={() =>
                onChange({
                  columns: [
                    ...(field.columns ?? []),
                    {
                      name: uniqueName(
                        'columna',
                        (field.columns ?? []).map((c) => c.name),
                      ),
                      label: t('workflow.builder.column'),
                      type: 'text',
                    },
                  ],
                })
              }
            >
              {t('workflow.builder.addColumn')}
            </Button>
          </>
        )}
        {field.type !== 'section' && (
          <>
            <Text size="sm" fw={500} mt="xs">
              {t('workflow.builder.visibleIf')}
            </Text>
            <Group grow>
              <Select
                label={t('workflow.builder.conditionField')}
                placeholder={t('workflow.builder.alwaysVisible')}
                clearable
                data={earlier
                  .filter((f) => f.type !== 'section' && f.type !== 'table')
                  .map((f) => ({ value: f.name, label: f.label }))}
                value={field.visibleIf?.field ?? null}
                onChange={(v) => onChange({ visibleIf: v ? { field: v, equals: field.visibleIf?.equals ?? '' } : undefined })}
              />
              {field.visibleIf &&
                (conditionTarget?.options?.length ? (
                  <Select
                    label={t('workflow.builder.equals')}
                    data={conditionTarget.options.map((o) => ({ value: o.value, label: o.label }))}
                    value={String(field.visibleIf.equals)}
                    onChange={(v) => onChange({ visibleIf: { field: field.visibleIf!.field, equals: v ?? '' } })}
                  />
                ) : (
                  <TextInput
                    label={t('workflow.builder.equals')}
                    value={String(field.visibleIf.equals)}
                    onChange={(e) => onChange({ visibleIf: { field: field.visibleIf!.field, equals: e.currentTarget.value } })}
                  />
                ))}
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
