import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'apps/web');
const marker = join(web, 'dist/index.html');
const inputs = [
  join(web, 'src'),
  join(web, 'public'),
  join(web, 'index.html'),
  join(web, 'vite.config.ts'),
  join(web, 'i18n-plugin.ts'),
  join(root, 'packages/domain/src'),
  join(root, 'package-lock.json'),
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

/** True when the built web app is missing or older than any of its sources. */
export function webIsStale() {
  if (!existsSync(marker)) return true;
  const built = statSync(marker).mtimeMs;
  return inputs.some((p) => newest(p) > built);
}

/** Builds the web app when it is stale; returns false when the build failed. */
export function buildWebIfStale({ quiet = false } = {}) {
  if (!webIsStale()) return true;
  const started = Date.now();
  if (!quiet) console.info('Compilando la aplicación web…');
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', quiet ? 'error' : 'warn'],
    {
      cwd: web,
      stdio: 'inherit',
    },
  );
  if (!quiet && r.status === 0) console.info(`  compilada en ${seconds(Date.now() - started)}`);
  return r.status === 0;
}

/** "12,3 s": elapsed time as the progress lines show it. */
export const seconds = (ms) => `${(ms / 1000).toFixed(1).replace('.', ',')} s`;

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(buildWebIfStale() ? 0 : 1);
