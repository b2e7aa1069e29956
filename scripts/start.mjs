// npm start: checks the Node version, builds what is not yet built, then serves API and web app on one
// port. The server itself applies migrations, seeds reference data and creates the first administrator,
// printing each step as it goes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The minimum of package.json's engines.node (">=20.19"), as [major, minor]. */
function requiredNode() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const m = /^>=\s*(\d+)(?:\.(\d+))?/.exec(pkg.engines?.node ?? '');
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : [0, 0];
}
const [needMajor, needMinor] = requiredNode();
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  console.error(
    `Error: Aporta necesita Node ${needMajor}.${needMinor} o posterior; este equipo tiene Node ${process.versions.node}. Instale una versión más reciente y vuelva a ejecutar npm start.`,
  );
  process.exit(1);
}

// Imported only after the check, so an old Node gets the message above rather than a syntax error.
const { join } = await import('node:path');
const { buildWebIfStale, root } = await import('./build-web.mjs');

if (!buildWebIfStale()) {
  console.error('Error: no se pudo compilar la aplicación web.');
  process.exit(1);
}
console.info('Iniciando el servidor…');
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/api/src/main.ts'), 'serve'], {
  cwd: root,
  stdio: 'inherit',
});
// Ctrl+C reaches the whole process group; forward other signals so the server closes the database cleanly.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
