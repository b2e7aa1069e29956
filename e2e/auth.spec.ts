import { E2E_ADMIN, expect, expectAccessible, signIn, test } from './fixtures.ts';

test('a visitor is sent to sign in, fails once, signs in, stays signed in, and signs out', async ({ page }) => {
  // Two accessibility checks, two sign-ins and a reload: beyond the default 30 s on a busy two-core machine.
  test.setTimeout(60_000);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Correo electrónico').fill(E2E_ADMIN.email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('contraseña-equivocada');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Correo electrónico o contraseña incorrectos.');
  await expect(page).toHaveURL(/\/auth\/login$/);

  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-name')).toHaveText('Administrador del Sistema');
  await expect(page.getByTestId('user-institution')).toHaveText('SUPER ADMINISTRADOR');
  expect(await page.evaluate(() => localStorage.getItem('auth-token'))).toBeTruthy();
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('current-user'))) ?? '{}').email).toBe(E2E_ADMIN.email);
  await expectAccessible(page);

  await page.reload();
  await expect(page.getByTestId('user-name')).toHaveText('Administrador del Sistema');

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('auth-token'))).toBeNull();
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('the form names the fields it needs before calling the server', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByLabel('Correo electrónico').fill('no-es-un-correo');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByText('Correo electrónico no válido.')).toBeVisible();
  await expect(page.getByText('Ingrese su contraseña.')).toBeVisible();
});

test('a session revoked elsewhere sends the user back to sign in', async ({ page, request }) => {
  await signIn(page);
  const token = await page.evaluate(() => localStorage.getItem('auth-token'));
  const res = await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(204);
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('auth-token'))).toBeNull();
});
