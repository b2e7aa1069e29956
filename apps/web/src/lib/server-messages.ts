import { type MessageParams, messageOfText } from '@aporta/domain/messages';
import { formatPeriod } from '@aporta/domain/periods';
import i18n from 'i18next';
import { z } from 'zod';
import { ar, de, en, es, fr, it, ru, zhCN } from 'zod/locales';
import { formatDate, formatDateTime, formatMoney, formatNumber } from './format.ts';
import type { Language } from './i18n.ts';

/*
 * Messages from the server (and the domain's schemas run in the browser), said in the user's language.
 * The server sends each message as Spanish text with a key and its parameters (domain messages.ts);
 * this file words the key with lib/server-messages/locales, or, for zod's own issues, with zod's locale
 * of the language. A message with no key, or a key this build does not know, is shown as sent.
 */

interface Said {
  message: string;
  key?: string;
  params?: MessageParams;
}

const zodLocales: Record<Language, () => { localeError: z.core.$ZodErrorMap }> = {
  es,
  en,
  ar,
  ch: zhCN,
  fr,
  gr: de,
  it,
  ru,
};

const currentLang = (): Language => {
  const l = (i18n.language ?? 'es').slice(0, 2);
  return (l in zodLocales ? l : 'es') as Language;
};

/** A zod issue the server sent as `zod.<code>` with its facts, worded by zod's locale of the language. */
function zodIssueText(params: MessageParams): string | undefined {
  const issue: Record<string, unknown> = { ...params };
  for (const k of ['minimum', 'maximum'])
    if (typeof issue[k] === 'string' && /^-?\d+$/.test(issue[k] as string)) issue[k] = Number(issue[k]);
  if (typeof issue.inclusive === 'number') issue.inclusive = issue.inclusive === 1;
  if (typeof issue.values === 'string') issue.values = (issue.values as string).split('|');
  if (typeof issue.keys === 'string') issue.keys = (issue.keys as string).split('|');
  const out = zodLocales[currentLang()]().localeError(issue as unknown as z.core.$ZodRawIssue);
  return typeof out === 'string' ? out : out?.message;
}

/** The user's-language text of a message the server sent (an error, a field's or a row's detail). */
export function messageText(said: Said): string {
  return worded(said, 0);
}

function worded(said: Said, depth: number): string {
  const found = said.key ? { key: said.key, params: said.params } : messageOfText(said.message);
  if (!found) return said.message;
  const { key, params } = found;
  if (key.startsWith('zod.')) return (params && zodIssueText(params)) || said.message;
  const full = `server.${key}`;
  if (!i18n.exists(full)) return said.message;
  // A parameter that is itself a message (a setting's problem, a parser's reason) is said in the language too.
  const values = Object.fromEntries(
    Object.entries(params ?? {}).map(([k, v]) => {
      const inner = typeof v === 'string' && depth === 0 ? messageOfText(v) : undefined;
      return [k, inner ? worded({ message: String(v), ...inner }, depth + 1) : v];
    }),
  );
  return i18n.t(full, { ...values, interpolation: { escapeValue: false } });
}

/** A schema issue's message checked in the browser: a catalogue text is translated, zod's own already is. */
export const issueText = (message: string): string => messageText({ message });

/** Zod's own messages (a required field, a too-long text) in the chosen language, for forms checked here. */
export function applyZodLanguage(language: Language): void {
  z.config(zodLocales[language]());
}

/**
 * The formats a message's placeholders name (`{{min, money}}`): the same five the server's Spanish
 * text uses (domain messages.ts), each in the language of the screen.
 */
export function registerMessageFormats(): void {
  const f = i18n.services.formatter;
  if (!f) return;
  f.add('money', (value, lng) => {
    const text = String(value);
    return /^-?\d+$/.test(text) ? formatMoney(BigInt(text), lng) : text;
  });
  f.add('date', (value, lng) => formatDate(String(value), lng) || String(value));
  f.add('datetime', (value, lng) => formatDateTime(String(value), lng) || String(value));
  f.add('period', (value) => (/^\d{4}-\d{2}$/.test(String(value)) ? formatPeriod(String(value)) : String(value)));
  f.add('number', (value, lng) => {
    const n = Number(value);
    return Number.isFinite(n) ? formatNumber(n, { language: lng }) : String(value);
  });
}

/*
 * Set up when first imported — by a screen or form that shows such messages, never by the sign-in page's
 * first load (its JavaScript budget): the formats, and zod's language now and at every language change.
 */
if (i18n.isInitialized) registerMessageFormats();
else i18n.on('initialized', registerMessageFormats);
applyZodLanguage(currentLang());
i18n.on('languageChanged', () => applyZodLanguage(currentLang()));
