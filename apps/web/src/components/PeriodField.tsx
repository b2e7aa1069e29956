import '@mantine/dates/styles.css';
import { ActionIcon, CloseButton, Group, Popover, TextInput, type TextInputProps } from '@mantine/core';
import { DatesProvider, MonthPicker } from '@mantine/dates';
import { IconCalendarMonth } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTypedPeriod, parseTypedPeriod } from '../lib/periods.ts';

export type PeriodFieldProps = Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange' | 'rightSection'> & {
  /** The period `AAAA-MM` ('' or null for none), what the API sends and expects. */
  value?: string | null;
  /** Called with the period `AAAA-MM` typed or picked, or null while the text is empty or not a month. */
  onChange?: (period: string | null) => void;
  /** A button that empties the field (by default when the field is not required). */
  clearable?: boolean;
};

/**
 * The one period field of the app (DateField's sibling): shows and reads mm/aaaa, as every list shows
 * periods, and also takes a typed or pasted aaaa-mm; a month picker in the user's language beside it.
 * The value stays `AAAA-MM`. Typed text that is not a month is refused with a message, never guessed; on
 * leaving the field it falls back to the value the page still holds, if any (as DateField does).
 */
export function PeriodField({
  value,
  onChange,
  placeholder,
  error,
  required,
  disabled,
  readOnly,
  clearable = !required,
  onBlur,
  ...props
}: PeriodFieldProps) {
  const { t, i18n } = useTranslation();
  const period = value && parseTypedPeriod(value) === value ? value : null;
  const [text, setText] = useState(() => formatTypedPeriod(period));
  const [left, setLeft] = useState(false);
  const [opened, setOpened] = useState(false);

  // A value set from outside (a link, a reset, the picker) shows as mm/aaaa, unless the text typed says it already.
  useEffect(() => {
    setText((typed) => (parseTypedPeriod(typed) === period ? typed : formatTypedPeriod(period)));
  }, [period]);

  const type = (next: string) => {
    setText(next);
    setLeft(false);
    const parsed = parseTypedPeriod(next);
    if (parsed !== period) onChange?.(parsed);
  };
  const pick = (p: string | null) => {
    setText(formatTypedPeriod(p));
    setLeft(false);
    setOpened(false);
    if (p !== period) onChange?.(p);
  };

  const invalid = text.trim() !== '' && parseTypedPeriod(text) === null;
  // While typing, a message only once the text is as long as a period; after leaving the field, at once.
  const typedError = invalid && (left || text.trim().length >= 7) ? t('ui.periodInvalid') : null;
  const locked = disabled || readOnly;

  return (
    <Popover
      opened={opened && !locked}
      onChange={setOpened}
      position="bottom-end"
      shadow="md"
      trapFocus
      returnFocus
      withRoles={false}
    >
      <Popover.Target>
        <TextInput
          value={text}
          onChange={(e) => type(e.currentTarget.value)}
          onBlur={(e) => {
            // As DateField: text that is not a month gives way to the period the page still holds.
            // A month typed as 2026-10 or 3/2026 reads as every list shows it: 10/2026, 03/2026.
            if (invalid && period) setText(formatTypedPeriod(period));
            else if (!invalid && text.trim()) setText(formatTypedPeriod(parseTypedPeriod(text)));
            else setLeft(true);
            onBlur?.(e);
          }}
          placeholder={placeholder ?? t('ui.periodFormat')}
          inputMode="numeric"
          autoComplete="off"
          required={required}
          disabled={disabled}
          readOnly={readOnly}
          error={typedError ?? error}
          rightSectionWidth={clearable && text ? 60 : 34}
          rightSectionPointerEvents="all"
          rightSection={
            locked ? null : (
              <Group gap={2} wrap="nowrap">
                {clearable && text && <CloseButton size="sm" aria-label={t('ui.clearPeriod')} onClick={() => pick(null)} />}
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="sm"
                  aria-label={t('ui.pickMonth')}
                  aria-haspopup="dialog"
                  aria-expanded={opened}
                  onClick={() => setOpened((o) => !o)}
                >
                  <IconCalendarMonth size={16} aria-hidden />
                </ActionIcon>
              </Group>
            )
          }
          {...props}
        />
      </Popover.Target>
      <Popover.Dropdown>
        {/* dayjs's global locale follows the chosen language (lib/i18n.ts loads it with the language). */}
        <DatesProvider settings={{ locale: dayjs.locale() }} key={i18n.language}>
          <MonthPicker
            value={period ? `${period}-01` : null}
            defaultDate={period ? `${period}-01` : undefined}
            onChange={(d) => pick(d ? d.slice(0, 7) : null)}
            allowDeselect={false}
            minDate="1900-01-01"
            maxDate="2100-12-31"
            ariaLabels={{
              previousYear: t('ui.previousYear'),
              nextYear: t('ui.nextYear'),
              previousDecade: t('ui.previousDecade'),
              nextDecade: t('ui.nextDecade'),
              yearLevelControl: t('ui.chooseYear'),
            }}
          />
        </DatesProvider>
      </Popover.Dropdown>
    </Popover>
  );
}
