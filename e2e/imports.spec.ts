import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_PORT } from './constants.mjs';
import { expect, signIn, test } from './fixtures.ts';
import { killed, startServer as startOwnServer, waitForHealth as waitForOwnHealth } from './own-server.ts';

/**
 * The bulk upload across a server restart: this spec runs its own server (its own port and embedded
 * database, no demo data) so it can kill it in the middle of a validation and start it again.
 */
const port = E2E_PORT + 50;
const base = `http://127.0.0.1:${port}`;
const startServer = (dataDir: string) => startOwnServer(port, dataDir);
const waitForHealth = () => waitForOwnHealth(port);

/** A valid CUI (DOMAIN.md rule) of municipality 0101 from a serial. */
function cui(serial: number): string {
  for (let s = serial; ; s++) {
    const body = String(10_000_000 + s);
    let sum = 0;
    for (let i = 0; i < 8; i++) sum += Number(body[i]) * (i + 2);
    if (sum % 11 !== 10) return `${body}${sum % 11}0101`;
  }
}

test('a large upload shows its validation live, is found again after leaving the page, and resumes after a server restart', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'aporta-e2e-imports-'));
  let server = startServer(dataDir);
  try {
    await waitForHealth();
    const context = await browser.newContext({ baseURL: base, locale: 'es-GT', timezoneId: 'America/Guatemala' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/contributors/bulk-upload');
    await expect(page.getByRole('heading', { name: 'Carga masiva' })).toBeVisible();

    // Enough rows that the validation is still running when the server is killed.
    const rows = 150_000;
    const header = 'CUI;PRIMER_NOMBRE;PRIMER_APELLIDO;FECHA_NACIMIENTO;SEXO;TIPO;SALARIO';
    const lines = Array.from({ length: rows }, (_, i) => `${cui(i * 13)};Persona${i};Reinicio;01/05/1990;F;ACTIVO;3500.00`);
    lines[7] = '1680352240101;Mala;Verificador;01/05/1990;M;ACTIVO;100';
    const csv = `${[header, ...lines].join('\r\n')}\r\n`;
    await page.getByTestId('upload-file').click();
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'muchos.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByRole('button', { name: 'Cargar y validar' }).click();

    // Live progress: the validation job's card, with rows done of the total.
    const progress = page.getByTestId('job-progress');
    await expect(progress).toBeVisible({ timeout: 120_000 });
    await expect(progress).toContainText('Validación de carga masiva');
    await expect(progress).toContainText(/de 150,000/, { timeout: 30_000 });
    await expect(page).toHaveURL(/[?&]carga=/);
    await page.screenshot({ path: '../.test-output/imports-progress.png', fullPage: true });

    const uploadUrl = page.url();
    // Leaving and coming back (without the address of the upload): still validating, the screen opens it
    // again by itself; validated meanwhile (a fast machine), it is listed among the unfinished, with Abrir.
    await page.goto('/contributors/list');
    await page.goto('/contributors/bulk-upload');
    const open = page.getByRole('button', { name: 'Abrir', exact: true }).first();
    await expect(progress.or(open).first()).toBeVisible();
    if (await open.isVisible()) await open.click({ timeout: 5_000 }).catch(() => undefined);
    await expect(page).toHaveURL(uploadUrl);
    // On a fast machine the validation may have ended meanwhile: the screen then shows its results.
    await expect(progress.or(page.getByTestId('upload-valid'))).toBeVisible();

    // The server dies in the middle of the validation, and starts again on the same database.
    await killed(server);
    server = startServer(dataDir);
    await waitForHealth();
    await page.goto(uploadUrl);
    // Resumed where it stopped (the job taken back at start), never stuck: the results of every row.
    await expect(page.getByTestId('upload-valid')).toHaveText(String(rows - 1), { timeout: 180_000 });
    await expect(page.getByTestId('upload-errors')).toHaveText('1');
    await expect(page.getByText('El dígito verificador del CUI no es válido.')).toBeVisible();
    await page.screenshot({ path: '../.test-output/imports-resumed.png', fullPage: true });
    // The same screen on a phone, light and dark (for review; the assertions above are what is tested).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId('upload-valid')).toBeVisible();
    await page.screenshot({ path: '../.test-output/imports-390-light.png', fullPage: true });
    await page.getByRole('button', { name: 'Modo oscuro' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.screenshot({ path: '../.test-output/imports-390-dark.png', fullPage: true });
    await context.close();
  } finally {
    await killed(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
