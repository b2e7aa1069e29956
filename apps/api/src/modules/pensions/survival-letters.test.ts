import { addDays, formatDay, guatemalaToday, nextSurvivalDue } from '@aporta/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { hasPoppler, pdfPages, popplerMissing } from '../../test/poppler.ts';
import { contributorFixtures, newCui } from '../contributors/fixtures.ts';

/**
 * The survival letter says where the pensioner's check stands on the letter's date (issue 28: a letter dated
 * today reminded a pension started in 2020 of its 2020 birthday's deadlines as if they were still ahead), and
 * the verification link every PDF prints names the installation's PUBLIC_URL, not the Host a request carried.
 */

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
const today = guatemalaToday();

const req = (app: TestApp, method: 'GET' | 'POST', url: string, payload?: unknown, headers?: Record<string, string>) =>
  app.request({ method, url, token: admin.token, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A retirement pension of a new contributor born on `birthDate`, resolved and started on the days given. */
async function pension(app: TestApp, birthDate: string, resolutionDate: string, startDate: string) {
  const cui = newCui();
  const c = await req(app, 'POST', '/api/contributors', {
    cui,
    firstName: 'Rosa',
    firstSurname: 'Carta',
    birthDate,
    sex: 'F',
    typeId: fx.typeId,
    entityId: fx.entityA.id,
  });
  expect(c.statusCode, c.body).toBe(201);
  const p = await req(app, 'POST', '/api/pensions', {
    cui,
    type: 'JUBILACION',
    resolutionNumber: `RES-${cui.slice(0, 6)}`,
    resolutionDate,
    startDate,
    monthlyAmount: '3,100.00',
    bankAccount: '3010-123456-7',
  });
  expect(p.statusCode, p.body).toBe(201);
  return p.json() as { id: number; survivalDue: string; survivalWindowEnd: string; survivalGraceEnd: string };
}

/** The letter of a pension as one line of text (pdftotext wraps the paragraphs). */
async function letter(app: TestApp, id: number, headers?: Record<string, string>): Promise<string> {
  const res = await req(app, 'GET', `/api/pensions/${id}/survival-letter`, undefined, headers);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return pdfPages(res.rawPayload).join('\n').replace(/\s+/g, ' ');
}

async function runSuspension(asOf: string) {
  const res = await req(t, 'POST', '/api/survival/suspension-jobs', { asOf });
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json();
  for (let i = 0; i < 400; i++) {
    const j = await req(t, 'GET', `/api/jobs/${jobId}`);
    if (['DONE', 'FAILED', 'CANCELLED'].includes(j.json().state)) return j.json();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the suspension job did not end');
}

describe.skipIf(!hasPoppler)(`the survival letter and the verification link${hasPoppler ? '' : ` (${popplerMissing})`}`, () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser({ system: true });
    fx = await contributorFixtures(t.database.db);
    await t.app.jobs.start();
  }, 60_000);
  afterAll(() => t?.close());

  it('a check still ahead: the birthday due and the deadlines after it, all still to come', async () => {
    // A birthday 20 days ahead (1956 is a leap year: any day of the year exists), a pension started 10 days ago.
    const birthday = addDays(today, 20);
    const birthDate = `1956-${birthday.slice(5)}`;
    const start = addDays(today, -10);
    const p = await pension(t, birthDate, addDays(today, -15), start);
    expect(p.survivalDue).toBe(nextSurvivalDue(birthDate, start));
    const text = await letter(t, p.id);
    expect(text).toContain(`Fecha: ${formatDay(today)}`);
    expect(text).toContain(`corresponde a su cumpleaños del ${formatDay(p.survivalDue)}`);
    expect(text).toContain(`a más tardar el ${formatDay(p.survivalWindowEnd)}`);
    expect(text).toContain(`Si no la presenta a más tardar el ${formatDay(p.survivalGraceEnd)}, su pensión se suspenderá.`);
    expect(p.survivalDue > today).toBe(true);
  });

  it('a pension started years ago and never checked: the letter says the check was missed, not that its old deadlines are ahead', async () => {
    const p = await pension(t, '1955-03-10', '2020-01-10', '2020-02-01');
    // The check it waits for is the first birthday after its start (decisions, issue 15): 10/03/2020.
    expect(p.survivalDue).toBe('2020-03-10');
    const text = await letter(t, p.id);
    expect(text).toContain(`Fecha: ${formatDay(today)}`);
    expect(text).toContain(
      `correspondía a su cumpleaños del 10/03/2020 y no la hemos recibido: el plazo para presentarla venció el ${formatDay(p.survivalWindowEnd)} y el período de gracia, el ${formatDay(p.survivalGraceEnd)}.`,
    );
    expect(text).toContain('su pensión será suspendida hasta que la presente');
    // Never a past day offered as a deadline still to meet.
    expect(text).not.toContain('Le recordamos');
    expect(text).not.toMatch(/a más tardar el \d{2}\/\d{2}\/2020/);
    expect(text).not.toContain('se suspenderá');

    // Once the daily job has suspended it, the letter says so.
    expect((await runSuspension(today)).state).toBe('DONE');
    const after = await req(t, 'GET', `/api/pensions/${p.id}`);
    expect(after.json().state).toBe('SUSPENDIDA');
    const suspended = await letter(t, p.id);
    expect(suspended).toContain('su pensión está suspendida hasta que la presente');
    expect(suspended).toContain('su pensión se reactivará y los meses suspendidos se pagarán en la siguiente planilla');
  });

  it('a check overdue but within grace: the last day before the suspension', async () => {
    // Due 40 days ago: its 30-day window is over, the 30 days of grace are not.
    const due = addDays(today, -40);
    const birthDate = `1956-${due.slice(5)}`;
    const start = addDays(due, -20);
    const p = await pension(t, birthDate, addDays(start, -5), start);
    expect(p.survivalDue).toBe(due);
    expect(p.survivalWindowEnd < today && today <= p.survivalGraceEnd).toBe(true);
    const text = await letter(t, p.id);
    expect(text).toContain(`correspondía a su cumpleaños del ${formatDay(due)} y no la hemos recibido`);
    expect(text).toContain(`a más tardar el ${formatDay(p.survivalGraceEnd)}; si no, su pensión se suspenderá.`);
  });

  it('the verification link is the request origin without PUBLIC_URL', async () => {
    const p = await pension(t, '1950-06-01', '2024-01-10', '2024-02-01');
    const text = await letter(t, p.id, { host: 'aporta.interno:8080' });
    expect(text).toMatch(/Verificación en línea: http:\/\/aporta\.interno:8080\/verificar\?codigo=[\w-]+/);
  });
});

