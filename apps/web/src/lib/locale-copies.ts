import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Locale values that are still the Spanish text (issue 27): a value of a non-Spanish locale file identical to
 * its Spanish one counts when it holds a word of four letters or more, once its {{placeholders}} are taken out,
 * that is not on the reviewed list below: words spelled the same in both languages (fr «Total», it «Motivo»,
 * de «Saldo») and names (RENAP, Aporta), per language. Words, never sentences. Used by translations.test.ts (no copy allowed)
 * and by `npm run -s i18n:copies` (the count per language).
 */
export const REVIEWED_SAME_AS_SPANISH: Record<string, readonly string[]> = {
  all: ['RENAP', 'Aporta', 'Quetzales', 'Material', 'CUI', 'PDF', 'NIT', 'Webhook', 'Webhooks'],
  en: ['Total', 'Subtotal', 'Roles', 'Vertical', 'Horizontal', 'Chat', 'Chats', 'Tickets'],
  fr: ['Total', 'patronal', 'Gris', 'Grande', 'aaaa', 'Capital', 'Responsable', 'Oblig'],
  it: [
    'Tipo',
    'Motivo',
    'Dato',
    'Firma',
    'Campo',
    'Documento',
    'Sistema',
    'sistema',
    'Vigente',
    'Termina',
    'Beneficiario',
    'Rosa',
    'Verde',
    'Tema',
    'Creativo',
    'Moderno',
    'Grande',
    'aaaa',
    'Saldo',
    'Serie',
  ],
  gr: ['Rosa', 'Horizontal', 'Saldo', 'Serie'],
  ru: [],
  ar: [],
  ch: [],
};

export interface LocaleCopy {
  file: string;
  key: string;
  value: string;
}

function localeDirs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (!e.isDirectory() || e.name === 'node_modules') return [];
    const path = join(dir, e.name);
    return e.name === 'locales' ? [path] : localeDirs(path);
  });
}

function leaves(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value))
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else out.set(prefix, value);
  return out;
}

/** The words of four letters or more of a value, its {{placeholders}} taken out. */
const wordsOf = (text: string) => text.replace(/\{\{[^}]*\}\}/g, ' ').match(/\p{L}{4,}/gu) ?? [];

/** Per language other than Spanish: how many values it has, and those still Spanish and not reviewed. */
export function spanishCopies(
  srcDir: string,
  languages: readonly string[],
): Record<string, { values: number; copies: LocaleCopy[] }> {
  const out: Record<string, { values: number; copies: LocaleCopy[] }> = {};
  for (const lang of languages) if (lang !== 'es') out[lang] = { values: 0, copies: [] };
  for (const dir of localeDirs(srcDir)) {
    const es = leaves(JSON.parse(readFileSync(join(dir, 'es.json'), 'utf8')));
    for (const lang of Object.keys(out)) {
      const other = leaves(JSON.parse(readFileSync(join(dir, `${lang}.json`), 'utf8')));
      const reviewed = new Set([...REVIEWED_SAME_AS_SPANISH.all, ...(REVIEWED_SAME_AS_SPANISH[lang] ?? [])]);
      for (const [key, value] of es) {
        out[lang].values++;
        if (typeof value !== 'string' || other.get(key) !== value || wordsOf(value).every((w) => reviewed.has(w))) continue;
        out[lang].copies.push({ file: relative(srcDir, join(dir, `${lang}.json`)), key, value });
      }
    }
  }
  return out;
}
