import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatCui, nitCheckCharacter } from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contributors, cuiApprovalRequests, renapLookups } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { addRenapPerson, attachUserToEntity, contributorFixtures, newCui } from './fixtures.ts';

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  cui: newCui(),
  firstName: 'Ana',
  secondName: 'María',
  firstSurname: 'López',
  secondSurname: 'García',
  birthDate: '1990-05-01',
  sex: 'F',
  typeId: fx.typeId,
  entityId: fx.entityA.id,
  municipalityId: fx.municipality.id,
  budgetLineCode: '011',
  salary: '3500.00',
  nit: '576937-K',
  ...over,
});

const create = (token: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/contributors', token, payload });

describe('contributors', () => {
  it('creates a contributor, opens its CUI request, checks and logs RENAP, audits', async () => {
    const cui = newCui();
    await addRenapPerson(t.database.db, cui);
    const res = await create(admin.token, body({ cui: formatCui(cui) }));
    expect(res.statusCode).toBe(201);
    const { contributor, warnings } = res.json();
    expect(contributor).toMatchObject({
      cui,
      nit: '576937K',
      cuiState: 'PENDIENTE',
      renapResult: 'COINCIDE',
      fullName: 'Ana María López García',
    });
    expect(warnings).toEqual([]);
    const reqs = await t.database.db
      .select()
      .from(cuiApprovalRequests)
      .where(eq(cuiApprovalRequests.contributorId, contributor.id));
    expect(reqs).toMatchObject([{ kind: 'ALTA', state: 'PENDIENTE', proposedCui: cui, requestedBy: admin.id }]);
    const logs = await t.database.db.select().from(renapLookups).where(eq(renapLookups.cui, cui));
    expect(logs).toMatchObject([{ userId: admin.id, result: 'ENCONTRADO', source: 'offline' }]);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(contributor.id)));
    expect(audit.some((a) => a.action === 'CREATE' && a.entityType === 'contributor')).toBe(true);
  });

  it('warns, but saves, when RENAP does not know the CUI or the data differ', async () => {
    const unknown = await create(admin.token, body());
    expect(unknown.statusCode).toBe(201);
    expect(unknown.json().warnings).toEqual(['El CUI no está registrado en RENAP.']);
    const cui = newCui();
    await addRenapPerson(t.database.db, cui, { firstSurname: 'PÉREZ' });
    const differs = await create(admin.token, body({ cui }));
    expect(differs.json().contributor.renapResult).toBe('DIFIERE');
    expect(differs.json().warnings[0]).toBe('Los datos difieren de RENAP en: primer apellido.');
  });

  it('refuses a bad CUI and NIT in Spanish, naming the fields', async () => {
    const res = await create(admin.token, body({ cui: '1680352240101', nit: '8977112-0' }));
    expect(res.statusCode).toBe(400);
    const details = res.json().error.details;
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'cui', message: 'El dígito verificador del CUI no es válido.', key: 'contributors.cuiCheckDigit' },
        { path: 'nit', message: 'El dígito verificador del NIT no es válido.', key: 'contributors.nitCheckDigit' },
      ]),
    );
    const len = await create(admin.token, body({ cui: '12345678' }));
    expect(len.json().error.details[0]).toEqual({
      path: 'cui',
      message: 'El CUI debe tener 13 dígitos.',
      key: 'contributors.cuiLength',
    });
  });

  it('refuses unknown catalogue references with 400', async () => {
    const res = await create(admin.token, body({ typeId: 9999, entityId: 9999, budgetLineCode: 'ZZZ' }));
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['budgetLineCode', 'entityId', 'typeId']);
  });

  it('answers a duplicate CUI with 409 and a link to the existing contributor', async () => {
    const first = await create(admin.token, body());
    const again = await create(admin.token, body({ cui: first.json().contributor.cui }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('DUPLICATE');
    expect(again.json().error.details[0].message).toContain(`/contributors/${first.json().contributor.id}`);
  });

  it('searches by exact CUI, CUI prefix and fuzzy name, with filters and pagination', async () => {
    const a = (
      await create(
        admin.token,
        body({ firstName: 'Wenceslao', secondName: null, firstSurname: 'Xicará', secondSurname: 'Tzul', sex: 'M' }),
      )
    ).json().contributor;
    const exact = await t.request({
      method: 'GET',
      url: `/api/contributors?q=${formatCui(a.cui).replace(/ /g, '+')}`,
      token: admin.token,
    });
    expect(exact.json()).toMatchObject({ total: 1, items: [{ id: a.id }] });
    const prefix = await t.request({ method: 'GET', url: `/api/contributors?q=${a.cui.slice(0, 9)}`, token: admin.token });
    expect(prefix.json().items.map((c: { id: number }) => c.id)).toContain(a.id);
    // Misspelt, without accents, lower case: trigram similarity still finds it first.
    const fuzzy = await t.request({ method: 'GET', url: '/api/contributors?q=wenceslau%20xicara', token: admin.token });
    expect(fuzzy.json().items[0].id).toBe(a.id);
    // A typo inside each word, words in another order.
    const lucia = (
      await create(admin.token, body({ firstName: 'Lucía', secondName: null, firstSurname: 'Méndez', secondSurname: 'Ajú' }))
    ).json().contributor;
    const typo = await t.request({ method: 'GET', url: '/api/contributors?q=mendes%20lusia', token: admin.token });
    expect(typo.json().items[0].id).toBe(lucia.id);
    const filtered = await t.request({
      method: 'GET',
      url: `/api/contributors?entityId=${fx.entityB.id}&q=Wenceslao`,
      token: admin.token,
    });
    expect(filtered.json().total).toBe(0);
    const page = await t.request({ method: 'GET', url: '/api/contributors?pageSize=2&page=1&sort=-id', token: admin.token });
    expect(page.json().items).toHaveLength(2);
    expect(page.json().total).toBeGreaterThan(2);
    const bad = await t.request({ method: 'GET', url: '/api/contributors?sort=password', token: admin.token });
    expect(bad.statusCode).toBe(400);
  });

  it('finds contributors by a NIT fragment (prefix, ≥ 4 digits, with or without dash, check character, dots or zeros)', async () => {
    const nitOf = (b: string) => `${b}-${nitCheckCharacter(b)}`;
    const a = (await create(admin.token, body({ nit: nitOf('90817263') }))).json().contributor;
    const b = (await create(admin.token, body({ nit: nitOf('9081999') }))).json().contributor;
    const inside = (await create(admin.token, body({ nit: nitOf('19081726') }))).json().contributor;
    const found = async (q: string) =>
      (await t.request({ method: 'GET', url: `/api/contributors?pageSize=100&q=${encodeURIComponent(q)}`, token: admin.token }))
        .json()
        .items.map((c: { id: number }) => c.id);
    expect(await found('9081')).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await found('9081')).not.toContain(inside.id);
    for (const q of ['90817', '9081726', '9.081.726', '0090817', '9081-7263', nitOf('90817263'), ` ${nitOf('90817263')} `]) {
      const ids = await found(q);
      expect(ids, q).toContain(a.id);
      expect(ids, q).not.toContain(b.id);
    }
    // Three digits are not a fragment: only an exact NIT (or a CUI prefix) matches.
    expect(await found('908')).not.toContain(a.id);
    const palette = await t.request({ method: 'GET', url: '/api/contributors/search?q=90817', token: admin.token });
    expect(palette.json().map((c: { id: number }) => c.id)).toContain(a.id);
  });

  it('limits an ENTITY-scoped user to contributors of their entity, for reading and writing', async () => {
    const inA = (await create(admin.token, body({ entityId: fx.entityA.id }))).json().contributor;
    const inB = (await create(admin.token, body({ entityId: fx.entityB.id }))).json().contributor;
    const clerk = await t.createUser({
      grants: [
        { resource: 'contributor-list', action: 'READ', scope: 'ENTITY' },
        { resource: 'contributors', action: 'READ', scope: 'ENTITY' },
        { resource: 'contributor-new', action: 'CREATE', scope: 'ENTITY' },
      ],
    });
    await attachUserToEntity(t.database.db, clerk.id, fx.entityB.id);
    const list = await t.request({ method: 'GET', url: '/api/contributors?pageSize=200', token: clerk.token });
    const ids = list.json().items.map((c: { id: number }) => c.id);
    expect(ids).toContain(inB.id);
    expect(ids).not.toContain(inA.id);
    expect(list.json().items.every((c: { entityId: number }) => c.entityId === fx.entityB.id)).toBe(true);
    expect((await t.request({ method: 'GET', url: `/api/contributors/${inA.id}`, token: clerk.token })).statusCode).toBe(404);
    const outside = await create(clerk.token, body({ entityId: fx.entityA.id }));
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.details[0].path).toBe('entityId');
    expect((await create(clerk.token, body({ entityId: fx.entityB.id }))).statusCode).toBe(201);
  });

  it('gets one, updates fields directly, and sends a new CUI to approval', async () => {
    const c = (await create(admin.token, body())).json().contributor;
    const got = await t.request({ method: 'GET', url: `/api/contributors/${c.id}`, token: admin.token });
    expect(got.json().entityName).toBe(fx.entityA.name);
    const newOne = newCui();
    const res = await t.request({
      method: 'PUT',
      url: `/api/contributors/${c.id}`,
      token: admin.token,
      payload: body({ cui: newOne, phone: '5555-1234', state: 'INACTIVO' }),
    });
    // The ALTA request is still pending: a second open request for the same contributor is refused.
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/solicitud de CUI pendiente/);
    const updated = await t.request({
      method: 'PUT',
      url: `/api/contributors/${c.id}`,
      token: admin.token,
      payload: body({ cui: c.cui, phone: '5555-1234', state: 'INACTIVO' }),
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().contributor).toMatchObject({ cui: c.cui, phone: '5555-1234', state: 'INACTIVO' });
    const history = await t.request({ method: 'GET', url: `/api/contributors/${c.id}/history`, token: admin.token });
    const fields = history.json().items.flatMap((h: { changes: { field: string }[] }) => h.changes.map((x) => x.field));
    expect(fields).toEqual(expect.arrayContaining(['phone', 'state']));
  });

  it('exports the list as xlsx and csv with the same filters', async () => {
    const c = (await create(admin.token, body({ firstName: 'Exportable' }))).json().contributor;
    const csv = await t.request({ method: 'GET', url: `/api/contributors/export?format=csv&q=${c.cui}`, token: admin.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(formatCui(c.cui));
    const xlsx = await t.request({ method: 'GET', url: '/api/contributors/export?format=xlsx', token: admin.token });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('finds contributors for the command palette and summarises the overview', async () => {
    const c = (await create(admin.token, body({ firstName: 'Paletina' }))).json().contributor;
    const s = await t.request({ method: 'GET', url: '/api/contributors/search?q=paletina', token: admin.token });
    expect(s.json()[0]).toMatchObject({ id: c.id, cui: c.cui });
    const o = await t.request({ method: 'GET', url: '/api/contributors/overview', token: admin.token });
    expect(o.json().total).toBeGreaterThan(0);
    expect(o.json().pendingApprovals).toBeGreaterThan(0);
    const opts = await t.request({ method: 'GET', url: '/api/contributors/options', token: admin.token });
    expect(opts.json().types.map((x: { code: string }) => x.code)).toEqual([
      'ACTIVO',
      'VOLUNTARIO',
      'PENSIONADO',
      'BENEFICIARIO',
    ]);
    expect(opts.json().municipalities).toHaveLength(340);
  });

  it('prefills from RENAP for the form, with the municipality of the CUI', async () => {
    const cui = newCui('0101');
    await addRenapPerson(t.database.db, cui, { firstName: 'JUAN', sex: 'M' });
    const res = await t.request({ method: 'GET', url: `/api/contributors/renap/${cui}`, token: admin.token });
    expect(res.json()).toMatchObject({ result: 'ENCONTRADO', person: { firstName: 'JUAN' }, contributor: null });
    expect(res.json().municipalityId).toBeGreaterThan(0);
    const bad = await t.request({ method: 'GET', url: '/api/contributors/renap/1680352240101', token: admin.token });
    expect(bad.statusCode).toBe(400);
  });
});

describe('statistics panels', () => {
  it('counts contributors by department, type and state, only for users who may read contributors', async () => {
    await create(admin.token, body());
    const res = await t.request({ method: 'GET', url: '/api/statistics', token: admin.token });
    expect(res.statusCode).toBe(200);
    const panels = res.json() as { key: string; total: number; items: { label: string; value: number }[] }[];
    const byState = panels.find((p) => p.key === 'contributors-by-state')!;
    const [{ n }] = (
      (await t.database.db.execute(sql`select count(*)::int as n from contributors`)) as unknown as { rows: { n: number }[] }
    ).rows;
    expect(byState.total).toBe(n);
    expect(panels.find((p) => p.key === 'contributors-by-type')!.items.map((i) => i.label)).toContain('Activo');
    expect(panels.find((p) => p.key === 'contributors-by-department')!.total).toBe(n);
    const statsOnly = await t.createUser({ grants: [{ resource: 'statistics', action: 'READ', scope: 'ALL' }] });
    const limited = (await t.request({ method: 'GET', url: '/api/statistics', token: statsOnly.token })).json() as {
      key: string;
    }[];
    expect(limited.some((p) => p.key.startsWith('contributors-'))).toBe(false);
  });
});

describe('CUI approval (maker-checker)', () => {
  it('never lets the requester decide; another approver approves once; a second decision is 409', async () => {
    const c = (await create(admin.token, body())).json().contributor;
    const [req] = await t.database.db.select().from(cuiApprovalRequests).where(eq(cuiApprovalRequests.contributorId, c.id));
    const own = await t.request({
      method: 'POST',
      url: `/api/cui-approvals/${req.id}/transitions`,
      token: admin.token,
      payload: { to: 'APROBADO' },
    });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toMatch(/propia solicitud/);
    const checker = await t.createUser({
      grants: [
        { resource: 'cui-approval', action: 'READ', scope: 'ALL' },
        { resource: 'cui-approval', action: 'APPROVE', scope: 'ALL' },
      ],
    });
    const review = await t.request({ method: 'GET', url: `/api/cui-approvals/${req.id}/review`, token: checker.token });
    expect(review.statusCode).toBe(200);
    expect(review.json().request.state).toBe('PENDIENTE');
    const ok = await t.request({
      method: 'POST',
      url: `/api/cui-approvals/${req.id}/transitions`,
      token: checker.token,
      payload: { to: 'APROBADO' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ state: 'APROBADO', decidedById: checker.id });
    const [row] = await t.database.db.select().from(contributors).where(eq(contributors.id, c.id));
    expect(row.cuiState).toBe('APROBADO');
    const again = await t.request({
      method: 'POST',
      url: `/api/cui-approvals/${req.id}/transitions`,
      token: checker.token,
      payload: { to: 'RECHAZADO', comment: 'x' },
    });
    expect(again.statusCode).toBe(409);
  });

  it('notifies the approvers when a request opens, never the requester, and the requester of the decision', async () => {
    const checker = await t.createUser({
      grants: [
        { resource: 'cui-approval', action: 'READ', scope: 'ALL' },
        { resource: 'cui-approval', action: 'APPROVE', scope: 'ALL' },
      ],
    });
    const bystander = await t.createUser({ grants: [{ resource: 'contributors', action: 'READ', scope: 'ALL' }] });
    const inbox = async (token: string) =>
      (await t.request({ method: 'GET', url: '/api/notifications?pageSize=100', token })).json().items as {
        title: string;
        body: string;
        link: string | null;
      }[];
    const c = (await create(admin.token, body())).json().contributor;
    const pending = (await inbox(checker.token)).filter((n) => n.body === `CUI ${formatCui(c.cui)}`);
    expect(pending).toEqual([
      expect.objectContaining({ title: 'Nuevo afiliado pendiente de aprobación de CUI', link: '/contributors/cui-approval' }),
    ]);
    expect((await inbox(bystander.token)).length).toBe(0);
    expect((await inbox(admin.token)).some((n) => n.body === `CUI ${formatCui(c.cui)}`)).toBe(false);

    const [req] = await t.database.db.select().from(cuiApprovalRequests).where(eq(cuiApprovalRequests.contributorId, c.id));
    const decided = await t.request({
      method: 'POST',
      url: `/api/cui-approvals/${req.id}/transitions`,
      token: checker.token,
      payload: { to: 'RECHAZADO', comment: 'Los nombres no coinciden con RENAP' },
    });
    expect(decided.statusCode).toBe(200);
    expect(await inbox(admin.token)).toContainEqual(
      expect.objectContaining({
        title: `CUI ${formatCui(c.cui)} rechazado`,
        body: 'Los nombres no coinciden con RENAP',
        link: `/contributors/${c.id}`,
      }),
    );
  });

  it('applies an approved CUI change, and a rejection needs a reason and leaves the CUI', async () => {
    const checker = await t.createUser({
      grants: [
        { resource: 'cui-approval', action: 'APPROVE', scope: 'ALL' },
        { resource: 'cui-approval', action: 'READ', scope: 'ALL' },
      ],
    });
    const c = (await create(admin.token, body())).json().contributor;
    const [alta] = await t.database.db.select().from(cuiApprovalRequests).where(eq(cuiApprovalRequests.contributorId, c.id));
    await t.request({
      method: 'POST',
      url: `/api/cui-approvals/${alta.id}/transitions`,
      token: checker.token,
      payload: { to: 'APROBADO' },
    });

    const changed = newCui();
    const put = await t.request({
      method: 'PUT',
      url: `/api/contributors/${c.id}`,
      token: admin.token,
      payload: body({ cui: changed }),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().contributor.cui).toBe(c.cui);
    expect(put.json().warnings).toContain('El cambio de CUI quedó pendiente de aprobación por otra persona.');
    const second = await t.request({
      method: 'PUT',
      url: `/api/contributors/${c.id}`,
      token: admin.token,
      payload: body({ cui: newCui() }),
    });
    expect(second.statusCode).toBe(409);

    const id = put.json().approvalRequestId;
    const noReason = await t.request({
      method: 'POST',
      url: `/api/cui-approvals/${id}/transitions`,
      token: checker.token,
      payload: { to: 'RECHAZADO' },
    });
    expect(noReason.statusCode).toBe(400);
    // The schema's own refusal (state-machine.ts, textWith): keyed with the action as its parameter.
    expect(noReason.json().error.details[0]).toEqual({
      path: 'comment',
      message: 'Indique el motivo: es obligatorio para «Rechazar».',
      key: 'platform.transitionCommentRequired',
      params: { action: 'Rechazar' },
    });
    const approve = await t.request({
      method: 'POST',
      url: `/api/cui-approvals/${id}/transitions`,
      token: checker.token,
      payload: { to: 'APROBADO' },
    });
    expect(approve.json()).toMatchObject({ state: 'APROBADO', kind: 'CAMBIO', currentCui: c.cui, proposedCui: changed });
    const got = await t.request({ method: 'GET', url: `/api/contributors/${c.id}`, token: admin.token });
    expect(got.json()).toMatchObject({ cui: changed, cuiState: 'APROBADO' });

    const list = await t.request({ method: 'GET', url: `/api/cui-approvals?contributorId=${c.id}`, token: checker.token });
    expect(list.json().total).toBe(2);
  });

  it('marks the CUI RECHAZADO when a new contributor is rejected', async () => {
    const checker = await t.createUser({
      grants: [
        { resource: 'cui-approval', action: 'APPROVE', scope: 'ALL' },
        { resource: 'cui-approval', action: 'READ', scope: 'ALL' },
      ],
    });
    const c = (await create(admin.token, body())).json().contributor;
    const list = await t.request({
      method: 'GET',
      url: `/api/cui-approvals?state=PENDIENTE&contributorId=${c.id}`,
      token: checker.token,
    });
    const id = list.json().items[0].id;
    const res = await t.request({
      method: 'POST',
      url: `/api/cui-approvals/${id}/transitions`,
      token: checker.token,
      payload: { to: 'RECHAZADO', comment: 'No coincide con el DPI' },
    });
    expect(res.json()).toMatchObject({ state: 'RECHAZADO', reason: 'No coincide con el DPI' });
    const got = await t.request({ method: 'GET', url: `/api/contributors/${c.id}`, token: admin.token });
    expect(got.json().cuiState).toBe('RECHAZADO');
  });
});

describe('RENAP', () => {
  it('looks a CUI up on the RENAP screen, says whether a contributor has it, and lists the log', async () => {
    const c = (await create(admin.token, body())).json().contributor;
    const res = await t.request({ method: 'GET', url: `/api/renap/${c.cui}`, token: admin.token });
    expect(res.json()).toMatchObject({ result: 'NO_ENCONTRADO', contributor: { id: c.id } });
    const log = await t.request({ method: 'GET', url: `/api/renap/lookups?cui=${c.cui}`, token: admin.token });
    expect(log.json().total).toBeGreaterThanOrEqual(2);
    expect(log.json().items[0]).toMatchObject({ cui: c.cui, userEmail: admin.email });
  });

  describe('HTTP adapter', () => {
    let server: Server;
    let http: TestApp;
    let user: TestUser;
    let mode: 'ok' | 'hang' | 'down' = 'ok';
    let calls = 0;
    beforeAll(async () => {
      server = createServer((req, res) => {
        calls += 1;
        if (mode === 'hang') return; // never answers
        if (mode === 'down') {
          res.writeHead(503).end();
          return;
        }
        if (req.headers.authorization !== 'Bearer secreto') {
          res.writeHead(401).end();
          return;
        }
        const cui = req.url?.split('/').pop();
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ cui, firstName: 'PEDRO', firstSurname: 'CHOC', birthDate: '1980-01-02', sex: 'M' }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as AddressInfo).port;
      http = await createTestApp({
        RENAP_URL: `http://127.0.0.1:${port}/renap`,
        RENAP_TOKEN: 'secreto',
        RENAP_TIMEOUT_MS: '200',
        RENAP_RETRIES: '1',
      });
      user = await http.createUser({ system: true });
    });
    afterAll(async () => {
      await http.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });

    it('reads the person from the service with the credential', async () => {
      mode = 'ok';
      const res = await http.request({ method: 'GET', url: `/api/renap/${newCui()}`, token: user.token });
      expect(res.json()).toMatchObject({ result: 'ENCONTRADO', person: { firstName: 'PEDRO', firstSurname: 'CHOC' } });
    });

    it('times out with a Spanish warning, retries, logs, and still lets the contributor be saved', async () => {
      mode = 'hang';
      calls = 0;
      const res = await http.request({ method: 'GET', url: `/api/renap/${newCui()}`, token: user.token });
      expect(res.json()).toMatchObject({ result: 'TIEMPO_AGOTADO', person: null });
      expect(res.json().warning).toMatch(/RENAP no respondió a tiempo/);
      expect(calls).toBe(2);
      const f = await contributorFixtures(http.database.db);
      const saved = await http.request({
        method: 'POST',
        url: '/api/contributors',
        token: user.token,
        payload: { ...body(), typeId: f.typeId, entityId: f.entityA.id, municipalityId: f.municipality.id },
      });
      expect(saved.statusCode).toBe(201);
      expect(saved.json().contributor.renapResult).toBe('SIN_RESPUESTA');
      expect(saved.json().warnings[0]).toMatch(/Puede guardar/);
      const logs = await http.database.db.select().from(renapLookups);
      expect(logs.filter((l) => l.result === 'TIEMPO_AGOTADO' && l.source === 'http')).toHaveLength(2);
    });

    it('reports an outage as unavailable', async () => {
      mode = 'down';
      const res = await http.request({ method: 'GET', url: `/api/renap/${newCui()}`, token: user.token });
      expect(res.json()).toMatchObject({ result: 'NO_DISPONIBLE' });
      expect(res.json().warning).toMatch(/RENAP no está disponible/);
    });
  });
});
