import type { CollectionRecord, FieldMeta } from '@aporta/domain';
import { Badge, ColorSwatch, Group, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoneyDecimal } from '../../lib/format.ts';

/** A record's value rendered by field type: the one place list cells and read-only views share. */
export function FieldValue({ field, record }: { field: FieldMeta; record: CollectionRecord }) {
  const { t } = useTranslation();
  const v = record[field.name];
  switch (field.type) {
    case 'boolean':
      return (
        <Group gap={4} wrap="nowrap">
          {v ? (
            <IconCircleCheck size={16} color="var(--mantine-color-green-7)" aria-hidden />
          ) : (
            <IconCircleX size={16} color="var(--mantine-color-gray-6)" aria-hidden />
          )}
          <Text size="sm">{v ? t('catalogs.yes') : t('catalogs.no')}</Text>
        </Group>
      );
    case 'reference':
      return <Text size="sm">{record.labels[field.name] ?? ''}</Text>;
    case 'money':
      return <Text size="sm">{formatMoneyDecimal(v as string | null)}</Text>;
    case 'date':
      return <Text size="sm">{formatDate(v as string | null)}</Text>;
    case 'enum':
      if (field.name === 'color' && typeof v === 'string') {
        return (
          <Group gap={6} wrap="nowrap">
            <ColorSwatch color={`var(--mantine-color-${v}-6)`} size={14} />
            <Text size="sm">{t(`catalogs.colors.${v}`, { defaultValue: v })}</Text>
          </Group>
        );
      }
      if (field.name === 'code' && typeof record.color === 'string') {
        return (
          <Badge color={record.color} variant="filled" autoContrast>
            {String(v ?? '')}
          </Badge>
        );
      }
      return <Text size="sm">{String(v ?? '')}</Text>;
    default:
      return <Text size="sm">{v == null ? '' : String(v)}</Text>;
  }
}