describe.skipIf(!hasPoppler)('PUBLIC_URL names the verification link of every PDF', () => {
  let pub: TestApp;
  beforeAll(async () => {
    pub = await createTestApp({ PUBLIC_URL: 'https://aporta.example.gt/' });
    admin = await pub.createUser({ system: true });
    fx = await contributorFixtures(pub.database.db);
  }, 60_000);
  afterAll(() => pub?.close());

  it('a letter and a solvency certificate print the public origin, whatever Host the request carried', async () => {
    const p = await pension(pub, '1950-06-01', '2024-01-10', '2024-02-01');
    const text = await letter(pub, p.id, { host: 'intruso.example:9999' });
    expect(text).toMatch(/Verificación en línea: https:\/\/aporta\.example\.gt\/verificar\?codigo=[\w-]+/);
    expect(text).not.toContain('intruso.example');

    const cert = await req(pub, 'POST', '/api/financial/certificates', { entityId: fx.entityB.id });
    expect(cert.statusCode, cert.body).toBe(201);
    const res = await req(pub, 'GET', `/api/financial/certificates/${cert.json().id}/pdf`, undefined, {
      host: 'intruso.example:9999',
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const certText = pdfPages(res.rawPayload).join('\n').replace(/\s+/g, ' ');
    expect(certText).toContain(`https://aporta.example.gt/verificar-constancia?codigo=${cert.json().code}`);
    expect(certText).not.toContain('intruso.example');
  });
});
