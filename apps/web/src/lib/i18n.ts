import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Languages the product ships (spec section 9); `es` is the default, `gr` is German as in the template. */
export const LANGUAGES = ['es', 'en', 'ar', 'ch', 'fr', 'gr', 'it', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';
const RTL: readonly string[] = ['ar'];

/** The language's own name, as the language menu shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  es: 'Español',
  en: 'English',
  ar: 'العربية',
  ch: '中文',
  fr: 'Français',
  gr: 'Deutsch',
  it: 'Italiano',
  ru: 'Русский',
};

/** BCP 47 tag of each language for Intl formatting and the `lang` attribute. */
export const LOCALE_OF: Record<Language, string> = {
  es: 'es-GT',
  en: 'en-US',
  ar: 'ar',
  ch: 'zh-CN',
  fr: 'fr-FR',
  gr: 'de-DE',
  it: 'it-IT',
  ru: 'ru-RU',
};

/**
 * The plural forms (CLDR, as i18next chooses them through Intl.PluralRules) each language's counted texts
 * carry as `key_one`, `key_other`…: Arabic has six, Russian four, Chinese one.
 */
export const LANGUAGE_PLURALS: Record<Language, readonly string[]> = Object.fromEntries(
  Object.entries(LOCALE_OF).map(([l, tag]) => [l, new Intl.PluralRules(tag).resolvedOptions().pluralCategories]),
) as unknown as Record<Language, readonly string[]>;

/** Any value that is not one of ours (unknown, corrupt) means the default; es-ES and friends their base. */
export function parseLanguage(value: string | null | undefined): Language {
  const base = (value ?? '').trim().slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(base) ? (base as Language) : DEFAULT_LANGUAGE;
}

export function readLangCookie(): Language {
  const m = /(?:^|;\s*)lang=([^;]*)/.exec(document.cookie);
  let value = '';
  try {
    value = m ? decodeURIComponent(m[1]) : '';
  } catch {
    value = '';
  }
  return parseLanguage(value);
}

export const isRtl = (lang: string): boolean => RTL.includes(lang);

async function loadBundle(lang: string): Promise<Record<string, unknown>> {
  const res = await fetch(`/assets/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`No se pudo cargar el idioma ${lang}`);
  return (await res.json()) as Record<string, unknown>;
}

/** dayjs locales (for date pickers), loaded only when a language is chosen. */
const dayjsLocales: Record<Language, () => Promise<unknown>> = {
  es: () => import('dayjs/locale/es'),
  en: () => Promise.resolve(),
  ar: () => import('dayjs/locale/ar'),
  ch: () => import('dayjs/locale/zh-cn'),
  fr: () => import('dayjs/locale/fr'),
  gr: () => import('dayjs/locale/de'),
  it: () => import('dayjs/locale/it'),
  ru: () => import('dayjs/locale/ru'),
};
const dayjsCode: Record<Language, string> = { es: 'es', en: 'en', ar: 'ar', ch: 'zh-cn', fr: 'fr', gr: 'de', it: 'it', ru: 'ru' };

async function applyDayjsLocale(lang: Language) {
  const [{ default: dayjs }] = await Promise.all([import('dayjs'), dayjsLocales[lang]()]);
  dayjs.locale(dayjsCode[lang]);
}

function applyDocumentLanguage(lang: Language) {
  document.documentElement.lang = LOCALE_OF[lang].slice(0, 2) === 'zh' ? 'zh' : lang === 'gr' ? 'de' : lang;
  document.documentElement.dir = isRtl(lang) ? 'rtl' : 'ltr';
}

export async function initI18n(): Promise<typeof i18n> {
  const lang = readLangCookie();
  let resources = await loadBundle(lang).catch(() => null);
  const effective: Language = resources ? lang : DEFAULT_LANGUAGE;
  resources ??= await loadBundle(DEFAULT_LANGUAGE);
  await i18n.use(initReactI18next).init({
    lng: effective,
    fallbackLng: DEFAULT_LANGUAGE,
    resources: { [effective]: { translation: resources } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyDocumentLanguage(effective);
  void applyDayjsLocale(effective).catch(() => undefined);
  return i18n;
}

export const currentLanguage = (): Language => parseLanguage(i18n.language);

/** Switches language: loads its file, remembers it in the `lang` cookie for a year. */
export async function changeLanguage(lang: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'translation')) i18n.addResourceBundle(lang, 'translation', await loadBundle(lang));
  // biome-ignore lint/suspicious/noDocumentCookie: the specification keeps the language in the `lang` cookie.
  document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=lax`;
  await i18n.changeLanguage(lang);
  applyDocumentLanguage(lang);
  await applyDayjsLocale(lang).catch(() => undefined);
}
