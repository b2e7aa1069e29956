import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { E2E_ADMIN, expect, expectAccessible, signIn, test } from './fixtures.ts';

/** A webhook receiver on loopback: every POST it gets, with its headers and raw body. */
interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}
let receiver: Server;
let receiverUrl = '';
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('recibido');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/aporta/avisos`;
});
test.afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

test('an administrator gives Mixco’s payroll software a token that reads only Mixco, revokes it, and a webhook’s test delivery arrives signed', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);

  // ---- a token for Mixco, shown once
  await page.goto('/administrative/tokens-integracion');
  await expect(page.getByRole('heading', { name: 'Tokens de integración', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo token de integración' });
  // Nothing filled: each required field says what is missing, and nothing is created.
  await dialog.getByRole('button', { name: 'Crear token' }).click();
  await expect(dialog.getByText('Permisos: elija al menos uno.')).toBeVisible();
  await expect(dialog.getByText('Entidad: elija la entidad cuyo sistema usará el token.')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Nombre' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('dialog', { name: 'Token creado' })).toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Nómina Mixco (e2e)');
  await dialog.getByRole('combobox', { name: 'Entidad' }).fill('Mixco');
  await page.getByRole('option', { name: /Mixco/ }).first().click();
  await dialog.getByRole('checkbox', { name: 'Consultar órdenes de pago' }).check();
  await dialog.getByRole('checkbox', { name: 'Cargar planillas' }).check();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Crear token' }).click();
  const created = page.getByRole('dialog', { name: 'Token creado' });
  await expect(created.getByText('Solo se muestra esta vez')).toBeVisible();
  const token = (await created.getByTestId('api-token-secret').textContent())?.trim() ?? '';
  expect(token).toMatch(/^apt_[A-Za-z0-9_-]{20,}$/);
  await created.getByRole('button', { name: 'Listo' }).click();
  const row = page.getByRole('row', { name: /Nómina Mixco \(e2e\)/ });
  await expect(row.getByTestId('api-token-state')).toHaveText('Vigente');
  // Only its prefix stays on screen.
  await expect(row).not.toContainText(token);

  // ---- the payroll software calls the API with it: Mixco's orders only, 404 for another entity's
  const bearer = { authorization: `Bearer ${token}` };
  const mine = await request.get('/api/payment-orders?pageSize=100', { headers: bearer });
  expect(mine.status()).toBe(200);
  const mineItems = (await mine.json()).items as { id: number; entityName: string | null }[];
  expect(mineItems.length).toBeGreaterThan(0);
  expect(new Set(mineItems.map((o) => o.entityName))).toEqual(new Set(['Municipalidad de Mixco']));
  const login = await request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
  const admin = { authorization: `Bearer ${(await login.json()).token}` };
  const all = await request.get('/api/payment-orders?pageSize=100', { headers: admin });
  const other = ((await all.json()).items as { id: number; entityName: string | null }[]).find(
    (o) => o.entityName !== 'Municipalidad de Mixco',
  );
  expect(other, 'the demo has orders of other entities').toBeTruthy();
  expect((await request.get(`/api/payment-orders/${other!.id}`, { headers: bearer })).status()).toBe(404);
  expect((await request.get(`/api/payment-orders/${mineItems[0].id}`, { headers: bearer })).status()).toBe(200);
  // A route outside the integration's set refuses the token.
  expect((await request.get('/api/users', { headers: bearer })).status()).toBe(403);
  await page.reload();
  await expect(
    row
      .getByRole('cell')
      .filter({ hasText: /\d{2}\/\d{2}\/\d{4}/ })
      .first(),
  ).toBeVisible();

  // ---- revoked after a confirmation: the next call is refused at once
  await row.getByRole('button', { name: 'Revocar' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Revocar el token?' });
  await expect(confirm).toContainText('Nómina Mixco (e2e)');
  await confirm.getByRole('button', { name: 'Revocar' }).click();
  await expect(page.getByText('Token «Nómina Mixco (e2e)» revocado.')).toBeVisible();
  await expect(row.getByTestId('api-token-state')).toHaveText('Revocado');
  await expect(row.getByRole('button', { name: 'Revocar' })).toHaveCount(0);
  expect((await request.get('/api/payment-orders', { headers: bearer })).status()).toBe(401);

  // ---- a webhook on loopback; «Probar» delivers a signed test event
  await page.goto('/administrative/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo webhook' }).click();
  const hook = page.getByRole('dialog', { name: 'Nuevo webhook' });
  await hook.getByRole('textbox', { name: 'Nombre' }).fill('Receptor Mixco (e2e)');
  await hook.getByRole('combobox', { name: 'Entidad' }).fill('Mixco');
  await page.getByRole('option', { name: /Mixco/ }).first().click();
  await hook.getByRole('textbox', { name: 'URL' }).fill('ftp://127.0.0.1/x');
  await hook.getByRole('checkbox', { name: 'Planilla aprobada' }).check();
  await hook.getByRole('button', { name: 'Registrar webhook' }).click();
  // The URL is refused with the field named, and what was typed stays.
  await expect(hook.getByRole('textbox', { name: 'URL' })).toHaveAttribute('aria-invalid', 'true');
  await expect(hook.getByRole('textbox', { name: 'Nombre' })).toHaveValue('Receptor Mixco (e2e)');
  await hook.getByRole('textbox', { name: 'URL' }).fill(receiverUrl);
  await hook.getByRole('button', { name: 'Registrar webhook' }).click();
  const hookCreated = page.getByRole('dialog', { name: 'Webhook registrado' });
  const secret = (await hookCreated.getByTestId('webhook-secret').textContent())?.trim() ?? '';
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await hookCreated.getByRole('button', { name: 'Listo' }).click();

  const hookRow = page.getByRole('row', { name: /Receptor Mixco \(e2e\)/ });
  await hookRow.getByRole('button', { name: 'Probar' }).click();
  await expect(page.getByText('Se puso en cola un evento de prueba para «Receptor Mixco (e2e)».')).toBeVisible();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
  const got = received[0];
  const timestamp = String(got.headers['x-aporta-timestamp']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${got.body}`).digest('hex')}`;
  expect(got.headers['x-aporta-signature']).toBe(expected);
  expect(JSON.parse(got.body).event).toBe('ping');

  // The delivery log shows it sent, with the receiver's answer.
  await page.getByRole('tab', { name: 'Envíos' }).click();
  const delivery = page.getByRole('row', { name: /Receptor Mixco \(e2e\)/ }).first();
  await expect(delivery).toContainText('Enviado');
  await expect(delivery).toContainText('200');
  await delivery.click();
  await expect(page.getByRole('dialog')).toContainText('recibido');
  await expectAccessible(page);
});
