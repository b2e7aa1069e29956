/**
 * Counts the messages the server sends that still carry their Spanish text instead of a key
 * (packages/domain/src/messages.ts): `new AppError(CODE, '…')` or with a template, a detail or result
 * `message: '…'`, and a schema's `{ error: '…' }` / `{ message: '…' }`. Prints each place and the total
 * per file (config.ts is left out: its messages are the operator's, at start-up, in the log); `npm run -s i18n:unkeyed [folder]` → the last line is the total, 0 when every message is keyed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const roots = process.argv[2] ? [join(root, process.argv[2])] : [join(root, 'apps/api/src'), join(root, 'packages/domain/src')];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'node_modules' || n === 'messages' || n === 'test' ? [] : files(p);
    return /\.ts$/.test(n) &&
      !['errors.ts', 'messages.ts', 'config.ts'].includes(n) &&
      !/\.test\.ts$/.test(n) &&
      !/(^|\/)(contract|cli|scripts)\//.test(relative(root, p))
      ? [p]
      : [];
  });
}

const patterns: [string, RegExp][] = [
  ['AppError con texto', /new AppError\(\s*'[A-Z_]+'\s*,\s*['`]/g],
  ['detalle con texto', /\bmessage:\s*['`][^'`]*[a-záéíóúñ][^'`]*['`]/g],
  ['esquema con texto', /\{\s*(?:error|message):\s*['`][^'`]*[a-záéíóúñ]/g],
];

let total = 0;
for (const base of roots) {
  for (const file of files(base)) {
    const src = readFileSync(file, 'utf8');
    let n = 0;
    for (const [what, re] of patterns) {
      for (const m of src.matchAll(re)) {
        n++;
        const line = src.slice(0, m.index).split('\n').length;
        if (process.env.VERBOSE) process.stdout.write(`${relative(root, file)}:${line} ${what}\n`);
      }
    }
    if (n) process.stdout.write(`${String(n).padStart(4)} ${relative(root, file)}\n`);
    total += n;
  }
}
process.stdout.write(`${total}\n`);
