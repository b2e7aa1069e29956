import { MAIL_EVENTS, MAIL_LANGUAGES } from '@aporta/domain';
import { describe, expect, it } from 'vitest';
import type { MailLocale } from './mail-locales/locale.ts';
import {
  configureMailSite,
  formatMailValue,
  MAIL_LOCALES,
  MAIL_TEMPLATE_EXAMPLES,
  placeholdersOf,
  renderMailTemplate,
} from './mail-templates.ts';

/** Every text of a locale by its path (`events.order.issued.subject`, `footer`). */
function textsOf(locale: MailLocale): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(locale)) if (typeof v === 'string') out.set(k, v);
  for (const [event, t] of Object.entries(locale.events)) {
    for (const [part, v] of Object.entries(t)) out.set(`events.${event}.${part}`, v);
  }
  return out;
}

describe('mail templates', () => {
  const spanish = textsOf(MAIL_LOCALES.es);

  it('every event has a subject, body and action in every language', () => {
    for (const lang of MAIL_LANGUAGES) {
      for (const event of MAIL_EVENTS) {
        const t = MAIL_LOCALES[lang].events[event];
        expect(t, `${lang} ${event}`).toBeDefined();
        for (const part of ['subject', 'body', 'action'] as const)
          expect(t[part].trim(), `${lang} ${event} ${part}`).not.toBe('');
      }
    }
  });

  it('each translation has the Spanish placeholders, and none is a copy of the Spanish', () => {
    for (const lang of MAIL_LANGUAGES.filter((l) => l !== 'es')) {
      const texts = textsOf(MAIL_LOCALES[lang]);
      expect([...texts.keys()].sort(), lang).toEqual([...spanish.keys()].sort());
      for (const [path, es] of spanish) {
        const other = texts.get(path)!;
        expect(placeholdersOf(other), `${lang} ${path}`).toEqual(placeholdersOf(es));
        expect(other, `${lang} ${path} is the Spanish text`).not.toBe(es);
      }
    }
  });

  it('the examples give every placeholder of their event', () => {
    for (const event of MAIL_EVENTS) {
      const t = MAIL_LOCALES.es.events[event];
      const names = placeholdersOf(`${t.subject} ${t.body} ${t.action}`).map((p) => p.split(',')[0]);
      for (const name of names.filter((n) => n !== 'app')) {
        expect(MAIL_TEMPLATE_EXAMPLES[event][name], `${event} example lacks ${name}`).not.toBeUndefined();
      }
    }
  });

  it('formats money, dates and periods in the recipient language', () => {
    expect(formatMailValue(123456789n, 'money', 'es')).toBe('Q 1,234,567.89');
    expect(formatMailValue(123456789n, 'money', 'gr')).toBe('1.234.567,89\u00a0Q');
    expect(formatMailValue('2026-12-04', 'date', 'es')).toBe('04/12/2026');
    expect(formatMailValue('2026-12-04', 'date', 'en')).toBe('12/04/2026');
    expect(formatMailValue('2026-12-04', 'date', 'gr')).toBe('04.12.2026');
    expect(formatMailValue('2026-10', 'period', 'es')).toBe('10/2026');
    expect(formatMailValue('2026-10', 'period', 'fr')).toBe('octobre 2026');
    expect(formatMailValue(12345, 'number', 'es')).toBe('12,345');
    expect(formatMailValue(12345, 'number', 'ru')).toBe('12\u00a0345');
  });

  it('renders the institution, an absolute link and escaped values; subject on one line', () => {
    configureMailSite({ appTitle: 'Plan <Municipal>', baseUrl: 'https://aporta.example.gt/' });
    try {
      const r = renderMailTemplate(
        'signing.waiting',
        'es',
        { document: '<script>alert(1)</script>\r\nBcc: x@y', requester: 'Ana "&" López' },
        { link: '/firmas/3', withPreferences: true },
      );
      expect(r.subject).not.toMatch(/[\r\n]/);
      expect(r.text).toContain('Abrir el documento: https://aporta.example.gt/firmas/3');
      expect(r.text).toContain('Mensaje automático de Plan <Municipal>.');
      expect(r.text).toContain('Preferencias de correo');
      expect(r.html).not.toContain('<script>');
      expect(r.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(r.html).toContain('Ana &quot;&amp;&quot; López');
      expect(r.html).toContain('Plan &lt;Municipal&gt;');
      expect(r.html).toContain('href="https://aporta.example.gt/firmas/3"');
      // A link that is not a path inside the app goes to the home page instead.
      expect(renderMailTemplate('job.finished', 'en', { job: 'x' }, { link: 'https://evil.example' }).text).toContain(
        'https://aporta.example.gt/',
      );
      const ar = renderMailTemplate('arrears.notice', 'ar', MAIL_TEMPLATE_EXAMPLES['arrears.notice']);
      expect(ar.html).toContain('dir="rtl"');
      expect(ar.html).toContain('lang="ar"');
    } finally {
      configureMailSite({ appTitle: 'Aporta', baseUrl: 'http://localhost:3000' });
    }
  });

  it('renders every event in every language with its example, leaving no placeholder', () => {
    for (const lang of MAIL_LANGUAGES) {
      for (const event of MAIL_EVENTS) {
        const r = renderMailTemplate(event, lang, MAIL_TEMPLATE_EXAMPLES[event], { link: '/x' });
        expect(`${r.subject}${r.text}${r.html}`, `${lang} ${event}`).not.toMatch(/\{\{|\}\}/);
      }
    }
  });
});
