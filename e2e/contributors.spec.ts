import { expect, expectAccessible, randomCui, signIn, test } from './fixtures.ts';

const spaced = (c: string) => `${c.slice(0, 4)} ${c.slice(4, 9)} ${c.slice(9)}`;

/** The first person of the deterministic demo RENAP registry (seed 20260101), never a demo contributor. */
const RENAP_CUI = '3303225830101';
// The demo Administrador holds cui-approval APPROVE: the second person of the maker-checker rule.
const REVIEWER = { email: 'administrador@demo.aporta.local', password: 'Demo-Clave-2026' };

test('a user registers a contributor with RENAP prefill and another person approves the CUI', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  await page.goto('/contributors/new');
  await expect(page.getByRole('heading', { name: 'Nuevo afiliado' })).toBeVisible();
  await page.getByRole('textbox', { name: 'CUI' }).fill('1680352240101');
  await expect(page.getByText('El dígito verificador del CUI no es válido.')).toBeVisible();
  await page.getByRole('textbox', { name: 'CUI' }).fill(RENAP_CUI);
  const panel = page.getByTestId('renap-panel');
  await expect(panel.getByText('Encontrado')).toBeVisible();
  await expectAccessible(page);
  await panel.getByRole('button', { name: 'Usar los datos de RENAP' }).click();
  await expect(page.getByRole('textbox', { name: 'Primer nombre' })).toHaveValue('Marvin');
  await expect(page.getByRole('textbox', { name: 'Primer apellido' })).toHaveValue('Juárez');
  await page.getByRole('textbox', { name: 'NIT' }).fill('576937-K');
  await page.getByLabel('Tipo de afiliado').first().click();
  await page.getByRole('option', { name: 'Activo' }).click();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('heading', { name: /Marvin .*Juárez/ })).toBeVisible();
  await expect(page.getByText('Pendiente').filter({ visible: true }).first()).toBeVisible();
  await expectAccessible(page);

  // The requester cannot approve their own request.
  await page.goto('/contributors/cui-approval');
  await page
    .getByRole('row', { name: /3303 22583 0101/ })
    .getByRole('button', { name: 'Revisar' })
    .click();
  await expect(page.getByText('Usted hizo esta solicitud: debe aprobarla o rechazarla otra persona.')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Salir' }).click();
  await signIn(page, REVIEWER.email, REVIEWER.password);
  await page.goto('/contributors/cui-approval');
  await expectAccessible(page);
  await page
    .getByRole('row', { name: /3303 22583 0101/ })
    .getByRole('button', { name: 'Revisar' })
    .click();
  const compare = page.getByTestId('approval-compare');
  await expect(
    compare
      .getByRole('row', { name: /Primer apellido/ })
      .getByRole('cell')
      .nth(2),
  ).toHaveText('Juárez');
  await page.getByRole('button', { name: 'Aprobar' }).click();
  await expect(page.getByText('CUI aprobado.')).toBeVisible();
  await expect(page.getByRole('row', { name: /3303 22583 0101/ })).toHaveCount(0);
  await page.locator('label', { hasText: /^Aprobado$/ }).click();
  await expect(page.getByRole('row', { name: /3303 22583 0101/ })).toContainText('Aprobado');
  // The decided request offers no more actions and shows who decided it, when, from what to what.
  await page
    .getByRole('row', { name: /3303 22583 0101/ })
    .getByRole('button', { name: 'Revisar' })
    .click();
  const history = page.getByTestId('transition-history');
  await expect(history).toContainText('Solicitud creada');
  await expect(history).toContainText('Aprobar: Pendiente → Aprobado');
  await expect(history).toContainText(REVIEWER.email);
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Aprobar' })).toHaveCount(0);
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  // The command palette finds the contributor by the start of the CUI and opens the 360° page.
  await page.getByTestId('topbar-search').click();
  await page.getByRole('textbox', { name: 'Buscar páginas y registros' }).fill('3303 2258');
  await page.getByRole('button', { name: /Marvin .*Juárez/ }).click();
  await expect(page).toHaveURL(/\/contributors\/\d+$/);
  await expect(page.getByRole('heading', { name: /Marvin .*Juárez/ })).toBeVisible();

  // The requester is told of the decision.
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Salir' }).click();
  await signIn(page);
  await page.getByTestId('notifications-button').click();
  await expect(page.getByTestId('notifications-panel')).toContainText('CUI 3303 22583 0101 aprobado');
});

