import { templateMenu } from '@aporta/domain/menu';
import { expect, signIn, test } from './fixtures.ts';

const shots = process.env.TEMPLATE_SCREENSHOTS;
const leaves = templateMenu.subItems!.flatMap((g) => g.subItems!.map((l) => ({ link: l.link!, id: l.id })));

test('plantilla: every screen opens, a product added shows first, two orders deleted at once, cart totals, two users chat live', async ({
  browser,
  page,
}) => {
  test.setTimeout(900_000);
  await signIn(page);

  // Every screen of the group, as the super administrator (light, then dark for a few).
  for (const { link } of leaves) {
    await page.goto(link);
    await expect(page.locator('main h1, main h2').first()).toBeVisible();
    await expect(page.getByTestId('not-authorized')).toHaveCount(0);
    await expect(page.getByText('Reintentar')).toHaveCount(0);
    if (shots) await page.screenshot({ path: `${shots}/${link.replaceAll('/', '_')}.png` });
  }

  // Add a product: it is first in the list.
  const title = `Cafetera de oficina ${Date.now()}`;
  await page.goto('/plantilla/comercio/productos/new');
  await page.getByLabel('Producto').fill(title);
  await page.getByLabel('Categoría').fill('Equipo');
  await page.getByLabel('Existencias').fill('7');
  await page.getByLabel('Precio', { exact: true }).fill('450.00');
  await page.getByLabel('Descuento (%)').fill('5');
  await page.getByLabel('Pedidos').fill('0');
  await page.getByLabel('Calificación').fill('4.5');
  await page.getByLabel('Publicado').fill('01/07/2026');
  await page.getByLabel('Publicado').press('Enter');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await page.goto('/plantilla/comercio/productos');
  await expect(page.locator('tbody tr').first()).toContainText(title);

  // Delete two orders at once.
  await page.goto('/plantilla/comercio/pedidos');
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const before = await rows.count();
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Eliminar seleccionados (2)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('Se eliminaron 2 registros.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Eliminar seleccionados/ })).toHaveCount(0);
  await expect(rows).toHaveCount(before - 2);

  // The cart: add the new product twice, change the quantity, see the totals; it survives a reload.
  await page.goto('/plantilla/comercio/productos');
  await page.locator('tbody tr').first().click();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('add-to-cart')).toContainText('van 1');
  await page.goto('/plantilla/comercio/carrito');
  await page.reload();
  const line = page.getByTestId('cart-line').filter({ hasText: title });
  await expect(line).toBeVisible();
  const qty = line.getByRole('textbox');
  await qty.fill('3');
  await qty.blur();
  // 3 × 450.00 = 1 350.00 (plus whatever else is in the cart): with only this product the totals are exact.
  await expect(page.getByTestId('cart-total')).not.toHaveText('');
  const lines = await page.getByTestId('cart-line').count();
  if (lines === 1) {
    await expect(page.getByTestId('cart-subtotal')).toContainText('1,350.00');
    await expect(page.getByTestId('cart-discount')).toContainText('202.50');
    await expect(page.getByTestId('cart-tax')).toContainText('168.75');
    await expect(page.getByTestId('cart-shipping')).toContainText('65.00');
    await expect(page.getByTestId('cart-total')).toContainText('1,381.25');
  }
  await qty.fill('0');
  await qty.blur();
  // 0 is refused: the quantity stays what it was (never below 1).
  await expect(qty).toHaveValue('3');
  await line.getByRole('button', { name: /Quitar/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Quitar' }).click();
  await expect(line).toHaveCount(0);

  // Dark mode look at the dashboards.
  if (shots) {
    // Dark for this page only: its layout settings are answered here (other journeys share the admin).
    const layout = '**/api/user-settings/layout';
    await page.route(layout, async (route) => {
      if (route.request().method() !== 'GET') return route.fulfill({ status: 200, json: {} });
      const res = await route.fetch();
      return route.fulfill({ response: res, json: { ...(await res.json()), mode: 'dark' } });
    });
    for (const link of ['/plantilla/crm', '/plantilla/comercio/carrito', '/plantilla/chat']) {
      await page.goto(link);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await page.screenshot({ path: `${shots}/dark${link.replaceAll('/', '_')}.png`, fullPage: true });
    }
    await page.unroute(layout);
  }

  // Two users chat live: the demo super administrator (a second user holding `plantilla`) writes in
  // General and the administrator sees it without reloading, and the other way round.
  await page.goto('/plantilla/chat');
  await page.getByTestId('chat-conversation').filter({ hasText: 'General' }).click();
  const other = await (await browser.newContext()).newPage();
  await signIn(other, 'superadmin@demo.aporta.local', 'Demo-Clave-2026');
  await other.goto('/plantilla/chat');
  const text = `Hola desde la municipalidad ${Date.now()}`;
  await other.getByTestId('chat-conversation').filter({ hasText: 'General' }).click();
  await other.getByTestId('chat-input').fill(text);
  await other.getByTestId('chat-send').click();
  await expect(page.getByTestId('chat-messages')).toContainText(text);
  const reply = `Recibido ${Date.now()}`;
  await page.getByTestId('chat-input').fill(reply);
  await page.getByTestId('chat-input').press('Enter');
  await expect(other.getByTestId('chat-messages')).toContainText(reply);
});
