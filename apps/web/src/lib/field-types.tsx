import { formatNit, formatPeriod } from '@aporta/domain';
import { placeholderImage } from '@aporta/domain/template';
import { Avatar, Badge, Group, NumberInput, Select, Switch, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../components/DateField.tsx';
import { PeriodField } from '../components/PeriodField.tsx';
import {
  displayCui,
  formatCui,
  formatDate,
  formatDateTime,
  formatMoney,
  formatMoneyDecimal,
  formatNumber,
  ltr,
} from './format.ts';

/**
 * The field-type registry: for each kind of value the app shows, how it reads as text (cells, exports
 * made in the browser, history entries), how a table cell shows it, which input edits it and which
 * control filters a list by it. The catalogue engine (its field metadata) and the module lists
 * (their columns and filters) both go through it, so a date, an amount or a CUI looks the same on
 * every screen. Spreadsheet exports are produced by the server with the same filters (ExportButtons).
 */
export const fieldKinds = [
  'text',
  'number',
  'money',
  'date',
  'period',
  'datetime',
  'boolean',
  'enum',
  'reference',
  'cui',
  'nit',
  'status',
  'image',
] as const;
export type FieldKind = (typeof fieldKinds)[number];

/** One selectable value of an enum or reference field, as Mantine's Select takes it. */
export interface FieldOption {
  value: string;
  label: string;
}

/** What a renderer may need besides the value. */
export interface FieldContext {
  t: TFunction;
  /** Enum and reference fields: value → label. */
  options?: readonly FieldOption[];
  /** Reference fields: the label the API sent with the record (`labels[name]`); images: the record's name. */
  label?: string | null;
  /** Status fields: the badge colour of each value. */
  colors?: Record<string, string>;
}

/** Props every input and filter control receives; values travel as the API has them. */
export interface FieldControlProps {
  label: ReactNode;
  value: unknown;
  onChange: (value: unknown) => void;
  options?: readonly FieldOption[];
  required?: boolean;
  disabled?: boolean;
  error?: ReactNode;
  placeholder?: string;
  maxLength?: number;
  /** Number fields: decimals allowed (none by default). */
  decimals?: number;
  w?: React.ComponentProps<typeof TextInput>['w'];
  'data-testid'?: string;
}

export interface FieldType {
  /** Plain text of a value ('' for none). */
  text: (value: unknown, ctx: FieldContext) => string;
  /** A table cell (defaults to `text`). */
  cell?: (value: unknown, ctx: FieldContext) => ReactNode;
  /** The form input; absent for values nobody types (date-times are set by the server). */
  input?: (props: FieldControlProps) => ReactNode;
  /** The list filter: an exact value (`?name=value`), empty for "all". */
  filter?: (props: FieldControlProps) => ReactNode;
}

const isNone = (v: unknown) => v === null || v === undefined || v === '';
const str = (v: unknown) => (isNone(v) ? '' : String(v));

/**
 * Money as the API sends it: the exact decimal text of JSON (`"1234.50"`, see money.ts), or bigint cents
 * in code. The one formatter for amounts in lists and forms (lib/format.ts: "Q 1,234.56").
 */
export function moneyText(v: unknown): string {
  if (isNone(v)) return '';
  if (typeof v === 'bigint') return formatMoney(v);
  if (typeof v === 'string' || typeof v === 'number') return formatMoneyDecimal(v);
  return '';
}

const optionLabel = (v: unknown, ctx: FieldContext) => {
  const s = str(v);
  return ctx.options?.find((o) => o.value === s)?.label ?? s;
};

const textInput = (p: FieldControlProps) => (
  <TextInput
    label={p.label}
    value={str(p.value)}
    onChange={(e) => p.onChange(e.currentTarget.value)}
    required={p.required}
    disabled={p.disabled}
    error={p.error}
    placeholder={p.placeholder}
    maxLength={p.maxLength}
    w={p.w}
    data-testid={p['data-testid']}
  />
);

const selectOf = (data: readonly FieldOption[], p: FieldControlProps, clearable: boolean) => (
  <Select
    label={p.label}
    data={data as FieldOption[]}
    value={isNone(p.value) ? null : String(p.value)}
    onChange={(v) => p.onChange(v)}
    clearable={clearable}
    allowDeselect={clearable}
    searchable={data.length > 8}
    limit={data.length > 100 ? 100 : undefined}
    required={p.required}
    disabled={p.disabled}
    error={p.error}
    placeholder={p.placeholder}
    w={p.w}
    data-testid={p['data-testid']}
  />
);

/** A Yes/No filter for boolean fields, with the shared labels. */
function BooleanFilter(p: FieldControlProps) {
  const { t } = useTranslation();
  return selectOf(
    [
      { value: 'true', label: t('ui.yes') },
      { value: 'false', label: t('ui.no') },
    ],
    { ...p, value: isNone(p.value) ? null : String(p.value) },
    true,
  );
}

function BooleanCell({ value }: { value: unknown }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      {value ? (
        <IconCircleCheck size={16} color="var(--mantine-color-green-7)" aria-hidden />
      ) : (
        <IconCircleX size={16} color="var(--mantine-color-gray-6)" aria-hidden />
      )}
      <Text size="sm">{value ? t('ui.yes') : t('ui.no')}</Text>
    </Group>
  );
}

