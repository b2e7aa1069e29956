import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectAccessible, signIn, test } from './fixtures.ts';

/*
 * The application shell. Specs run in parallel as the one administrator, so the tests that change the
 * layout keep the settings in the page (the settings API is answered by a stand-in that remembers
 * them for this page only); the persistence test alone stores real settings, only visual ones, and
 * restores the defaults at the end.
 */

const DEFAULTS = {
  layout: 'vertical',
  theme: 'default',
  mode: 'light',
  width: 'fluid',
  position: 'fixed',
  topbar: 'light',
  sidebarSize: 'lg',
  sidebarView: 'default',
  sidebarColor: 'dark',
  sidebarImage: 'none',
  preloader: 'disable',
};

/** Keeps the user's settings in this page only, so other specs never see them. */
async function keepSettingsLocal(page: Page, initial: Partial<typeof DEFAULTS> = {}) {
  let state: Record<string, string> = { ...DEFAULTS, ...initial };
  await page.route('**/api/user-settings/layout', async (route) => {
    if (route.request().method() === 'PUT') state = route.request().postDataJSON();
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(state) });
  });
  return () => state;
}

const html = (page: Page) => page.locator('html');
const sidebarWidth = (page: Page) => page.getByTestId('sidebar').evaluate((el) => Math.round(el.getBoundingClientRect().width));

/**
 * Records in the page when the element `testId` appears and (last) disappears, so an element shown for one
 * second cannot slip between two polls on a busy machine. Run with page.evaluate, or addInitScript before a
 * reload.
 */
