import { addMonths, type Grant, guatemalaToday, nextPeriod, periodOf, previousPeriod } from '@aporta/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  budgetLines,
  contributors,
  delegates,
  documents,
  entityRegions,
  jobs as jobsTable,
  notifications,
  paymentOrders,
  planillaLines,
  planillas,
  regionDelegates,
  regions,
  stateTransitions,
} from '../../db/schema/index.ts';
import { jobMessages } from '../../platform/jobs.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { addRenapPerson, attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

let t: TestApp;
let admin: TestUser;
let operator: TestUser;
let operatorB: TestUser;
let delegate: TestUser;
let delegate2: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

const current = periodOf(guatemalaToday());
const last = previousPeriod(current);
const beforeLast = previousPeriod(last);

const g = (scope: Grant['scope'], entries: [Grant['resource'], Grant['action'][]][]): Grant[] =>
  entries.flatMap(([resource, actions]) => actions.map((action) => ({ resource, action, scope })));

const operatorGrants = g('ENTITY', [
  ['planillas', ['READ', 'CREATE', 'UPDATE', 'EXPORT']],
  ['planilla-upload', ['READ', 'CREATE']],
  ['employee-contribution-history', ['READ']],
]);
const delegateGrants = g('REGION', [
  ['planillas', ['READ', 'APPROVE', 'EXPORT']],
  ['delegate-review', ['READ', 'APPROVE']],
  ['employee-contribution-history', ['READ']],
]);

async function makeDelegate(regionId: number) {
  const u = await t.createUser({ grants: delegateGrants });
  const [d] = await t.database.db.insert(delegates).values({ userId: u.id, cui: newCui() }).returning();
  await t.database.db.insert(regionDelegates).values({ regionId, delegateId: d.id });
  return u;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(db);
  operator = await t.createUser({ grants: operatorGrants });
  await attachUserToEntity(db, operator.id, fx.entityA.id);
  operatorB = await t.createUser({ grants: operatorGrants });
  await attachUserToEntity(db, operatorB.id, fx.entityB.id);
  const [region] = await db
    .insert(regions)
    .values({ code: `R-PL-${Date.now()}`, name: 'Región de prueba' })
    .returning();
  await db.insert(entityRegions).values({ entityId: fx.entityA.id, regionId: region.id });
  delegate = await makeDelegate(region.id);
  delegate2 = await makeDelegate(region.id);
  // Upload validation is a background job: this app's worker runs it.
  await t.app.jobs.start();
});
afterAll(() => t.close());

const line = (over: Record<string, unknown> = {}) => ({
  cui: newCui(),
  fullName: 'Ana López',
  budgetLine: '011',
  salary: '3000.00',
  ...over,
});

async function draft(token: string, period: string, entityId = fx.entityA.id, extra: Record<string, unknown> = {}) {
  const res = await t.request({ method: 'POST', url: '/api/planillas', token, payload: { entityId, period, ...extra } });
  return res;
}

async function addLine(token: string, id: number, payload: Record<string, unknown>) {
  return t.request({ method: 'POST', url: `/api/planillas/${id}/lines`, token, payload });
}

