// `npm run -s i18n:copies`: per language, how many locale values are still the Spanish text (issue 27).
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '../apps/web/src/lib/i18n.ts';
import { spanishCopies } from '../apps/web/src/lib/locale-copies.ts';

const found = spanishCopies(fileURLToPath(new URL('../apps/web/src', import.meta.url)), LANGUAGES);
for (const [lang, { values, copies }] of Object.entries(found)) {
  process.stdout.write(
    `${lang}: ${copies.length} de ${values} valores iguales al español (${((100 * copies.length) / values).toFixed(1)} %)\n`,
  );
  for (const c of copies.slice(0, Number(process.env.SHOW ?? 0))) process.stdout.write(`  ${c.file} ${c.key}: ${c.value}\n`);
}