export const fieldTypes: Record<FieldKind, FieldType> = {
  text: { text: str, input: textInput, filter: textInput },
  number: {
    text: (v) => (typeof v === 'number' ? formatNumber(v) : str(v)),
    input: (p) => (
      <NumberInput
        label={p.label}
        value={typeof p.value === 'number' ? p.value : ''}
        onChange={(v) => p.onChange(typeof v === 'number' ? v : null)}
        allowDecimal={!!p.decimals}
        decimalScale={p.decimals}
        required={p.required}
        disabled={p.disabled}
        error={p.error}
        w={p.w}
      />
    ),
    filter: textInput,
  },
  money: {
    text: moneyText,
    cell: (v) => (
      <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
        {moneyText(v)}
      </Text>
    ),
    // Text, not a number input: a JS number would round large amounts. The API reads the text with the
    // one amount parser (messages naming the field) and answers the exact decimal text.
    input: (p) => (
      <TextInput
        label={p.label}
        value={isNone(p.value) ? '' : String(p.value)}
        onChange={(e) => p.onChange(e.currentTarget.value || null)}
        leftSection="Q"
        inputMode="decimal"
        autoComplete="off"
        required={p.required}
        disabled={p.disabled}
        error={p.error}
        w={p.w}
      />
    ),
  },
  date: {
    text: (v) => formatDate(v as string | null),
    input: (p) => (
      <DateField
        label={p.label}
        value={(p.value as string | null) ?? null}
        onChange={p.onChange}
        required={p.required}
        disabled={p.disabled}
        error={p.error}
        w={p.w}
      />
    ),
    filter: (p) => <DateField label={p.label} value={(p.value as string | null) ?? null} onChange={p.onChange} w={p.w} />,
  },
  // A payroll period `AAAA-MM`, read and typed mm/aaaa (PeriodField).
  period: {
    text: (v) => (isNone(v) ? '' : formatPeriod(String(v))),
    cell: (v) => <span style={{ whiteSpace: 'nowrap' }}>{isNone(v) ? '' : formatPeriod(String(v))}</span>,
    input: (p) => (
      <PeriodField
        label={p.label}
        value={(p.value as string | null) ?? null}
        onChange={p.onChange}
        required={p.required}
        disabled={p.disabled}
        error={p.error}
        w={p.w}
        data-testid={p['data-testid']}
      />
    ),
    filter: (p) => (
      <PeriodField
        label={p.label}
        value={(p.value as string | null) ?? null}
        onChange={p.onChange}
        w={p.w}
        data-testid={p['data-testid']}
      />
    ),
  },
  datetime: { text: (v) => formatDateTime(v as string | null) },
  boolean: {
    text: (v, ctx) => (isNone(v) ? '' : v ? ctx.t('ui.yes') : ctx.t('ui.no')),
    cell: (v) => <BooleanCell value={v} />,
    input: (p) => (
      <Switch
        label={p.label}
        checked={!!p.value}
        onChange={(e) => p.onChange(e.currentTarget.checked)}
        disabled={p.disabled}
        error={p.error}
        mt="lg"
      />
    ),
    filter: (p) => <BooleanFilter {...p} />,
  },
  status: {
    text: optionLabel,
    cell: (v, ctx) =>
      isNone(v) ? null : (
        <Badge color={ctx.colors?.[str(v)] ?? 'gray'} variant="light" radius="sm">
          {optionLabel(v, ctx)}
        </Badge>
      ),
    input: (p) => selectOf(p.options ?? [], p, !p.required),
    filter: (p) => selectOf(p.options ?? [], p, true),
  },
  // A picture kept as a data: URI; without one, a placeholder generated from the record's name.
  image: {
    text: () => '',
    cell: (v, ctx) => <PlaceholderAvatar src={isNone(v) ? null : str(v)} name={ctx.label ?? ''} />,
  },
  enum: {
    text: optionLabel,
    input: (p) => selectOf(p.options ?? [], p, !p.required),
    filter: (p) => selectOf(p.options ?? [], p, true),
  },
  reference: {
    text: (v, ctx) => ctx.label ?? optionLabel(v, ctx),
    input: (p) => selectOf(p.options ?? [], p, !p.required),
    filter: (p) => selectOf(p.options ?? [], p, true),
  },
  cui: {
    text: (v) => displayCui(v as string | null),
    // dir="ltr" keeps the digit groups in order on a right-to-left page.
    cell: (v) => (
      <span dir="ltr" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
        {formatCui(v as string | null)}
      </span>
    ),
    input: textInput,
    filter: textInput,
  },
  // Stored without dash (`576937K`, the shared NIT schema's form), read with it: `576937-K`.
  nit: {
    text: (v) => ltr(isNone(v) ? '' : formatNit(String(v))),
    cell: (v) => <span dir="ltr">{isNone(v) ? '' : formatNit(String(v))}</span>,
    input: textInput,
    filter: textInput,
  },
};

/** A record's picture, or a placeholder generated from its name (never an external address). */
export function PlaceholderAvatar({ src, name, size = 36 }: { src: string | null; name: string; size?: number }) {
  return <Avatar src={src ?? placeholderImage(name || '?')} alt={name} size={size} radius="sm" />;
}

/** The cell of a value by its kind. */
export function FieldCell({ kind, value, ...ctx }: { kind: FieldKind; value: unknown } & Omit<FieldContext, 't'>) {
  const { t } = useTranslation();
  const type = fieldTypes[kind];
  const c = { t, ...ctx };
  return type.cell ? type.cell(value, c) : <Text size="sm">{type.text(value, c)}</Text>;
}

/** The input of a value by its kind (a read-only text input for kinds nobody types). */
export function FieldInput({ kind, ...props }: { kind: FieldKind } & FieldControlProps) {
  const { t } = useTranslation();
  const input = fieldTypes[kind].input;
  if (input) return input(props);
  return <TextInput label={props.label} value={fieldTypes[kind].text(props.value, { t })} readOnly disabled />;
}

/** The filter control of a value by its kind (text search for kinds without their own). */
export function FieldFilter({ kind, ...props }: { kind: FieldKind } & FieldControlProps) {
  return (fieldTypes[kind].filter ?? textInput)(props);
}
