import {
  addDays,
  type BusinessCalendar,
  businessCalendarSchema,
  excessPaymentPolicies,
  excessPaymentPolicyLabels,
  type SettingKey,
  type SettingOverview,
  scheduleSettingSchema,
  settingDefinitions,
  settingValueSchema,
} from '@aporta/domain/settings';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Divider,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { ApiError } from '../../lib/api.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { issueText, messageText } from '../../lib/server-messages.ts';
import { useScheduleSetting } from './api.ts';
import { CalendarPreview } from './CalendarPreview.tsx';

type YearlyList = 'fixed' | 'local' | 'halfDays';

/** A calendar as the editor holds it: the days of every year typed as dd/mm, decree days on a date. */
type CalendarDraft = Record<YearlyList, { id: number; day: string; name: string }[]> & {
  extraordinary: { id: number; date: string | null; name: string; legalBasis: string }[];
};

/** Rows being edited need a stable key: their position changes when one above is removed. */
let lastRowId = 0;
const rowId = () => ++lastRowId;

interface FormValues {
  value: unknown;
  effectiveFrom: string | null;
  retroactive: boolean;
  reason: string;
}

const toDayMonth = (md: string) => md.split('-').reverse().join('/');
/** `dd/mm` (or d/m) → `MM-DD`; anything else is left for the schema to refuse. */
const fromDayMonth = (text: string) => {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\s*$/.exec(text);
  return m ? `${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}` : text;
};

const yearlyDraft = (rows: BusinessCalendar[YearlyList]) =>
  rows.map((h) => ({ id: rowId(), day: toDayMonth(h.day), name: h.name }));
const yearlyValue = (rows: CalendarDraft[YearlyList]) => rows.map((h) => ({ day: fromDayMonth(h.day), name: h.name }));

const draftOf = (c: BusinessCalendar): CalendarDraft => ({
  fixed: yearlyDraft(c.fixed),
  local: yearlyDraft(c.local),
  halfDays: yearlyDraft(c.halfDays),
  extraordinary: c.extraordinary.map((h) => ({ id: rowId(), date: h.date, name: h.name, legalBasis: h.legalBasis })),
});
const calendarOf = (d: CalendarDraft) => ({
  fixed: yearlyValue(d.fixed),
  local: yearlyValue(d.local),
  halfDays: yearlyValue(d.halfDays),
  extraordinary: d.extraordinary.map((h) => ({ date: h.date ?? '', name: h.name, legalBasis: h.legalBasis })),
});

/** The form's value as the API takes it. */
const apiValue = (key: SettingKey, value: unknown) =>
  settingDefinitions[key].kind === 'calendar' ? calendarOf(value as CalendarDraft) : value;

const initialValue = (s: SettingOverview): unknown => {
  const v = (s.next ?? s.current).value;
  if (s.kind === 'calendar') return draftOf(v as BusinessCalendar);
  // "7.5000" is edited as "7.5", "7.0000" as "7".
  if (s.kind === 'rate') return (v as string).replace(/\.?0+$/, '');
  return v;
};

/**
 * Schedules a new value of one setting from a date, with a reason. The value's input follows its kind;
 * it is validated by the same schema the server applies. A date not after today is refused unless the
 * change is marked retroactive.
 */
