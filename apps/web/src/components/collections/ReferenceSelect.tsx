import type { FieldMeta } from '@aporta/domain';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReferenceOptions } from '../../lib/useCollections.ts';

/** Searchable select of a reference field: options come from the server, filtered by what is typed. */
export function ReferenceSelect(props: {
  collection: string;
  field: FieldMeta;
  value: number | null;
  onChange: (value: number | null) => void;
  label?: string;
  error?: React.ReactNode;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
  w?: React.ComponentProps<typeof Select>['w'];
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [selectedLabel, setSelectedLabel] = useState<string | undefined>();
  // When the text is the selected option's own label, list every option again rather than only that one.
  const query = debounced === selectedLabel ? '' : debounced;
  const { data = [], isFetching } = useReferenceOptions(props.collection, props.field.name, query, props.value);
  const options = data.map((o) => ({ value: String(o.value), label: o.label }));
  const currentLabel = options.find((o) => o.value === String(props.value))?.label;
  if (currentLabel !== selectedLabel) setSelectedLabel(currentLabel);
  return (
    <Select
      label={props.label}
      placeholder={props.placeholder ?? t('catalogs.typeToSearch')}
      data={options}
      value={props.value == null ? null : String(props.value)}
      onChange={(v) => props.onChange(v ? Number(v) : null)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: o }) => o}
      clearable={!props.required}
      required={props.required}
      disabled={props.disabled}
      error={props.error}
      nothingFoundMessage={isFetching ? t('common.loading') : t('catalogs.nothingFound')}
      w={props.w}
      data-testid={props['data-testid']}
    />
  );
}