const transition = (token: string, id: number, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/planillas/${id}/transitions`, token, payload });

/**
 * Submits (200: ENVIANDO, naming its job) and waits for the submit job: answers the planilla's GET once it
 * left ENVIANDO (ENVIADA, or back where it was with the reason).
 */
async function submitAndWait(token: string, id: number) {
  const res = await transition(token, id, { to: 'ENVIANDO' });
  if (res.statusCode !== 200) return res;
  expect(res.json()).toMatchObject({ state: 'ENVIANDO', submitJobId: expect.any(Number), transitions: [], canEdit: false });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = await t.request({ method: 'GET', url: `/api/planillas/${id}`, token });
    if (now.json().state !== 'ENVIANDO' || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A job once it has ended: the submit job puts the planilla back (or sends it) in its transaction and marks
 * itself FAILED or DONE just after, so a read right after the planilla's may still find it RUNNING.
 */
async function settledJob(token: string, jobId: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await t.request({ method: 'GET', url: `/api/jobs/${jobId}`, token });
    if (!['QUEUED', 'RUNNING'].includes(job.json().state) || Date.now() > deadline) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A multipart upload of a CSV text. */
function upload(token: string, query: string, csv: string) {
  const boundary = '----planilla';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="planilla.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return t.request({
    method: 'POST',
    url: `/api/planilla-uploads?${query}`,
    token,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

/** GET the batch until it leaves VALIDANDO (its validation job is done). */
async function waitForValidation(id: string, token: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await t.request({ method: 'GET', url: `/api/planilla-uploads/${id}`, token });
    if (res.json().status !== 'VALIDANDO' || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Asks for the commit (202 CONFIRMANDO with its job, no planilla yet) and waits for the job: answers the
 * batch's GET once it left CONFIRMANDO (CONFIRMADO naming the planilla, or the refusal).
 */
async function commitAndWait(id: string, token: string) {
  const res = await t.request({ method: 'POST', url: `/api/planilla-uploads/${id}/commit`, token });
  expect(res.statusCode).toBe(202);
  expect(res.json()).toMatchObject({ status: 'CONFIRMANDO', jobId: expect.any(Number), planillaId: null });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = await t.request({ method: 'GET', url: `/api/planilla-uploads/${id}`, token });
    if (now.json().status !== 'CONFIRMANDO' || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('planillas: a draft typed on screen, calculated with the rates in force', () => {
  let id: number;
  it('creates a draft for the operator’s own entity and refuses another entity (403) and a future period (400)', async () => {
    const res = await draft(operator.token, beforeLast);
    expect(res.statusCode).toBe(201);
    id = res.json().id;
    expect(res.json()).toMatchObject({ state: 'BORRADOR', type: 'ORDINARIA', lineCount: 0, canEdit: true, period: beforeLast });
    expect(res.json().settings.values['contributions.employeeRate'].value).toBe('7.0000');
    expect((await draft(operator.token, beforeLast, fx.entityB.id)).statusCode).toBe(403);
    const future = await draft(operator.token, nextPeriod(current));
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details).toEqual([
      {
        path: 'period',
        message: expect.stringMatching(/no puede ser posterior a \d\d\/\d{4}/),
        key: 'platform.futurePeriodNamed',
        params: { label: 'El período', last: current },
      },
    ]);
    expect((await draft(operator.token, '2026-13')).statusCode).toBe(400);
    expect((await draft(operator.token, 'abc')).statusCode).toBe(400);
  });

  it('a second ordinary planilla for the period is 409; a complementary one needs an approved ordinary', async () => {
    const dup = await draft(operator.token, beforeLast);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toContain('planilla ordinaria');
    const comp = await draft(operator.token, beforeLast, fx.entityA.id, { type: 'COMPLEMENTARIA' });
    expect(comp.statusCode).toBe(409);
  });

  it('the database itself refuses a second active ordinary planilla', async () => {
    await expect(
      t.database.db.insert(planillas).values({ entityId: fx.entityA.id, period: beforeLast, type: 'ORDINARIA' }),
    ).rejects.toThrow();
  });

  it('adds lines, computes half-up per line and totals as sums of lines', async () => {
    const a = await addLine(operator.token, id, line({ salary: '1234.57' }));
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({ employeeAmount: '86.42', employerAmount: '86.42', subject: true, errors: [] });
    const b = await addLine(operator.token, id, line({ salary: '1,000.50', budgetLine: '011' }));
    expect(b.json().employeeAmount).toBe('70.04');
    const p = (await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: operator.token })).json();
    expect(p).toMatchObject({ lineCount: 2, totalSalary: '2235.07', totalEmployee: '156.46', totalEmployer: '156.46' });
  });

  it.each([
    [{ salary: '0' }, 'salary'],
    [{ salary: '-5' }, 'salary'],
    [{ salary: 'mil' }, 'salary'],
    [{ salary: '10.123' }, 'salary'],
    [{ budgetLine: '999' }, 'budgetLine'],
    [{ cui: '1680352240101' }, 'cui'],
    [{ fullName: '' }, 'fullName'],
  ])('refuses a bad line %j naming the field (400), saving nothing', async (over, field) => {
    const before = (await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: operator.token })).json().lineCount;
    const res = await addLine(operator.token, id, line(over));
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().error.details)).toContain(field);
    const after = (await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: operator.token })).json().lineCount;
    expect(after).toBe(before);
  });

  it('refuses a line whose CUI repeats (400) and another entity’s operator sees nothing (404)', async () => {
    const cui = newCui();
    expect((await addLine(operator.token, id, line({ cui }))).statusCode).toBe(201);
    const dup = await addLine(operator.token, id, line({ cui }));
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error.message).toContain('CUI repetido');
    expect((await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: operatorB.token })).statusCode).toBe(404);
    expect((await addLine(operatorB.token, id, line())).statusCode).toBe(404);
  });

  it('pages and searches lines; edits and removes one', async () => {
    const page = await t.request({ method: 'GET', url: `/api/planillas/${id}/lines?pageSize=2`, token: operator.token });
    expect(page.json()).toMatchObject({ total: 3 });
    expect(page.json().items).toHaveLength(2);
    const first = page.json().items[0];
    const found = await t.request({
      method: 'GET',
      url: `/api/planillas/${id}/lines?q=${first.cui.slice(0, 8)}`,
      token: operator.token,
    });
    expect(found.json().items.map((l: { id: number }) => l.id)).toContain(first.id);
    const upd = await t.request({
      method: 'PUT',
      url: `/api/planillas/${id}/lines/${first.id}`,
      token: operator.token,
      payload: line({ cui: first.cui, salary: '2000' }),
    });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().employeeAmount).toBe('140.00');
    const last3 = page.json().items[1];
    expect(
      (await t.request({ method: 'DELETE', url: `/api/planillas/${id}/lines/${last3.id}`, token: operator.token })).statusCode,
    ).toBe(204);
    const p = (await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: operator.token })).json();
    expect(p.lineCount).toBe(2);
  });
});

describe('planillas: lifecycle, review, concurrency, approval', () => {
  let id: number;
  let cuiKnown: string;
  it('the operator submits; the region’s delegates are notified; the operator cannot take it', async () => {
    // Fixture: the previous period's planilla (the draft of the first block) was approved.
    await t.database.db
      .update(planillas)
      .set({ state: 'APROBADA' })
      .where(and(eq(planillas.entityId, fx.entityA.id), eq(planillas.period, beforeLast)));
    const res = await draft(operator.token, last);
    id = res.json().id;
    cuiKnown = newCui();
    await addRenapPerson(t.database.db, cuiKnown);
    expect((await addLine(operator.token, id, line({ cui: cuiKnown, fullName: 'Ana María López García' }))).statusCode).toBe(201);
    expect((await addLine(operator.token, id, line())).statusCode).toBe(201);
    const sub = await submitAndWait(operator.token, id);
    expect(sub.statusCode).toBe(200);
    expect(sub.json()).toMatchObject({ state: 'ENVIADA', submittedById: operator.id, submitMessage: null });
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, delegate.id));
    expect(notes.some((n) => n.link === `/planilla/vista/${id}`)).toBe(true);
    // In words: which planilla (mm/aaaa), what happened, its lines and amounts as Q 1,234.50 (issue 28).
    const [y, m] = last.split('-');
    const sent = notes.find((n) => n.link === `/planilla/vista/${id}`);
    expect(sent?.title).toBe(`Planilla ${m}/${y} de ${fx.entityA.name} enviada a revisión`);
    expect(sent?.body).toBe(
      `2 líneas; cuota laboral Q ${sub.json().totalEmployee} y patronal Q ${sub.json().totalEmployer}. Espera su revisión.`,
    );
    const take = await transition(operator.token, id, { to: 'EN_REVISION' });
    expect(take.statusCode).toBe(403);
    // Editing a submitted planilla is refused with the reason.
    expect((await addLine(operator.token, id, line())).statusCode).toBe(409);
  });

  it('the queue shows it to the region’s delegate, not to an operator of another entity', async () => {
    const q = await t.request({ method: 'GET', url: '/api/planilla-review-queue', token: delegate.token });
    expect(q.statusCode).toBe(200);
    expect(q.json().items.map((p: { id: number }) => p.id)).toContain(id);
    expect((await t.request({ method: 'GET', url: '/api/planilla-review-queue', token: operatorB.token })).statusCode).toBe(403);
  });

  it('two delegates taking it at once: one wins, the other gets 409', async () => {
    const [a, b] = await Promise.all([
      transition(delegate.token, id, { to: 'EN_REVISION', expected: 'ENVIADA' }),
      transition(delegate2.token, id, { to: 'EN_REVISION', expected: 'ENVIADA' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const steps = await t.database.db
      .select()
      .from(stateTransitions)
      .where(and(eq(stateTransitions.entityType, 'planilla'), eq(stateTransitions.entityId, id)));
    expect(steps.filter((s) => s.transition === 'PLANILLA_TAKE')).toHaveLength(1);
  });

  it('observing needs a reason; observations may name lines; the operator corrects and resubmits', async () => {
    expect((await transition(delegate.token, id, { to: 'OBSERVADA' })).statusCode).toBe(400);
    const lines = (await t.request({ method: 'GET', url: `/api/planillas/${id}/lines`, token: delegate.token })).json().items;
    const obs = await transition(delegate.token, id, {
      to: 'OBSERVADA',
      comment: 'Revise el salario de la línea 2.',
      lineComments: [{ lineId: lines[1].id, comment: 'El salario no coincide con el contrato.' }],
    });
    expect(obs.statusCode).toBe(200);
    const comments = (await t.request({ method: 'GET', url: `/api/planillas/${id}/comments`, token: operator.token })).json()
      .items;
    expect(comments.map((c: { lineRow: number | null }) => c.lineRow)).toEqual([null, 2]);
    // The operator reads each line's observation on the line itself, and filters the observed lines (issue 28).
    const seen = (await t.request({ method: 'GET', url: `/api/planillas/${id}/lines`, token: operator.token })).json().items;
    expect(seen.map((l: { observations: unknown[] }) => l.observations.length)).toEqual([0, 1]);
    expect(seen[1].observations[0]).toMatchObject({
      body: 'El salario no coincide con el contrato.',
      authorEmail: delegate.email,
      transition: 'PLANILLA_OBSERVE',
      createdAt: expect.any(String),
    });
    const observed = await t.request({
      method: 'GET',
      url: `/api/planillas/${id}/lines?issues=observations`,
      token: operator.token,
    });
    expect(observed.statusCode).toBe(200);
    expect(observed.json()).toMatchObject({ total: 1, items: [{ id: lines[1].id, rowNumber: 2 }] });
    expect((await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: operator.token })).json()).toMatchObject({
      observedLineCount: 1,
    });
    // The operator is told in words: which planilla (mm/aaaa), what happened, how many observations, why.
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, operator.id), eq(notifications.link, `/planilla/vista/${id}`)));
    const [y, m] = last.split('-');
    expect(told.map((n) => n.title)).toContain(`Su planilla ${m}/${y} de ${fx.entityA.name} fue observada: 1 observación`);
    expect(told.map((n) => n.body)).toContain('Revise el salario de la línea 2. Corrija lo observado y envíela de nuevo.');
    expect(told.map((n) => n.title).join()).not.toMatch(/\d{4}-\d{2}/);
    const fix = await t.request({
      method: 'PUT',
      url: `/api/planillas/${id}/lines/${lines[1].id}`,
      token: operator.token,
      payload: line({ cui: lines[1].cui, salary: '3100.00' }),
    });
    expect(fix.statusCode).toBe(200);
    // A corrected line keeps the observation it answers.
    expect(fix.json().observations.map((o: { body: string }) => o.body)).toEqual(['El salario no coincide con el contrato.']);
    expect((await submitAndWait(operator.token, id)).json().state).toBe('ENVIADA');
    expect((await transition(delegate.token, id, { to: 'EN_REVISION' })).statusCode).toBe(200);
  });

  it('the comparison lists new employees against the previous period', async () => {
    const cmp = await t.request({ method: 'GET', url: `/api/planillas/${id}/comparison`, token: delegate.token });
    expect(cmp.statusCode).toBe(200);
    expect(cmp.json()).toMatchObject({ previous: { period: beforeLast } });
    expect(cmp.json().missingCount).toBe(2);
    expect(cmp.json().newCount).toBe(2);
    // Nobody on it is recorded dead by RENAP: the approval's confirmation has no death to warn of.
    expect(cmp.json()).toMatchObject({ deceasedCount: 0, deceased: [] });
  });

  it('approving creates the RENAP-known contributor (CUI pending) and the history shows the month', async () => {
    const ap = await transition(delegate.token, id, { to: 'APROBADA' });
    expect(ap.statusCode).toBe(200);
    expect(ap.json().state).toBe('APROBADA');
    // The answer links the two orders the approval issued, each for its share.
    const shown = ap.json();
    expect(shown.orders.map((o: { kind: string }) => o.kind)).toEqual(['LABORAL', 'PATRONAL']);
    expect(shown.orders.map((o: { principal: string }) => o.principal)).toEqual([shown.totalEmployee, shown.totalEmployer]);
    expect(shown.orders[0].reference).toMatch(/^\d+$/);
    const [c] = await t.database.db.select().from(contributors).where(eq(contributors.cui, cuiKnown));
    expect(c).toMatchObject({ cuiState: 'PENDIENTE', firstName: 'ANA', entityId: fx.entityA.id });
    const [l] = await t.database.db
      .select()
      .from(planillaLines)
      .where(and(eq(planillaLines.planillaId, id), eq(planillaLines.cui, cuiKnown)));
    expect(l.contributorId).toBe(c.id);
    const h = await t.request({
      method: 'GET',
      url: `/api/contribution-history/contributor?cui=${cuiKnown}`,
      token: operator.token,
    });
    expect(h.statusCode).toBe(200);
    // Approved but its orders not paid yet: the month is declared and owed (paid false, not unknown).
    expect(h.json().months).toMatchObject([{ period: last, employeeAmount: '210.00', paid: false, gap: false }]);
    // Each share on its own, with the order that charges it (issue 28).
    const [laboral, patronal] = shown.orders as { id: number; reference: string }[];
    expect(h.json().months[0]).toMatchObject({
      employeeShare: { paid: false, order: { id: laboral.id, reference: laboral.reference, state: 'EMITIDA' } },
      employerShare: { paid: false, order: { id: patronal.id, reference: patronal.reference, state: 'EMITIDA' } },
    });
    // The employee share paid (its order PAGADA), the employer's not yet: the employee share reads paid.
    await t.database.db.update(paymentOrders).set({ state: 'PAGADA' }).where(eq(paymentOrders.id, laboral.id));
    try {
      const h2 = await t.request({
        method: 'GET',
        url: `/api/contribution-history/contributor?cui=${cuiKnown}`,
        token: operator.token,
      });
      expect(h2.json().months[0]).toMatchObject({
        paid: false,
        employeeShare: { paid: true, order: { id: laboral.id, state: 'PAGADA' } },
        employerShare: { paid: false, order: { id: patronal.id, state: 'EMITIDA' } },
      });
      // The entity's history says the same, share by share.
      const eh = await t.request({
        method: 'GET',
        url: `/api/contribution-history/entity?entityId=${fx.entityA.id}&from=${last}&to=${last}`,
        token: admin.token,
      });
      expect(eh.json().months).toMatchObject([{ period: last, paid: false, employeePaid: true, employerPaid: false }]);
    } finally {
      await t.database.db.update(paymentOrders).set({ state: 'EMITIDA' }).where(eq(paymentOrders.id, laboral.id));
    }
    // The operator is told the approval in words, with the amounts of the orders it issued.
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, operator.id), eq(notifications.link, `/planilla/vista/${id}`)));
    const approved = told.find((n) => n.title.endsWith('fue aprobada'));
    expect(approved?.body).toBe(
      `Aprobada por ${delegate.email}. Se emitieron las órdenes de pago: cuota laboral Q ${shown.totalEmployee} y patronal Q ${shown.totalEmployer}.`,
    );
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'planilla'), eq(auditLog.entityId, String(id))));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'CREATE',
        'PLANILLA_SUBMIT',
        'PLANILLA_TAKE',
        'PLANILLA_OBSERVE',
        'PLANILLA_APPROVE',
        'PLANILLA_LINE_UPDATE',
      ]),
    );
    // An approved planilla admits no more review steps (409 with the reason) and no edits.
    expect((await transition(delegate.token, id, { to: 'RECHAZADA', comment: 'x' })).statusCode).toBe(409);
    expect((await addLine(operator.token, id, line())).statusCode).toBe(409);
  });

  it('copies the previous period as a new draft', async () => {
    const res = await draft(operator.token, current, fx.entityA.id, { copyPrevious: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ lineCount: 2, state: 'BORRADOR', errorCount: 0 });
    const noPrev = await draft(operatorB.token, current, fx.entityB.id, { copyPrevious: true });
    expect(noPrev.statusCode).toBe(409);
  });

  it('the palette finds a planilla by entity and period (AAAA-MM or MM/AAAA)', async () => {
    const mmYyyy = `${last.slice(5)}/${last.slice(0, 4)}`;
    const res = await t.request({
      method: 'GET',
      url: `/api/planillas?q=${encodeURIComponent(`quetzaltenango ${mmYyyy}`)}`,
      token: admin.token,
    });
    expect(res.json().items.map((p: { period: string; entityId: number }) => [p.entityId, p.period])).toEqual([
      [fx.entityA.id, last],
    ]);
    const iso = await t.request({
      method: 'GET',
      url: `/api/planillas?q=${encodeURIComponent(`${fx.entityA.code} ${last}`)}`,
      token: admin.token,
    });
    expect(iso.json().total).toBe(1);
  });

  it('overview counts by state and lists omisos in scope', async () => {
    const o = await t.request({ method: 'GET', url: `/api/planillas/overview?period=${last}`, token: admin.token });
    expect(o.statusCode).toBe(200);
    expect(o.json().byState).toEqual(expect.arrayContaining([{ state: 'APROBADA', count: 1 }]));
    expect(o.json().omisos.map((x: { entityId: number }) => x.entityId)).toContain(fx.entityB.id);
    expect(o.json().omisos.map((x: { entityId: number }) => x.entityId)).not.toContain(fx.entityA.id);
  });
});

describe('planillas: upload through the import pipeline', () => {
  it('refuses a period in the future and an entity out of scope before reading', async () => {
    const csv = 'CUI;NOMBRE;RENGLON;SALARIO\r\n';
    expect((await upload(operatorB.token, `entityId=${fx.entityB.id}&period=${nextPeriod(current)}`, csv)).statusCode).toBe(400);
    expect((await upload(operatorB.token, `entityId=${fx.entityA.id}&period=${beforeLast}`, csv)).statusCode).toBe(403);
  });

  it('validates rows as a job, shows exceptions, and commits every row as a line (exceptions marked)', async () => {
    const good = newCui();
    const rows = [
      'CUI;NOMBRE;RENGLON;SALARIO',
      `${good};Pedro Pérez;011;4000.00`,
      `${newCui()};Luis Gómez;029;2500`,
      `1680352240101;Malo CUI;011;100`,
      `${good};Repetido;011;100`,
      `${newCui()};Sin salario;011;abc`,
    ].join('\r\n');
    const up = await upload(operatorB.token, `entityId=${fx.entityB.id}&period=${beforeLast}`, rows);
    expect(up.statusCode).toBe(201);
    const batchId = up.json().id;
    const b = await waitForValidation(batchId, operatorB.token);
    expect(b.json()).toMatchObject({ status: 'VALIDADO', validRows: 2, errorRows: 3 });
    const ex = await t.request({
      method: 'GET',
      url: `/api/planilla-uploads/${batchId}/rows?kind=error`,
      token: operatorB.token,
    });
    expect(ex.json().items.map((r: { rowNumber: number }) => r.rowNumber)).toEqual([4, 5, 6]);
    const commit = await commitAndWait(batchId, operatorB.token);
    expect(commit.json()).toMatchObject({ status: 'CONFIRMADO', committedRows: 5, planillaId: expect.any(Number) });
    const pid = commit.json().planillaId;
    // Committed once: asking again is refused, and nobody else sees the upload.
    expect(
      (await t.request({ method: 'POST', url: `/api/planilla-uploads/${batchId}/commit`, token: operatorB.token })).statusCode,
    ).toBe(409);
    expect((await t.request({ method: 'GET', url: `/api/planilla-uploads/${batchId}`, token: operator.token })).statusCode).toBe(
      404,
    );
    const p = (await t.request({ method: 'GET', url: `/api/planillas/${pid}`, token: operatorB.token })).json();
    expect(p).toMatchObject({ lineCount: 5, errorCount: 3, totalEmployee: '280.00', state: 'BORRADOR' });
    // Submit is refused with the list while blocking errors remain: the job puts the draft back with the lines,
    // and fails with the same reason (Procesos).
    const sub = await submitAndWait(operatorB.token, pid);
    expect(sub.json()).toMatchObject({ state: 'BORRADOR', errorCount: 3 });
    expect(sub.json().submitMessage).toMatch(/líneas con errores que impiden enviarla \(en total: 3\)/);
    expect(sub.json().submitMessage.match(/línea \d+:/g)).toHaveLength(3);
    const job = await settledJob(operatorB.token, sub.json().submitJobId);
    expect(job.json()).toMatchObject({ kind: 'planillas.submit', state: 'FAILED' });
    expect(job.json().error).toMatch(/errores que impiden enviarla/);
    // Fixing the lines on screen lets it through.
    const bad = (
      await t.request({ method: 'GET', url: `/api/planillas/${pid}/lines?issues=errors`, token: operatorB.token })
    ).json().items;
    // Each issue of an uploaded exception keeps its key (the web words it in the user's language).
    for (const l of bad) for (const e of l.errors) expect(e.key, JSON.stringify(e)).toMatch(/^[a-z]+\.\w+$/);
    for (const l of bad) {
      const r = await t.request({
        method: 'PUT',
        url: `/api/planillas/${pid}/lines/${l.id}`,
        token: operatorB.token,
        payload: line({ fullName: l.fullName }),
      });
      expect(r.statusCode).toBe(200);
    }
    expect((await submitAndWait(operatorB.token, pid)).json().state).toBe('ENVIADA');
  });

  it('a template is downloadable in xlsx and csv', async () => {
    const x = await t.request({ method: 'GET', url: '/api/planilla-uploads/template', token: operator.token });
    expect(x.statusCode).toBe(200);
    expect(x.headers['content-type']).toContain('spreadsheetml');
    const c = await t.request({ method: 'GET', url: '/api/planilla-uploads/template?format=csv', token: operator.token });
    expect(c.body).toContain('CUI;NOMBRE;RENGLON;SALARIO');
  });
});

describe('planillas: back-pay (salarios caídos)', () => {
  it('a resolution makes a SALARIOS_CAIDOS planilla with one line per month; approved, the months enter the history', async () => {
    const cui = newCui();
    const body = {
      entityId: fx.entityB.id,
      resolutionNumber: 'JUZ-2024-118',
      resolutionDate: '2024-06-10',
      cui,
      fullName: 'Rosa Xicará',
      budgetLine: '011',
      fromPeriod: '2023-11',
      toPeriod: '2024-02',
      monthlySalary: '4000.00',
    };
    expect(
      (await t.request({ method: 'POST', url: '/api/back-pay', token: admin.token, payload: { ...body, toPeriod: '2023-01' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await t.request({ method: 'POST', url: '/api/back-pay', token: admin.token, payload: { ...body, monthlySalary: '0' } }))
        .statusCode,
    ).toBe(400);
    const res = await t.request({ method: 'POST', url: '/api/back-pay', token: admin.token, payload: body });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      type: 'SALARIOS_CAIDOS',
      lineCount: 4,
      totalEmployee: '1120.00',
      backPayResolution: 'Resolución JUZ-2024-118 del 10/06/2024',
    });
    const id = res.json().id;
    const reviewer = await t.createUser({ system: true });
    expect((await submitAndWait(admin.token, id)).json().state).toBe('ENVIADA');
    expect((await transition(reviewer.token, id, { to: 'EN_REVISION' })).statusCode).toBe(200);
    expect((await transition(reviewer.token, id, { to: 'APROBADA' })).statusCode).toBe(200);
    const h = await t.request({ method: 'GET', url: `/api/contribution-history/contributor?cui=${cui}`, token: admin.token });
    expect(h.json().months.map((m: { period: string; planillaType: string }) => [m.period, m.planillaType])).toEqual([
      ['2023-11', 'SALARIOS_CAIDOS'],
      ['2023-12', 'SALARIOS_CAIDOS'],
      ['2024-01', 'SALARIOS_CAIDOS'],
      ['2024-02', 'SALARIOS_CAIDOS'],
    ]);
    const list = await t.request({ method: 'GET', url: '/api/back-pay', token: admin.token });
    expect(list.json().items.map((p: { id: number }) => p.id)).toContain(id);
  });
});

describe('planillas: rates in force (Cuotas)', () => {
  it('every planilla user reads the contributions settings and their history, not other topics', async () => {
    const g = [{ resource: 'contributions' as const, action: 'READ' as const, scope: 'ENTITY' as const }];
    const reader = await t.createUser({ grants: g });
    const res = await t.request({ method: 'GET', url: '/api/planillas/rates', token: reader.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((i: { key: string }) => i.key)).toContain('contributions.employeeRate');
    expect(res.json().items.every((i: { topic: string }) => i.topic === 'contributions')).toBe(true);
    const h = await t.request({
      method: 'GET',
      url: '/api/planillas/rates/contributions.employeeRate/history',
      token: reader.token,
    });
    expect(h.json().items[0]).toMatchObject({ value: '7.0000', effectiveFrom: '2000-01-01' });
    expect(
      (await t.request({ method: 'GET', url: '/api/planillas/rates/agreements.adminChargeRate/history', token: reader.token }))
        .statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/settings', token: reader.token })).statusCode).toBe(403);
  });
});

describe('planillas: exports, employees, entity history', () => {
  it('exports the list and a declaration (xlsx, csv, pdf)', async () => {
    const list = await t.request({ method: 'GET', url: '/api/planillas/export?format=csv', token: admin.token });
    expect(list.statusCode).toBe(200);
    const [p] = await t.database.db.select().from(planillas).where(eq(planillas.state, 'APROBADA'));
    const csv = await t.request({ method: 'GET', url: `/api/planillas/${p.id}/export?format=csv`, token: admin.token });
    expect(csv.body).toContain('Cuota laboral');
    const pdf = await t.request({ method: 'GET', url: `/api/planillas/${p.id}/export?format=pdf`, token: admin.token });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // The PDF is filed in Documentos, in the entity's folder "Planillas"; exported again, a new version.
    const filed = async () =>
      t.database.db
        .select()
        .from(documents)
        .where(and(eq(documents.sourceType, 'planilla'), eq(documents.sourceId, p.id)));
    const [doc] = await filed();
    expect(doc).toMatchObject({ docType: 'PLANILLA', entityId: p.entityId, currentVersion: 1 });
    const v1 = await t.request({ method: 'GET', url: `/api/library/documents/${doc.id}/content`, token: admin.token });
    expect(v1.rawPayload.equals(pdf.rawPayload)).toBe(true);
    expect(
      (await t.request({ method: 'GET', url: `/api/library/documents/${doc.id}`, token: admin.token })).json().folderName,
    ).toBe('Planillas');
    await t.request({ method: 'GET', url: `/api/planillas/${p.id}/export?format=pdf`, token: admin.token });
    expect((await filed()).map((d) => d.currentVersion)).toEqual([2]);
  });

  it('employees of an entity over time and the entity history with gaps', async () => {
    const e = await t.request({ method: 'GET', url: `/api/planilla-employees?entityId=${fx.entityA.id}`, token: admin.token });
    expect(e.statusCode).toBe(200);
    expect(e.json().total).toBeGreaterThan(0);
    const h = await t.request({
      method: 'GET',
      url: `/api/contribution-history/entity?entityId=${fx.entityA.id}&from=${beforeLast}&to=${current}`,
      token: admin.token,
    });
    expect(h.statusCode).toBe(200);
    expect(h.json().months.map((m: { gap: boolean }) => m.gap)).toEqual([false, false, true]);
    expect(h.json().gaps).toEqual([current]);
  });
});

describe('planillas: lists page by key (issue 11)', () => {
  type Page = { items: { id: number }[]; total: number; next: string | null; prev: string | null };
  const get = async (url: string, token = admin.token): Promise<Page> => {
    const res = await t.request({ method: 'GET', url, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** Every id of `path` by following `next`, then back by `prev` from the last page; cursors are row ids. */
  async function walk(path: string, token?: string) {
    const forward: number[] = [];
    let page = await get(path, token);
    forward.push(...page.items.map((r) => r.id));
    while (page.next) {
      expect(page.next).toMatch(/^\d+$/);
      page = await get(`${path}&after=${page.next}`, token);
      forward.push(...page.items.map((r) => r.id));
    }
    const backward: number[] = page.items.map((r) => r.id);
    while (page.prev) {
      page = await get(`${path}&before=${page.prev}`, token);
      backward.unshift(...page.items.map((r) => r.id));
    }
    return { forward, backward };
  }

  it("a planilla's lines page by key in every sort, salaries repeating, forwards and backwards; the export follows the sort", async () => {
    const res = await draft(admin.token, '2019-03', fx.entityA.id);
    expect(res.statusCode, res.body).toBe(201);
    const pid = res.json().id as number;
    const db = t.database.db;
    const rows = Array.from({ length: 23 }, (_, i) => ({
      planillaId: pid,
      rowNumber: i + 1,
      period: '2019-03',
      entityId: fx.entityA.id,
      cui: newCui(),
      fullName: `Persona ${String.fromCharCode(65 + ((i * 7) % 23))}`,
      budgetLineCode: '011',
      salary: BigInt((1000 + (i % 3) * 500) * 100),
    }));
    await db.insert(planillaLines).values(rows);
    const all = await db.select().from(planillaLines).where(eq(planillaLines.planillaId, pid));
    const order = (key: 'rowNumber' | 'cui' | 'fullName' | 'salary', desc = false) =>
      [...all]
        .sort((a, b) => {
          const x = key === 'salary' ? Number(a.salary) - Number(b.salary) : a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;
          return (desc ? -x : x) || (desc ? b.id - a.id : a.id - b.id);
        })
        .map((l) => l.id);
    for (const [sort, expected] of [
      ['rowNumber', order('rowNumber')],
      ['-cui', order('cui', true)],
      ['fullName', order('fullName')],
      ['salary', order('salary')],
      ['-salary', order('salary', true)],
    ] as const) {
      const { forward, backward } = await walk(`/api/planillas/${pid}/lines?pageSize=5&sort=${sort}`);
      expect(forward, sort).toEqual(expected);
      expect(backward, sort).toEqual(expected);
    }
    // A numbered page (the planilla screen) still answers, with the exact total.
    const third = await get(`/api/planillas/${pid}/lines?pageSize=5&page=3&sort=salary`);
    expect(third.items.map((l) => l.id)).toEqual(order('salary').slice(10, 15));
    expect(third.total).toBe(23);
    const csv = (await t.request({ method: 'GET', url: `/api/planillas/${pid}/export?format=csv`, token: admin.token })).body;
    expect(csv.trim().split('\r\n')).toHaveLength(24);
  });

  it('the planilla list sorted by entity name, and the review queue, page by key', async () => {
    const made: number[] = [];
    for (const [i, entityId] of [fx.entityA.id, fx.entityB.id, fx.entityA.id, fx.entityB.id].entries()) {
      const res = await draft(admin.token, `2018-0${i + 1}`, entityId);
      expect(res.statusCode).toBe(201);
      made.push(res.json().id);
    }
    // Three of them waiting for review, two submitted at the same instant (the id breaks the tie).
    await t.database.db.execute(
      sql`update planillas set state = 'ENVIADA', submitted_at = case when id = ${made[3]} then timestamptz '2018-06-01 10:00:00.123456' else timestamptz '2018-05-01 10:00:00.123456' end
          where id in (${made[1]}, ${made[2]}, ${made[3]})`,
    );
    const ids = async (q: SQL) =>
      ((await t.database.db.execute(q)) as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
    const byName = await ids(
      sql`select p.id from planillas p join municipal_entities e on e.id = p.entity_id order by e.name, p.id`,
    );
    const byEntity = await walk('/api/planillas?pageSize=2&sort=entity');
    expect(byEntity.forward).toEqual(byName);
    expect(byEntity.backward).toEqual(byName);
    const desc = await walk('/api/planillas?pageSize=3&sort=-entity');
    expect(desc.forward).toEqual(
      await ids(
        sql`select p.id from planillas p join municipal_entities e on e.id = p.entity_id order by e.name desc, p.id desc`,
      ),
    );
    const queue = await walk('/api/planilla-review-queue?pageSize=1');
    const waiting = await ids(sql`select id from planillas where state in ('ENVIADA', 'EN_REVISION') order by submitted_at, id`);
    expect(waiting.length).toBeGreaterThan(0);
    expect(queue.forward).toEqual(waiting);
    expect(queue.backward).toEqual(waiting);
  });
});

describe('planillas: submit is a job — ENVIANDO meanwhile, never stuck', () => {
  let fy: Awaited<ReturnType<typeof contributorFixtures>>;
  let op: TestUser;
  let id: number;
  const waitOut = async (token: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const now = await t.request({ method: 'GET', url: `/api/planillas/${id}`, token });
      if (now.json().state !== 'ENVIANDO' || Date.now() > deadline) return now;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const steps = async () =>
    (
      await t.database.db
        .select({ transition: stateTransitions.transition, comment: stateTransitions.comment })
        .from(stateTransitions)
        .where(and(eq(stateTransitions.entityType, 'planilla'), eq(stateTransitions.entityId, id)))
        .orderBy(stateTransitions.id)
    ).map((s) => s.transition);

  beforeAll(async () => {
    fy = await contributorFixtures(t.database.db);
    op = await t.createUser({ grants: operatorGrants });
    await attachUserToEntity(t.database.db, op.id, fy.entityA.id);
    id = (await draft(op.token, last, fy.entityA.id)).json().id;
    for (let i = 0; i < 3; i++) expect((await addLine(op.token, id, line())).statusCode).toBe(201);
  });

  it('a planilla without lines is refused at once (409), with no job', async () => {
    const empty = (await draft(op.token, beforeLast, fy.entityA.id)).json().id;
    const res = await transition(op.token, empty, { to: 'ENVIANDO' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/no tiene líneas/);
    expect(res.json().error.key).toBe('planillas.noLines');
  });

  it('while its job waits it is ENVIANDO: no edits, no second submit, no voiding, nobody may ask for the job’s steps', async () => {
    await t.app.jobs.stop();
    try {
      const sub = await transition(op.token, id, { to: 'ENVIANDO', expected: 'BORRADOR' });
      expect(sub.statusCode).toBe(200);
      expect(sub.json()).toMatchObject({ state: 'ENVIANDO', submitJobId: expect.any(Number), transitions: [], canEdit: false });
      expect((await addLine(op.token, id, line())).statusCode).toBe(409);
      expect((await transition(op.token, id, { to: 'ENVIANDO' })).statusCode).toBe(409);
      expect((await transition(admin.token, id, { to: 'ANULADA', comment: 'x' })).statusCode).toBe(409);
      // The job's own steps do not exist for a request, whoever asks.
      expect((await transition(admin.token, id, { to: 'ENVIADA' })).statusCode).toBe(400);
      expect((await transition(admin.token, id, { to: 'BORRADOR', comment: 'x' })).statusCode).toBe(400);
      // Shown among the entity's drafts while it is being sent, with its job in Procesos.
      const drafts = await t.request({ method: 'GET', url: '/api/planillas?queue=drafts', token: op.token });
      expect(drafts.json().items.map((p: { id: number }) => p.id)).toContain(id);
      const job = await t.request({ method: 'GET', url: `/api/jobs/${sub.json().submitJobId}`, token: op.token });
      expect(job.json()).toMatchObject({ kind: 'planillas.submit', title: 'Envío de planilla a revisión', state: 'QUEUED' });
      // Cancelled while waiting: the next read finds it back in BORRADOR with the reason; it may be sent again.
      const cancel = await t.request({ method: 'POST', url: `/api/jobs/${sub.json().submitJobId}/cancel`, token: op.token });
      expect(cancel.json().state).toBe('CANCELLED');
      const back = await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: op.token });
      expect(back.json()).toMatchObject({ state: 'BORRADOR', canEdit: true });
      expect(back.json().submitMessage).toMatch(/se canceló/);
      expect(back.json().transitions.map((x: { to: string }) => x.to)).toContain('ENVIANDO');
      expect(await steps()).toEqual(['PLANILLA_SUBMIT', 'PLANILLA_SUBMIT_UNDONE']);
      const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, op.id));
      expect(notes.some((n) => n.link === `/planilla/vista/${id}` && n.type === 'warning')).toBe(true);
    } finally {
      await t.app.jobs.start();
    }
  });

  it('a job that ended without sending it (its attempts spent after crashes) leaves it back where it was', async () => {
    await t.app.jobs.stop();
    try {
      const sub = await transition(op.token, id, { to: 'ENVIANDO' });
      const jobId = sub.json().submitJobId as number;
      // What the lease reaper writes once the last attempt's process died.
      await t.database.db
        .update(jobsTable)
        .set({ state: 'FAILED', error: jobMessages.interrupted })
        .where(eq(jobsTable.id, jobId));
      const back = await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: op.token });
      expect(back.json()).toMatchObject({ state: 'BORRADOR', submitJobId: jobId });
      expect(back.json().submitMessage).toMatch(/no terminó/);
    } finally {
      await t.app.jobs.start();
    }
  });

  it('a blocking error the job finds (a budget line withdrawn meanwhile) puts it back with the lines; then it is sent', async () => {
    await t.app.jobs.stop();
    const db = t.database.db;
    try {
      expect((await transition(op.token, id, { to: 'ENVIANDO' })).statusCode).toBe(200);
      await db.update(budgetLines).set({ isActive: false }).where(eq(budgetLines.code, '011'));
      await t.app.jobs.start();
      const back = await waitOut(op.token);
      expect(back.json()).toMatchObject({ state: 'BORRADOR', errorCount: 3 });
      expect(back.json().submitMessage).toMatch(/líneas con errores .*\(en total: 3\)/);
      const job = await settledJob(op.token, back.json().submitJobId);
      expect(job.json()).toMatchObject({ state: 'FAILED' });
    } finally {
      await db.update(budgetLines).set({ isActive: true }).where(eq(budgetLines.code, '011'));
    }
    // The catalogue fixed, the next submit's recalculation clears the stale errors by itself and sends it.
    const sent = await submitAndWait(op.token, id);
    expect(sent.json()).toMatchObject({ state: 'ENVIADA', errorCount: 0, submitMessage: null, submittedById: op.id });
    expect(sent.json().totalEmployee).toBe('630.00');
    const job = await settledJob(op.token, sent.json().submitJobId);
    expect(job.json()).toMatchObject({ state: 'DONE', result: { planillaId: id, state: 'ENVIADA', lines: 3 } });
    expect((await steps()).slice(-2)).toEqual(['PLANILLA_SUBMIT', 'PLANILLA_SUBMITTED']);
  });
});

describe('planillas: limits the database can hold, and people RENAP records as dead', () => {
  const huge = '99,999,999,999.99';

  it('a salary beyond one person’s monthly maximum is refused on its line (typed or uploaded), never at the commit', async () => {
    const period = addMonths(current, -7);
    const d = await draft(operatorB.token, period, fx.entityB.id);
    expect(d.statusCode).toBe(201);
    const typed = await addLine(operatorB.token, d.json().id, line({ salary: huge }));
    expect(typed.statusCode).toBe(400);
    expect(JSON.stringify(typed.json().error)).toContain('supera el máximo permitido (Q 9,999,999.99)');
    // The issue's file: eleven such salaries. Each is an exception on its line; nothing reaches the totals.
    const rows = ['CUI;NOMBRE;RENGLON;SALARIO', ...Array.from({ length: 11 }, () => `${newCui()};Ana López;011;"${huge}"`)];
    const up = await upload(operatorB.token, `entityId=${fx.entityB.id}&period=${period}`, rows.join('\r\n'));
    expect(up.statusCode).toBe(201);
    const b = await waitForValidation(up.json().id, operatorB.token);
    expect(b.json()).toMatchObject({ status: 'VALIDADO', validRows: 0, errorRows: 11 });
    const ex = await t.request({
      method: 'GET',
      url: `/api/planilla-uploads/${up.json().id}/rows?kind=error`,
      token: operatorB.token,
    });
    expect(JSON.stringify(ex.json().items[0])).toContain('supera el máximo permitido');
  });

  it('totals a numeric(14,2) column cannot keep are refused before any write, naming the total', async () => {
    const period = addMonths(current, -8);
    const d = await draft(operatorB.token, period, fx.entityB.id);
    const id = d.json().id as number;
    // Eleven lines that bypassed today's line limit (written before it, or by hand in SQL): their sum does not fit.
    await t.database.db.insert(planillaLines).values(
      Array.from({ length: 11 }, (_, i) => ({
        planillaId: id,
        rowNumber: i + 1,
        period,
        entityId: fx.entityB.id,
        cui: newCui(),
        fullName: 'Ana López',
        budgetLineCode: '011',
        salary: 9_999_999_999_999n,
      })),
    );
    const res = await addLine(operatorB.token, id, line());
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(
      /^El total de salarios de la planilla \(Q 1,100,000,002,999.89\) supera el máximo que el sistema registra \(Q 999,999,999,999.99\)\.$/,
    );
    expect(res.json().error).toMatchObject({
      key: 'planillas.totalSalaryTooLarge',
      params: { total: '110000000299989', max: '99999999999999' },
      details: [{ path: 'salary', key: 'planillas.totalSalaryTooLarge' }],
    });
    const after = (await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: operatorB.token })).json();
    expect(after).toMatchObject({ lineCount: 0, totalSalary: '0.00' });
    // An upload whose valid rows sum beyond the column is refused when its commit is asked for (409 at once,
    // no job that fails three times and says «Puede confirmarla de nuevo»).
    const period2 = addMonths(current, -9);
    const up = await upload(
      operatorB.token,
      `entityId=${fx.entityB.id}&period=${period2}`,
      ['CUI;NOMBRE;RENGLON;SALARIO', `${newCui()};Ana López;011;1000`, `${newCui()};Ana López;011;1000`].join('\r\n'),
    );
    const batchId = up.json().id as string;
    expect((await waitForValidation(batchId, operatorB.token)).json()).toMatchObject({ status: 'VALIDADO', validRows: 2 });
    await t.database.db.execute(
      sql`update import_rows set data = jsonb_set(data, '{salary}', '"999999999999.99"') where batch_id = ${batchId}::uuid and is_valid`,
    );
    const commit = await t.request({ method: 'POST', url: `/api/planilla-uploads/${batchId}/commit`, token: operatorB.token });
    expect(commit.statusCode).toBe(400);
    expect(commit.json().error.message).toContain(
      'El total de salarios de la planilla (Q 1,999,999,999,999.98) supera el máximo',
    );
    expect(
      (await t.request({ method: 'GET', url: `/api/planilla-uploads/${batchId}`, token: operatorB.token })).json().status,
    ).toBe('VALIDADO');
  });

  it('a person RENAP records as dead before the period is refused on the line; the month of death is a warning', async () => {
    const period = addMonths(current, -10);
    const deadLong = newCui();
    const deadThisMonth = newCui();
    await addRenapPerson(t.database.db, deadLong, { deathDate: '2015-03-14' });
    await addRenapPerson(t.database.db, deadThisMonth, { deathDate: `${period}-10` });
    const d = await draft(operatorB.token, period, fx.entityB.id);
    const id = d.json().id as number;
    const refused = await addLine(operatorB.token, id, line({ cui: deadLong, fullName: 'Ana María López García' }));
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().error)).toContain('RENAP registra el fallecimiento el 14/03/2015, antes del período');
    expect(refused.json().error).toMatchObject({
      key: 'planillas.lineRenapDeceasedBeforePeriod',
      params: { date: '2015-03-14', period },
      details: [{ path: 'cui', key: 'planillas.lineRenapDeceasedBeforePeriod' }],
    });
    const warned = await addLine(operatorB.token, id, line({ cui: deadThisMonth, fullName: 'Ana María López García' }));
    expect(warned.statusCode).toBe(201);
    expect(warned.json().warnings.map((w: { code: string }) => w.code)).toContain('RENAP_FALLECIDO');
    // The comparison names the line, for the approval's confirmation to warn of it.
    const cmp = await t.request({ method: 'GET', url: `/api/planillas/${id}/comparison`, token: operatorB.token });
    expect(cmp.json()).toMatchObject({
      deceasedCount: 1,
      deceased: [{ lineId: warned.json().id, cui: deadThisMonth, fullName: 'Ana María López García' }],
    });
  });
});

describe('maker-checker reads the audit trail', () => {
  it('who created the planilla and wrote its lines cannot approve it after another user submitted it', async () => {
    const own = await contributorFixtures(t.database.db);
    const submitter = await t.createUser({ grants: operatorGrants });
    await attachUserToEntity(t.database.db, submitter.id, own.entityA.id);
    // The administrator creates the planilla and writes every line; another user only presses submit.
    const created = await draft(admin.token, last, own.entityA.id);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect((await addLine(admin.token, id, line())).statusCode).toBe(201);
    const sent = await submitAndWait(submitter.token, id);
    expect(sent.json()).toMatchObject({ state: 'ENVIADA', submittedById: submitter.id });
    expect((await transition(admin.token, id, { to: 'EN_REVISION' })).statusCode).toBe(200);
    const shown = (await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: admin.token })).json();
    expect(shown.transitions.map((x: { to: string }) => x.to)).not.toContain('APROBADA');
    const approve = await transition(admin.token, id, { to: 'APROBADA' });
    expect(approve.statusCode, approve.body).toBe(403);
    expect(approve.json().error.message).toBe(
      'No puede aprobar una planilla que usted creó, modificó o envió; debe hacerlo otra persona.',
    );
    expect(approve.json().error.key).toBe('planillas.approveNotByMaker');
    // Someone who neither made nor changed it may approve.
    const checker = await t.createUser({ system: true });
    const ok = await transition(checker.token, id, { to: 'APROBADA' });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
