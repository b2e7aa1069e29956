import type { CollectionRecord, FieldMeta } from '@aporta/domain';
import { Badge, ColorSwatch, Group, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { FieldCell, type FieldKind, type FieldOption } from '../../lib/field-types.tsx';

/** The registry kind of a catalogue field (the catalogue's field types are a subset of the registry's). */
export const fieldKindOf = (f: FieldMeta): FieldKind => f.type;

export const fieldLabel = (t: TFunction, f: FieldMeta): string => t(f.labelKey, { defaultValue: f.label });

/** Options of an enum field; status colours read in the user's language. */
export const fieldOptions = (t: TFunction, f: FieldMeta): FieldOption[] | undefined =>
  f.options?.map((o) => ({
    value: o,
    label: f.name === 'color' ? t(`catalogs.colors.${o}`, { defaultValue: o }) : (f.optionLabels?.[o] ?? o),
  }));

/**
 * A catalogue record's value in a list cell or read-only view: by field type through the registry,
 * plus the two things only status catalogues have (a colour swatch, the code as a badge of its colour).
 */
export function FieldValue({ field, record }: { field: FieldMeta; record: CollectionRecord }) {
  const { t } = useTranslation();
  const v = record[field.name];
  if (field.type === 'enum' && field.name === 'color' && typeof v === 'string') {
    return (
      <Group gap={6} wrap="nowrap">
        <ColorSwatch color={`var(--mantine-color-${v}-6)`} size={14} />
        <Text size="sm">{t(`catalogs.colors.${v}`, { defaultValue: v })}</Text>
      </Group>
    );
  }
  if (field.type === 'enum' && field.name === 'code' && typeof record.color === 'string') {
    return (
      <Badge color={record.color} variant="filled" autoContrast>
        {String(v ?? '')}
      </Badge>
    );
  }
  return (
    <FieldCell
      kind={fieldKindOf(field)}
      value={v}
      options={fieldOptions(t, field)}
      colors={field.colors}
      label={field.type === 'image' ? record.label : (record.labels[field.name] ?? null)}
    />
  );
}
