import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkArchitecture } from '../test/architecture-rules.ts';

/**
 * `npm run -s contract:count [-- <repository root>]`: how many API shapes the web app declares or casts by
 * hand (calls typing their answer, fetch outside lib/, contract schemas re-declared, shapes in a
 * feature's api.ts or keys.ts), then each one. The architecture test requires 0.
 */
const root = resolve(process.argv[2] ?? fileURLToPath(new URL('../../../..', import.meta.url)));
const found = checkArchitecture(root).violations.filter((v) => v.rule === 'web-contract');
process.stdout.write(`${found.length} formas de la API declaradas a mano en apps/web\n`);
for (const v of found) process.stdout.write(`  ${v.file}: ${v.detail}\n`);