export function ScheduleModal({
  setting,
  today,
  onClose,
}: {
  setting: SettingOverview | null;
  today: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const schedule = useScheduleSetting();
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: { value: null, effectiveFrom: null, retroactive: false, reason: '' },
    validate: (values) => {
      if (!setting) return {};
      const errors: Record<string, string> = {};
      const v = settingValueSchema(setting.key).safeParse(apiValue(setting.key, values.value));
      if (!v.success) errors.value = issueText(v.error.issues[0]?.message ?? '');
      const rest = scheduleSettingSchema.safeParse({ ...values, value: null, effectiveFrom: values.effectiveFrom ?? '' });
      if (!rest.success) for (const i of rest.error.issues) errors[String(i.path[0])] ??= issueText(i.message);
      if (!values.effectiveFrom) errors.effectiveFrom = t('settings.form.dateRequired');
      else if (!values.retroactive && values.effectiveFrom <= today) errors.effectiveFrom = t('settings.form.mustBeFuture');
      return errors;
    },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when another setting is opened.
  useEffect(() => {
    if (!setting) return;
    form.setValues({ value: initialValue(setting), effectiveFrom: null, retroactive: false, reason: '' });
    form.clearErrors();
  }, [setting?.key]);

  if (!setting) return null;
  const d = settingDefinitions[setting.key];
  const label = t('settings.form.value');

  const submit = form.onSubmit((values) => {
    const body = {
      value: apiValue(setting.key, values.value),
      effectiveFrom: values.effectiveFrom ?? '',
      reason: values.reason,
      retroactive: values.retroactive,
    };
    schedule.mutate(
      { key: setting.key, body },
      {
        onSuccess: () => {
          notifySuccess(t('settings.form.scheduled'));
          onClose();
        },
        onError: (err) => {
          // A value's error may name a part of it (value.fixed.2.day): it belongs to the value field.
          if (err instanceof ApiError) {
            const valueErrors = err.details.filter((x) => x.path === 'value' || x.path.startsWith('value.'));
            if (valueErrors.length) form.setFieldError('value', valueErrors.map(messageText).join(' '));
            const rest = new ApiError(
              err.status,
              err.code,
              err.message,
              err.details.filter((x) => !valueErrors.includes(x)),
              err.keyed,
            );
            if (valueErrors.length && rest.details.length === 0 && err.code === 'VALIDATION') return;
            showApiError(rest, form, ['effectiveFrom', 'reason', 'retroactive'], { notify: 'non-validation' });
            return;
          }
          showApiError(err);
        },
      },
    );
  });

  const valueInput = () => {
    const props = form.getInputProps('value');
    switch (d.kind) {
      case 'rate':
        return (
          <TextInput
            {...props}
            label={label}
            required
            inputMode="decimal"
            rightSection="%"
            description={t('settings.form.rateHint')}
          />
        );
      case 'integer':
        return <NumberInput {...props} label={label} required allowDecimal={false} allowNegative={false} description={d.unit} />;
      case 'budgetLines':
        return (
          <TagsInput {...props} label={label} required description={t('settings.form.budgetLinesHint')} splitChars={[',', ' ']} />
        );
      case 'choice':
        return (
          <Select
            {...props}
            label={label}
            required
            allowDeselect={false}
            data={excessPaymentPolicies.map((p) => ({ value: p, label: excessPaymentPolicyLabels[p] }))}
          />
        );
      case 'calendar':
        return (
          <CalendarEditor
            value={form.values.value as CalendarDraft}
            onChange={(v) => form.setFieldValue('value', v)}
            error={form.errors.value}
            year={Number((form.values.effectiveFrom ?? today).slice(0, 4))}
          />
        );
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t('settings.form.title', { label: setting.label })}
      size={d.kind === 'calendar' ? 'xl' : 'md'}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {setting.description}
          </Text>
          {valueInput()}
          <DateField
            label={t('settings.form.effectiveFrom')}
            required
            minDate={form.values.retroactive ? undefined : addDays(today, 1)}
            {...form.getInputProps('effectiveFrom')}
            onChange={(v) => form.setFieldValue('effectiveFrom', v)}
          />
          <Checkbox label={t('settings.form.retroactive')} {...form.getInputProps('retroactive', { type: 'checkbox' })} />
          {form.values.retroactive && (
            <Alert color="orange" variant="light">
              {t('settings.form.retroactiveWarning')}
            </Alert>
          )}
          <Textarea
            label={t('settings.form.reason')}
            required
            autosize
            minRows={2}
            maxLength={500}
            {...form.getInputProps('reason')}
          />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('settings.cancel')}
            submitLabel={t('settings.form.submit')}
            loading={schedule.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function CalendarEditor({
  value,
  onChange,
  error,
  year,
}: {
  value: CalendarDraft;
  onChange: (v: CalendarDraft) => void;
  error?: unknown;
  /** The year the preview opens on: the year the value takes effect. */
  year: number;
}) {
  const { t } = useTranslation();
  if (!value) return null;
  const set = <K extends keyof CalendarDraft>(k: K, rows: CalendarDraft[K]) => onChange({ ...value, [k]: rows });
  const remove = <IconTrash size={16} />;
  const heading = (k: keyof CalendarDraft) => (
    <Text size="sm" fw={600}>
      {t(`settings.calendar.${k}`)}
    </Text>
  );
  const addButton = (onClick: () => void) => (
    <Button
      variant="subtle"
      size="compact-sm"
      leftSection={<IconPlus size={14} />}
      onClick={onClick}
      style={{ alignSelf: 'flex-start' }}
    >
      {t('settings.calendar.add')}
    </Button>
  );
  const dayRows = (k: YearlyList) => (
    <Stack gap={6}>
      {heading(k)}
      {value[k].map((row, i) => (
        <Group key={row.id} gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            aria-label={t('settings.calendar.day')}
            placeholder="dd/mm"
            w={90}
            value={row.day}
            onChange={(e) =>
              set(
                k,
                value[k].map((r, j) => (j === i ? { ...r, day: e.currentTarget.value } : r)),
              )
            }
          />
          <TextInput
            aria-label={t('settings.calendar.name')}
            style={{ flex: 1 }}
            value={row.name}
            onChange={(e) =>
              set(
                k,
                value[k].map((r, j) => (j === i ? { ...r, name: e.currentTarget.value } : r)),
              )
            }
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('settings.calendar.remove')}
            onClick={() =>
              set(
                k,
                value[k].filter((_, j) => j !== i),
              )
            }
          >
            {remove}
          </ActionIcon>
        </Group>
      ))}
      {addButton(() => set(k, [...value[k], { id: rowId(), day: '', name: '' }]))}
    </Stack>
  );
  const parsed = businessCalendarSchema.safeParse(calendarOf(value));
  return (
    <Stack gap="md">
      <Alert color="blue" variant="light">
        {t('settings.calendar.computedNote')}
      </Alert>
      {dayRows('fixed')}
      {dayRows('local')}
      {dayRows('halfDays')}
      <Stack gap={6}>
        {heading('extraordinary')}
        {value.extraordinary.map((row, i) => {
          const change = (patch: Partial<CalendarDraft['extraordinary'][number]>) =>
            set(
              'extraordinary',
              value.extraordinary.map((r, j) => (j === i ? { ...r, ...patch } : r)),
            );
          return (
            <Group key={row.id} gap="xs" wrap="nowrap" align="flex-end">
              <DateField
                aria-label={t('settings.calendar.date')}
                w={150}
                value={row.date}
                onChange={(v) => change({ date: v })}
              />
              <TextInput
                aria-label={t('settings.calendar.name')}
                placeholder={t('settings.calendar.name')}
                style={{ flex: 1 }}
                value={row.name}
                onChange={(e) => change({ name: e.currentTarget.value })}
              />
              <TextInput
                aria-label={t('settings.calendar.legalBasis')}
                placeholder={t('settings.calendar.legalBasisHint')}
                style={{ flex: 1 }}
                value={row.legalBasis}
                onChange={(e) => change({ legalBasis: e.currentTarget.value })}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('settings.calendar.remove')}
                onClick={() =>
                  set(
                    'extraordinary',
                    value.extraordinary.filter((_, j) => j !== i),
                  )
                }
              >
                {remove}
              </ActionIcon>
            </Group>
          );
        })}
        {addButton(() => set('extraordinary', [...value.extraordinary, { id: rowId(), date: null, name: '', legalBasis: '' }]))}
      </Stack>
      {typeof error === 'string' && error && (
        <Alert color="red" variant="light">
          {error}
        </Alert>
      )}
      <Divider label={t('settings.calendar.previewButton')} labelPosition="left" />
      {parsed.success ? (
        <CalendarPreview calendar={parsed.data} initialYear={year} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('settings.calendar.previewInvalid')}
        </Text>
      )}
    </Stack>
  );
}