function watchShown(testId: string) {
  const w = window as unknown as { shownTimes?: Record<string, { from?: number; to?: number }> };
  w.shownTimes ??= {};
  const rec: { from?: number; to?: number } = {};
  w.shownTimes[testId] = rec;
  const check = () => {
    const present = !!document.querySelector(`[data-testid="${testId}"]`);
    if (present) {
      rec.from ??= performance.now();
      rec.to = undefined;
    } else if (rec.from !== undefined && rec.to === undefined) rec.to = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  check();
}

/** How long the watched element stayed on screen, once it has come and gone. */
async function shownFor(page: Page, testId: string): Promise<number> {
  const read = () =>
    page.evaluate((id) => {
      const r = (window as unknown as { shownTimes?: Record<string, { from?: number; to?: number }> }).shownTimes?.[id];
      return r?.from !== undefined && r.to !== undefined ? r.to - r.from : null;
    }, testId);
  await expect.poll(read, { timeout: 5000 }).not.toBeNull();
  return (await read())!;
}

async function openSettings(page: Page) {
  await page.getByTestId('settings-button').click();
  await expect(page.getByRole('dialog', { name: 'Personalizar la interfaz' })).toBeVisible();
}
/** Chooses an option the way a keyboard user does (the drawer's sticky title may cover a scrolled radio). */
async function choose(page: Page, group: string, option: string) {
  const radio = page.getByRole('radiogroup', { name: group }).getByRole('radio', { name: option, exact: true });
  await radio.focus();
  await page.keyboard.press('Space');
  await expect(radio).toBeChecked();
}

test('vertical layout: sidebar, institution, profile, menu search, collapse, footer and title', async ({ page }) => {
  await keepSettingsLocal(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await expect(page).toHaveTitle('Aporta');
  await expect(html(page)).toHaveAttribute('data-layout', 'vertical');
  expect(await sidebarWidth(page)).toBe(260);
  await expect(page.getByTestId('sidebar-institution')).toHaveText('SUPER ADMINISTRADOR');
  await expect(page.getByTestId('sidebar-profile')).toContainText('Administrador del Sistema');
  await expect(page.getByTestId('sidebar-profile')).toContainText('AD');
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  const home = nav.getByRole('link', { name: 'Inicio' });
  await expect(home).toHaveAttribute('aria-current', 'page');

  await page.getByPlaceholder('Buscar en el menú').fill('zzzz');
  await expect(nav.getByText('Ninguna opción del menú coincide.')).toBeVisible();
  await page.getByPlaceholder('Buscar en el menú').fill('inic');
  await expect(home).toBeVisible();
  await page.getByPlaceholder('Buscar en el menú').fill('');

  await page.getByTestId('sidebar-collapse').click();
  await expect(html(page)).toHaveAttribute('data-sidebar-size', 'sm');
  expect(await sidebarWidth(page)).toBe(70);
  await expect(home).toHaveAccessibleName('Inicio');
  // Collapsed: the logo does not cover the expand button, and an icon names itself in a tooltip.
  const logo = (await page.getByTestId('sidebar').locator('.app-menu-brand-mark').boundingBox())!;
  const expand = (await page.getByTestId('sidebar-collapse').boundingBox())!;
  expect(logo.y + logo.height <= expand.y || expand.y + expand.height <= logo.y).toBe(true);
  await nav.getByRole('link', { name: 'Usuarios' }).hover();
  await expect(page.getByRole('tooltip', { name: 'Usuarios' })).toBeVisible();
  await page.getByTestId('sidebar-collapse').click();
  expect(await sidebarWidth(page)).toBe(260);

  const year = String(new Date().getFullYear());
  await expect(page.getByTestId('footer')).toContainText(`© ${year} APORTA. Todos los derechos reservados.`);
  await expect(page.getByTestId('footer-credit')).toHaveText('Desarrollado por el equipo de Aporta');
  await expectAccessible(page);
});

test('settings panel: every setting has its effect and the rules of the specification hold', async ({ page }) => {
  // Walks all eleven settings with the spec's own delays (1 s spinner, 1.5 s resize, 1 s preloader).
  test.setTimeout(90_000);
  const stored = await keepSettingsLocal(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await openSettings(page);

  // Mode: dark, and "brand" is offered but disabled.
  await choose(page, 'Modo de color', 'Oscuro');
  await expect(html(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('radio', { name: /Marca/ })).toBeDisabled();
  await expect(page.getByText('Próximamente')).toBeVisible();
  await expectAccessible(page);
  await choose(page, 'Modo de color', 'Claro');
  await expect(html(page)).toHaveAttribute('data-mantine-color-scheme', 'light');

  // Theme: a spinner for 1 s; minimal sets a light sidebar, any other a dark one; the primary colour changes.
  const primary = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--mantine-primary-color-filled').trim());
  const before = await primary();
  await page.evaluate(watchShown, 'theme-spinner');
  await choose(page, 'Tema', 'Minimalista');
  const spun = await shownFor(page, 'theme-spinner');
  // The lower bound is the specification's 1 s; the upper one only proves the spinner ends by itself
  // (a browser on a loaded machine fires timers late: 2.4 s was seen with two CI runs on two cores).
  expect(spun).toBeGreaterThanOrEqual(950);
  expect(spun).toBeLessThan(5000);
  await expect(html(page)).toHaveAttribute('data-sidebar', 'light');
  await expect(
    page.getByRole('radiogroup', { name: 'Color de la barra lateral' }).getByRole('radio', { name: 'Claro' }),
  ).toBeChecked();
  expect(await primary()).not.toBe(before);
  await choose(page, 'Tema', 'Moderno');
  await expect(html(page)).toHaveAttribute('data-sidebar', 'dark');
  await expect(html(page)).toHaveAttribute('data-theme', 'modern');

  // Width: boxed sets sm-hover (70 px), fluid sets lg.
  await choose(page, 'Ancho', 'En caja');
  await expect(html(page)).toHaveAttribute('data-layout-width', 'boxed');
  await expect(html(page)).toHaveAttribute('data-sidebar-size', 'sm-hover');
  await expect(page.getByTestId('layout')).toHaveCSS('max-width', '1300px');
  await choose(page, 'Ancho', 'Fluido');
  await expect(html(page)).toHaveAttribute('data-sidebar-size', 'lg');

  // Position, topbar, size, view, colour, image.
  await choose(page, 'Posición', 'Desplazable');
  await expect(page.getByTestId('topbar')).toHaveCSS('position', 'relative');
  await choose(page, 'Posición', 'Fija');
  await expect(page.getByTestId('topbar')).toHaveCSS('position', 'sticky');
  await choose(page, 'Barra superior', 'Oscura');
  await expect(page.getByTestId('topbar')).toHaveCSS('background-color', 'rgb(30, 41, 59)');
  await choose(page, 'Tamaño de la barra lateral', 'Mediana');
  expect(await sidebarWidth(page)).toBe(180);
  await choose(page, 'Tamaño de la barra lateral', 'Pequeña (solo íconos)');
  expect(await sidebarWidth(page)).toBe(70);
  await choose(page, 'Tamaño de la barra lateral', 'Grande');
  await choose(page, 'Vista de la barra lateral', 'Separada');
  await expect(html(page)).toHaveAttribute('data-layout-style', 'detached');
  await choose(page, 'Color de la barra lateral', 'Degradado 2');
  await expect(page.getByTestId('sidebar')).toHaveCSS('background-image', /linear-gradient/);
  await choose(page, 'Imagen de la barra lateral', 'Burbujas');
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-image', '');
  await expect(html(page)).toHaveAttribute('data-sidebar-image', 'img-2');
  await expectAccessible(page);

  // Layout: a resize event 1.5 s after the change; settings shown only where they apply.
  await page.evaluate(() => {
    (window as unknown as { resizes: number[] }).resizes = [];
    window.addEventListener('resize', () => (window as unknown as { resizes: number[] }).resizes.push(performance.now()));
    (window as unknown as { t0: number }).t0 = performance.now();
  });
  await choose(page, 'Diseño', 'Horizontal');
  await expect(page.getByTestId('horizontal-menu')).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Ancho' })).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Posición' })).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Tamaño de la barra lateral' })).toHaveCount(0);
  await expect(page.getByRole('radiogroup', { name: 'Color de la barra lateral' })).toHaveCount(0);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { resizes: number[] }).resizes.length), { timeout: 3000 })
    .toBeGreaterThan(0);
  const delay = await page.evaluate(() => {
    const w = window as unknown as { resizes: number[]; t0: number };
    return w.resizes[0] - w.t0;
  });
  expect(delay).toBeGreaterThanOrEqual(1400);

  await choose(page, 'Diseño', 'Dos columnas');
  await expect(page.getByTestId('twocolumn-menu')).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Ancho' })).toHaveCount(0);
  await expect(page.getByRole('radiogroup', { name: 'Vista de la barra lateral' })).toHaveCount(0);
  await expect(page.getByRole('radiogroup', { name: 'Color de la barra lateral' })).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Imagen de la barra lateral' })).toBeVisible();
  await expect
    .poll(() => stored())
    .toMatchObject({ layout: 'twocolumn', theme: 'modern', sidebarColor: 'gradient-2', sidebarImage: 'img-2' });

  // Preloader: shown on arrival for 1 s when enabled.
  await choose(page, 'Pantalla de carga', 'Activada');
  await expect.poll(() => stored()).toMatchObject({ preloader: 'enable' });
  await page.addInitScript(watchShown, 'preloader');
  await page.reload();
  const preloaded = await shownFor(page, 'preloader');
  expect(preloaded).toBeGreaterThanOrEqual(950);
  expect(preloaded).toBeLessThan(5000);
  await expect(page.getByTestId('preloader')).toHaveCount(0);

  // Restablecer.
  await openSettings(page);
  await page.getByTestId('settings-reset').click();
  await expect(html(page)).toHaveAttribute('data-layout', 'vertical');
  await expect.poll(() => stored()).toEqual(DEFAULTS);
});

