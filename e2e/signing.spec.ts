import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectAccessible, signIn, test } from './fixtures.ts';

/**
 * Issue 16, "Done when": an administrator issues certificates to two users; a document goes to both in
 * order; the first signs, the second rejects with a reason and the sender sees it in rejected; sent
 * again, both sign and pdfsig (a validator that is not ours) reports two valid signatures chained to
 * the institution's CA; a batch of 50 receipts is sealed with progress.
 */
test.use({ actionTimeout: 20_000 });

const DEMO_PASSWORD = 'Demo-Clave-2026';
const sara = { email: 'superadmin@demo.aporta.local', name: 'Sara Superadmin', pass: 'frase de Sara 2026' };
const andres = { email: 'administrador@demo.aporta.local', name: 'Andrés Administrador', pass: 'frase de Andrés 2026' };
/** A delegate: their role holds no permission to sign, so a certificate alone does not make them a signer. */
const marta = {
  email: 'delegado.metropolitana@demo.aporta.local',
  name: 'Marta Delegada Metropolitana',
  pass: 'frase de Marta 2026',
};

/** A one-page PDF written by hand (valid xref offsets), so the journey needs no PDF library. */
function onePagePdf(text: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    (() => {
      const stream = `BT /F1 18 Tf 72 700 Td (${text}) Tj ET`;
      return `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
    })(),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

async function apiToken(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return (await res.json()).token as string;
}

async function signOut(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
}

async function issue(page: Page, who: typeof sara, position: string) {
  await page.getByRole('button', { name: 'Emitir certificado' }).click();
  const dialog = page.getByRole('dialog', { name: 'Emitir certificado' });
  await dialog.getByRole('combobox', { name: 'Titular' }).fill(who.email);
  await page.getByRole('option', { name: new RegExp(who.email) }).click();
  await dialog.getByLabel('Cargo').fill(position);
  await dialog.getByLabel(/^Frase de paso/).fill(who.pass);
  await dialog.getByLabel('Repita la frase de paso').fill(who.pass);
  await dialog.getByRole('button', { name: 'Emitir certificado' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: who.email })).toContainText('Vigente');
}

async function send(page: Page, title: string, { draft = false } = {}) {
  await page.goto('/firmaDoc/upload');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'resolucion.pdf', mimeType: 'application/pdf', buffer: onePagePdf(title) });
  await page.getByLabel('Título').fill(title);
  await page.getByLabel('Mensaje para los firmantes').fill('Firmar en orden, por favor.');
  const signers = page.getByRole('combobox', { name: 'Firmantes' });
  for (const who of [sara, andres]) {
    await signers.fill(who.email);
    await page.getByRole('option', { name: new RegExp(who.email) }).click();
  }
  // The list stays open over the buttons: close it.
  await signers.press('Escape');
  await expect(page.getByText(`Orden: 1. ${sara.name} → 2. ${andres.name}`)).toBeVisible();
  if (!draft) {
    await page.getByRole('button', { name: 'Enviar a firma' }).click();
    await expect(page.getByText('Documento enviado al primer firmante.')).toBeVisible();
    return;
  }
  // Saved as a draft, it waits in the sender's list below the form until it is sent from there.
  await page.getByRole('button', { name: 'Guardar como borrador' }).click();
  await expect(page.getByText('Borrador guardado.')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Borrador');
  await row.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(row).toContainText('Pendiente');
}

async function openPending(page: Page, who: typeof sara, title: string) {
  await signIn(page, who.email, DEMO_PASSWORD);
  // The menu counts what waits for this user.
  await expect(page.getByTestId('menu-badge-signingPending')).toHaveText('1');
  await page.goto('/firmaDoc/pendientes');
  await page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Revisar y firmar' }).click();
  const drawer = page.getByRole('dialog', { name: title });
  await expectPreview(page, drawer);
  return drawer;
}

/**
 * The signer reads what they sign: the PDF is shown in the drawer from a blob: URL that the app's own
 * Content-Security-Policy lets a frame load (Chromium shows "This content is blocked" in an error page
 * otherwise, and logs the refusal).
 */
async function expectPreview(page: Page, drawer: ReturnType<Page['getByRole']>) {
  const preview = drawer.getByTitle('Vista previa');
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute('src', /^blob:http/);
  const src = (await preview.getAttribute('src')) ?? '';
  await expect.poll(() => page.frames().some((f) => f.url() === src)).toBe(true);
  expect(page.frames().filter((f) => f.url().startsWith('chrome-error:'))).toEqual([]);
}

/** Every refusal by the Content-Security-Policy the page logs (none is expected anywhere in the journey). */
function cspRefusals(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (frame|load)/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

async function signAs(page: Page, who: typeof sara, title: string) {
  const drawer = await openPending(page, who, title);
  await drawer.getByLabel('Frase de paso').fill(who.pass);
  await drawer.getByRole('button', { name: 'Firmar', exact: true }).click();
  await expect(page.getByText('Documento firmado.')).toBeVisible();
  await signOut(page);
}

test('certificates, signing in order, rejection, two valid signatures by pdfsig, batch sealing of 50 receipts', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const refusals = cspRefusals(page);
  await signIn(page);
  // Before any certificate exists, the signers' list says why it is empty and leads to where they are issued.
  await page.goto('/firmaDoc/upload');
  const none = page.getByTestId('no-signers');
  await expect(none).toContainText('Nadie puede firmar todavía');
  await expect(none).toContainText('Ningún usuario con el permiso de firmar documentos tiene un certificado de firma vigente.');
  await expect(page.getByRole('combobox', { name: 'Firmantes' })).toBeDisabled();
  await none.getByRole('link', { name: 'Emitir certificados en «Administrador de firma»' }).click();

  // The administrator issues certificates to two users (each types the passphrase that protects their key),
  // and to a delegate, whose role cannot sign.
  await expect(page).toHaveURL(/\/administradorFirma$/);
  await expect(page.getByRole('heading', { name: 'Administrador de firma' })).toBeVisible();
  await issue(page, sara, 'Directora');
  await issue(page, andres, 'Gerente');
  await issue(page, marta, 'Delegada');
  await expectAccessible(page);

  // Only users who can sign are offered: the two whose role may sign, never the delegate.
  await page.goto('/firmaDoc/upload');
  await expect(page.getByTestId('no-signers')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Firmantes' }).click();
  const offered = page.getByRole('option');
  await expect(offered).toHaveCount(2);
  await expect(offered.filter({ hasText: sara.email })).toHaveCount(1);
  await expect(offered.filter({ hasText: andres.email })).toHaveCount(1);
  await expect(offered.filter({ hasText: marta.email })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Firmantes' }).press('Escape');

  // A document goes to both in order; the first signs, the second rejects with a reason.
  await send(page, 'Resolucion 12-2026');
  await signOut(page);
  await signAs(page, sara, 'Resolucion 12-2026');
  const drawer = await openPending(page, andres, 'Resolucion 12-2026');
  await drawer.getByRole('button', { name: 'Rechazar', exact: true }).click();
  await drawer.getByLabel('Motivo').fill('Falta el número de expediente');
  await drawer.getByRole('button', { name: 'Rechazar el documento' }).click();
  await expect(page.getByText('Documento rechazado.')).toBeVisible();
  await signOut(page);

  // The sender sees it in rejected, with the reason.
  await signIn(page);
  await page.goto('/firmaDoc/rechazados');
  const rejected = page.getByRole('row').filter({ hasText: 'Resolucion 12-2026' });
  await expect(rejected).toContainText('Rechazado');
  await rejected.getByRole('button', { name: 'Abrir' }).click();
  await expect(page.getByText(/Falta el número de expediente/)).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  // Sent again, both sign in turn: the second sees nothing to sign until the first has signed.
  await send(page, 'Resolucion 12-2026 corregida', { draft: true });
  await signOut(page);
  await signIn(page, andres.email, DEMO_PASSWORD);
  await page.goto('/firmaDoc/pendientes');
  await expect(page.getByText('No hay documentos que mostrar.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Resolucion 12-2026 corregida' })).toHaveCount(0);
  await signOut(page);
  await signAs(page, sara, 'Resolucion 12-2026 corregida');
  await signAs(page, andres, 'Resolucion 12-2026 corregida');

  await signIn(page);
  await page.goto('/firmaDoc/signed');
  const signedRow = page.getByRole('row').filter({ hasText: 'Resolucion 12-2026 corregida' });
  await expect(signedRow).toContainText('Firmado');
  await signedRow.getByRole('button', { name: 'Abrir' }).click();
  // The signed document is shown too, and downloads named as signed.
  await expectPreview(page, page.getByRole('dialog', { name: 'Resolucion 12-2026 corregida' }));
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar' }).click();
  expect((await download).suggestedFilename()).toBe('resolucion-firmado.pdf');
  const signedPdf = readFileSync(await (await download).path());
  await page.keyboard.press('Escape');
  expect(refusals).toEqual([]);

  // pdfsig, with only the institution's root trusted, reports two valid signatures.
  const dir = mkdtempSync(join(tmpdir(), 'aporta-e2e-nss-'));
  try {
    const pem = await (await request.get('/api/pki/ca.pem')).text();
    const [root, ca] = pem.split(/(?<=-----END CERTIFICATE-----\n)/);
    writeFileSync(join(dir, 'root.pem'), root);
    writeFileSync(join(dir, 'ca.pem'), ca);
    writeFileSync(join(dir, 'firmado.pdf'), signedPdf);
    execFileSync('certutil', ['-N', '-d', `sql:${dir}`, '--empty-password']);
    execFileSync('certutil', ['-A', '-d', `sql:${dir}`, '-n', 'raiz', '-t', 'CT,C,C', '-i', join(dir, 'root.pem')]);
    execFileSync('certutil', ['-A', '-d', `sql:${dir}`, '-n', 'emisora', '-t', ',,', '-i', join(dir, 'ca.pem')]);
    const out = spawnSync('pdfsig', ['-nssdir', `sql:${dir}`, '-no-ocsp', join(dir, 'firmado.pdf')], { encoding: 'utf8' }).stdout;
    console.info(out);
    // The two signers, then the institution's seal over the audit trail appended after the last signature.
    expect(out.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(3);
    expect(out.match(/Certificate Validation: Certificate is Trusted\./g)).toHaveLength(3);
    expect(out).toContain(`Signer Certificate Common Name: ${sara.name}`);
    expect(out).toContain(`Signer Certificate Common Name: ${andres.name}`);
    expect(out).toContain('Signer Certificate Common Name: Aporta - Sello institucional');
    expect(out.split('Signature #3')[1]).toContain('Total document signed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The verification page agrees.
  await page.goto('/firmaDoc/verificar');
  await page.locator('input[type="file"]').setInputFiles({ name: 'firmado.pdf', mimeType: 'application/pdf', buffer: signedPdf });
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText(`Firma 1: ${sara.name}`)).toBeVisible();
  await expect(page.getByText(`Firma 2: ${andres.name}`)).toBeVisible();
  await expect(page.getByText(/^Firma 3: .*Sello institucional/)).toBeVisible();
  await expect(page.getByText('Cadena de confianza válida')).toHaveCount(3);
  await expect(page.getByText('Sin cambios posteriores')).toHaveCount(3);

  // A batch of 50 receipts in the library is sealed as a job with progress.
  const token = await apiToken(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const auth = { authorization: `Bearer ${token}` };
  const folder = await request.post('/api/folders', { headers: auth, data: { name: 'Recibos de noviembre' } });
  expect(folder.status()).toBe(201);
  const folderId = (await folder.json()).id;
  for (let i = 1; i <= 50; i++) {
    const res = await request.post('/api/library/documents', {
      headers: auth,
      multipart: {
        folderId: String(folderId),
        title: `Recibo ${i}`,
        docType: 'RECIBO',
        file: { name: `recibo-${i}.pdf`, mimeType: 'application/pdf', buffer: onePagePdf(`Recibo ${i}`) },
      },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto('/firmaAutomatica');
  await page.getByRole('combobox', { name: 'Carpeta' }).click();
  await page.getByRole('option', { name: 'Recibos de noviembre' }).click();
  await page.getByRole('button', { name: 'Sellar documentos' }).click();
  const card = page.getByTestId('job-progress');
  await expect(card.getByText('Sellado de documentos en lote')).toBeVisible();
  await expect(card.getByRole('progressbar', { name: 'Avance' })).toBeVisible();
  await expect(card.getByText('Terminado', { exact: true }).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText('Documentos sellados: 50')).toBeVisible();
  await expectAccessible(page);

  // The library shows each receipt at version 2 (the sealed copy).
  await page.goto('/folders');
  await page.getByRole('button', { name: /^Recibos de noviembre/ }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Recibo 50' })).toContainText('2');
  // Deleting a document asks first.
  await page.getByLabel('Buscar', { exact: true }).fill('Recibo 49');
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: 'Eliminar Recibo 49' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Eliminar el documento «Recibo 49»?' });
  await confirm.getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('Documento eliminado.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Recibo 49' })).toHaveCount(0);
});
