/**
 * `npm run i18n:server`: writes the Spanish texts of the server's messages (packages/domain/src/messages)
 * into the web's locale folder `apps/web/src/lib/server-messages/locales/es.json` (key `server.<module>.<name>`),
 * and drops from the other languages the keys Spanish no longer has. Missing translations are left missing:
 * translations.test.ts names them. The test also fails when es.json is stale.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { LANGUAGES } from '../apps/web/src/lib/i18n.ts';
import { serverMessageTree } from '../packages/domain/src/messages/index.ts';

const dir = new URL('../apps/web/src/lib/server-messages/locales/', import.meta.url).pathname;
const es = { server: serverMessageTree };
writeFileSync(`${dir}es.json`, `${JSON.stringify(es, null, 2)}\n`);

type Tree = { [k: string]: string | Tree };
function prune(value: Tree, shape: Tree): Tree {
  const out: Tree = {};
  for (const [k, v] of Object.entries(value)) {
    if (!(k in shape)) continue;
    const s = shape[k];
    if (typeof s === 'string') {
      if (typeof v === 'string') out[k] = v;
    } else if (typeof v === 'object') out[k] = prune(v, s);
  }
  return out;
}
for (const lang of LANGUAGES) {
  if (lang === 'es') continue;
  const file = `${dir}${lang}.json`;
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Tree) : {};
  writeFileSync(file, `${JSON.stringify(prune(current, es as unknown as Tree), null, 2)}\n`);
}