test('settings persist after reload and in another browser for the same user', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await openSettings(page);
  try {
    await choose(page, 'Barra superior', 'Oscura');
    await choose(page, 'Imagen de la barra lateral', 'Ondas');
    await choose(page, 'Color de la barra lateral', 'Degradado');
    await expect
      .poll(async () => (await page.request.get('/api/user-settings/layout', { headers: await auth(page) })).json())
      .toMatchObject({ topbar: 'dark', sidebarImage: 'img-3', sidebarColor: 'gradient' });
    await page.reload();
    await expect(html(page)).toHaveAttribute('data-topbar', 'dark');
    await expect(html(page)).toHaveAttribute('data-sidebar-image', 'img-3');

    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page2 = await other.newPage();
    await signIn(page2);
    await expect(page2.locator('html')).toHaveAttribute('data-topbar', 'dark');
    await expect(page2.locator('html')).toHaveAttribute('data-sidebar', 'gradient');
    await expect(page2.locator('html')).toHaveAttribute('data-sidebar-image', 'img-3');
    await other.close();
  } finally {
    await page.request.put('/api/user-settings/layout', { headers: await auth(page), data: DEFAULTS });
  }
});

async function auth(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('auth-token'));
  return { authorization: `Bearer ${token}` };
}

test('a corrupt stored value falls back to the default instead of breaking the page', async ({ page }) => {
  await keepSettingsLocal(page);
  await signIn(page);
  await page.evaluate(() => localStorage.setItem('layout-settings', '{"layout":"diagonal","theme":42,'));
  await page.reload();
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expect(html(page)).toHaveAttribute('data-layout', 'vertical');
});

