import ExcelJS from 'exceljs';
import { expect, expectAccessible, signIn, test } from './fixtures.ts';

/** Demo delegate of the Norte and Petén regions, seeded with DEMO_DATA (documented in README.md). */
const DELEGATE = { email: 'delegado@demo.aporta.local', password: 'Demo-Clave-2026', name: 'Diana Delegada' };

/** Waits for the list's requests and the loading overlay's fade before checking the screen. */
async function settled(page: import('@playwright/test').Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
}

/** Picks an option of a searchable reference select by typing part of its label. */
async function pickReference(page: import('@playwright/test').Page, label: string, search: string, option: string | RegExp) {
  const input = page.getByRole('combobox', { name: label });
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option }).first().click();
}

test('an administrator manages a region end to end; a delegate sees only their regions’ entities', async ({ page, browser }) => {
  // A long journey through many screens, each checked with axe, on a machine shared with other runs.
  test.setTimeout(120_000);
  const uid = Date.now().toString(36).toUpperCase();
  const code = `E2E${uid}`;
  const name = `Región e2e ${uid}`;
  await signIn(page);

  // Create the region through the generic form.
  await page.goto('/administrative/regions');
  await expect(page.getByRole('cell', { name: 'Metropolitana', exact: true })).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Nuevo' }).click();
  await page.getByLabel('Código').fill(code);
  await page.getByLabel('Nombre').fill(name);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page).toHaveURL(/\/administrative\/regions\/\d+$/);

  // Assign an entity to it (searchable reference selects).
  await page.goto('/administrative/entity-regions/new');
  await pickReference(page, 'Entidad', 'Mixco', 'Municipalidad de Mixco');
  await pickReference(page, 'Región', uid, name);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('heading', { name: `Municipalidad de Mixco — ${name}` })).toBeVisible();

  // Assign the demo delegate to it.
  await page.goto('/administrative/region-delegates/new');
  await pickReference(page, 'Región', uid, name);
  await pickReference(page, 'Delegado', 'Diana', DELEGATE.name);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('heading', { name: `${name} — ${DELEGATE.name}` })).toBeVisible();

  // Edit the region; its history shows the change.
  await page.goto('/administrative/regions');
  await page.getByLabel('Buscar', { exact: true }).fill(code);
  await page.getByRole('link', { name: `Editar ${name}` }).click();
  await page.getByLabel('Nombre').fill(`${name} editada`);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('heading', { name: `${name} editada` })).toBeVisible();
  const history = page.getByTestId('record-history');
  await expect(history.getByRole('row')).toHaveCount(3);
  await expect(history).toContainText(`Nombre: ${name} → ${name} editada`);
  await settled(page);
  await expectAccessible(page);

  // Deleting it is refused: entities and a delegate reference it.
  await page.goto('/administrative/regions');
  await page.getByLabel('Buscar', { exact: true }).fill(code);
  await page.getByRole('button', { name: `Eliminar ${name} editada` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByTestId('delete-refused')).toHaveText(
    `No se puede eliminar «${name} editada»: lo usan 1 registro de «Regiones de entidades» y 1 registro de «Delegados por región». Puede desactivarlo en su lugar.`,
  );
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Desactivar' })).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

  // Export the list with its filter: the xlsx holds the same rows as the table.
  await page.getByLabel('Buscar', { exact: true }).fill('');
  await expect(page.getByRole('row', { name: new RegExp(code) })).toBeVisible();
  // The search is debounced: wait until the unfiltered list (a seeded region too) is on screen.
  await expect(page.getByRole('row', { name: /Metropolitana/ })).toBeVisible();
  const tableCodes = await page.locator('tbody tr td:first-child').allInnerTexts();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar xlsx' }).click(),
  ]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await download.path());
  const ws = wb.worksheets[0];
  expect(ws.getRow(1).values).toEqual([undefined, 'ID', 'Código', 'Nombre', 'Activa']);
  const fileCodes: string[] = [];
  ws.eachRow((row, i) => {
    if (i > 1) fileCodes.push(String(row.getCell(2).value));
  });
  expect(fileCodes).toEqual(tableCodes.map((c) => c.trim()));
  expect(fileCodes).toContain(code);

  // The delegate sees the entity of the new region and those of Norte/Petén, not the others.
  const ctx = await browser.newContext();
  const dpage = await ctx.newPage();
  await signIn(dpage, DELEGATE.email, DELEGATE.password);
  await dpage.goto('/administrative/municipal-entities');
  await expect(dpage.getByRole('heading', { name: 'Entidades municipales' })).toBeVisible();
  await dpage.getByLabel('Buscar', { exact: true }).fill('Mixco');
  await expect(dpage.getByRole('cell', { name: 'Municipalidad de Mixco', exact: true })).toBeVisible();
  await dpage.getByLabel('Buscar', { exact: true }).fill('Cobán');
  await expect(dpage.getByRole('cell', { name: 'Municipalidad de Cobán', exact: true })).toBeVisible();
  await dpage.getByLabel('Buscar', { exact: true }).fill('Municipalidad de Escuintla');
  await expect(dpage.getByText('No hay registros que coincidan.')).toBeVisible();
  await expect(dpage.getByRole('link', { name: 'Nuevo' })).toHaveCount(0);
  await settled(dpage);
  await expectAccessible(dpage);
  await ctx.close();
});

test('audit, planilla audit and statistics screens work on real data', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  // The administrative overview links to the general audit view (the menu too, since issue 9).
  await page.goto('/administrative');
  await page
    .getByRole('main')
    .getByRole('link', { name: /Bitácora de auditoría/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Bitácora de auditoría' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Inicio de sesión', exact: true }).first()).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.goto('/administrative/planilla-audit-logs');
  await expect(page.getByRole('heading', { name: 'Bitácora de planillas' })).toBeVisible();
  await expect(page.getByText('Aún no hay cambios de planillas que coincidan con los filtros.')).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.goto('/administrative/statistics');
  await expect(page.getByTestId('panel-entities-by-department')).toContainText('Huehuetenango');
  await expect(page.getByTestId('panel-entities-without-delegate')).toBeVisible();
  await expect(page.getByTestId('panel-contributors-by-type')).toContainText('Activo');
  await expectAccessible(page);
  await page.goto('/administrative');
  await expect(page.getByTestId('overview-municipal-entities')).toBeVisible();
  await expectAccessible(page);
  await page.goto('/dcrud/budget-lines');
  await expect(page.getByRole('cell', { name: 'Personal permanente', exact: true })).toBeVisible();
  await page.goto('/dcrud/no-existe');
  await expect(page.getByTestId('collection-error')).toContainText('La colección «no-existe» no existe.');
});
