// npm start: builds what is not yet built, then serves API and web app on one port. The server itself
// applies migrations, seeds reference data and creates the first administrator.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildWebIfStale, root } from './build-web.mjs';

if (!buildWebIfStale()) {
  console.error('Error: no se pudo compilar la aplicación web.');
  process.exit(1);
}
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/api/src/main.ts'), 'serve'], {
  cwd: root,
  stdio: 'inherit',
});
// Ctrl+C reaches the whole process group; forward other signals so the server closes the database cleanly.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
