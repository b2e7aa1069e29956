import {
  centsToDecimal,
  formatDay,
  formatPeriod,
  formatMoney as formatQuetzales,
  type Language,
  MAIL_EVENTS,
  MAIL_LANGUAGES,
  type MailEvent,
} from '@aporta/domain';
import { ar } from './mail-locales/ar.ts';
import { ch } from './mail-locales/ch.ts';
import { en } from './mail-locales/en.ts';
import { es } from './mail-locales/es.ts';
import { fr } from './mail-locales/fr.ts';
import { gr } from './mail-locales/gr.ts';
import { it } from './mail-locales/it.ts';
import type { MailLocale } from './mail-locales/locale.ts';
import { ru } from './mail-locales/ru.ts';

/**
 * The mail templates (issue 29): one per event, subject + body + the label of the link's button, in the eight
 * languages (mail-locales/<lang>.ts), rendered when the mail is queued (its content is fixed from then on).
 * Placeholders as in the server catalogue: `{{name}}`, `{{amount, money}}` (cents), `{{due, date}}`
 * (aaaa-mm-dd), `{{at, datetime}}` (ISO), `{{period, period}}` (aaaa-mm), `{{n, number}}`; `{{app}}` is the
 * institution's name (APP_TITLE). Values are formatted in the recipient's language and escaped in the HTML.
 */

export type MailParams = Record<string, string | number | bigint | boolean | null | undefined>;

export const MAIL_LOCALES: Readonly<Record<Language, MailLocale>> = { es, en, fr, it, gr, ru, ar, ch };

/** Intl's tag for each language (as the web app's lib/format.ts). */
const INTL_LOCALE: Record<Language, string> = {
  es: 'es-GT',
  en: 'en-US',
  fr: 'fr-FR',
  it: 'it-IT',
  gr: 'de-DE',
  ru: 'ru-RU',
  ar: 'ar-u-nu-latn',
  ch: 'zh-CN',
};

