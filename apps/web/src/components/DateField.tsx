import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps, DatesProvider } from '@mantine/dates';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { formatIsoDate, parseTypedDate } from '../lib/dates.ts';

export type DateFieldProps = Omit<DateInputProps, 'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser'> & {
  /** ISO aaaa-mm-dd ('' or null for none), what the API sends and expects. */
  value?: string | null;
  onChange?: (iso: string | null) => void;
};

/**
 * The one date field of the app: shows and reads dd/mm/aaaa whatever the browser's locale (never the
 * native mm/dd/yyyy input), with a calendar in the user's language; the value stays ISO aaaa-mm-dd.
 * Typed text that is not a real date is refused rather than guessed.
 */
export function DateField({ value, onChange, placeholder, ...props }: DateFieldProps) {
  const { t, i18n } = useTranslation();
  return (
    // dayjs's global locale follows the chosen language (lib/i18n.ts loads it with the language).
    <DatesProvider settings={{ locale: dayjs.locale(), firstDayOfWeek: 1 }} key={i18n.language}>
      <DateInput
        valueFormat={(iso) => formatIsoDate(iso)}
        dateParser={parseTypedDate}
        value={value || null}
        onChange={(v) => onChange?.(v ? v.slice(0, 10) : null)}
        placeholder={placeholder ?? t('ui.dateFormat')}
        clearable={!props.required}
        clearButtonProps={{ 'aria-label': t('ui.clearDate') }}
        {...props}
      />
    </DatesProvider>
  );
}
