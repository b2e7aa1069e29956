import { expect, expectAccessible, signIn, test } from './fixtures.ts';

/**
 * One permission experience (issue 9): a page shows only the actions the user may take, a screen the
 * server refuses is the "No autorizado" page (never an empty list), the home page lists the work
 * queues the user may work, and dates are typed dd/mm/aaaa. The e2e server seeds the demo users.
 */
const DEMO_PASSWORD = 'Demo-Clave-2026';
const CONSULTA = 'consulta@demo.aporta.local';
// The Mixco payroll clerk: planillas only, no contributor or audit permission at all.
const OPERADOR = 'operador@demo.aporta.local';

test('read-only, refused and admin users each see only what they may do', async ({ page }) => {
  test.setTimeout(90_000);
  // Consulta: reads and exports everything, creates nothing.
  await signIn(page, CONSULTA, DEMO_PASSWORD);
  const main = page.locator('#main-content');
  await expect(main.getByTestId('home-no-queues')).toHaveText('No tiene tareas pendientes');
  await page.goto('/contributors');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(main.getByTestId('overview-total')).toBeVisible();
  await page.goto('/contributors/list');
  await expect(main.getByRole('row').nth(1)).toBeVisible();
  await expect(main.getByRole('button', { name: 'Exportar xlsx' })).toBeVisible();
  // Neither the page nor the menu offers to create.
  await expect(page.getByRole('link', { name: 'Nuevo afiliado' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Carga masiva' })).toHaveCount(0);
  await expectAccessible(page);
  // Typed by URL, the create screen is refused before any form is shown.
  await page.goto('/contributors/new');
  await expect(main.getByTestId('not-authorized')).toBeVisible();
  await expect(main.getByRole('textbox', { name: 'CUI' })).toHaveCount(0);

  // The audit filters take dates as dd/mm/aaaa whatever the browser's locale.
  await page.goto('/audit');
  const from = main.getByRole('textbox', { name: 'Desde' });
  // 05/01 is the 5th of January (not May 1st as a US browser would read it), sent to the API as ISO.
  const filtered = page.waitForRequest((r) => r.url().includes('/api/audit?') && r.url().includes('from=2026-01-05'));
  await from.fill('05/01/2026');
  await filtered;
  await from.blur();
  await expect(from).toHaveValue('05/01/2026');
  await from.click();
  // The calendar speaks Spanish and marks the 5th of January.
  await expect(page.getByRole('button', { name: '5 enero 2026', exact: true })).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Escape');

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Salir' }).click();

  // A user the server refuses: the list and the audit log are "No autorizado", not "No hay afiliados".
  await signIn(page, OPERADOR, DEMO_PASSWORD);
  for (const path of ['/contributors/list', '/audit', '/users']) {
    await page.goto(path);
    await expect(main.getByTestId('not-authorized'), path).toBeVisible();
    await expect(main.getByRole('heading', { name: 'No autorizado' })).toBeVisible();
    await expect(main.getByText('No hay afiliados que coincidan con la búsqueda.')).toHaveCount(0);
  }
  await expectAccessible(page);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Salir' }).click();

  // The administrator's home page: the queues it may work, with counts, each leading to its screen.
  await signIn(page);
  const queues = main.getByTestId('home-queues');
  await expect(queues.getByTestId('queue-cui-approvals-pending')).toContainText('Aprobaciones de CUI pendientes');
  await expect(queues.getByTestId('queue-contributor-imports-waiting')).toContainText(/\d+ pendientes?/);
  await expectAccessible(page);
  await queues.getByTestId('queue-cui-approvals-pending').click();
  await expect(page).toHaveURL(/\/contributors\/cui-approval$/);
});
