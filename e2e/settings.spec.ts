import { E2E_ADMIN, expect, expectAccessible, signIn, test } from './fixtures.ts';

const OPERADOR = { email: 'operador@demo.aporta.local', password: 'Demo-Clave-2026' };

/** A date `days` from today in Guatemala, as dd/mm/aaaa. */
const daysFromToday = (days: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10).split('-').reverse().join('/');
};

test('an administrator schedules a new employee rate from a future date and sees it as next value and in the history', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto('/administrative/settings');
  await expect(page.getByRole('heading', { name: 'Parámetros', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Cuotas y planillas' })).toBeVisible();
  const row = page.getByTestId('setting-contributions.employeeRate');
  await expect(row.getByTestId('current')).toContainText('7.00 %');
  await expect(row.getByTestId('current')).toContainText('desde 01/01/2000');
  await expect(row.getByTestId('next')).toContainText('Sin cambios programados');
  await expectAccessible(page);

  await row.getByRole('button', { name: 'Programar un valor de Cuota laboral' }).click();
  const dialog = page.getByRole('dialog', { name: 'Programar: Cuota laboral' });
  await expect(dialog).toBeVisible();
  const value = dialog.getByRole('textbox', { name: 'Nuevo valor' });
  await expect(value).toHaveValue('7');
  await expectAccessible(page);
  // Today is not offered (the calendar starts tomorrow unless the change is marked retroactive).
  await value.fill('7,5');
  await dialog.getByRole('textbox', { name: 'Vigente desde' }).fill(daysFromToday(0));
  await dialog.getByRole('textbox', { name: 'Motivo' }).fill('Acuerdo de junta directiva 12-2026');
  await dialog.getByRole('button', { name: 'Programar valor' }).click();
  await expect(dialog.getByText(/usa coma decimal/)).toBeVisible();
  await expect(dialog.getByText('Vigente desde: indique la fecha.')).toBeVisible();

  const from = daysFromToday(45);
  await value.fill('7.5');
  await dialog.getByRole('textbox', { name: 'Vigente desde' }).fill(from);
  await dialog.getByRole('textbox', { name: 'Vigente desde' }).press('Tab');
  await dialog.getByRole('button', { name: 'Programar valor' }).click();
  await expect(page.getByText('Valor programado.')).toBeVisible();
  await expect(dialog).toBeHidden();

  await expect(row.getByTestId('next')).toContainText('7.50 %');
  await expect(row.getByTestId('next')).toContainText(`a partir del ${from}`);
  await expect(row.getByTestId('current')).toContainText('7.00 %');

  await row.getByRole('button', { name: 'Historial de Cuota laboral' }).click();
  const history = page.getByRole('dialog', { name: 'Historial: Cuota laboral' });
  await expect(history.getByRole('row')).toHaveCount(3);
  await expect(history.getByRole('row').nth(1)).toContainText(from);
  await expect(history.getByRole('row').nth(1)).toContainText('Programado');
  await expect(history.getByRole('row').nth(1)).toContainText('Acuerdo de junta directiva 12-2026');
  await expect(history.getByRole('row').nth(2)).toContainText('Vigente');
  await expect(history.getByRole('row').nth(2)).toContainText('01/01/2000');
  await expect(history.getByRole('button', { name: 'Anular' })).toHaveCount(1);
  await expectAccessible(page);
});

test('a user without the permission gets "No autorizado", no menu entry, and a 403 from the API', async ({ page, request }) => {
  await signIn(page, OPERADOR.email, OPERADOR.password);
  await expect(page.getByRole('link', { name: 'Parámetros' })).toHaveCount(0);
  await page.goto('/administrative/settings');
  await expect(page.getByRole('heading', { name: 'No autorizado' })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('auth-token'));
  expect((await request.get('/api/settings', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(403);
});
