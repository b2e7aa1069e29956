import type { ErrorDetail } from '@aporta/domain';
import { formErrorMessage } from '@aporta/domain/workflow';
import { Button, FileInput, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import RjsfForm from '@rjsf/mantine';
import type {
  FieldErrorProps,
  ObjectFieldTemplateProps,
  RJSFSchema,
  RJSFValidationError,
  UiSchema,
  WidgetProps,
} from '@rjsf/utils';
import { IconDownload, IconPaperclip } from '@tabler/icons-react';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { ApiError } from '../../lib/api.ts';
import { uploadFormFile, useCatalogOptions } from './api.ts';
import { formValidator as validator } from './validator.ts';
import './workflow.css';
import { apiErrorText } from '../../lib/notify.ts';

/**
 * The one renderer of forms (react-jsonschema-form with its Mantine theme): the JSON Schema and UI
 * schema the builder compiled, the project's widgets for money, CUI, dates, entities, files and
 * catalogues, sections and conditional visibility from the UI schema, and Spanish messages from the
 * same rule the server uses (formErrorMessage). The browser's validation is a convenience: the API
 * validates the same definition.
 */

/**
 * What the widgets need from the page: the entities to offer, whether uploads can be made, and for a
 * filed request the names of its file fields' documents and how to download one.
 */
export interface FormRendererContext {
  entities: { id: number; name: string }[];
  canUpload: boolean;
  files?: Record<number, string>;
  onDownload?: (documentId: number) => void;
}
const RendererContext = createContext<FormRendererContext>({ entities: [], canUpload: false });

const errorOf = (rawErrors?: string[]) => (rawErrors?.length ? rawErrors.join(' ') : undefined);

function MoneyWidget(props: WidgetProps) {
  return (
    <TextInput
      id={props.id}
      label={props.label}
      required={props.required}
      disabled={props.disabled || props.readonly}
      leftSection={<Text size="sm">Q</Text>}
      inputMode="decimal"
      value={props.value ?? ''}
      onChange={(e) => props.onChange(e.currentTarget.value || undefined)}
      onBlur={() => props.onBlur(props.id, props.value)}
      error={errorOf(props.rawErrors)}
      description={props.schema.description}
    />
  );
}

function CuiWidget(props: WidgetProps) {
  return (
    <TextInput
      id={props.id}
      label={props.label}
      required={props.required}
      disabled={props.disabled || props.readonly}
      inputMode="numeric"
      maxLength={17}
      dir="ltr"
      value={props.value ?? ''}
      onChange={(e) => props.onChange(e.currentTarget.value || undefined)}
      onBlur={() => props.onBlur(props.id, props.value)}
      error={errorOf(props.rawErrors)}
      description={props.schema.description}
    />
  );
}

function DateWidget(props: WidgetProps) {
  return (
    <DateField
      id={props.id}
      label={props.label}
      required={props.required}
      disabled={props.disabled || props.readonly}
      value={props.value ?? null}
      onChange={(v) => props.onChange(v ?? undefined)}
      error={errorOf(props.rawErrors)}
      description={props.schema.description}
    />
  );
}

function EntityWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { entities } = useContext(RendererContext);
  return (
    <Select
      id={props.id}
      label={props.label}
      required={props.required}
      disabled={props.disabled || props.readonly}
      searchable
      data={entities.map((e) => ({ value: String(e.id), label: e.name }))}
      value={props.value == null ? null : String(props.value)}
      onChange={(v) => props.onChange(v ? Number(v) : undefined)}
      error={errorOf(props.rawErrors)}
      nothingFoundMessage={t('workflow.renderer.noEntities')}
    />
  );
}

function CatalogWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const catalog = (props.options as { catalog?: string }).catalog;
  const options = useCatalogOptions(catalog);
  const data = options.data?.items ?? [];
  return (
    <Select
      id={props.id}
      label={props.label}
      required={props.required}
      disabled={props.disabled || props.readonly}
      searchable
      data={data.length || !props.value ? data : [{ value: String(props.value), label: String(props.value) }]}
      value={props.value ?? null}
      onChange={(v) => props.onChange(v ?? undefined)}
      error={errorOf(props.rawErrors)}
      description={options.isEnabled ? props.schema.description : t('workflow.renderer.catalogSignedOut')}
    />
  );
}

/** A file field: uploads the chosen file (the data keeps its document id); a stored one is shown by name with a download. */
function FileWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { canUpload, files, onDownload } = useContext(RendererContext);
  const [name, setName] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const documentId = typeof props.value === 'number' ? props.value : null;
  const stored = documentId != null ? files?.[documentId] : undefined;
  const shownName = name ?? stored ?? (documentId != null ? t('workflow.renderer.document', { id: documentId }) : null);
  const downloadAction = documentId != null && stored && onDownload && (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconDownload size={14} />}
      aria-label={t('workflow.renderer.download', { name: stored })}
      onClick={() => onDownload(documentId)}
    >
      {t('workflow.request.download')}
    </Button>
  );
  if (props.readonly && documentId != null) {
    return (
      <div>
        <Text size="sm" fw={500} mb={4}>
          {props.label}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <IconPaperclip size={16} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }} data-testid={`file-${props.id}`}>
            {shownName}
          </Text>
          {downloadAction}
        </Group>
      </div>
    );
  }
  return (
    <Stack gap={4}>
      <FileInput
        id={props.id}
        label={props.label}
        required={props.required}
        disabled={props.disabled || props.readonly || !canUpload || busy}
        leftSection={<IconPaperclip size={16} />}
        placeholder={shownName ?? (canUpload ? t('workflow.renderer.chooseFile') : t('workflow.renderer.fileLater'))}
        accept="application/pdf,image/png,image/jpeg"
        onChange={async (file) => {
          setProblem(null);
          if (!file) return props.onChange(undefined);
          setBusy(true);
          try {
            const up = await uploadFormFile(file);
            setName(up.filename);
            props.onChange(up.documentId);
          } catch (err) {
            setProblem(err instanceof ApiError ? apiErrorText(err) : t('workflow.renderer.uploadFailed'));
          } finally {
            setBusy(false);
          }
        }}
        error={problem ?? errorOf(props.rawErrors)}
      />
      {!name && downloadAction && <Group justify="flex-end">{downloadAction}</Group>}
    </Stack>
  );
}

/** Sections (a title before a field) and fields shown only while their condition holds. */
function ObjectTemplate(props: ObjectFieldTemplateProps) {
  const ui = (props.uiSchema ?? {}) as Record<string, unknown>;
  const sections = ((ui['ui:options'] as { sections?: { before: string | null; title: string }[] } | undefined)?.sections ??
    []) as { before: string | null; title: string }[];
  const data = (props.formData ?? {}) as Record<string, unknown>;
  const out: ReactNode[] = [];
  for (const p of props.properties) {
    for (const s of sections.filter((x) => x.before === p.name)) {
      out.push(
        <Title key={`s-${s.title}`} order={4} mt="sm">
          {s.title}
        </Title>,
      );
    }
    const visibleIf = (
      (ui[p.name] as Record<string, unknown> | undefined)?.['ui:options'] as
        | { visibleIf?: { field: string; equals: unknown } }
        | undefined
    )?.visibleIf;
    if (p.hidden || (visibleIf && data[visibleIf.field] !== visibleIf.equals)) continue;
    out.push(<div key={p.name}>{p.content}</div>);
  }
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 'var(--mantine-spacing-sm)' }}>
      {props.title && props.fieldPathId?.$id !== 'root' && <Text fw={600}>{props.title}</Text>}
      {out}
    </div>
  );
}

/** Inputs show their own errors; the list under a field is kept for tables and groups (rows, minimum of rows). */
function FieldErrors({ errors, schema }: FieldErrorProps) {
  if (!errors?.length || (schema.type !== 'array' && schema.type !== 'object')) return null;
  return (
    <Text size="sm" c="red">
      {errors.map((e) => String(e)).join(' ')}
    </Text>
  );
}

