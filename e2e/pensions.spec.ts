import type { Page } from '@playwright/test';
import { expect, expectAccessible, randomCui, signIn, test } from './fixtures.ts';

const shots = process.env.PENSION_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** Today in Guatemala plus `days`, as ISO and as the app shows it (dd/mm/aaaa). */
function day(days = 0) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala' }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  const iso = d.toISOString().slice(0, 10);
  return { iso, shown: `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` };
}
const shownOf = (iso: string) => `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('auth-token'));
  const res = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** Runs one of the survival jobs from its button (with its confirmation) and waits for it to finish. */
async function runJob(page: Page, button: string) {
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
  const progress = page.getByTestId('job-progress');
  await expect(progress.getByText('Terminado').first()).toBeVisible({ timeout: 60_000 });
}

test('passive classes: a pension with two beneficiaries is suspended when its check is overdue, reactivated by a notarised act with its months paid in the payroll; a RENAP death suspends another pension and opens a review', async ({
  page,
}) => {
  test.setTimeout(240_000);
  page.setDefaultTimeout(30_000);
  await signIn(page);
  // A contributor of the demo data (active, no pension yet) becomes a pensioner.
  const { items } = await api<{ items: { cui: string; birthDate: string }[] }>(
    page,
    '/api/contributors?state=ACTIVO&pageSize=100&sort=id',
  );
  const start = day(-730);
  // A retirement is refused under the minimum age (50 by default) on its start day: a holder well past it.
  const oldEnough = items.filter((c) => c.birthDate <= `${Number(start.iso.slice(0, 4)) - 52}${start.iso.slice(4)}`);
  expect(oldEnough.length).toBeGreaterThan(0);
  const holder = oldEnough[Math.floor(Math.random() * oldEnough.length)];

  await page.goto('/contributors/passive-classes');
  await expect(page.getByRole('heading', { name: 'Clases pasivas' })).toBeVisible();
  await page.getByRole('link', { name: 'Nueva pensión' }).click();
  await expect(page.getByRole('heading', { name: 'Nueva pensión' })).toBeVisible();
  // Saving empty names each field in Spanish; nothing is lost.
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Seleccione el tipo de pensión.')).toBeVisible();
  await expect(page.getByText('Ingrese la fecha de inicio.')).toBeVisible();

  await page.getByRole('textbox', { name: 'CUI del pensionado' }).fill(holder.cui);
  await page.getByRole('combobox', { name: 'Tipo' }).click();
  await page.getByRole('option', { name: 'Jubilación' }).click();
  await page.getByRole('textbox', { name: 'Número de resolución' }).fill(`RES-E2E-${Date.now() % 100000}`);
  await page.getByRole('textbox', { name: 'Fecha de resolución' }).fill(day(-740).shown);
  await page.getByRole('textbox', { name: 'Inicio' }).fill(start.shown);
  await page.getByRole('textbox', { name: 'Monto mensual' }).fill('3100.00');
  await page.getByRole('textbox', { name: 'Cuenta bancaria' }).fill('301-123456789-0');
  const beneficiaries = [
    {
      cui: randomCui(),
      name: 'Marta Lucía Pérez de Gómez',
      birth: '14/02/1962',
      relationship: 'Cónyuge o conviviente',
      share: '70',
    },
    { cui: randomCui(), name: 'Pedro José Gómez Pérez', birth: '03/09/2012', relationship: 'Hijo o hija', share: '50' },
  ];
  for (const [i, b] of beneficiaries.entries()) {
    await page.getByRole('button', { name: 'Agregar beneficiario' }).click();
    const row = page.getByTestId('beneficiary-row').nth(i);
    await row.getByRole('textbox', { name: 'CUI' }).fill(b.cui);
    await row.getByRole('textbox', { name: 'Nombre completo' }).fill(b.name);
    await row.getByRole('textbox', { name: 'Fecha de nacimiento' }).fill(b.birth);
    await row.getByRole('combobox', { name: 'Parentesco' }).click();
    await page.getByRole('option', { name: b.relationship }).click();
    await row.getByRole('textbox', { name: 'Porcentaje' }).fill(b.share);
  }
  // 70 % + 50 %: refused, naming the rule; the form keeps everything typed.
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByTestId('beneficiaries-error')).toHaveText('Los porcentajes de los beneficiarios suman más de 100 %.');
  await page.getByTestId('beneficiary-row').nth(1).getByRole('textbox', { name: 'Porcentaje' }).fill('30');
  await shot(page, 'pension-form');
  await page.getByRole('button', { name: 'Guardar' }).click();
  // The demo history holds fewer than the 240 months a retirement asks for: the warning is confirmed.
  const confirm = page.getByRole('dialog', { name: 'Registrar la pensión con advertencias' });
  await expect(confirm.getByTestId('eligibility-warnings')).toContainText('meses cotizados');
  await confirm.getByRole('button', { name: 'Registrar de todos modos' }).click();

  await expect(page.getByText('Pensión registrada.')).toBeVisible();
  await expect(page.getByTestId('pension-state')).toHaveText('Activa');
  await expect(page.getByTestId('beneficiaries').getByRole('row')).toHaveCount(3);
  const pensionUrl = page.url();
  const id = Number(pensionUrl.split('/').pop());
  const pension = await api<{ survivalGraceEnd: string; cui: string }>(page, `/api/pensions/${id}`);
  await expectAccessible(page);

  // The clock moves past the grace period: the daily job, run as of that day, suspends the pension.
  const [y, m, d] = pension.survivalGraceEnd.split('-').map(Number);
  const after = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  await page.goto('/contributors/supervivencia');
  await expect(page.getByRole('heading', { name: 'Supervivencia' })).toBeVisible();
  await page.getByRole('textbox', { name: 'A la fecha' }).fill(shownOf(after));
  await page.getByRole('textbox', { name: 'A la fecha' }).blur();
  await runJob(page, 'Ejecutar suspensión');
  await page.goto(pensionUrl);
  await expect(page.getByTestId('pension-state')).toHaveText('Suspendida');

  // The pensioner presents a notarised act: the pension is reactivated, the suspended months flagged.
  await page.getByRole('button', { name: 'Registrar supervivencia' }).click();
  const dialog = page.getByRole('dialog', { name: 'Registrar supervivencia' });
  await dialog.getByRole('combobox', { name: 'Forma de presentación' }).click();
  await page.getByRole('option', { name: 'Acta notarial' }).click();
  await dialog.getByRole('button', { name: 'Registrar' }).click();
  await expect(dialog.getByText('Adjunte el acta notarial.')).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByLabel('Acta notarial').click();
  await (await chooser).setFiles({
    name: 'acta-notarial.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  });
  await dialog.getByRole('button', { name: 'Registrar' }).click();
  await expect(page.getByText('la pensión fue reactivada')).toBeVisible();
  await expect(page.getByTestId('pension-state')).toHaveText('Activa');
  await page.getByRole('tab', { name: 'Estado y suspensiones' }).click();
  const owed = page.getByTestId('owed-months').getByRole('row');
  await expect(owed.nth(1)).toContainText('Por pagar');
  const owedMonths = (await owed.count()) - 1;
  expect(owedMonths).toBeGreaterThan(3);
  await page.getByRole('tab', { name: 'Supervivencias' }).click();
  await expect(page.getByTestId('checks')).toContainText('acta-notarial.pdf');
  await shot(page, 'pension-reactivated');

  // The month's payroll pays them: one line per owed month besides the month's own.
  await page.goto('/contributors/passive-classes/planilla');
  await expect(page.getByRole('heading', { name: 'Planilla mensual de pensiones' })).toBeVisible();
  await page.getByRole('button', { name: /^(Generar|Regenerar borrador)$/ }).click();
  await expect(page.getByTestId('payroll-summary')).toBeVisible({ timeout: 60_000 });

  // What the payroll left out or pointed out, with why: a pensioner RENAP records as dead (the generation
  // looks each chunk up in RENAP) is excluded, a retiree who is also on a recent planilla is paid and flagged.
  const period = new URL(page.url()).searchParams.get('period') ?? day().iso.slice(0, 7);
  type Exception = { fullName: string; kind: string; reason: string; message: string };
  const excluded = await api<{ items: Exception[] }>(
    page,
    `/api/pension-payrolls/${period}/exceptions?kind=EXCLUIDA&pageSize=200`,
  );
  // The deaths (a few) head the excluded, ahead of the many overdue survival checks.
  const deadAt = excluded.items.findIndex((e) => e.reason === 'FALLECIMIENTO');
  expect(deadAt, 'the demo registry records deaths of living pensioners; they are listed first').toBe(0);
  const exceptions = page.getByTestId('payroll-exceptions');
  await expect(exceptions).toContainText('Excluidas y observadas');
  await exceptions.locator('label', { hasText: /^Excluida$/ }).click();
  const dead = exceptions.getByTestId('payroll-exception').first();
  await expect(dead).toContainText(excluded.items[deadAt].fullName);
  await expect(dead).toContainText('Excluida');
  await expect(dead).toContainText(/Excluido: RENAP registra el fallecimiento el \d{2}\/\d{2}\/\d{4}\./);
  await exceptions.locator('label', { hasText: /^Observada$/ }).click();
  const employed = exceptions.getByTestId('payroll-exception').first();
  await expect(employed).toContainText('Observada');
  await expect(employed).toContainText(/Pagado con observación: figura como empleado en la planilla \d{2}\/\d{4} de /);
  await shot(page, 'pension-payroll-exceptions');
  await page.getByRole('textbox', { name: 'Buscar' }).fill(pension.cui);
  await page.getByRole('combobox', { name: 'Concepto' }).click();
  await page.getByRole('option', { name: 'Mes suspendido pagado' }).click();
  await expect(page.getByText(`1–${Math.min(owedMonths, 25)} de ${owedMonths}`)).toBeVisible();
  await shot(page, 'pension-payroll');
  await page.goto(pensionUrl);
  await page.getByRole('tab', { name: 'Pagos' }).click();
  await expect(page.getByTestId('payments').getByRole('row')).toHaveCount(owedMonths + 2);

  // RENAP: the periodic check finds the deceased pensioners of the offline registry; each death has its
  // review. The one the payroll excluded above was active when RENAP's record was found: it was suspended
  // for the death (a pension already suspended for its survival check only gets the review).
  await page.goto('/contributors/supervivencia');
  await runJob(page, 'Verificar en RENAP');
  await page.getByRole('tab', { name: 'Revisiones por fallecimiento' }).click();
  const review = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: 'Resolver' }) })
    .filter({ hasText: excluded.items[deadAt].fullName });
  await expect(review).toBeVisible();
  await shot(page, 'survival-reviews');
  await review.getByRole('link').click();
  await expect(page.getByTestId('pension-state')).toHaveText('Suspendida');
  await page.getByRole('tab', { name: 'Estado y suspensiones' }).click();
  await expect(page.getByTestId('suspensions')).toContainText('Fallecimiento registrado en RENAP');
  await expectAccessible(page);
});
