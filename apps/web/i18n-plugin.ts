import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Translations live next to the code that uses them (`src/**\/locales/<lang>.json`, each file holding
 * its module's top-level keys) and are merged into the one file per language the app loads from
 * `/assets/i18n/<lang>.json`. Modules therefore never edit a shared translation file.
 */
export function collectLocales(srcDir: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (dir.endsWith('locales') && entry.name.endsWith('.json')) {
        const lang = entry.name.slice(0, -5);
        const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
        out[lang] ??= {};
        for (const [key, value] of Object.entries(data)) {
          if (key in out[lang]) throw new Error(`Clave de traducción "${key}" repetida en ${relative(srcDir, path)}`);
          out[lang][key] = value;
        }
      }
    }
  };
  walk(srcDir);
  return out;
}

export function i18nPlugin(srcDir: string): Plugin {
  return {
    name: 'aporta-i18n',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /^\/assets\/i18n\/([a-z]{2})\.json$/.exec(req.url ?? '');
        const data = m ? collectLocales(srcDir)[m[1]] : undefined;
        if (!data) return next();
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(JSON.stringify(data));
      });
    },
    generateBundle() {
      for (const [lang, data] of Object.entries(collectLocales(srcDir))) {
        this.emitFile({ type: 'asset', fileName: `assets/i18n/${lang}.json`, source: JSON.stringify(data) });
      }
    },
  };
}
