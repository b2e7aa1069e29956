import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_PORT } from './constants.mjs';
import { expect, signIn, test } from './fixtures.ts';
import { killed, root, startServer, waitForHealth } from './own-server.ts';

/**
 * A background export across a server restart: a server of its own (its own port and embedded database)
 * with enough contributors (40 000) that the export job is still writing when the server is killed. On the next
 * start the job is taken back and run again: Procesos shows it finished (never stuck) and the file downloads.
 */
const port = E2E_PORT + 51;
const base = `http://127.0.0.1:${port}`;
// Enough that the export is still writing when the server is killed (it is killed at its first progress).
const rows = 40_000;
const total = rows.toLocaleString('en-US');

test('a contributors export cut by a server restart runs again and is downloaded from Procesos', async ({ browser }) => {
  test.setTimeout(420_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'aporta-e2e-export-'));
  // First start: migrations, reference data and the administrator; then, stopped, the contributors.
  let server = startServer(port, dataDir);
  try {
    await waitForHealth(port);
    await killed(server, 'SIGTERM');
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'e2e/seed-many-contributors.mjs'), dataDir, String(rows)], {
      cwd: root,
      stdio: 'inherit',
    });
    server = startServer(port, dataDir);
    await waitForHealth(port);

    const context = await browser.newContext({ baseURL: base, locale: 'es-GT', timezoneId: 'America/Guatemala' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/contributors/list');
    await page.getByRole('button', { name: 'Exportar csv' }).click();

    // The job's card follows it: rows written of the total, live.
    const card = page.getByTestId('job-progress');
    await expect(card.getByText('Exportación de afiliados')).toBeVisible();
    await expect(card).toContainText(new RegExp(`[1-9][\\d,]* de ${total}`), { timeout: 120_000 });
    await page.screenshot({ path: '../.test-output/export-restart-progress.png', fullPage: true });

    // The server dies in the middle of writing the file, and starts again on the same database.
    await killed(server);
    const cut = new RegExp(`([\\d,]+) de ${total}`).exec((await card.textContent()) ?? '');
    expect(Number(cut?.[1].replace(/,/g, ''))).toBeLessThan(rows);
    server = startServer(port, dataDir);
    await waitForHealth(port);

    // Procesos: the job taken back at start and run again to the end, never left "En curso".
    await page.goto('/procesos');
    await expect(page.getByRole('heading', { name: 'Procesos' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: 'Exportación de afiliados' }).first();
    await expect(row).toContainText('Terminado', { timeout: 240_000 });
    await expect(row).toContainText(`${total} de ${total}`);
    await page.screenshot({ path: '../.test-output/export-restart-procesos.png', fullPage: true });
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Descargar archivo' }).click();
    const file = await download;
    const lines = readFileSync(await file.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    // Every row once: the second run wrote a new file from the start.
    expect(lines).toHaveLength(rows + 1);
    expect(lines[0]).toContain('Nombre completo');

    // The list's card (kept in the browser) shows the same job finished.
    await page.goto('/contributors/list');
    await expect(page.getByTestId('job-progress')).toContainText('Terminado');
    await context.close();
  } finally {
    await killed(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
