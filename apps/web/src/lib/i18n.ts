import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Languages the product ships; `es` is the default (spec section 9). */
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';
const RTL: readonly string[] = ['ar'];

export function readLangCookie(): Language {
  const m = /(?:^|;\s*)lang=([^;]*)/.exec(document.cookie);
  const value = m ? decodeURIComponent(m[1]) : '';
  // es-ES (as the spec writes it) and any other regional form fall back to the base language.
  const base = value.slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(base) ? (base as Language) : DEFAULT_LANGUAGE;
}

async function loadBundle(lang: string): Promise<Record<string, unknown>> {
  const res = await fetch(`/assets/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`No se pudo cargar el idioma ${lang}`);
  return (await res.json()) as Record<string, unknown>;
}

function applyDocumentLanguage(lang: string) {
  document.documentElement.lang = lang;
  document.documentElement.dir = RTL.includes(lang) ? 'rtl' : 'ltr';
}

export async function initI18n(): Promise<typeof i18n> {
  const lang = readLangCookie();
  let resources = await loadBundle(lang).catch(() => null);
  const effective = resources ? lang : DEFAULT_LANGUAGE;
  resources ??= await loadBundle(DEFAULT_LANGUAGE);
  await i18n.use(initReactI18next).init({
    lng: effective,
    fallbackLng: DEFAULT_LANGUAGE,
    resources: { [effective]: { translation: resources } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyDocumentLanguage(effective);
  return i18n;
}

/** Switches language: loads its file, remembers it in the `lang` cookie for a year. */
export async function changeLanguage(lang: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'translation')) i18n.addResourceBundle(lang, 'translation', await loadBundle(lang));
  // biome-ignore lint/suspicious/noDocumentCookie: the specification keeps the language in the `lang` cookie.
  document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=lax`;
  await i18n.changeLanguage(lang);
  applyDocumentLanguage(lang);
}
