import { addDays, addMonths, daysInMonth, guatemalaToday, nextSurvivalDue, periodEnd, periodOf } from '@aporta/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, pensionPayrollLines, pensions, planillaLines, planillas } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { multipartBody, samplePdf } from '../../test/pdfs.ts';
import { addRenapPerson, contributorFixtures, newCui } from '../contributors/fixtures.ts';

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
const today = guatemalaToday();

const req = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = admin.token) =>
  t.request({ method, url, payload: payload as never, token });

async function contributor(over: Record<string, unknown> = {}) {
  const cui = newCui();
  const res = await req('POST', '/api/contributors', {
    cui,
    firstName: 'Rosa',
    firstSurname: 'Pensión',
    birthDate: '1955-03-10',
    sex: 'F',
    typeId: fx.typeId,
    entityId: fx.entityA.id,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { cui, id: res.json().contributor.id as number };
}

const pensionBody = (cui: string, over: Record<string, unknown> = {}) => ({
  cui,
  type: 'JUBILACION',
  resolutionNumber: 'RES-2020-001',
  resolutionDate: '2020-01-10',
  startDate: '2020-02-01',
  monthlyAmount: '3,100.00',
  bankAccount: '3010-123456-7',
  ...over,
});

async function pension(over: Record<string, unknown> = {}, who: Record<string, unknown> = {}) {
  const c = await contributor(who);
  const res = await req('POST', '/api/pensions', pensionBody(c.cui, over));
  expect(res.statusCode, res.body).toBe(201);
  return { ...(res.json() as { id: number; survivalDue: string; state: string }), contributor: c };
}

/** Runs the daily suspension as of `asOf` and waits for it. */
async function runJob(url: string, body: unknown) {
  const res = await req('POST', url, body);
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json();
  for (let i = 0; i < 200; i++) {
    const j = await req('GET', `/api/jobs/${jobId}`);
    if (['DONE', 'FAILED', 'CANCELLED'].includes(j.json().state)) return j.json();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('job did not finish');
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  await t.app.jobs.start();
}, 60_000);
afterAll(() => t.close());

describe('pensions', () => {
  it('creates a pension with two beneficiaries, first amount and survival due date', async () => {
    const c = await contributor();
    const res = await req(
      'POST',
      '/api/pensions',
      pensionBody(c.cui, {
        beneficiaries: [
          { cui: newCui(), fullName: 'Juan Pensión', birthDate: '1954-01-01', relationship: 'CONYUGE', share: '60' },
          { cui: newCui(), fullName: 'Ana Pensión', birthDate: '2012-06-10', relationship: 'HIJO', share: '40' },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(p.state).toBe('ACTIVA');
    expect(p.monthlyAmount).toBe('3100.00');
    expect(p.beneficiaries).toHaveLength(2);
    expect(p.beneficiaries[1].endDate).toBe('2030-06-09');
    expect(p.amounts).toHaveLength(1);
    expect(p.survivalDue).toBe('2020-03-10');
    const list = await req('GET', `/api/pensions?q=${c.cui}`);
    expect(list.json().total).toBe(1);
    const csv = await req('GET', `/api/pensions/export?format=csv&contributorId=${c.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Jubilación');
  });

  it('refuses the issue’s bad input with Spanish messages naming the field', async () => {
    // A CUI that is not a contributor.
    let res = await req('POST', '/api/pensions', pensionBody(newCui()));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toMatchObject({ path: 'cui' });
    expect(res.json().error.details[0].message).toContain('no corresponde a un afiliado');
    // A survivor pension for a CUI that is no beneficiary.
    res = await req('POST', '/api/pensions', pensionBody(newCui(), { type: 'VIUDEZ' }));
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('beneficiario');
    // Two active pensions of the same type.
    const p = await pension();
    res = await req('POST', '/api/pensions', pensionBody(p.contributor.cui));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.details[0].path).toBe('type');
    // Shares above 100 %.
    const c = await contributor();
    res = await req(
      'POST',
      '/api/pensions',
      pensionBody(c.cui, {
        beneficiaries: [
          { cui: newCui(), fullName: 'Uno Dos', birthDate: '1960-01-01', relationship: 'CONYUGE', share: '70' },
          { cui: newCui(), fullName: 'Tres Cuatro', birthDate: '2010-01-01', relationship: 'HIJO', share: '40' },
        ],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('más de 100 %');
    // Nothing was created for that contributor.
    expect((await req('GET', `/api/pensions?contributorId=${c.id}`)).json().total).toBe(0);
  });

  it('creates a survivor pension for a beneficiary of a contributor’s pension', async () => {
    const widow = newCui();
    await pension({
      beneficiaries: [{ cui: widow, fullName: 'Marta Viuda', birthDate: '1958-08-01', relationship: 'CONYUGE', share: '100' }],
    });
    const res = await req(
      'POST',
      '/api/pensions',
      pensionBody(widow, { type: 'VIUDEZ', startDate: '2024-01-01', resolutionDate: '2023-12-01' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().fullName).toBe('Marta Viuda');
    const wrongType = await req('POST', '/api/pensions', pensionBody(widow, { type: 'JUBILACION' }));
    expect(wrongType.statusCode).toBe(400);
  });

  it('keeps effective-dated amounts and refuses a change before the start', async () => {
    const p = await pension();
    let res = await req('POST', `/api/pensions/${p.id}/amounts`, {
      monthlyAmount: '3500',
      effectiveFrom: '2021-01-01',
      reason: 'Ajuste anual',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().amounts.map((a: { monthlyAmount: string }) => a.monthlyAmount)).toEqual(['3500.00', '3100.00']);
    expect(res.json().monthlyAmount).toBe('3500.00');
    res = await req('POST', `/api/pensions/${p.id}/amounts`, {
      monthlyAmount: '3500',
      effectiveFrom: '2019-01-01',
      reason: 'Ajuste anual',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].path).toBe('effectiveFrom');
  });
});

describe('survival checks, suspension and reactivation', () => {
  it('suspends an overdue pension, refuses reactivation without a check, reactivates with a notarised act and flags the months', async () => {
    // Due birthday long past: the job as of today suspends it.
    const p = await pension({ startDate: '2024-01-01', resolutionDate: '2023-12-01' }, { birthDate: '1950-02-15' });
    expect(p.survivalDue).toBe('2024-02-15');
    const overdue = await req('GET', '/api/survival?kind=overdue&pageSize=200');
    expect(overdue.json().pensions.items.map((x: { id: number }) => x.id)).toContain(p.id);

    const job = await runJob('/api/survival/suspension-jobs', { asOf: today });
    expect(job.state, JSON.stringify(job)).toBe('DONE');
    let detail = (await req('GET', `/api/pensions/${p.id}`)).json();
    expect(detail.state).toBe('SUSPENDIDA');
    expect(detail.suspensions[0]).toMatchObject({ reason: 'SUPERVIVENCIA', fromDate: '2024-04-16' });
    const history = (await req('GET', `/api/pensions/${p.id}/transitions`)).json();
    expect(history.items.at(-1)).toMatchObject({ transition: 'PENSION_SUSPEND', to: 'SUSPENDIDA' });
    expect(history.items.at(-1).comment).toContain('Supervivencia no presentada');
    // Whoever handles survival checks is told, with a link to the (scoped) overdue list.
    const inbox = (await req('GET', '/api/notifications?pageSize=50')).json();
    const told = inbox.items.find((n: { title: string }) => n.title.startsWith('Pensiones suspendidas por supervivencia'));
    expect(told, JSON.stringify(inbox.items.map((n: { title: string }) => n.title))).toMatchObject({
      type: 'warning',
      link: '/contributors/supervivencia?tab=overdue',
    });

    // Reactivating without a check is refused.
    const direct = await req('POST', `/api/pensions/${p.id}/transition`, { to: 'ACTIVA' });
    expect(direct.statusCode).toBe(409);
    expect(direct.body).toContain('supervivencia');

    // A check in the future, or before the start, is refused.
    for (const [checkDate, text] of [
      [addDays(today, 1), 'futura'],
      ['2023-12-31', 'anterior al inicio'],
    ]) {
      const bad = await req('POST', `/api/pensions/${p.id}/survival-checks`, { checkDate, method: 'PRESENCIAL' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details[0]).toMatchObject({ path: 'checkDate' });
      expect(bad.json().error.details[0].message).toContain(text);
    }
    // A notarised act needs its file.
    const noFile = await req('POST', `/api/pensions/${p.id}/survival-checks`, { checkDate: today, method: 'ACTA_NOTARIAL' });
    expect(noFile.statusCode).toBe(400);

    const acta = await samplePdf('Acta notarial de supervivencia');
    const body = multipartBody({}, { name: 'acta.pdf', bytes: acta });
    const upload = await t.request({
      method: 'POST',
      url: '/api/survival/attachments',
      token: admin.token,
      headers: body.headers,
      payload: body.payload,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const check = await req('POST', `/api/pensions/${p.id}/survival-checks`, {
      checkDate: today,
      method: 'ACTA_NOTARIAL',
      attachmentFileId: upload.json().id,
    });
    expect(check.statusCode, check.body).toBe(201);
    expect(check.json()).toMatchObject({ reactivated: true, coversDue: '2024-02-15', attachmentName: 'acta.pdf' });
    const file = await req('GET', `/api/survival-checks/${check.json().id}/attachment`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(acta)).toBe(true);
    // The act is filed in Documentos, in the pension's entity folder "Supervivencias", with the same bytes.
    const [filed] = await t.database.db
      .select()
      .from(documents)
      .where(and(eq(documents.sourceType, 'survival_check'), eq(documents.sourceId, check.json().id)));
    const [row] = await t.database.db.select({ entityId: pensions.entityId }).from(pensions).where(eq(pensions.id, p.id));
    expect(filed).toMatchObject({ docType: 'ACTA', entityId: row.entityId });
    const content = await req('GET', `/api/library/documents/${filed.id}/content`);
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(acta)).toBe(true);
    const folder = (await req('GET', `/api/library/documents/${filed.id}`)).json();
    expect(folder.folderName).toBe('Supervivencias');

    detail = (await req('GET', `/api/pensions/${p.id}`)).json();
    expect(detail.state).toBe('ACTIVA');
    expect(detail.survivalDue).toBe(nextSurvivalDue('1950-02-15', today));
    // Every month from the suspension to last month is owed (no payroll ran meanwhile), at the full amount.
    expect(detail.owedMonths[0]).toMatchObject({ period: '2024-04', amount: '3100.00', paidInPayrollPeriod: null });
    expect(detail.owedMonths.at(-1).period < periodOf(today)).toBe(true);

    // The month's payroll includes them; closing marks them paid; a closed payroll is immutable.
    const period = periodOf(today);
    const gen = await req('POST', `/api/pension-payrolls/${period}/generate`);
    expect(gen.statusCode, gen.body).toBe(200);
    const lines = (await req('GET', `/api/pension-payrolls/${period}/lines?pensionId=${p.id}&pageSize=200`)).json();
    const owedLines = lines.items.filter((l: { kind: string }) => l.kind === 'ATRASO');
    expect(owedLines).toHaveLength(detail.owedMonths.length);
    expect(lines.items.filter((l: { kind: string }) => l.kind === 'MENSUAL')).toHaveLength(1);
    const bank = await req('GET', `/api/pension-payrolls/${period}/bank-file`);
    expect(bank.statusCode).toBe(200);
    expect(bank.body).toContain(`PEN-${period}-${p.id}-A2024-04`);
    const pdf = await req('GET', `/api/pension-payrolls/${period}/summary`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const closed = await req('POST', `/api/pension-payrolls/${period}/close`);
    expect(closed.statusCode, closed.body).toBe(200);
    const again = await req('POST', `/api/pension-payrolls/${period}/generate`);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('está cerrada');
    expect((await req('POST', `/api/pension-payrolls/${period}/close`)).statusCode).toBe(409);
    // The database refuses it too.
    // The database refuses it too: removing, changing or adding a line of the closed payroll (one check per
    // statement, migration 0048), each named by the constraint the service turns into its message.
    const refusal = async (write: Promise<unknown>) => {
      const err = (await write.then(
        () => null,
        (e) => e,
      )) as { constraint?: string; cause?: { constraint?: string } } | null;
      return err ? (err.cause?.constraint ?? err.constraint ?? 'other') : 'accepted';
    };
    expect(await refusal(t.database.db.delete(pensionPayrollLines).where(eq(pensionPayrollLines.pensionId, p.id)))).toBe(
      'pension_payroll_closed',
    );
    expect(
      await refusal(t.database.db.update(pensionPayrollLines).set({ days: 1 }).where(eq(pensionPayrollLines.pensionId, p.id))),
    ).toBe('pension_payroll_closed');
    expect(
      await refusal(
        t.database.db.execute(sql`insert into pension_payroll_lines
          (payroll_id, pension_id, kind, for_period, days, amount, bank_account, cui, full_name, type, entity_id)
          select payroll_id, pension_id, 'ATRASO', '2020-01', days, amount, bank_account, cui, full_name, type, entity_id
            from pension_payroll_lines where pension_id = ${p.id} limit 1`),
      ),
    ).toBe('pension_payroll_closed');
    const paid = (await req('GET', `/api/pensions/${p.id}`)).json();
    expect(paid.owedMonths.every((o: { paidInPayrollPeriod: string | null }) => o.paidInPayrollPeriod === period)).toBe(true);
    // An amount change inside the closed month is refused (corrections go in the next month).
    const change = await req('POST', `/api/pensions/${p.id}/amounts`, {
      monthlyAmount: '4000',
      effectiveFrom: `${period}-01`,
      reason: 'Corrección',
    });
    expect(change.statusCode).toBe(400);
    expect(change.body).toContain('cerrada');
  });

  it('excludes suspended pensions from the payroll and prorates the first month', async () => {
    // Registered today (a resolution is never dated ahead); the start is moved into next month's payroll below.
    const p = await pension({ startDate: today, resolutionDate: today }, { birthDate: '1950-01-01' });
    const suspended = await pension({}, { birthDate: '1950-01-01' });
    const s = await req('POST', `/api/pensions/${suspended.id}/transition`, {
      to: 'SUSPENDIDA',
      comment: 'Cuenta bancaria cerrada',
    });
    expect(s.statusCode, s.body).toBe(200);
    const period = periodOf(addDays(`${periodOf(today)}-01`, 40));
    await t.database.db
      .update(pensions)
      .set({ startDate: `${period}-11` })
      .where(eq(pensions.id, p.id));
    const gen = await req('POST', `/api/pension-payrolls/${period}/generate`);
    expect(gen.statusCode, gen.body).toBe(200);
    expect(gen.json().excludedSuspended).toBeGreaterThanOrEqual(1);
    const mine = (await req('GET', `/api/pension-payrolls/${period}/lines?pensionId=${p.id}`)).json().items;
    expect(mine).toHaveLength(1);
    expect(mine[0].days).toBeLessThan(31);
    expect((await req('GET', `/api/pension-payrolls/${period}/lines?pensionId=${suspended.id}`)).json().total).toBe(0);
  });

  it('a RENAP death suspends at once from the death date and opens a review; a check is then refused', async () => {
    const p = await pension({}, { birthDate: '1945-09-09' });
    await addRenapPerson(t.database.db, p.contributor.cui, { deathDate: '2025-01-20', birthDate: '1945-09-09' });
    const job = await runJob('/api/survival/renap-jobs', {});
    expect(job.state, JSON.stringify(job)).toBe('DONE');
    expect(job.result.deaths).toBeGreaterThanOrEqual(1);
    const detail = (await req('GET', `/api/pensions/${p.id}`)).json();
    expect(detail.state).toBe('SUSPENDIDA');
    expect(detail.suspensions[0]).toMatchObject({ reason: 'FALLECIMIENTO', fromDate: '2025-01-20' });
    const reviews = (await req('GET', '/api/pension-reviews?state=ABIERTA&pageSize=200')).json();
    const review = reviews.items.find((r: { pensionId: number }) => r.pensionId === p.id);
    expect(review).toMatchObject({ deathDate: '2025-01-20' });
    const home = (await req('GET', '/api/home/queues')).json();
    expect(home.items.find((q: { id: string }) => q.id === 'pension-death-reviews').count).toBeGreaterThanOrEqual(1);
    const check = await req('POST', `/api/pensions/${p.id}/survival-checks`, { checkDate: today, method: 'PRESENCIAL' });
    expect(check.statusCode).toBe(409);
    const decided = await req('POST', `/api/pension-reviews/${review.id}/decision`, {
      decision: 'CONFIRMADA',
      resolution: 'Certificado de defunción recibido.',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({ state: 'FINALIZADA', endDate: '2025-01-20' });
  });

  it('writes the letters of a 30-day month (its last day is computed, never the 31st)', async () => {
    let month = addMonths(periodOf(today), 1);
    while (daysInMonth(month) !== 30) month = addMonths(month, 1);
    const p = await pension({ resolutionDate: today, startDate: today }, { birthDate: `1955-${month.slice(5)}-10` });
    expect(periodOf(p.survivalDue)).toBe(month);
    const job = await runJob('/api/survival/letter-jobs', { asOf: periodEnd(month) });
    expect(job.state, JSON.stringify(job)).toBe('DONE');
    expect(job.result.rows).toBeGreaterThanOrEqual(1);
  });

  it('writes survival letters (one, and a batch as a job)', async () => {
    const p = await pension();
    const one = await req('GET', `/api/pensions/${p.id}/survival-letter`);
    expect(one.statusCode, one.body.slice(0, 200)).toBe(200);
    expect(one.headers['content-type']).toBe('application/pdf');
    const asOf = `${p.survivalDue.slice(0, 7)}-01`;
    const job = await runJob('/api/survival/letter-jobs', { asOf });
    expect(job.state, JSON.stringify(job)).toBe('DONE');
    expect(job.result.rows).toBeGreaterThanOrEqual(1);
    // A copy of the letters is filed in Documentos (the institution's folder "Avisos de supervivencia").
    const doc = await req('GET', `/api/library/documents/${job.result.documentId}`);
    expect(doc.statusCode, doc.body).toBe(200);
    expect(doc.json()).toMatchObject({ docType: 'OFICIO', folderName: 'Avisos de supervivencia', pages: job.result.rows });
  });
});

describe('access', () => {
  it('the payroll needs scope ALL; a user without supervivencia APPROVE cannot run the jobs', async () => {
    const reader = await t.createUser({
      grants: [
        { resource: 'passive-classes', action: 'READ', scope: 'REGION' },
        { resource: 'supervivencia', action: 'READ', scope: 'ALL' },
      ],
    });
    expect((await req('GET', '/api/pension-payrolls', undefined, reader.token)).statusCode).toBe(403);
    expect((await req('POST', '/api/survival/suspension-jobs', {}, reader.token)).statusCode).toBe(403);
  });

  describe("eligibility and the payroll's exclusions (issue 28)", () => {
    const current = periodOf(today);
    let planillaId = 0;
    /** Puts `cui` on a planilla of this month that is in review (pending): an active employee. */
    async function employ(cui: string) {
      const db = t.database.db;
      if (!planillaId) {
        const [pl] = await db
          .insert(planillas)
          .values({ entityId: fx.entityA.id, period: current, type: 'COMPLEMENTARIA', state: 'EN_REVISION' })
          .returning({ id: planillas.id });
        planillaId = pl.id;
      }
      const row = Math.floor(Math.random() * 1_000_000);
      await db.insert(planillaLines).values({
        planillaId,
        rowNumber: row,
        period: current,
        entityId: fx.entityA.id,
        cui,
        fullName: 'Empleado Activo',
        budgetLineCode: '011',
        salary: 500000n,
        subject: true,
        employeeAmount: 35000n,
        employerAmount: 35000n,
      });
    }

    it('refuses a retirement for a 34-year-old active employee, with the reason', async () => {
      const c = await contributor({ birthDate: addDays(today, -(34 * 365 + 30)) });
      await employ(c.cui);
      const body = pensionBody(c.cui, { resolutionDate: today, startDate: today });
      const preview = await req('POST', '/api/pensions/eligibility', { cui: c.cui, type: 'JUBILACION', startDate: today });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toMatchObject({ age: 34, contributionMonths: 0 });
      expect(preview.json().issues.map((i: { severity: string; code: string }) => `${i.severity}:${i.code}`)).toEqual([
        'REFUSE:EDAD',
        'WARN:COTIZACIONES',
        'WARN:EMPLEO_ACTIVO',
      ]);
      const res = await req('POST', '/api/pensions', body);
      expect(res.statusCode, res.body).toBe(400);
      const err = res.json().error;
      expect(err.key).toBe('pensions.eligibilityRefused');
      expect(err.details).toEqual([
        expect.objectContaining({ path: 'type', key: 'pensions.eligibilityUnderAge', params: { age: 34, min: 50 } }),
      ]);
      const [none] = await t.database.db.select({ id: pensions.id }).from(pensions).where(eq(pensions.cui, c.cui));
      expect(none).toBeUndefined();
    });

    it('warns of a disability pension for an active employee with few months, and registers it with the warnings audited', async () => {
      const c = await contributor({ birthDate: '1980-04-04' });
      await employ(c.cui);
      const preview = (
        await req('POST', '/api/pensions/eligibility', { cui: c.cui, type: 'INVALIDEZ', startDate: today })
      ).json();
      expect(preview.issues.every((i: { severity: string }) => i.severity === 'WARN')).toBe(true);
      expect(preview.issues.find((i: { code: string }) => i.code === 'EMPLEO_ACTIVO')).toMatchObject({
        key: 'pensions.eligibilityActiveEmployment',
        params: { period: current, entity: expect.any(String) },
      });
      expect(preview.employment).toEqual([{ entityName: expect.any(String), period: current }]);
      const res = await req(
        'POST',
        '/api/pensions',
        pensionBody(c.cui, { type: 'INVALIDEZ', resolutionDate: today, startDate: today }),
      );
      expect(res.statusCode, res.body).toBe(201);
      const history = (await req('GET', `/api/pensions/${res.json().id}/history`)).json();
      expect(JSON.stringify(history)).toContain('Figura como empleado en la planilla');
    });

    it('the payroll excludes a pensioner RENAP records dead and flags one who is an active employee', async () => {
      const dead = await pension({}, { birthDate: '1950-06-06' });
      await addRenapPerson(t.database.db, dead.contributor.cui, { birthDate: '1950-06-06', deathDate: addDays(today, -5) });
      const working = await pension({}, { birthDate: '1955-07-07' });
      await employ(working.contributor.cui);
      const period = addMonths(current, 1);
      const gen = await req('POST', `/api/pension-payrolls/${period}/generate`);
      expect(gen.statusCode, gen.body).toBe(200);
      expect((await req('GET', `/api/pension-payrolls/${period}/lines?pensionId=${dead.id}`)).json().total).toBe(0);
      expect((await req('GET', `/api/pension-payrolls/${period}/lines?pensionId=${working.id}`)).json().total).toBe(1);
      expect((await req('GET', `/api/pensions/${dead.id}`)).json().state).toBe('SUSPENDIDA');
      const ex = await req('GET', `/api/pension-payrolls/${period}/exceptions?pageSize=200`);
      expect(ex.statusCode, ex.body).toBe(200);
      const items = ex.json().items as {
        pensionId: number;
        kind: string;
        reason: string;
        key: string;
        params: unknown;
        message: string;
      }[];
      expect(items.find((i) => i.pensionId === dead.id)).toMatchObject({
        kind: 'EXCLUIDA',
        reason: 'FALLECIMIENTO',
        key: 'pensions.payrollExcludedDeath',
        params: { date: addDays(today, -5) },
      });
      expect(items.find((i) => i.pensionId === working.id)).toMatchObject({
        kind: 'OBSERVADA',
        reason: 'EMPLEO_ACTIVO',
        params: { period: current, entity: expect.any(String) },
      });
      // Regenerating keeps the list (the dead pensioner is now suspended, still listed with the reason).
      expect((await req('POST', `/api/pension-payrolls/${period}/generate`)).statusCode).toBe(200);
      const again = (await req('GET', `/api/pension-payrolls/${period}/exceptions?kind=EXCLUIDA&pageSize=200`)).json();
      expect(again.items.find((i: { pensionId: number }) => i.pensionId === dead.id)?.reason).toBe('FALLECIMIENTO');
    });
  });
});
