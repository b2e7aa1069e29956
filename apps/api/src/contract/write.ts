import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { CLIENT_TYPES_FILE, clientTypesSource, writeClientTypes } from './client-types.ts';

/** `npm run contract`: writes the web client's types from the API's OpenAPI document. */
async function main() {
  const database = await openDatabase({});
  await database.migrate();
  const config = { ...loadConfig({ DEMO_DATA: 'false', JOBS_CONCURRENCY: '0' }), webDist: '' };
  const app = await buildApp({ config, database, startJobs: false });
  await app.ready();
  writeClientTypes(await clientTypesSource(app.swagger()));
  await app.close();
  await database.close();
  process.stdout.write(`${CLIENT_TYPES_FILE}\n`);
}

await main();
