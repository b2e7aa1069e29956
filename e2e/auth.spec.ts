import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { E2E_SMTP_PORT } from './constants.mjs';
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

test('a forgotten password is reset from the link in the e-mail that arrives', async ({ page, request }) => {
  // A real SMTP exchange, a mail dispatch and two password hashes: beyond the default 30 s on a busy machine.
  test.setTimeout(90_000);
  // The e2e server sends its mail here (SMTP_URL in playwright.config.ts).
  const received: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(E2E_SMTP_PORT, '127.0.0.1', resolve);
  });
  try {
    const email = `olvido-${Date.now().toString(36)}@e2e.aporta.local`;
    const login = await request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
    const created = await request.post('/api/users', {
      headers: { authorization: `Bearer ${(await login.json()).token}` },
      data: { email, firstName: 'Olga', lastName: 'Olvido' },
    });
    expect(created.status()).toBe(201);

    await page.goto('/auth/login');
    await page.getByRole('link', { name: '¿Olvidó su contraseña?' }).click();
    await expect(page.getByRole('heading', { name: 'Restablecer la contraseña' })).toBeVisible();
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar el enlace' }).click();
    await expect(page.getByTestId('forgot-sent')).toContainText('Si la dirección está registrada, recibirá un correo');
    await expectAccessible(page);

    // The message as it arrived at the SMTP server, and the link in it.
    const mailFor = () =>
      received.find(
        (m) =>
          m.subject?.startsWith('Restablecer su contraseña') &&
          [m.to].flat().some((a) => a?.value.some((v) => v.address === email)),
      );
    await expect.poll(() => mailFor()?.subject, { timeout: 45_000 }).toContain('Restablecer su contraseña');
    const text = mailFor()?.text ?? '';
    expect(text).toContain('Hola, Olga Olvido');
    const link = /https?:\/\/\S+\/restablecer-contrasena\?token=[A-Za-z0-9_-]+/.exec(text)?.[0];
    expect(link).toBeTruthy();

    await page.goto(link as string);
    await expect(page.getByRole('heading', { name: 'Elija una contraseña nueva' })).toBeVisible();
    // The token leaves the address bar at once.
    await expect(page).toHaveURL(/\/restablecer-contrasena$/);
    await expectAccessible(page);
    const password = page.getByRole('textbox', { name: 'Contraseña nueva' });
    await password.fill('corta');
    await page.getByLabel('Repita la contraseña').fill('corta');
    await page.getByRole('button', { name: 'Guardar la contraseña' }).click();
    await expect(page.getByText('La contraseña debe tener al menos 10 caracteres.')).toBeVisible();
    await password.fill('Recuperada-Clave-2026');
    await page.getByLabel('Repita la contraseña').fill('Recuperada-Clave-2026');
    await page.getByRole('button', { name: 'Guardar la contraseña' }).click();
    await expect(page.getByTestId('password-reset-notice')).toHaveText(
      'Su contraseña fue restablecida. Ingrese con la contraseña nueva.',
    );

    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('Recuperada-Clave-2026');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await expect(page.getByTestId('user-menu')).toBeVisible();

    // The link works once.
    const again = await request.post('/api/auth/reset-password', {
      data: { token: new URL(link as string).searchParams.get('token'), password: 'Otra-Vez-Clave-2026' },
    });
    expect(again.status()).toBe(400);
    expect((await again.json()).error.key).toBe('accounts.resetLinkInvalid');
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
