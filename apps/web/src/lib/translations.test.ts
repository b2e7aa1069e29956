import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverMessageTree } from '@aporta/domain/messages/index';
import { describe, expect, it } from 'vitest';
import { collectLocales } from '../../i18n-plugin.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_PLURALS, LANGUAGES } from './i18n.ts';
import { spanishCopies } from './locale-copies.ts';

/**
 * Every `locales` folder of the web app must carry all eight languages, each with every key that any
 * language of that folder has, none empty, and with the same {{placeholders}} as Spanish.
 */
const srcDir = fileURLToPath(new URL('..', import.meta.url));

function localeDirs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (!e.isDirectory() || e.name === 'node_modules') return [];
    const path = join(dir, e.name);
    return e.name === 'locales' ? [path] : localeDirs(path);
  });
}

function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) for (const [p, x] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, x);
  } else {
    out.set(prefix, value);
  }
  return out;
}

const PLURAL_FORM = /_(zero|one|two|few|many|other)$/;
const pluralBase = (key: string) => key.replace(PLURAL_FORM, '');

const placeholders = (s: unknown) =>
  typeof s === 'string' ? [...s.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1]).sort() : [];

describe('translations', () => {
  const dirs = localeDirs(srcDir);

  it('exist in at least the shell, sign-in and home folders', () => {
    expect(dirs.map((d) => relative(srcDir, d))).toEqual(
      expect.arrayContaining(['shell/locales', 'features/auth/locales', 'features/home/locales']),
    );
  });

  for (const dir of dirs) {
    const name = relative(srcDir, dir);
    it(`${name}: all eight languages carry every key, none empty, same placeholders as Spanish`, () => {
      const problems: string[] = [];
      const files = Object.fromEntries(
        LANGUAGES.map((lang) => {
          const file = join(dir, `${lang}.json`);
          if (!existsSync(file)) {
            problems.push(`${lang}.json falta`);
            return [lang, new Map()];
          }
          return [lang, leaves(JSON.parse(readFileSync(file, 'utf8')))];
        }),
      ) as Record<string, Map<string, unknown>>;
      // A plural family is one key (`x_one`, `x_few`… → `x`): each language has its own forms of it.
      const allKeys = new Set(Object.values(files).flatMap((m) => [...m.keys()].map(pluralBase)));
      for (const lang of LANGUAGES) {
        for (const key of allKeys) {
          const forms = [...files[lang].keys()].filter((k) => pluralBase(k) === key && k !== key);
          if (forms.length) {
            const esForm = (f: string) => files[DEFAULT_LANGUAGE].get(`${key}_other`) ?? files[DEFAULT_LANGUAGE].get(f);
            for (const f of forms) {
              const v = files[lang].get(f);
              if (typeof v !== 'string' || v.trim() === '') problems.push(`${lang}: ${f} está vacía`);
              else if (
                placeholders(v)
                  .filter((p) => p !== 'count')
                  .join() !==
                placeholders(esForm(f))
                  .filter((p) => p !== 'count')
                  .join()
              )
                problems.push(`${lang}: ${f} no tiene los mismos {{marcadores}} que es`);
            }
            continue;
          }
          const v = files[lang].get(key);
          if (typeof v !== 'string' || v.trim() === '') problems.push(`${lang}: ${key} falta o está vacía`);
          else if (placeholders(v).join() !== placeholders(files[DEFAULT_LANGUAGE].get(key)).join()) {
            problems.push(`${lang}: ${key} no tiene los mismos {{marcadores}} que es`);
          }
        }
      }
      const extra = readdirSync(dir).filter((f) => f.endsWith('.json') && !LANGUAGES.includes(f.slice(0, -5) as never));
      for (const f of extra) problems.push(`${f}: idioma desconocido`);
      expect(problems).toEqual([]);
    });
  }

  it('no value of another language is still the Spanish text, but for the reviewed words and names (locale-copies.ts)', () => {
    const found = spanishCopies(srcDir, LANGUAGES);
    const copies = Object.values(found).flatMap(({ copies }) => copies.map((c) => `${c.file} ${c.key}: ${c.value}`));
    expect(copies).toEqual([]);
    // The reviewed list stays short: words the same in both languages and names, never whole sentences.
    for (const [lang, { values }] of Object.entries(found)) expect(values, lang).toBeGreaterThan(2000);
  });

  it("server messages: the web's Spanish file is the domain's catalogue (npm run i18n:server writes it)", () => {
    const file = join(srcDir, 'lib/server-messages/locales/es.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ server: serverMessageTree });
  });

  it("counts use i18next's plural forms: every form the language has (ar six, ru four), no «(s)»", () => {
    const problems: string[] = [];
    for (const dir of dirs) {
      for (const lang of LANGUAGES) {
        const file = join(dir, `${lang}.json`);
        if (!existsSync(file)) continue;
        const values = leaves(JSON.parse(readFileSync(file, 'utf8')));
        const families = new Map<string, Set<string>>();
        for (const [key, value] of values) {
          const m = /^(.*)_(zero|one|two|few|many|other)$/.exec(key);
          if (m) families.set(m[1], (families.get(m[1]) ?? new Set()).add(m[2]));
          if (typeof value === 'string' && /\w\((s|es|n|e|en|i|а|ов|ы)\)/u.test(value)) {
            problems.push(`${relative(srcDir, file)} ${key}: «${value}» escribe el plural a mano`);
          }
        }
        for (const [family, forms] of families) {
          for (const form of LANGUAGE_PLURALS[lang]) {
            if (!forms.has(form)) problems.push(`${relative(srcDir, file)} ${family}_${form} falta`);
          }
          // `_zero` may say "no lines" in any language (i18next uses it for 0); other forms only where they exist.
          for (const form of forms)
            if (form !== 'zero' && !LANGUAGE_PLURALS[lang].includes(form))
              problems.push(`${relative(srcDir, file)} ${family}_${form}: ${lang} no tiene esa forma`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('merge into one file per language without a key defined twice', () => {
    const merged = collectLocales(srcDir);
    expect(Object.keys(merged).sort()).toEqual([...LANGUAGES].sort());
  });
});
