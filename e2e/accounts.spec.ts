import { E2E_ADMIN, expect, expectAccessible, signIn, test } from './fixtures.ts';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('a role with only users: READ gives exactly that menu entry; other screens say "No autorizado" and the API answers 403', async ({
  page,
  request,
}) => {
  // The longest journey: role editor, user form, sign-out, forced password change, and six axe runs, one
  // of them over the whole permission matrix (13 s alone with two CI runs sharing two cores).
  test.setTimeout(180_000);
  const id = unique();
  const roleName = `Solo usuarios ${id}`;
  const email = `lector-${id}@e2e.aporta.local`;

  await signIn(page);
  await page.goto('/roles/new');
  await page.getByLabel('Nombre').fill(roleName);
  await page.getByRole('checkbox', { name: 'Usuarios — Ver', exact: true }).check();
  await expect(page.getByRole('combobox', { name: 'Alcance: Usuarios — Ver' })).toHaveValue('ALL');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page).toHaveURL(/\/roles$/);
  await page.getByRole('textbox', { name: 'Buscar', exact: true }).fill(roleName);
  await expect(page.getByRole('cell', { name: roleName, exact: true })).toBeVisible();
  await expectAccessible(page);

  await page.goto('/users');
  await page.getByRole('button', { name: 'Nuevo usuario' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo usuario' });
  await dialog.getByLabel('Correo electrónico').fill(email);
  await dialog.getByLabel('Nombre').fill('Lector');
  await dialog.getByLabel('Apellido').fill('De Usuarios');
  await dialog.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: roleName }).click();
  // The multi-select keeps its list open over the buttons: close it by clicking the dialog's title.
  await dialog.getByRole('heading', { name: 'Nuevo usuario' }).click();
  await expect(page.getByRole('option', { name: roleName })).toBeHidden();
  await dialog.getByRole('button', { name: 'Crear usuario' }).click();
  const otp = (await page.getByTestId('one-time-password').textContent())?.trim() ?? '';
  expect(otp).toMatch(/^[A-Za-z0-9]{16}$/);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Listo' }).click();
  await page.getByRole('textbox', { name: 'Buscar', exact: true }).fill(email);
  await expect(page.getByRole('cell', { name: email, exact: true })).toBeVisible();
  await expectAccessible(page);

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);

  // First sign-in with the one-time password leads to the forced change.
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(otp);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/auth\/change-password$/);
  await expectAccessible(page);
  await page.getByLabel('Contraseña actual').fill(otp);
  await page.getByLabel('Contraseña nueva').fill('Lector-Clave-2026');
  await page.getByLabel('Repita la contraseña').fill('Lector-Clave-2026');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page).toHaveURL(/\/$/);

  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  // "Inicio" is the shell's own home link, shown to everyone; the only permission entry is Usuarios.
  await expect(menu.getByRole('link')).toHaveText(['Inicio', 'Usuarios']);
  await menu.getByRole('link', { name: 'Usuarios' }).click();
  await expect(page.getByRole('heading', { name: 'Usuarios' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nuevo usuario' })).toHaveCount(0);

  await page.goto('/roles');
  await expect(page.getByRole('heading', { name: 'No autorizado' })).toBeVisible();
  await expectAccessible(page);
  await page.goto('/institutions');
  await expect(page.getByTestId('not-authorized')).toBeVisible();

  const token = await page.evaluate(() => localStorage.getItem('auth-token'));
  const headers = { authorization: `Bearer ${token}` };
  expect((await request.get('/api/roles', { headers })).status()).toBe(403);
  expect(
    (await request.post('/api/users', { headers, data: { email: `x-${id}@e2e.gt`, firstName: 'x', lastName: 'y' } })).status(),
  ).toBe(403);
  expect((await request.get('/api/users', { headers })).status()).toBe(200);
});

test('five wrong passwords lock the e-mail from this address with the Spanish message', async ({ page, request }) => {
  const id = unique();
  const email = `bloqueo-${id}@e2e.aporta.local`;
  const login = await request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
  const adminToken = (await login.json()).token as string;
  const created = await request.post('/api/users', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { email, firstName: 'Cuenta', lastName: 'Bloqueable' },
  });
  expect(created.status()).toBe(201);

  await page.goto('/auth/login');
  await page.getByLabel('Correo electrónico').fill(email);
  const password = page.getByRole('textbox', { name: 'Contraseña', exact: true });
  for (let i = 1; i <= 4; i++) {
    await password.fill(`equivocada-${i}`);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Correo electrónico o contraseña incorrectos.');
  }
  await password.fill('equivocada-5');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByTestId('login-error')).toHaveText(
    'Demasiados intentos fallidos con este correo. Intente de nuevo en 15 min.',
  );
  await expectAccessible(page);
});

