import { readFileSync } from 'node:fs';
import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test('a contributors export runs as a job: live progress, kept when leaving, downloaded from Procesos', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto('/contributors/list');
  await page.getByRole('button', { name: 'Exportar csv' }).click();

  // The progress card of the job appears on the list and follows it to the end.
  const card = page.getByTestId('job-progress');
  await expect(card).toBeVisible();
  await expect(card.getByText('Exportación de afiliados')).toBeVisible();
  await expect(card.getByRole('progressbar', { name: 'Avance' })).toBeVisible();
  await expect(card.getByText('Terminado', { exact: true }).first()).toBeVisible({ timeout: 60_000 });
  await expect(card).toContainText(/\d[\d,]* de \d[\d,]*/);
  const counted = /(\d[\d,]*) de (\d[\d,]*)/.exec((await card.textContent()) ?? '');
  expect(counted?.[1]).toBe(counted?.[2]);
  const rows = Number(counted?.[1].replace(/,/g, ''));
  expect(rows).toBeGreaterThan(0);
  await expectAccessible(page);

  // Leave the page: Procesos lists the job, and the file downloads from there.
  await page.getByRole('link', { name: 'Ver en Procesos' }).click();
  await expect(page).toHaveURL(/\/procesos$/);
  await expect(page.getByRole('heading', { name: 'Procesos' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Exportación de afiliados' }).first();
  await expect(row).toContainText('Terminado');
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Descargar archivo' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^afiliados-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  expect(lines[0]).toContain('Nombre completo');
  expect(lines).toHaveLength(rows + 1);
  await expectAccessible(page);

  // Coming back to the list finds the job's card again, until it is dismissed.
  await page.goto('/contributors/list');
  await expect(page.getByTestId('job-progress')).toContainText('Terminado');
  await page.getByTestId('job-progress').getByRole('button', { name: 'Cerrar' }).click();
  await expect(page.getByTestId('job-progress')).toHaveCount(0);
});
