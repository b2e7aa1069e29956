import { type MessageKey, type MessageText, serverMessages } from './messages/index.ts';

// A leaf of the domain: money.ts, periods.ts, fields.ts… use msg(), so nothing of theirs is imported here
// (the Spanish formats below are the same as money.ts formatMoney and periods.ts formatDay/formatPeriod).

/*
 * Messages the server sends (errors, field and row details, warnings) as a stable key and its
 * parameters. The Spanish text of each key lives in messages/<module>.ts; the web translates the key
 * into the user's language (apps/web/src/lib/server-messages/locales) and falls back to the Spanish
 * text, which is also what logs, files and documents carry.
 *
 * A text's placeholders are i18next's: `{{name}}`, or `{{name, format}}` with a format both sides
 * apply in their language: `money` (integer cents), `date` (aaaa-mm-dd), `datetime` (ISO), `period`
 * (aaaa-mm), `number`.
 */

export { type MessageKey, serverMessages } from './messages/index.ts';

export type MessageParam = string | number;
export type MessageParams = Record<string, MessageParam>;

/** The names of a text's placeholders: `'Mínimo {{min, money}}'` → `'min'`. */
type PlaceholderNames<S extends string> = S extends `${string}{{${infer P}}}${infer Rest}`
  ? (P extends `${infer N},${string}` ? Trim<N> : Trim<P>) | PlaceholderNames<Rest>
  : never;
type Trim<S extends string> = S extends ` ${infer T}` ? Trim<T> : S extends `${infer T} ` ? Trim<T> : S;

type ParamsOf<K extends MessageKey> = [PlaceholderNames<MessageText<K>>] extends [never]
  ? []
  : [params: Record<PlaceholderNames<MessageText<K>>, MessageParam | bigint>];

/** A message: its key, its parameters, and its Spanish text (the fallback). */
export interface Message {
  readonly key: string;
  readonly params?: MessageParams;
  readonly text: string;
}

/** Formats shared by the Spanish text here and by the web's i18next formatters (lib/server-messages.ts). */
export const messageFormats = ['money', 'date', 'datetime', 'period', 'number'] as const;
export type MessageFormat = (typeof messageFormats)[number];

const pad = (n: number) => String(n).padStart(2, '0');
const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Integer cents → `Q 1,234.50` (`-Q 1,234.50`), as money.ts formatMoney. */
function formatMoney(cents: bigint): string {
  const a = cents < 0n ? -cents : cents;
  const text = `Q ${group(String(a / 100n))}.${String(a % 100n).padStart(2, '0')}`;
  return cents < 0n ? `-${text}` : text;
}
const formatDay = (isoDay: string) => isoDay.split('-').reverse().join('/');
const formatPeriod = (period: string) => `${period.slice(5, 7)}/${period.slice(0, 4)}`;

function formatSpanish(value: MessageParam, format: string | undefined): string {
  const text = String(value);
  switch (format) {
    case 'money':
      return /^-?\d+$/.test(text) ? formatMoney(BigInt(text)) : text;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}/.test(text) ? formatDay(text.slice(0, 10)) : text;
    case 'datetime': {
      const d = new Date(text);
      if (Number.isNaN(d.getTime())) return text;
      // Guatemala time (UTC−6, no daylight saving).
      const gt = new Date(d.getTime() - 6 * 3_600_000);
      return `${pad(gt.getUTCDate())}/${pad(gt.getUTCMonth() + 1)}/${gt.getUTCFullYear()} ${pad(gt.getUTCHours())}:${pad(gt.getUTCMinutes())}`;
    }
    case 'period':
      return /^\d{4}-\d{2}$/.test(text) ? formatPeriod(text) : text;
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text)
        ? group(text.split('.')[0]) + (text.includes('.') ? `.${text.split('.')[1]}` : '')
        : text;
    default:
      return text;
  }
}

/** Fills a text's `{{name, format}}` placeholders the Spanish way; an unknown one is left as written. */
export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (whole, name: string, format?: string) =>
    Object.hasOwn(params, name) ? formatSpanish(params[name], format) : whole,
  );
}

const flat: Record<string, string> = serverMessages;

/** The Spanish text of a key (undefined for a key the catalogue does not hold). */
export const spanishTextOf = (key: string): string | undefined => (Object.hasOwn(flat, key) ? flat[key] : undefined);

/** A message by key: `msg('planillas.notFound')`, `msg('planillas.salaryBelowMinimum', { min: 754240n })`. */
export function msg<K extends MessageKey>(key: K, ...[params]: ParamsOf<K>): Message {
  const clean = params
    ? (Object.fromEntries(
        Object.entries(params as Record<string, MessageParam | bigint>).map(([k, v]) => [
          k,
          typeof v === 'bigint' ? String(v) : v,
        ]),
      ) as MessageParams)
    : undefined;
  return { key, ...(clean ? { params: clean } : {}), text: interpolate(flat[key], clean) };
}

/** The Spanish text of a key with no placeholders: for a schema's `{ error: … }` and other fixed texts. */
export const text = <K extends MessageKey>(key: K & (ParamsOf<K> extends [] ? K : never)): string => flat[key];

let byText: Map<string, string> | undefined;

/** Texts made by textWith (a schema's message with values): text → its key and parameters. Bounded. */
const filled = new Map<string, { key: string; params: MessageParams }>();
const MAX_FILLED = 20_000;

/**
 * The Spanish text of a key with values, for a schema's `{ error: … }` built once with its label or bounds
 * (`textWith('platform.textTooLong', { label: 'Nombre', max: 200 })`): zod carries only the text, so the
 * text remembers its key and parameters for messageOfText.
 */
export function textWith<K extends MessageKey>(key: K, ...params: ParamsOf<K>): string {
  const m = msg(key, ...params);
  if (filled.size < MAX_FILLED) filled.set(m.text, { key: m.key, params: m.params ?? {} });
  return m.text;
}

/**
 * The key of a Spanish text that reached the error handler as text alone (a schema's message, a domain
 * rule's refusal): a fixed catalogue text, or one made by textWith. Two keys may hold the same fixed text;
 * either is then sent (their translations say the same).
 */
export function keyOfText(spanish: string): string | undefined {
  return messageOfText(spanish)?.key;
}

/** The key and parameters of a Spanish text (see keyOfText). */
export function messageOfText(spanish: string): { key: string; params?: MessageParams } | undefined {
  if (!byText) {
    byText = new Map();
    for (const [k, v] of Object.entries(flat)) if (!v.includes('{{') && !byText.has(v)) byText.set(v, k);
  }
  const key = byText.get(spanish);
  if (key) return { key };
  const f = filled.get(spanish);
  return f ? { key: f.key, ...(Object.keys(f.params).length ? { params: f.params } : {}) } : undefined;
}

export const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Message).key === 'string' &&
  typeof (value as Message).text === 'string';

/** A field's or row's detail from a message: `{ path, ...detail(msg(…)) }` — text, key and parameters. */
export const detail = (m: Message): { message: string; key: string; params?: MessageParams } => ({
  message: m.text,
  key: m.key,
  ...(m.params ? { params: m.params } : {}),
});