/** Where the institution's name and the app's address come from (set by buildApp from the configuration). */
export interface MailSite {
  appTitle: string;
  /** The app's absolute address, without a trailing slash (PUBLIC_URL or http://localhost:<PORT>). */
  baseUrl: string;
}
let site: MailSite = { appTitle: 'Aporta', baseUrl: 'http://localhost:3000' };
export function configureMailSite(next: MailSite): void {
  site = { appTitle: next.appTitle, baseUrl: next.baseUrl.replace(/\/+$/, '') };
}
export const mailSite = (): MailSite => site;
/** The site of a configuration: set by buildApp, and by the seed before it queues any demo mail. */
export const configureMailSiteFrom = (config: { APP_TITLE: string; PUBLIC_URL?: string; PORT: number }): void =>
  configureMailSite({ appTitle: config.APP_TITLE, baseUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}` });

/** Example parameters of each event, for the administrator's preview (no real person's data). */
export const MAIL_TEMPLATE_EXAMPLES: Readonly<Record<MailEvent, MailParams>> = {
  'planilla.observed': { entity: 'Municipalidad de Mixco', period: '2026-10' },
  'planilla.approved': { entity: 'Municipalidad de Mixco', period: '2026-10' },
  'planilla.returned': { entity: 'Municipalidad de Mixco', period: '2026-10', reason: 'Faltan dos empleados de alta' },
  'order.issued': { entity: 'Municipalidad de Mixco', reference: 'OP-2026-000123', amount: 12_345_678n, due: '2026-11-30' },
  'order.dueSoon': {
    entity: 'Municipalidad de Mixco',
    reference: 'OP-2026-000123',
    amount: 12_345_678n,
    due: '2026-11-30',
    days: 3,
  },
  'agreement.instalmentDueSoon': {
    entity: 'Municipalidad de Mixco',
    agreement: 'CONV-2026-0007',
    instalment: 4,
    amount: 2_500_000n,
    due: '2026-12-04',
    days: 3,
  },
  'agreement.default': { entity: 'Municipalidad de Mixco', agreement: 'CONV-2026-0007', amount: 5_000_000n, since: '2026-11-05' },
  'payment.registered': {
    entity: 'Municipalidad de Mixco',
    reference: 'OP-2026-000123',
    amount: 12_345_678n,
    date: '2026-11-20',
    receipt: 'REC-2026-004567',
  },
  'survival.dueSoon': { count: 12, due: '2026-12-31' },
  'survival.overdue': { count: 3, asOf: '2026-11-20' },
  'signing.waiting': { document: 'Convenio de pago CONV-2026-0007', requester: 'Ana López' },
  'signing.reminder': { document: 'Convenio de pago CONV-2026-0007', requester: 'Ana López', since: '2026-11-18' },
  'workflow.assigned': { request: 'SOL-2026-0042', flow: 'Solicitud de pensión por jubilación', step: 'Revisión jurídica' },
  'job.finished': { job: 'Exportación de afiliados' },
  'arrears.notice': { entity: 'Municipalidad de Mixco', amount: 98_765_432n, asOf: '2026-11-20' },
  'auth.passwordReset': { name: 'Ana López', minutes: 30 },
};

/** The placeholders of a text, with their format: `{{amount, money}}` → ['amount', 'money']. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:,\s*([a-z]+)\s*)?\}\}/g;

export const placeholdersOf = (template: string): string[] =>
  [...template.matchAll(PLACEHOLDER)].map((m) => (m[2] ? `${m[1]}, ${m[2]}` : m[1])).sort();

const validDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** One value in the recipient's language: Spanish as the product writes it (Q 1,234.56, dd/mm/aaaa, mm/aaaa). */
export function formatMailValue(value: MailParams[string] | undefined, format: string | undefined, language: Language): string {
  if (value === null || value === undefined) return '';
  const locale = INTL_LOCALE[language];
  switch (format) {
    case 'money': {
      let cents: bigint;
      try {
        cents = BigInt(value as string | number | bigint);
      } catch {
        return String(value);
      }
      if (language === 'es') return formatQuetzales(cents);
      return new Intl.NumberFormat(locale, { style: 'currency', currency: 'GTQ', currencyDisplay: 'narrowSymbol' }).format(
        centsToDecimal(cents) as `${number}`,
      );
    }
    case 'date': {
      const v = String(value);
      if (!validDay(v)) return v;
      if (language === 'es') return formatDay(v);
      const [y, m, d] = v.split('-').map(Number);
      return new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(Date.UTC(y, m - 1, d)),
      );
    }
    case 'period': {
      const v = String(value);
      if (!/^\d{4}-\d{2}$/.test(v)) return v;
      if (language === 'es') return formatPeriod(v);
      const [y, m] = v.split('-').map(Number);
      return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(Date.UTC(y, m - 1, 1)),
      );
    }
    case 'datetime': {
      const d = new Date(String(value));
      if (Number.isNaN(d.getTime())) return String(value);
      return new Intl.DateTimeFormat(locale, {
        dateStyle: 'short',
        timeStyle: 'short',
        hourCycle: 'h23',
        timeZone: 'America/Guatemala',
      }).format(d);
    }
    case 'number': {
      const n = typeof value === 'bigint' ? value : Number(value);
      if (typeof n === 'number' && !Number.isFinite(n)) return String(value);
      return new Intl.NumberFormat(language === 'es' ? 'en-US' : locale).format(n);
    }
    default:
      return String(value);
  }
}

/** Fills a template's placeholders (missing values are left empty). */
export function fillMailText(template: string, params: MailParams, language: Language): string {
  return template.replace(PLACEHOLDER, (_m, name: string, format: string | undefined) =>
    formatMailValue(params[name], format, language),
  );
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The absolute address of a path inside the app (`/planillas/12` → `https://aporta.example/planillas/12`). */
export function absoluteLink(link: string | null | undefined): string {
  const path = link && /^\/(?!\/)/.test(link) ? link : '/';
  return `${site.baseUrl}${path}`;
}

/**
 * Renders an event's template in a language: subject, plain text and a whole HTML document (values
 * escaped), with the institution's name and a button to `link` (a path inside the app; the home page when
 * none). `withPreferences`: a line saying where the user chooses their mails (mails to a user, not to an
 * entity's address).
 */
export function renderMailTemplate(
  event: MailEvent,
  language: Language,
  params: MailParams,
  opts: { link?: string | null; withPreferences?: boolean } = {},
): RenderedMail {
  const lang: Language = (MAIL_LANGUAGES as readonly string[]).includes(language) ? language : 'es';
  const template = MAIL_LOCALES[lang].events[event];
  const all: MailParams = { ...params, app: site.appTitle };
  const fill = (t: string) => fillMailText(t, all, lang);
  return renderMailDocument({
    language: lang,
    subject: fill(template.subject),
    paragraphs: template.body.split(/\n{2,}/).map(fill),
    action: fill(template.action),
    link: opts.link,
    withPreferences: opts.withPreferences,
  });
}

/**
 * The one mail layout, for a text already written in `language` (the event templates, the daily digest):
 * paragraphs (a paragraph's lines kept), a list of items, a button to `link`, the footer; the HTML escaped.
 */
export function renderMailDocument(doc: {
  language: Language;
  subject: string;
  paragraphs: string[];
  /** Lines shown as a list after the paragraphs (the digest's notices). */
  items?: string[];
  action: string;
  link?: string | null;
  withPreferences?: boolean;
}): RenderedMail {
  const lang = doc.language;
  const locale = MAIL_LOCALES[lang];
  const fill = (t: string) => fillMailText(t, { app: site.appTitle }, lang);
  const subject = doc.subject.replace(/[\r\n]+/g, ' ').trim();
  const url = absoluteLink(doc.link);
  const footer = fill(locale.footer);
  const preferences = doc.withPreferences ? fill(locale.preferences) : null;
  const items = doc.items ?? [];

  const text = [
    ...doc.paragraphs,
    ...(items.length ? [items.map((i) => `- ${i}`).join('\n')] : []),
    `${doc.action}: ${url}`,
    '--',
    footer,
    ...(preferences ? [preferences] : []),
  ].join('\n\n');

  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const htmlLang = lang === 'gr' ? 'de' : lang === 'ch' ? 'zh' : lang;
  const e = escapeHtml;
  const list = items.length
    ? `<ul style="margin:0 0 16px;padding-inline-start:20px">${items.map((i) => `<li style="margin:0 0 6px">${e(i)}</li>`).join('')}</ul>\n`
    : '';
  const html = `<!doctype html>
<html lang="${htmlLang}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f5f7;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:#0b7285;color:#ffffff;padding:16px 24px;font-size:18px;font-weight:bold">${e(site.appTitle)}</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">
${doc.paragraphs.map((p) => `<p style="margin:0 0 16px">${e(p).replace(/\n/g, '<br>')}</p>`).join('\n')}
${list}<p style="margin:24px 0"><a href="${e(url)}" style="display:inline-block;background:#0b7285;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:bold">${e(doc.action)}</a></p>
<p style="margin:0;font-size:12px;color:#52606d">${e(fill(locale.linkHelp))}<br><a href="${e(url)}" style="color:#0b7285;word-break:break-all">${e(url)}</a></p>
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e4e7eb;font-size:12px;color:#52606d">${e(footer)}${preferences ? `<br>${e(preferences)}` : ''}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}

/** Every event has a template in every language (checked again by the test). */
export const MAIL_TEMPLATE_EVENTS: readonly MailEvent[] = MAIL_EVENTS;
