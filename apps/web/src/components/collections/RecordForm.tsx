import { type CollectionRecord, decimalToCents, type FieldMeta, formatAmount, formatNit } from '@aporta/domain';
import { SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../lib/api.ts';
import { FieldInput, PlaceholderAvatar } from '../../lib/field-types.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { definitionOf, isEngineCollection } from '../../lib/useCollections.ts';
import { FormActions } from '../FormActions.tsx';
import { fieldKindOf, fieldOptions } from './FieldValue.tsx';
import { ReferenceSelect } from './ReferenceSelect.tsx';

const emptyValue = (f: FieldMeta): unknown => {
  if (f.type === 'boolean') return f.name === 'isActive';
  if (['reference', 'number', 'date', 'enum', 'status'].includes(f.type)) return null;
  return '';
};

/**
 * A stored value as the form edits it: money's decimal text `"1234.5"` as people write it, `1,234.50`;
 * a NIT stored as `576937K` as people write it, `576937-K`.
 */
const initialValue = (f: FieldMeta, v: unknown): unknown => {
  if (v == null) return emptyValue(f);
  if (f.type === 'money' && typeof v === 'string') return formatAmount(decimalToCents(v));
  if (f.type === 'nit' && typeof v === 'string') return formatNit(v);
  return v;
};

/**
 * The one form of every catalogue: fields rendered by type from the collection's metadata, validated
 * with the collection's shared zod schema (the same one the server applies), server errors mapped onto
 * the fields they name.
 */
export function RecordForm({
  schema,
  record,
  readOnly,
  submitting,
  onSubmit,
  onCancel,
}: {
  schema: Schemas['CollectionSchema'];
  record?: CollectionRecord;
  readOnly?: boolean;
  submitting?: boolean;
  onSubmit: (values: Record<string, unknown>) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const def = isEngineCollection(schema.name) ? definitionOf(schema.name) : null;
  const fields = schema.fields;
  const form = useForm<Record<string, unknown>>({
    mode: 'controlled',
    initialValues: Object.fromEntries(
      fields.filter((f) => !f.readOnly).map((f) => [f.name, record ? initialValue(f, record[f.name]) : emptyValue(f)]),
    ),
    validate: def ? zod4Resolver(def.input) : undefined,
  });
  const label = (f: FieldMeta) => t(f.labelKey, { defaultValue: f.label });

  const submit = form.onSubmit(async (values) => {
    const parsed = def ? def.input.safeParse(values) : null;
    try {
      await onSubmit(parsed?.success ? (parsed.data as Record<string, unknown>) : values);
    } catch (err) {
      showApiError(err, form, Object.keys(values), { notify: 'non-validation' });
    }
  });

  const input = (f: FieldMeta) =>
    f.type === 'reference' ? (
      <ReferenceSelect
        key={f.name}
        collection={schema.name}
        field={f}
        label={label(f)}
        required={f.required}
        disabled={readOnly}
        value={(form.values[f.name] as number | null) ?? null}
        onChange={(v) => form.setFieldValue(f.name, v)}
        error={form.errors[f.name]}
      />
    ) : (
      <FieldInput
        key={f.name}
        kind={fieldKindOf(f)}
        label={label(f)}
        value={form.values[f.name]}
        onChange={(v) => form.setFieldValue(f.name, v)}
        options={fieldOptions(t, f)}
        required={f.required}
        disabled={readOnly || f.readOnly}
        error={form.errors[f.name]}
        maxLength={f.maxLength}
        decimals={f.decimals}
        data-testid={`field-${f.name}`}
      />
    );

  // A picture is shown above the form (it is generated, never typed).
  const picture = record ? fields.find((f) => f.type === 'image') : undefined;
  const readOnlyFields = record ? fields.filter((f) => f.readOnly && f.type !== 'image') : [];
  return (
    <form onSubmit={submit} noValidate>
      {picture && record && (
        <PlaceholderAvatar src={(record[picture.name] as string | null) ?? null} name={record.label} size={72} />
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {readOnlyFields.map((f) => (
          <TextInput key={f.name} label={label(f)} value={String(record?.[f.name] ?? '')} readOnly disabled />
        ))}
        {fields.filter((f) => !f.readOnly).map(input)}
      </SimpleGrid>
      {!readOnly && (
        <FormActions
          onCancel={onCancel}
          cancelLabel={t('catalogs.cancel')}
          submitLabel={t('catalogs.save')}
          loading={submitting}
          mt="lg"
        />
      )}
    </form>
  );
}
