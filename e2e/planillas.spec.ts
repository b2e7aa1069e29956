import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, randomCui, signIn, test } from './fixtures.ts';

const DEMO_PASSWORD = 'Demo-Clave-2026';
const OPERATOR = 'operador@demo.aporta.local';
const DELEGATE = 'delegado.metropolitana@demo.aporta.local';
const shots = process.env.PLANILLA_SCREENSHOTS;

async function as(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email, DEMO_PASSWORD);
  return page;
}

async function shot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** The last month in Guatemala: what the carga screen proposes to declare. */
function lastMonth(): string {
  const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number);
  return m === 1 ? `12/${y - 1}` : `${String(m - 1).padStart(2, '0')}/${y}`;
}

async function take(page: Page, action: string, comment?: string) {
  if (comment) await page.getByLabel('Comentario').fill(comment);
  await page.getByRole('button', { name: action, exact: true }).click();
}

test('planillas: Mixco copies last month, uploads a corrected file, fixes two lines, the delegate observes, approves, the history shows the month', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // The entity operator of Mixco copies last month.
  const op = await as(browser, OPERATOR);
  await op.goto('/planilla/carga');
  await expect(op.getByRole('heading', { name: 'Carga de planilla' })).toBeVisible();
  await expectAccessible(op);
  await op.getByRole('button', { name: /Copiar el período anterior/ }).click();
  await expect(op.getByRole('heading', { name: `Municipalidad de Mixco · ${lastMonth()}` })).toBeVisible();
  await expect(op.getByTestId('planilla-lines')).not.toHaveText('0');
  const url = op.url();

  // … uploads a corrected file with two bad lines (it replaces the draft's lines) …
  const good = Array.from({ length: 10 }, (_, i) => ({ cui: randomCui(), name: `Empleado Corregido ${i + 1}` }));
  const csv = [
    'CUI;NOMBRE;RENGLON;SALARIO',
    ...good.map((g, i) => `${g.cui};${g.name};011;${3000 + i * 100}.00`),
    '1680352240101;Verificador Malo;011;3200.00',
    `${randomCui()};Salario Malo;011;mil`,
  ].join('\r\n');
  await op.goto('/planilla/carga');
  await op.getByTestId('upload-file').click();
  await op
    .locator('input[type=file]')
    .setInputFiles({ name: 'planilla.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}\r\n`) });
  await op.getByRole('button', { name: 'Validar archivo' }).click();
  await expect(op.getByTestId('upload-valid')).toHaveText('10');
  await expect(op.getByTestId('upload-errors')).toHaveText('2');
  await expect(op.getByText(/dígito verificador del CUI/)).toBeVisible();
  await shot(op, 'carga-validada');
  await op.getByRole('button', { name: 'Confirmar y abrir el borrador' }).click();
  await op.getByRole('dialog').getByRole('button', { name: 'Confirmar y abrir el borrador' }).click();
  await expect(op).toHaveURL(url);
  await expect(op.getByTestId('planilla-errors')).toHaveText('2');

  // … fixes them on screen …
  for (const row of [12, 13]) {
    await op.getByRole('button', { name: `Corregir la línea ${row}` }).click();
    const dialog = op.getByRole('dialog');
    await dialog.getByLabel('CUI').fill(randomCui());
    await dialog.getByLabel('Salario').fill('3250.00');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(op.getByTestId('planilla-errors')).toHaveText('0');
  // The last error fixed, the table leaves the now empty "Con error (0)" filter and shows every line.
  const lines = op.getByTestId('planilla-lines-card');
  await expect(lines.getByRole('radio', { name: 'Todas' })).toBeChecked();
  await expect(lines.getByRole('radio', { name: 'Con error (0)' })).not.toBeChecked();
  await expect(lines.getByRole('row').filter({ hasText: 'Empleado Corregido 5' })).toBeVisible();
  await shot(op, 'planilla-borrador');
  await expectAccessible(op);
  // … and submits: the planilla is sent by a job (Enviando, with its progress) and the page follows it.
  await take(op, 'Enviar a revisión');
  // A confirmation says what is sent: whose planilla, its lines and totals.
  await expect(op.getByRole('dialog').getByTestId('confirm-summary')).toContainText('Municipalidad de Mixco');
  await expect(op.getByRole('dialog').getByTestId('confirm-lines')).toHaveText(/\d+ líneas?/);
  await op.getByRole('dialog').getByRole('button', { name: 'Enviar a revisión' }).click();
  await expect(op.getByTestId('planilla-state')).toHaveText('Enviada');
  await expect(op.getByTestId('transition-history')).toContainText('Envío completado (validada y calculada): Enviando → Enviada');
  await expect(op.getByTestId('planilla-sending')).toBeHidden();

  // The delegate of the region sees it in the queue with the differences against last month, observes one line.
  const dl = await as(browser, DELEGATE);
  await expect(dl.getByTestId('queue-planillas-to-review')).toBeVisible();
  await dl.goto('/planilla/revision-delegado');
  await dl.getByRole('link', { name: 'Municipalidad de Mixco' }).click();
  await expect(dl).toHaveURL(url);
  await take(dl, 'Tomar para revisión');
  await expect(dl.getByTestId('planilla-state')).toHaveText('En revisión');
  await expect(dl.getByTestId('comparison')).toContainText('Nuevos');
  await dl.getByRole('button', { name: 'Observar la línea 2', exact: true }).click();
  await dl.getByRole('dialog').getByLabel('Observación de la línea').fill('El salario no coincide con el contrato.');
  await dl.getByRole('dialog').getByRole('button', { name: 'Agregar observación' }).click();
  await shot(dl, 'revision');
  await expectAccessible(dl);
  await take(dl, 'Observar', 'Corrija el salario de la línea 2.');
  await expect(dl.getByTestId('planilla-state')).toHaveText('Observada');

  // The operator corrects and resubmits: the observed line comes first, the delegate's words on the line itself.
  await op.goto(url);
  await expect(op.getByTestId('planilla-comments')).toContainText('El salario no coincide con el contrato.');
  const observedLines = op.getByTestId('planilla-lines-card');
  await expect(observedLines.getByRole('radio', { name: 'Con observación (1)' })).toBeChecked();
  const observedRow = observedLines.getByRole('row').filter({ has: op.getByTestId('line-observations') });
  await expect(observedRow).toHaveCount(1);
  await expect(observedRow.getByTestId('line-observations')).toContainText(
    'Observación: El salario no coincide con el contrato.',
  );
  await expect(observedRow.getByTestId('line-observations')).toContainText(`Por ${DELEGATE}, el `);
  await expect(observedRow.getByRole('button', { name: 'Corregir la línea 2', exact: true })).toBeVisible();
  // Every line again: the observation stays on its line.
  await observedLines.locator('label', { hasText: /^Todas$/ }).click();
  await expect(observedLines.getByRole('row').filter({ hasText: 'Empleado Corregido 5' })).toBeVisible();
  await expect(observedLines.getByTestId('line-observations')).toHaveCount(1);
  await shot(op, 'observacion-en-la-linea');
  await op.getByRole('button', { name: 'Corregir la línea 2', exact: true }).click();
  await op.getByRole('dialog').getByLabel('Salario').fill('3100.00');
  await op.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(op.getByRole('dialog')).toBeHidden();
  await take(op, 'Enviar a revisión');
  await op.getByRole('dialog').getByRole('button', { name: 'Enviar a revisión' }).click();
  await expect(op.getByTestId('planilla-state')).toHaveText('Enviada');

  // The delegate approves.
  await dl.goto(url);
  await take(dl, 'Tomar para revisión');
  await expect(dl.getByTestId('planilla-state')).toHaveText('En revisión');
  await take(dl, 'Aprobar');
  // The confirmation says which two orders it issues, to whom, for how much.
  const confirm = dl.getByRole('dialog');
  await expect(confirm.getByTestId('confirm-summary')).toContainText('se emiten 2 órdenes de pago');
  await expect(confirm.getByTestId('confirm-order-LABORAL')).toHaveText(/^Q [\d,]+\.\d{2}$/);
  await expect(confirm.getByTestId('confirm-order-PATRONAL')).toHaveText(/^Q [\d,]+\.\d{2}$/);
  await confirm.getByRole('button', { name: 'Aprobar y emitir las órdenes' }).click();
  await expect(dl.getByTestId('planilla-state')).toHaveText('Aprobada');
  await expect(dl.getByTestId('transition-history')).toContainText('Aprobar: En revisión → Aprobada');
  // The approved planilla links to the orders it issued.
  await expect(dl.getByTestId('planilla-orders').getByTestId('planilla-order-link')).toHaveCount(2);

  // The contributor's history shows the month.
  await dl.goto(`/planilla/historial-cuotas-laborales?cui=${good[0].cui}`);
  await expect(dl.getByTestId('contribution-history')).toContainText(lastMonth());
  await expect(dl.getByTestId('contribution-history')).toContainText('Municipalidad de Mixco');
  await expect(dl.getByTestId('contribution-history')).toContainText('Q 217.00'); // line 2 corrected to 3,100.00 after the observation: 7 %
  await shot(dl, 'historial');
  await expectAccessible(dl);
});
