import './multi-process-job.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';

/**
 * One API process of the two-process test: the real app on DATABASE_URL with its job worker, on a free
 * port it prints as `LISTENING <port>`. Stops cleanly on SIGTERM.
 */
const config = { ...loadConfig(process.env), webDist: '' };
const database = await openDatabase({ url: config.DATABASE_URL, poolSize: 4 });
const app = await buildApp({ config, database, startJobs: true });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});
