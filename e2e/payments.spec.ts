import { expect, expectAccessible, signIn, test } from './fixtures.ts';

const ENTITY = 'Empresa Municipal de Agua de Quetzaltenango';
const shots = process.env.PAYMENT_SCREENSHOTS;

/** ISO 7064 MOD 97-10 check digits, as the domain computes them (a reference no order has). */
function reference(body: string): string {
  let r = 0;
  for (const ch of `${body}00`) r = (r * 10 + Number(ch)) % 97;
  return `${body}${String(98 - r).padStart(2, '0')}`;
}

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala' }).format(new Date());
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
const money = (c: number) => (c / 100).toFixed(2);

test('payments: approval issues two orders; PDF; partial payment then the rest with consecutive receipts; a receipt voided shows in the corte; a bank file row resolved; the month paid', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);

  // Approving a planilla issues its two orders.
  await page.goto('/planilla/revision-delegado');
  await page.getByRole('link', { name: ENTITY }).first().click();
  await expect(page).toHaveURL(/\/planilla\/vista\/\d+/);
  const planillaUrl = page.url();
  await page.getByRole('button', { name: 'Tomar para revisión', exact: true }).click();
  await expect(page.getByTestId('planilla-state')).toHaveText('En revisión');
  await page.getByRole('button', { name: 'Aprobar', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Aprobar y emitir las órdenes' }).click();
  await expect(page.getByTestId('planilla-state')).toHaveText('Aprobada');
  await expect(page.getByTestId('planilla-order-link')).toHaveCount(2);
  const cuiText =
    ((await page.getByTestId('planilla-lines-card').getByRole('row').nth(1).textContent()) ?? '').match(
      /\d{4}\s?\d{5}\s?\d{4}/,
    )?.[0] ?? '';
  const cui = cuiText.replace(/\s/g, '');
  expect(cui).toHaveLength(13);
  const period = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  const month = period.match(/\d{2}\/\d{4}/)?.[0] ?? '';

  await page.goto('/ordenes-pago');
  await expect(page.getByRole('heading', { name: 'Órdenes de pago' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Buscar', exact: true }).fill(ENTITY);
  // The entity's rows of the month (coming back to the list, other entities' orders of the month show too).
  const rows = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: month, exact: true }) })
    .filter({ hasText: ENTITY });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Cuota laboral' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Cuota patronal' })).toHaveCount(1);
  await expectAccessible(page);
  if (shots) await page.screenshot({ path: `${shots}/ordenes.png`, fullPage: true });

  // The employer order's balance, for the bank file later.
  await rows.filter({ hasText: 'Cuota patronal' }).getByRole('link').click();
  const patronalRef = ((await page.getByTestId('order-reference').textContent()) ?? '').replace(/\s/g, '');
  const patronalBalance = cents((await page.getByTestId('order-balance').textContent()) ?? '');
  await page.goBack();

  // The employee order: its PDF carries the reference (and its QR).
  await rows.filter({ hasText: 'Cuota laboral' }).getByRole('link').click();
  const ref = ((await page.getByTestId('order-reference').textContent()) ?? '').replace(/\s/g, '');
  expect(ref).toMatch(/^\d{19}$/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PDF de la orden' }).click();
  expect((await download).suggestedFilename()).toBe(`orden-${ref}.pdf`);

  // A cashier registers a partial payment, then the rest: two consecutive receipts.
  const balance = cents((await page.getByTestId('order-balance').textContent()) ?? '');
  const partial = Math.floor(balance / 3);
  const payOnce = async (amount: number, bankRef: string, paysOff = false) => {
    // The bank is one of the «Bancos» catalogue (not free text). The field is brought to the middle of the screen
    // first: after a payment's result the form sits at the bottom edge, and the list of banks opened off screen
    // (the option never became visible; seen once in CI).
    const bank = page.getByRole('combobox', { name: 'Banco', exact: true });
    await bank.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await bank.fill('Rural');
    await page.getByRole('option', { name: 'Banco de Desarrollo Rural, S. A.' }).click();
    await page.getByLabel('Referencia bancaria').fill(bankRef);
    await page.getByLabel('Monto').fill(money(amount));
    await page.getByRole('button', { name: 'Registrar pago' }).last().click();
    // A confirmation says what will happen: the amount, how it splits (interest first) and the balance after.
    const confirm = page.getByRole('dialog').filter({ hasText: 'Confirmar el registro del pago' });
    await expect(confirm.getByTestId('payment-confirmation')).toContainText(grouped(amount));
    await expect(confirm.getByTestId('payment-confirmation')).toContainText('Banco de Desarrollo Rural, S. A.');
    await expect(confirm.getByTestId('payment-confirmation')).toContainText('recibo 7-B');
    await expect(confirm.getByTestId('confirm-balance-after')).toHaveText(grouped(paysOff ? 0 : balance - amount));
    await confirm.getByRole('button', { name: 'Registrar el pago' }).click();
    // A partial payment shows its result in the form, with its receipt as a link; paying the rest closes the
    // order and the form with it.
    if (!paysOff) {
      await expect(page.getByTestId('payment-result')).toContainText('Pago registrado');
      await expect(page.getByTestId('payment-result').getByTestId('receipt-link')).toBeVisible();
    }
  };
  const grouped = (c: number) => `Q ${money(c).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
  const stamp = Date.now();
  await payOnce(partial, `E2E-${stamp}-1`);
  await expect(page.getByTestId('order-balance')).toHaveText(grouped(balance - partial));
  // Partly paid: its own state (or overdue, once past its due date); the statement shows what was paid.
  await expect(page.getByTestId('order-state')).toHaveText(/^(Pagada parcialmente|Vencida)$/);
  await expect(page.getByTestId('order-paid')).toContainText(grouped(partial));
  if (shots) await page.screenshot({ path: `${shots}/orden-parcial.png`, fullPage: true });
  await payOnce(balance - partial, `E2E-${stamp}-2`, true);
  await expect(page.getByTestId('order-state')).toHaveText('Pagada');
  // Each receipt number is a link to its PDF.
  await expect(page.getByTestId('receipt-number').getByTestId('receipt-link')).toHaveCount(2);
  const receiptTexts = await page.getByTestId('receipt-number').allInnerTexts();
  const numbers = receiptTexts.map((t) => Number(t.split('-')[1]));
  const series = receiptTexts[0].split('-')[0];
  expect(numbers).toHaveLength(2);
  expect(Math.abs(numbers[0] - numbers[1])).toBe(1);
  const firstNumber = Math.min(...numbers);

  // A receipt is voided (with its reason) and the corte de formas shows it.
  await page.goto('/planilla/recibos-7b');
  await page.getByRole('textbox', { name: 'Número o serie', exact: true }).fill(String(firstNumber));
  // The row of that number (not merely the first row: the search applies after a pause).
  const receiptRow = page
    .getByRole('row')
    .filter({ hasText: ENTITY })
    .filter({ has: page.getByRole('button', { name: new RegExp(`^Abrir el PDF del recibo [A-Z0-9]+-${firstNumber}$`) }) });
  await expect(receiptRow).toHaveCount(1);
  await receiptRow.getByRole('button', { name: 'Anular' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Anular' }).click();
  await expect(page.getByRole('dialog').getByText('Escriba el motivo.')).toBeVisible();
  await page.getByRole('dialog').getByLabel('Motivo').fill('Forma dañada al imprimir');
  await page.getByRole('dialog').getByRole('button', { name: 'Anular' }).click();
  await expect(receiptRow).toContainText('Anulado');
  await page.goto('/planilla/rangos-7b');
  await page.getByRole('combobox', { name: 'Rango' }).click();
  await page.getByRole('option', { name: new RegExp(`^${series} `) }).click();
  await expect(page.getByTestId('corte')).toContainText(`${firstNumber} (Forma dañada al imprimir)`);
  await expectAccessible(page);
  if (shots) await page.screenshot({ path: `${shots}/rangos-corte.png`, fullPage: true });

  // A bank file: the employer order's row matches; a row with an unknown reference waits to be resolved.
  const unknown = reference(`9999999${today().slice(0, 7).replace('-', '')}1001`);
  const csv = [
    'fecha,referencia,monto',
    `${today()},${patronalRef},${money(patronalBalance)}`,
    `${today()},${unknown},10.00`,
  ].join('\n');
  await page.goto('/planilla/pagos-planillas');
  await page.getByRole('tab', { name: 'Archivos del banco' }).click();
  // The bank is one of the «Bancos» catalogue, found by typing part of its name.
  await page.getByRole('combobox', { name: 'Banco', exact: true }).fill('Rural');
  await page.getByRole('option', { name: 'Banco de Desarrollo Rural, S. A.' }).click();
  await page.locator('input[type=file]').setInputFiles({ name: 'banrural.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Importar y conciliar' }).click();
  await expect(page.getByTestId('bank-file-summary')).toContainText('1 sin coincidencia');
  // References are shown grouped by four, as on the order and its PDF.
  const unknownShown = unknown.replace(/(\d{4})(?=\d)/g, '$1 ');
  const pending = page.getByRole('row').filter({ hasText: unknownShown });
  await pending.getByRole('button', { name: 'Resolver' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Entidad').click();
  await page.getByRole('option', { name: new RegExp(ENTITY) }).click();
  await dialog.getByLabel('Orden a la que se aplica').click();
  await page.getByRole('option').first().click();
  await dialog.getByRole('button', { name: 'Registrar el pago' }).click();
  await expect(page.getByRole('row').filter({ hasText: unknownShown })).toContainText('Resuelta');
  if (shots) await page.screenshot({ path: `${shots}/archivo-banco.png`, fullPage: true });

  // Both orders paid (the matched row's payment is registered by a job): the planilla is paid and the month too.
  await expect(async () => {
    await page.goto(planillaUrl);
    await expect(page.getByTestId('planilla-state')).toHaveText('Pagada', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await page.goto(`/planilla/historial-cuotas-laborales?cui=${cui}`);
  const monthRow = page.getByTestId('contribution-history').getByRole('row').filter({ hasText: month });
  await expect(monthRow).toContainText('Pagado');
  await expectAccessible(page);

  // Statistics: collection per month, declared / in orders / collected, as bars and an exact table.
  await page.goto('/administrative/statistics');
  const collection = page.getByTestId('panel-collection-monthly');
  await expect(collection.getByRole('columnheader', { name: 'En órdenes' })).toBeVisible();
  await expect(collection.getByRole('row').nth(1)).toContainText(/\d{2}\/\d{4}.*Q/);
});
