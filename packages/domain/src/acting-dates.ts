import { dateSchema, periodSchema } from './fields.ts';
import { textWith } from './messages.ts';
import { addMonths, periodOf } from './periods.ts';
import { guatemalaToday } from './settings.ts';

/**
 * Dates a job or an action acts on (docs/decisions.md, "Jobs bounded by what they may change"): a job
 * that suspends pensions or defaults agreements as of a day, a payroll for a month, letters for a
 * month. They act only up to today in Guatemala (`guatemalaToday`): a day after it is refused with a
 * 400 naming the field, whoever asks. How far back is the settings' history (checked by the API, which
 * reads it: `assertSettingsCover` in modules/settings/history.ts) or the module's own rule.
 */

/** The message for a day after today, naming the field (`label`: "La fecha de pago"). */
export const futureDateMessage = (label: string, today: string = guatemalaToday()): string =>
  textWith('platform.futureDateNamed', { label, today });

/** The message for a month after the last one allowed, naming the field (`label`: "El período"). */
export const futurePeriodMessage = (label: string, last: string): string =>
  textWith('platform.futurePeriodNamed', { label, last });

/** True when `iso` is not after today in Guatemala. */
export const notAfterToday = (iso: string, today: string = guatemalaToday()): boolean => iso <= today;

/** The last month an action may name: the current month plus `ahead` months (0: the current month). */
export const lastActingPeriod = (ahead: number, today: string = guatemalaToday()): string => addMonths(periodOf(today), ahead);

/** A day a job or action acts as of: a real calendar day, not after today in Guatemala. */
export const actingDateSchema = (label: string) =>
  dateSchema.superRefine((v, ctx) => {
    const today = guatemalaToday();
    if (!notAfterToday(v, today)) ctx.addIssue({ code: 'custom', message: futureDateMessage(label, today) });
  });

/**
 * A month an action acts on (a payroll, letters): a real month, not after the current month plus
 * `ahead` months.
 */
export const actingPeriodSchema = (label: string, ahead: number) =>
  periodSchema.superRefine((v, ctx) => {
    const last = lastActingPeriod(ahead);
    if (v > last) ctx.addIssue({ code: 'custom', message: futurePeriodMessage(label, last) });
  });

/** A day whose month an action acts on: a real calendar day whose month is not after the current plus `ahead`. */
export const actingDayOfPeriodSchema = (label: string, ahead: number) =>
  dateSchema.superRefine((v, ctx) => {
    const last = lastActingPeriod(ahead);
    if (periodOf(v) > last) ctx.addIssue({ code: 'custom', message: futurePeriodMessage(label, last) });
  });
