// Measures the JavaScript the sign-in page downloads: the entry chunk of the Vite build plus every
// chunk it imports statically or preloads (dynamic imports are loaded later and not counted), gzip
// level 9 as a web server would send it. Exits 1 above the budget (issue 10: 150 KB; issue 4 set 250 KB).
//   node bench/login-bundle.mjs            (builds the web app first when it is stale)
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildWebIfStale } from '../scripts/build-web.mjs';

const BUDGET_BYTES = 150 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');

if (!buildWebIfStale()) {
  console.error('La compilación de la aplicación web falló.');
  process.exit(2);
}
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const attr = (tag, name) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
const start = [
  ...[...html.matchAll(/<script[^>]*type="module"[^>]*>/g)].map((m) => attr(m[0], 'src')),
  ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*>/g)].map((m) => attr(m[0], 'href')),
].filter(Boolean);

// Static imports in the minified output: `import{a as b}from"./x.js"`, `import"./y.js"`, `export … from`.
const staticImport = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["']([^"']+\.js)["']/g;
const seen = new Map();
const queue = start.map((p) => p.replace(/^\//, ''));
while (queue.length) {
  const rel = queue.shift();
  if (seen.has(rel)) continue;
  const file = join(dist, rel);
  if (!existsSync(file)) throw new Error(`No existe ${rel}`);
  const code = readFileSync(file);
  seen.set(rel, { raw: code.length, gzip: gzipSync(code, { level: 9 }).length });
  for (const m of code.toString('utf8').matchAll(staticImport)) {
    const target = m[1].startsWith('.') ? posix.join(posix.dirname(rel), m[1]) : m[1].replace(/^\//, '');
    queue.push(target);
  }
}

const rows = [...seen.entries()].sort((a, b) => b[1].gzip - a[1].gzip);
const total = rows.reduce((s, [, v]) => s + v.gzip, 0);
const raw = rows.reduce((s, [, v]) => s + v.raw, 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const [name, v] of rows) console.info(`${kb(v.gzip).padStart(10)}  ${name}`);
console.info(
  `\nPágina de ingreso: ${kb(total)} de JavaScript gzip (${kb(raw)} sin comprimir) en ${rows.length} archivos; presupuesto ${kb(BUDGET_BYTES)}.`,
);
process.exit(total > BUDGET_BYTES ? 1 : 0);