const widgets = {
  money: MoneyWidget,
  cui: CuiWidget,
  date: DateWidget,
  entity: EntityWidget,
  catalog: CatalogWidget,
  file: FileWidget,
};

/** Spanish messages named by the field's title, the same words as the server's. */
function transformErrors(
  errors: RJSFValidationError[],
  schema: RJSFSchema,
  data: Record<string, unknown>,
): RJSFValidationError[] {
  return errors
    .filter((e) => e.name !== 'if')
    .map((e) => {
      const path = (e.property ?? '').split('.').filter(Boolean);
      if (e.name === 'required') path.push(String((e.params as { missingProperty?: string }).missingProperty ?? ''));
      let node: Record<string, unknown> | undefined = schema as Record<string, unknown>;
      let value: unknown = data;
      for (const seg of path) value = (value as Record<string, unknown> | undefined)?.[seg];
      let title = path[path.length - 1] ?? '';
      for (const seg of path) {
        node = /^\d+$/.test(seg)
          ? (node?.items as Record<string, unknown> | undefined)
          : (node?.properties as Record<string, Record<string, unknown>> | undefined)?.[seg];
        if (node?.title) title = String(node.title);
      }
      const message = formErrorMessage({ keyword: e.name ?? '', params: e.params ?? {}, message: e.message }, title, value);
      return { ...e, message, stack: message };
    });
}

/**
 * Renders a form. `onSubmit` gets the data once the browser's checks pass; `readOnly` shows the data.
 * `children` replaces the submit button (none when `readOnly`).
 */
export function FormRenderer({
  schema,
  uiSchema,
  data,
  onChange,
  onSubmit,
  readOnly,
  context = { entities: [], canUpload: false },
  submitLabel,
  busy,
  extraErrors,
}: {
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  data: Record<string, unknown>;
  onChange?: (data: Record<string, unknown>) => void;
  onSubmit?: (data: Record<string, unknown>) => void;
  readOnly?: boolean;
  context?: FormRendererContext;
  submitLabel?: string;
  busy?: boolean;
  /** Errors the server answered, by field path (`data.cui`). */
  extraErrors?: ErrorDetail[];
}) {
  const { t } = useTranslation();
  const { title: _title, ...shown } = schema;
  const errorSchema: Record<string, unknown> = {};
  for (const e of extraErrors ?? []) {
    const segs = e.path.split('.').slice(1);
    if (!segs.length) continue;
    let node = errorSchema;
    for (const s of segs) {
      node[s] ??= {};
      node = node[s] as Record<string, unknown>;
    }
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), e.message];
  }
  return (
    <RendererContext.Provider value={context}>
      <div className={readOnly ? 'wf-readonly' : undefined}>
        <RjsfForm
          schema={shown as RJSFSchema}
          uiSchema={{ ...(uiSchema as UiSchema), 'ui:submitButtonOptions': { norender: true } }}
          formData={data}
          validator={validator}
          widgets={widgets}
          templates={{ ObjectFieldTemplate: ObjectTemplate, FieldErrorTemplate: FieldErrors }}
          transformErrors={(errs) => transformErrors(errs, schema as RJSFSchema, data)}
          extraErrors={errorSchema as never}
          showErrorList={false}
          noHtml5Validate
          readonly={readOnly}
          onChange={(e) => onChange?.((e.formData ?? {}) as Record<string, unknown>)}
          onSubmit={(e) => onSubmit?.((e.formData ?? {}) as Record<string, unknown>)}
        >
          {!readOnly && onSubmit ? (
            <Group justify="flex-end" mt="md">
              <Button type="submit" loading={busy}>
                {submitLabel ?? t('workflow.renderer.submit')}
              </Button>
            </Group>
          ) : (
            <span />
          )}
        </RjsfForm>
      </div>
    </RendererContext.Provider>
  );
}
