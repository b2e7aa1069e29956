// The entry of the xlsx export worker thread (see xlsx-worker.ts). On Node 20 a worker does not get the
// process's `--import tsx` loader for its own modules (tsx issue #354), and vitest's forks do not load tsx
// at all, so the worker loads its TypeScript through tsx's own API, the same way under npm start, the e2e
// server, the benches and the tests.
import { tsImport } from 'tsx/esm/api';

await tsImport('./xlsx-worker.ts', import.meta.url);
