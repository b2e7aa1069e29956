import { z } from 'zod';
import { cuiProblem, cuiProblemMessages, normalizeCui } from './cui.ts';
import { workflowMessages as texts } from './messages/workflow.ts';
import { textWith } from './messages.ts';
import { nitProblem, nitProblemMessages, normalizeNit } from './nit.ts';

/**
 * Shared field schemas for what arrives from outside: record ids, calendar dates, periods, CUI, NIT and
 * free text. Every route's params, query and body and every form use these (money and rates live in
 * money.ts), so `0x1`, `1e0`, ` 1`, `+1`, `01` or 2^31 never reach SQL (an int4 column answers a 500
 * for 2^31, and `Number('0x1')` is 1), and a rule about a field is written once.
 */

/** Largest value of a Postgres `integer` (int4) column: every id of the database is one. */
export const MAX_ID = 2_147_483_647;

/*
 * Texts from the catalogue (messages/workflow.ts). A text with values (a label, a bound) is made with
 * textWith, which remembers its key and parameters so the error handler sends them (messages.ts is a leaf
 * of the domain: importing it here makes no cycle).
 */

const idMessage = texts.idInvalid;

/** An id in a JSON body: an integer 1..2^31-1. */
export const idSchema = z
  .number({ error: idMessage })
  .int({ error: idMessage })
  .min(1, { error: idMessage })
  .max(MAX_ID, { error: idMessage });

/**
 * An id a form picks from a list (an entity, say): the same bounds as `idSchema`, with the field's own message
 * («Entidad: elija …») when nothing was picked or the value is not an id.
 */
export const pickedIdSchema = (message: string) =>
  z.number({ error: message }).int({ error: message }).min(1, { error: message }).max(MAX_ID, { error: message });

/** The municipal entity a form picks, in a body (agreements, solvency certificates, legal cases). */
export const entityIdSchema = pickedIdSchema(texts.entityPick);

/**
 * An id in a path or query string: decimal digits only, no sign, no leading zero, no spaces, no
 * exponent or hex, within int4.
 */
export const idTextSchema = z.string({ error: idMessage }).transform((text, ctx) => {
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > MAX_ID) {
    ctx.addIssue({ code: 'custom', message: idMessage });
    return z.NEVER;
  }
  return Number(text);
});

/** Params of every `/:id` route. */
export const idParamsSchema = z.object({ id: idTextSchema });

/** A list of ids in a body (unique not implied). */
export const idListSchema = z.array(idSchema);

/** Earliest and latest calendar day any date field accepts. */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '2100-12-31';

/** True for `YYYY-MM-DD` naming a day that exists (no 2026-02-30), within MIN_DATE..MAX_DATE. */
export function isCalendarDate(iso: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return false;
  const [y, m, d] = iso.split('-').map(Number);
  const dt = new Date(Date.UTC(y, m - 1, d));
  const real = dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
  return real && iso >= MIN_DATE && iso <= MAX_DATE;
}

/** `YYYY-MM-DD`, a real calendar day between 1900-01-01 and 2100-12-31: every date in query and body. */
export const dateSchema = z
  .string({ error: texts.dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: texts.dateInvalid, abort: true })
  // The text names MIN_DATE and MAX_DATE (a schema's message is a fixed text).
  .refine(isCalendarDate, { error: texts.dateOutOfRange });

/**
 * C0 control characters and DEL, which no text field accepts (Postgres refuses NUL in text with an
 * error); tab, line feed and carriage return are the only ones allowed, for multi-line text. Also the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): invisible, they make
 * a name or a code read differently from what is stored ("Trojan Source"). The single direction marks
 * (U+200E, U+200F, U+061C) pass: they reorder nothing beyond the characters next to them and appear in
 * right-to-left text copied from other systems (docs/decisions.md).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;

/**
 * A whole number typed in a query string (page, page size, a number column): decimal digits only,
 * an optional minus sign when `min` is negative, within `min..max` (int4 at most).
 */
export const intTextSchema = ({ min = -MAX_ID, max = MAX_ID }: { min?: number; max?: number } = {}) =>
  z.union([z.string(), z.number()], { error: texts.integerInvalid }).transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v;
    const n = Number(text);
    if (!/^-?(0|[1-9]\d{0,9})$/.test(text) || text === '-0' || n < min || n > max) {
      // Its bounds vary by field: not a fixed text, so the server keys it as zod's own (`zod.custom`).
      ctx.addIssue({ code: 'custom', message: textWith('workflow.integerOutOfRange', { min, max }) });
      return z.NEVER;
    }
    return n;
  });

/** A payroll period `AAAA-MM` (year and month), between 1900-01 and 2100-12. */
export const periodSchema = z
  .string({ error: texts.periodInvalid })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: texts.periodInvalid })
  .refine((v) => v >= MIN_DATE.slice(0, 7) && v <= MAX_DATE.slice(0, 7), {
    // The text names MIN_DATE and MAX_DATE's months.
    error: texts.periodOutOfRange,
  });
export type Period = z.infer<typeof periodSchema>;

/**
 * Free text typed by a person: trimmed, without control characters (tab and line breaks only when
 * `multiline`), at most `max` characters; `min` 1 makes it required. The message names `label`.
 */
export const textSchema = ({
  label,
  max,
  min = 0,
  multiline = false,
}: {
  label: string;
  max: number;
  min?: number;
  multiline?: boolean;
}) =>
  z
    .string({ error: textWith('workflow.textNotText', { label }) })
    .trim()
    .min(min, {
      error:
        min <= 1
          ? textWith('workflow.textRequired', { label: label.toLowerCase() })
          : textWith('workflow.textMinLength', { label, limit: min }),
    })
    .max(max, { error: textWith('workflow.textMaxLength', { label, limit: max }) })
    .refine((v) => !CONTROL_CHARACTERS.test(v) && (multiline || !/[\t\n\r]/.test(v)), {
      error: textWith('workflow.textForbiddenCharacters', { label }),
    });

/** The CUI as typed (spaces and dashes allowed), validated and normalised to 13 digits. */
export const cuiSchema = z
  .string({ error: cuiProblemMessages.EMPTY })
  .transform(normalizeCui)
  .superRefine((v, ctx) => {
    const p = cuiProblem(v);
    if (p) ctx.addIssue({ code: 'custom', message: cuiProblemMessages[p] });
  });

/** Params of the routes addressed by a CUI (`/:cui`). */
export const cuiParamsSchema = z.object({ cui: cuiSchema });

/** Optional NIT: empty means none; otherwise check digit validated, stored without dash. */
export const nitSchema = z
  .string()
  .transform((v) => normalizeNit(v))
  .superRefine((v, ctx) => {
    if (!v) return;
    const p = nitProblem(v);
    if (p) ctx.addIssue({ code: 'custom', message: nitProblemMessages[p] });
  })
  .transform((v) => v || null);