test('registering creates an inactive account: the login page says it awaits an administrator, without telling whether the e-mail existed', async ({
  page,
}) => {
  const id = unique();
  const email = `registro-${id}@e2e.aporta.local`;
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Regístrese' }).click();
  await expect(page).toHaveURL(/\/auth\/register$/);
  await expectAccessible(page);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Nombre').fill('Nueva');
  await page.getByLabel('Apellido').fill('Persona');
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('corta');
  await page.getByLabel('Repita la contraseña').fill('corta');
  await page.getByRole('button', { name: 'Registrarse' }).click();
  await expect(page.getByText('La contraseña debe tener al menos 10 caracteres.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('Registro-Clave-2026');
  await page.getByLabel('Repita la contraseña').fill('Registro-Clave-2026');
  await page.getByRole('button', { name: 'Registrarse' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByTestId('registered-notice')).toHaveText(
    'Si la dirección es válida, la cuenta quedó registrada y pendiente de activación por un administrador. Podrá ingresar cuando la activen.',
  );
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('Registro-Clave-2026');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Su cuenta no está activa. Comuníquese con un administrador.');
});

test('own profile: edit the name and close the other sessions', async ({ page, request }) => {
  const id = unique();
  const email = `perfil-${id}@e2e.aporta.local`;
  const adminToken = (
    await (await request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).json()
  ).token as string;
  const created = await request.post('/api/users', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { email, firstName: 'Perfil', lastName: 'Original' },
  });
  const otp = (await created.json()).password as string;
  const first = (await (await request.post('/api/auth/login', { data: { email, password: otp } })).json()).token as string;
  await request.post('/api/auth/change-password', {
    headers: { authorization: `Bearer ${first}` },
    data: { currentPassword: otp, newPassword: 'Perfil-Clave-2026' },
  });
  const other = (await (await request.post('/api/auth/login', { data: { email, password: 'Perfil-Clave-2026' } })).json())
    .token as string;

  await signIn(page, email, 'Perfil-Clave-2026');
  await page.goto('/profile');
  await expect(page.getByTestId('sessions-table').locator('tbody tr')).toHaveCount(3);
  await expectAccessible(page);
  await page.getByLabel('Apellido').fill('Cambiado');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByTestId('user-name')).toHaveText('Perfil Cambiado');
  // The dialog's buttons must not move while it opens: a click made then would be pressed at one place and
  // released at another, and the browser fires no click (the dialog stayed open in a CI run on a loaded
  // machine). Record the confirm button's position on every frame until the dialog is fully shown.
  const positions = page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const seen: number[] = [];
        const sample = () => {
          const dialog = document.querySelector('[role="dialog"]');
          const button = dialog?.querySelector('.mantine-Group-root button:last-child');
          if (dialog && button) {
            seen.push(Math.round(button.getBoundingClientRect().top));
            if (getComputedStyle(dialog).opacity === '1' && seen.length > 2) return resolve(seen);
          }
          requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      }),
  );
  await page.getByRole('button', { name: 'Cerrar mis otras sesiones' }).click();
  expect(new Set(await positions).size).toBe(1);
  await page.getByRole('dialog').getByRole('button', { name: 'Cerrar mis otras sesiones' }).click();
  await expect(page.getByTestId('sessions-table').locator('tbody tr')).toHaveCount(1);
  expect((await request.get('/api/auth/me', { headers: { authorization: `Bearer ${other}` } })).status()).toBe(401);
});