test('breakpoints: 375 px mobile menu, 900 px small sidebar, 1440 px large; two-column falls back', async ({ page }) => {
  // Three viewports, each drawn and checked: beyond the default 30 s on a busy two-core machine.
  test.setTimeout(60_000);
  await keepSettingsLocal(page, { layout: 'twocolumn' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await expect(page.getByTestId('twocolumn-menu')).toBeVisible();

  await page.setViewportSize({ width: 900, height: 800 });
  await expect(html(page)).toHaveAttribute('data-layout', 'vertical');
  await expect(html(page)).toHaveAttribute('data-sidebar-size', 'sm');
  expect(await sidebarWidth(page)).toBe(70);
  await expectAccessible(page);

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(html(page)).not.toHaveAttribute('data-sidebar-size', /.*/);
  await expect(html(page)).toHaveAttribute('data-mobile', 'true');
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toBeHidden();
  await page.getByTestId('menu-toggle').click();
  await expect(sidebar).toBeVisible();
  await expect(sidebar).toBeInViewport();
  await expectAccessible(page);
  await page.getByTestId('sidebar-close').click();
  await expect(sidebar).toBeHidden();

  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByTestId('twocolumn-menu')).toBeVisible();
});

test('horizontal menu: entries that do not fit with the 100 px margin move into "Más"', async ({ page }) => {
  await keepSettingsLocal(page, { layout: 'horizontal' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const menu = page.getByTestId('horizontal-menu');
  await expect(menu.getByRole('link', { name: 'Inicio' })).toBeVisible();
  await expectAccessible(page);
  const bar = menu.locator('.hmenu-row > .menu-link, .hmenu-row > button.menu-link');
  const names = async () => (await bar.allInnerTexts()).map((n) => n.trim()).filter((n) => n !== 'Más');
  const wide = await names();

  // Narrower: some entries no longer fit and move, in order, into "Más".
  await page.setViewportSize({ width: 900, height: 900 });
  await expect(menu.getByRole('button', { name: 'Más' })).toBeVisible();
  await expect.poll(async () => (await names()).length).toBeLessThan(wide.length);
  const narrow = await names();
  expect(narrow).toEqual(wide.slice(0, narrow.length));

  // The entries kept in the bar, "Más" included, leave the 100 px margin free.
  const room = await menu.locator('.hmenu-row').evaluate((el) => el.getBoundingClientRect());
  const lastRight = await menu
    .locator('.hmenu-row > *:not(.hmenu-measure)')
    .evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
  expect(lastRight).toBeLessThanOrEqual(room.right - 100 + 1);

  await menu.getByRole('button', { name: 'Más' }).click();
  for (const name of wide.slice(narrow.length)) await expect(page.getByRole('menuitem', { name, exact: true })).toBeVisible();
});

test('command palette: Ctrl+K and the topbar search open it over the menu entries', async ({ page }) => {
  await keepSettingsLocal(page);
  await signIn(page);
  await page.keyboard.press('Control+k');
  const input = page.getByRole('textbox', { name: 'Buscar páginas y registros' });
  await expect(input).toBeVisible();
  await input.fill('inic');
  await expect(page.getByRole('button', { name: /Inicio/ })).toBeVisible();
  const list = page.getByTestId('palette-list');
  await expect(list).toHaveCSS('max-height', '320px');
  await input.fill('nada-que-coincida');
  await expect(page.getByText('Sin resultados.')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('topbar-search').click();
  await expect(input).toBeVisible();
  await input.fill('Inicio');
  await page.keyboard.press('Enter');
  await expect(input).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
});

test('notifications: unread badge, check several for bulk actions, delete with confirmation', async ({ page }) => {
  await keepSettingsLocal(page);
  await signIn(page);
  await page.getByTestId('notifications-button').click();
  const panel = page.getByTestId('notifications-panel');
  const items = panel.getByTestId('notification-item');
  await expect(items.first()).toBeVisible();
  const before = await items.count();
  expect(before).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('notifications-bulk')).toHaveCount(0);

  await items.nth(0).getByRole('checkbox').check();
  await items.nth(1).getByRole('checkbox').check();
  const bulk = page.getByTestId('notifications-bulk');
  await expect(bulk).toContainText('Seleccionadas: 2');
  await expectAccessible(page);
  await bulk.getByRole('button', { name: 'Eliminar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Eliminar notificaciones' });
  await expect(dialog).toContainText('¿Eliminar las notificaciones seleccionadas (2)?');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(items).toHaveCount(before);

  await bulk.getByRole('button', { name: 'Eliminar' }).click();
  await page.getByRole('dialog', { name: 'Eliminar notificaciones' }).getByRole('button', { name: 'Eliminar' }).click();
  await expect(items).toHaveCount(before - 2);
  await expect(page.getByTestId('notifications-bulk')).toHaveCount(0);

  await page.getByTestId('notifications-button').click();
  await page.getByTestId('notifications-button').click();
  await panel.getByRole('button', { name: 'Marcar todas como leídas' }).click();
  await expect(panel.getByText('No leídas: 0')).toBeVisible();
  await expect(page.getByTestId('notifications-button')).toHaveAccessibleName('Notificaciones, no leídas: 0');
});

test('languages: English and Arabic (right to left) from the lang cookie; an unknown value means Spanish', async ({
  page,
  context,
}) => {
  await keepSettingsLocal(page);
  await signIn(page);
  await page.getByTestId('language-menu').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Home' })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('en');
  await page.reload();
  await expect(page.getByPlaceholder('Search the menu')).toBeVisible();
  await expect(html(page)).toHaveAttribute('dir', 'ltr');

  await page.getByTestId('language-menu').click();
  await page.getByRole('menuitem', { name: 'العربية' }).click();
  await expect(html(page)).toHaveAttribute('dir', 'rtl');
  await expect(html(page)).toHaveAttribute('lang', 'ar');
  await expect(page.getByPlaceholder('البحث في القائمة')).toBeVisible();
  // The sidebar sits on the right in Arabic.
  const box = await page.getByTestId('sidebar').boundingBox();
  expect(box!.x).toBeGreaterThan(600);
  await expectAccessible(page);

  await context.addCookies([{ name: 'lang', value: 'xx', url: page.url() }]);
  await page.reload();
  await expect(html(page)).toHaveAttribute('dir', 'ltr');
  await expect(page.getByPlaceholder('Buscar en el menú')).toBeVisible();
});

test('back-to-top after 100 px of scroll; the user menu signs out with "Salir"', async ({ page }) => {
  await keepSettingsLocal(page);
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.locator('#main-content').evaluate((el) => {
    const tall = document.createElement('div');
    tall.style.height = '3000px';
    el.append(tall);
  });
  await expect(page.getByTestId('back-to-top')).toHaveCount(0);
  await page.mouse.wheel(0, 400);
  await expect(page.getByTestId('back-to-top')).toBeVisible();
  await page.getByTestId('back-to-top').click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('screens: a path that is no screen, one active entry, the audit entry, toasts, dark badges, CUI in Arabic', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await keepSettingsLocal(page, { mode: 'dark' });
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  // Every screen of the specification's menu is built now (the last, the legal module, by issue 14): a
  // path under one of them that is no screen is a 404, not "a contributor that does not exist".
  await page.goto('/contributors/legal-module');
  await expect(page.getByRole('heading', { name: 'Módulo jurídico', level: 1 })).toBeVisible();
  await page.goto('/contributors/0x1');
  await expect(page.getByText('El afiliado no existe.')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  // One entry highlighted: the longest link that covers the page.
  await page.goto('/contributors/list');
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await expect(nav.getByRole('link', { name: 'Listado de afiliados' })).toHaveAttribute('aria-current', 'page');
  // Dark mode: every badge (outline and tinted) passes contrast; statuses show their whole word.
  const cuiState = page
    .getByRole('cell', { name: /^(aprobado|pendiente)$/i })
    .first()
    .locator('.mantine-Badge-label');
  await expect(cuiState).toBeVisible();
  expect(await cuiState.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expectAccessible(page);
  await page.goto('/users');
  await expect(page.getByText('SUPER ADMINISTRADOR', { exact: true }).last()).toBeVisible();
  await expectAccessible(page);
  // The audit trail is in the menu, under Administración, with Spanish names.
  await page.goto('/audit');
  await expect(nav.getByRole('link', { name: 'Bitácora de auditoría' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('cell', { name: 'Inicio de sesión', exact: true }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Sesión', exact: true }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'session', exact: true })).toHaveCount(0);
  // The catalogues appear once: no dynamic /dcrud entry duplicates /administrative/*.
  await expect(nav.locator('a[href^="/dcrud/"]')).toHaveCount(0);

  // A toast stays clear of the topbar and of the page header's buttons.
  await page.goto('/');
  await page.getByTestId('notifications-button').click();
  await page.getByTestId('notification-item').first().getByRole('checkbox').check();
  await page.getByTestId('notifications-bulk').getByRole('button', { name: 'Eliminar' }).click();
  await page.getByRole('dialog', { name: 'Eliminar notificaciones' }).getByRole('button', { name: 'Eliminar' }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'Notificaciones eliminadas: 1' });
  await expect(toast).toBeVisible();
  const box = (await toast.boundingBox())!;
  expect(box.y).toBeGreaterThan(page.viewportSize()!.height / 2);

  // In Arabic the CUI keeps its groups in reading order (left to right).
  await context.addCookies([{ name: 'lang', value: 'ar', url: page.url() }]);
  await page.goto('/contributors/list');
  await expect(html(page)).toHaveAttribute('dir', 'rtl');
  const cui = page.locator('td span[dir="ltr"]').first();
  await expect(cui).toHaveText(/^\d{4} \d{5} \d{4}$/);
  const [first, last] = await cui.evaluate((el) => {
    const text = el.firstChild!;
    const at = (from: number, to: number) => {
      const r = document.createRange();
      r.setStart(text, from);
      r.setEnd(text, to);
      return r.getBoundingClientRect().left;
    };
    return [at(0, 4), at(11, 15)];
  });
  expect(first).toBeLessThan(last);
});
