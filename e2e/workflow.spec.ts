import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './fixtures.ts';

const DEMO_PASSWORD = 'Demo-Clave-2026';
const shots = process.env.WORKFLOW_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** A Mantine select: open it by its label and pick the option. */
async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).first().click();
  await page.getByRole('option', { name: option }).first().click();
}

/** A page of a demo user, signed in in a browser context of its own. */
async function as(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(30_000);
  await signIn(page, email, DEMO_PASSWORD);
  return page;
}

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('auth-token'));
  const res = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** Takes a transition from the request page: its button, the comment, the confirmation. */
async function take(page: Page, action: string, comment?: string) {
  await page.getByRole('button', { name: action }).first().click();
  const dialog = page.getByRole('dialog');
  if (comment) await dialog.getByRole('textbox', { name: 'Comentario' }).fill(comment);
  await dialog.getByRole('button', { name: action }).click();
  await expect(dialog).toBeHidden();
}

test('workflow: a form designed signed out is exported, imported after signing in, saved and published; a flow is drawn and published; a request is filed, observed, corrected and approved, found in Consulta SIG; the jubilación flow ends with a pension', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  page.setDefaultTimeout(30_000);
  const n = Date.now() % 100_000;
  const formTitle = `Permiso e2e ${n}`;
  const flowTitle = `Trámite de permiso e2e ${n}`;

  // ─── The builder, signed out ─────────────────────────────────────────────────────────────────────
  await page.goto('/form-builder');
  await page.evaluate(() => localStorage.removeItem('aporta-form-builder'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Diseñador de formularios' })).toBeVisible();
  await expect(page.getByText('Diseño sin sesión')).toBeVisible();
  // A fresh, empty form asks for nothing yet: no "Corrija antes de guardar" before the user has done anything.
  await expect(page.getByText('Campos (0)')).toBeVisible();
  await expect(page.getByText('Corrija antes de guardar')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Título del formulario' }).fill(formTitle);
  await page.getByRole('button', { name: 'Texto', exact: true }).click();
  await page.getByRole('textbox', { name: 'Etiqueta' }).fill('Motivo del permiso');
  await page.getByRole('textbox', { name: 'Nombre (clave en los datos)' }).fill('motivo');
  await page.getByRole('checkbox', { name: 'Obligatorio' }).check();
  await page.getByRole('button', { name: 'Monto (Q)' }).click();
  await page.getByRole('textbox', { name: 'Etiqueta' }).fill('Monto solicitado');
  await page.getByRole('textbox', { name: 'Nombre (clave en los datos)' }).fill('monto');
  await page.getByRole('checkbox', { name: 'Obligatorio' }).check();
  // Reorder: the amount goes first.
  await page.getByRole('button', { name: 'Subir Monto solicitado' }).click();
  await expect(page.getByTestId('builder-field-monto')).toBeVisible();
  // The preview validates like the server: a bad amount is named in Spanish.
  const preview = page.locator('form');
  await preview.getByRole('textbox', { name: 'Monto solicitado' }).fill('12,34');
  await preview.getByRole('button', { name: 'Probar validación' }).click();
  await expect(page.getByText(/Monto solicitado: .*coma/).first()).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'builder');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar JSON' }).click();
  const file = join(tmpdir(), `formulario-e2e-${n}.json`);
  await (await download).saveAs(file);
  // Start over (the design is gone from the browser), then bring it back from the file after signing in.
  await page.getByRole('button', { name: 'Empezar de nuevo' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Descartar' }).click();
  await expect(page.getByText('Campos (0)')).toBeVisible();
  await expect(page.getByText('Corrija antes de guardar')).toHaveCount(0);

  await signIn(page);
  await page.goto('/form-builder');
  await expect(page.getByText('Corrija antes de guardar')).toHaveCount(0);
  await page.locator('input[type=file]').setInputFiles(file);
  await expect(page.getByText(`Definición importada: ${formTitle}`)).toBeVisible();
  await expect(page.getByTestId('builder-field-motivo')).toBeVisible();
  await page.getByRole('button', { name: 'Guardar en la biblioteca' }).click();
  // Saved is a draft, said the same way by the notice, the builder and the library, until it is published.
  await expect(page.getByText('Formulario guardado (versión 1, borrador).')).toBeVisible();
  await expect(page.getByTestId('builder-stored-state')).toContainText('Borrador');
  await expect(page.getByTestId('builder-stored-state')).toContainText('ningún trámite la usa hasta que se publique');

  // ─── The forms library: publish ──────────────────────────────────────────────────────────────────
  await page.goto('/forms');
  await page.getByRole('textbox', { name: 'Buscar' }).fill(formTitle);
  const formRow = page.getByRole('row').filter({ hasText: formTitle });
  await expect(formRow).toContainText('Borrador');
  await expect(formRow).not.toContainText('Publicada');
  await page.getByRole('cell', { name: formTitle }).click();
  const versions = page.getByRole('dialog');
  await expect(versions.getByRole('row').filter({ hasText: 'v1' })).toContainText('Borrador');
  await versions.getByRole('button', { name: 'Publicar' }).click();
  await expect(page.getByText('Versión 1 publicada.')).toBeVisible();
  await expect(versions.getByRole('button', { name: 'Retirar' })).toBeVisible();
  await versions.getByRole('button', { name: 'Cerrar' }).click();
  await expect(formRow).toContainText('Publicada');

  // ─── The flow designer: draw and publish ─────────────────────────────────────────────────────────
  await page.goto('/flow/new');
  await page.getByRole('textbox', { name: 'Título del flujo' }).fill(flowTitle);
  await pick(page, 'Formulario', formTitle);
  await page.getByRole('textbox', { name: 'Nuevo estado' }).fill('Observada');
  await page.getByRole('button', { name: 'Agregar estado' }).click();
  await page.getByRole('checkbox', { name: /El solicitante puede corregir/ }).check();
  const link = async (
    from: string,
    to: string,
    label: string,
    who: string,
    opts: { comment?: boolean; notify?: boolean } = {},
  ) => {
    await pick(page, 'Desde', from);
    await pick(page, 'Hacia', to);
    await page.getByRole('button', { name: 'Agregar transición' }).click();
    const editor = page.getByTestId('transition-editor');
    await editor.getByRole('textbox', { name: 'Texto del botón' }).fill(label);
    await pick(page, 'Quién la toma', who);
    if (opts.comment) await editor.getByRole('checkbox', { name: 'Comentario obligatorio' }).check();
    if (opts.notify) await pick(page, 'Acción al tomarla', 'Notificar al solicitante');
  };
  await link('Recibida', 'Observada', 'Observar', 'Rol: Revisor de solicitudes', { comment: true });
  await link('Observada', 'Recibida', 'Reenviar corregida', 'El solicitante');
  await link('Recibida', 'Resuelta', 'Aprobar', 'Rol: Aprobador de solicitudes', { notify: true });
  await page.getByRole('button', { name: 'Validar' }).click();
  await expect(page.getByText('El flujo es válido')).toBeVisible();
  await expect(page.getByTestId('flow-canvas').getByText('Observada')).toBeVisible();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText(/Flujo guardado \(versión 1/)).toBeVisible();
  await expect(page).toHaveURL(/\/flow\/\d+$/);
  await page.getByRole('button', { name: 'Publicar versión 1' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Publicar' }).click();
  await expect(page.getByText('Versión 1 publicada.')).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'designer');

  // ─── A clerk files a request ─────────────────────────────────────────────────────────────────────
  const clerk = await as(browser, 'operador@demo.aporta.local');
  await clerk.goto('/sig/item/new');
  await pick(clerk, 'Trámite', flowTitle);
  // The server refuses what the browser let through? The browser first: a required field is named.
  await clerk.getByRole('button', { name: 'Presentar solicitud' }).click();
  await expect(clerk.getByText('Monto solicitado: es obligatorio.')).toBeVisible();
  await clerk.getByRole('textbox', { name: 'Monto solicitado' }).fill('1,250.50');
  await clerk.getByRole('textbox', { name: 'Motivo del permiso' }).fill('Capacitación');
  await clerk.getByRole('button', { name: 'Presentar solicitud' }).click();
  await expect(clerk.getByRole('heading', { name: /Solicitud SIG-\d{4}-\d{6}/ })).toBeVisible();
  const number = ((await clerk.getByRole('heading', { name: /Solicitud SIG-/ }).textContent()) ?? '')
    .replace('Solicitud ', '')
    .trim();
  const url = clerk.url();
  await expect(clerk.getByText('Recibida', { exact: true }).first()).toBeVisible();
  await expectAccessible(clerk);

  // ─── The reviewer observes it ────────────────────────────────────────────────────────────────────
  const reviewer = await as(browser, 'revisor.sig@demo.aporta.local');
  await reviewer.goto('/');
  await expect(reviewer.getByText('Solicitudes que esperan mi acción')).toBeVisible();
  await reviewer.goto(url);
  await take(reviewer, 'Observar', 'Indique el monto sin centavos.');
  await expect(reviewer.getByText('Observada', { exact: true }).first()).toBeVisible();

  // ─── The clerk is told, in words a person would write, that it waits for them; corrects and resends ─
  await clerk.reload();
  await clerk.getByTestId('notifications-button').click();
  const notice = clerk
    .getByTestId('notifications-panel')
    .getByTestId('notification-item')
    .filter({ hasText: `Solicitud ${number} espera su acción (Observada)` });
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText(`${flowTitle}: la solicitud le fue asignada.`);
  await expect(notice).not.toContainText('Observar por');
  await clerk.getByTestId('notifications-button').click();
  await expect(clerk.getByTestId('notifications-panel')).toBeHidden();
  await expect(clerk.getByText('Indique el monto sin centavos.')).toBeVisible();
  await clerk.getByRole('button', { name: 'Corregir datos' }).click();
  await clerk.getByRole('textbox', { name: 'Monto solicitado' }).fill('1250');
  await clerk.getByRole('button', { name: 'Guardar corrección' }).click();
  await expect(clerk.getByText('Datos corregidos.')).toBeVisible();
  await take(clerk, 'Reenviar corregida');
  await expect(clerk.getByText('Recibida', { exact: true }).first()).toBeVisible();

  // ─── The approver approves: the final action notifies the clerk ──────────────────────────────────
  const approver = await as(browser, 'aprobador.sig@demo.aporta.local');
  await approver.goto(url);
  await take(approver, 'Aprobar');
  await expect(approver.getByText('Resuelta', { exact: true }).first()).toBeVisible();
  await expect(approver.getByText('Aprobar: Recibida → Resuelta')).toBeVisible();
  await shot(approver, 'request');
  const notes = await api<{ items: { title: string }[] }>(clerk, '/api/notifications?limit=20');
  expect(notes.items.map((x) => x.title)).toContain(`Solicitud ${number}: Resuelta`);

  // ─── Consulta SIG finds it ───────────────────────────────────────────────────────────────────────
  await reviewer.goto('/dummy');
  await expect(reviewer.getByRole('heading', { name: 'Consulta SIG' })).toBeVisible();
  await reviewer.getByRole('textbox', { name: 'Número o datos' }).fill(number);
  await expect(reviewer.getByRole('link', { name: number })).toBeVisible();
  await expect(reviewer.getByRole('table', { name: 'Cantidades por flujo y estado' }).getByText(flowTitle)).toBeVisible();
  await expectAccessible(reviewer);
  await shot(reviewer, 'consulta');

  // ─── The jubilación flow ends with a pension ─────────────────────────────────────────────────────
  const pending = await api<{ items: { id: number; flowTitle: string }[] }>(
    approver,
    '/api/sig/items?state=RESOLUCION&pageSize=50',
  );
  const jubilacion = pending.items.find((r) => r.flowTitle === 'Solicitud de jubilación');
  expect(jubilacion, 'the demo data has a jubilación request in Resolución').toBeTruthy();
  await approver.goto(`/sig/item/${jubilacion?.id}`);
  await take(approver, 'Aprobar y otorgar la pensión');
  await expect(approver.getByText('Pensión otorgada', { exact: true }).first()).toBeVisible();
  await approver.getByRole('link', { name: /Pensión de jubilación de / }).click();
  await expect(approver).toHaveURL(/\/contributors\/passive-classes\/\d+$/);
  await expect(approver.getByText('Jubilación').first()).toBeVisible();
});