test('a bulk upload with 10 good and 3 bad rows shows the 3 with reasons, commits the 10 and downloads the exceptions', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  await page.goto('/contributors/bulk-upload');
  await expect(page.getByRole('heading', { name: 'Carga masiva' })).toBeVisible();
  await expectAccessible(page);
  const header = 'CUI;NIT;PRIMER_NOMBRE;PRIMER_APELLIDO;FECHA_NACIMIENTO;SEXO;TIPO;SALARIO';
  const good = Array.from(
    { length: 10 },
    (_, i) => `${spaced(randomCui())};7108-0;Carga${i};Masiva;0${(i % 9) + 1}/05/1990;F;ACTIVO;3500.00`,
  );
  const bad = [
    '1680352240101;;Mala;Verificador;01/05/1990;M;ACTIVO;100',
    `${randomCui()};8977112-0;Mal;Nit;01/05/1990;M;ACTIVO;100`,
    `${randomCui()};;Fecha;Imposible;31/02/1990;M;ACTIVO;mil`,
  ];
  const csv = `\uFEFF${[header, ...good, ...bad].join('\r\n')}\r\n`;
  await page.getByTestId('upload-file').click();
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'afiliados.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await page.getByRole('button', { name: 'Cargar y validar' }).click();
  await expect(page.getByTestId('upload-valid')).toHaveText('10');
  await expect(page.getByTestId('upload-errors')).toHaveText('3');
  await expect(page.getByText('El dígito verificador del CUI no es válido.')).toBeVisible();
  await expect(page.getByText('El dígito verificador del NIT no es válido.')).toBeVisible();
  await expect(page.getByText(/Fecha de nacimiento no válida: "31\/02\/1990"/)).toBeVisible();
  await expect(page.getByText(/Salario: El monto "mil" no es un número/)).toBeVisible();
  await expectAccessible(page);

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar excepciones (XLSX)' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^excepciones-afiliados-.*\.xlsx$/);

  await page.getByRole('button', { name: 'Confirmar 10 filas válidas' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByTestId('upload-committed')).toContainText('Se registraron 10 afiliados.');

  await page.goto('/contributors/list');
  await page.getByRole('textbox', { name: 'Buscar' }).fill('carga3 masiva');
  await expect(page.getByRole('link', { name: 'Carga3 Masiva' })).toBeVisible();
  await expectAccessible(page);
});

test('the contributor reports show totals and export xlsx and pdf', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  for (const [path, heading] of [
    ['/contributors/reports/general', 'Reporte general de afiliados'],
    ['/contributors/reports/by-municipality', 'Afiliados por municipio'],
    ['/contributors/reports/by-type', 'Afiliados por tipo'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    // Demo data holds a few hundred contributors: the totals row counts them.
    await expect(page.getByTestId('report-total')).not.toHaveText('0');
    await expectAccessible(page);
  }
  for (const format of ['XLSX', 'PDF']) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: `Exportar ${format}` }).click();
    expect((await download).suggestedFilename()).toMatch(new RegExp(`^reporte-afiliados-by-type-.*\\.${format.toLowerCase()}$`));
  }
});

test('the contributors list pages forwards and backwards by key, with the total as counted', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  await page.goto('/contributors/list');
  const pager = page.getByTestId('list-pager');
  // The demo data holds some hundreds of contributors: an exact total (the rule: exact up to 10 000), not
  // "≈ n" nor "más de 10,000".
  await expect(pager.getByText(/^Página 1 · 1–25 de \d{1,3}(,\d{3})?$/)).toBeVisible();
  await expect(pager.getByRole('button', { name: 'Anterior' })).toBeDisabled();
  // The rows once the page's request has answered (the list is aria-busy while it fetches).
  const firstRow = async () => {
    await expect(page.getByTestId('list-page')).toHaveAttribute('aria-busy', 'false');
    return page.locator('table tbody tr').first().textContent();
  };
  const page1 = await firstRow();
  for (const n of [2, 3, 4]) {
    await pager.getByRole('button', { name: 'Siguiente' }).click();
    await expect(pager.getByText(new RegExp(`^Página ${n} · ${(n - 1) * 25 + 1}–${n * 25} de`))).toBeVisible();
  }
  const page4 = await firstRow();
  expect(page4).not.toBe(page1);
  await pager.getByRole('button', { name: 'Anterior' }).click();
  await expect(pager.getByText(/^Página 3 · 51–75 de/)).toBeVisible();
  await pager.getByRole('button', { name: 'Siguiente' }).click();
  await expect(pager.getByText(/^Página 4 · 76–100 de/)).toBeVisible();
  // The same page by key: the same rows.
  await expect.poll(firstRow).toBe(page4);
  await expectAccessible(page);
  await pager.getByRole('button', { name: 'Primera página' }).click();
  await expect(pager.getByText(/^Página 1 · 1–25 de/)).toBeVisible();
  await expect.poll(firstRow).toBe(page1);
  // A filter starts over at page 1.
  await pager.getByRole('button', { name: 'Siguiente' }).click();
  await expect(pager.getByText(/^Página 2 ·/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Buscar', exact: true }).fill('maria');
  await expect(pager.getByText(/^Página 1 ·/)).toBeVisible();
});
