// npm test: unit and API tests (Vitest), then the browser specs (Playwright against the built server).
// Ends with one line "N passed, N failed". `--only unit|api|e2e` runs one part.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWebIfStale, root } from './build-web.mjs';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const out = join(root, '.test-output');
mkdirSync(out, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;

const run = (cmd, args, cwd = root) => spawnSync(cmd, args, { cwd, stdio: 'inherit', env: process.env }).status;
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

const vitestProjects =
  only === 'unit' ? ['domain', 'web'] : only === 'api' ? ['api'] : only === 'e2e' ? [] : ['domain', 'web', 'api'];
if (vitestProjects.length) {
  const file = join(out, 'vitest.json');
  rmSync(file, { force: true });
  const status = run(process.execPath, [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...vitestProjects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  const r = readJson(file);
  if (r) {
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    // A file that fails to load has no tests to count: count it as a failure.
    const suiteFailures = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
    totals.failed += suiteFailures;
  }
  if (status !== 0 && (!r || totals.failed === 0)) broken = true;
}

if (!only || only === 'e2e') {
  if (!buildWebIfStale({ quiet: true })) {
    broken = true;
  } else {
    const file = join(out, 'e2e.json');
    rmSync(file, { force: true });
    const status = run(process.execPath, [join(root, 'node_modules/@playwright/test/cli.js'), 'test'], join(root, 'e2e'));
    const r = readJson(file);
    if (r) {
      totals.passed += r.stats.expected + r.stats.flaky;
      totals.failed += r.stats.unexpected;
      totals.skipped += r.stats.skipped;
      totals.failed += (r.errors ?? []).length;
    }
    if (status !== 0 && (!r || r.stats.unexpected + (r.errors ?? []).length === 0)) broken = true;
  }
}

if (broken && totals.failed === 0) totals.failed = 1;
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
writeFileSync(join(out, `summary-${only ?? 'all'}.json`), JSON.stringify(totals));
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed${skipped}\n`);
process.exit(totals.failed > 0 ? 1 : 0);
