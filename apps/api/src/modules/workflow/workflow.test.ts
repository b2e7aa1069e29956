import { type FlowDefinition, FORM_DEFINITION_FORMAT, type FormField } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, pensions, userRoles } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { multipartBody, samplePdf } from '../../test/pdfs.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

let t: TestApp;
let admin: TestUser;
let clerk: TestUser;
let reviewer: TestUser;
let approver: TestUser;
let outsider: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
let reviewerRole: number;
let approverRole: number;

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin.token) =>
  t.request({ method, url, payload: payload as never, token });

const roleOf = async (u: TestUser) =>
  (await t.database.db.select({ id: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, u.id)))[0].id;

const fields: FormField[] = [
  { name: 'datos', label: 'Datos del trámite', type: 'section' },
  { name: 'cui', label: 'CUI del afiliado', type: 'cui', required: true },
  { name: 'monto', label: 'Monto solicitado', type: 'money', required: true },
  { name: 'fecha', label: 'Fecha de solicitud', type: 'date' },
  {
    name: 'tipo',
    label: 'Tipo',
    type: 'select',
    required: true,
    options: [
      { value: 'A', label: 'Uno' },
      { value: 'B', label: 'Dos' },
    ],
  },
  { name: 'motivo', label: 'Motivo del tipo B', type: 'text', required: true, visibleIf: { field: 'tipo', equals: 'B' } },
  { name: 'depto', label: 'Departamento', type: 'select', catalog: 'departments' },
  {
    name: 'hijos',
    label: 'Hijos',
    type: 'table',
    columns: [
      { name: 'nombre', label: 'Nombre', type: 'text', required: true },
      { name: 'edad', label: 'Edad', type: 'number', min: 0, max: 30 },
    ],
  },
];

const flowDef = (over: Partial<FlowDefinition> = {}): FlowDefinition => ({
  initial: 'RECIBIDA',
  states: [
    { key: 'RECIBIDA', label: 'Recibida', editable: true },
    { key: 'OBSERVADA', label: 'Observada', editable: true, slaDays: 3 },
    { key: 'APROBADA', label: 'Aprobada' },
  ],
  transitions: [
    { key: 'OBSERVAR', from: 'RECIBIDA', to: 'OBSERVADA', label: 'Observar', roleId: reviewerRole, commentRequired: true },
    { key: 'CORREGIR', from: 'OBSERVADA', to: 'RECIBIDA', label: 'Corregir y reenviar', requester: true },
    {
      key: 'APROBAR',
      from: 'RECIBIDA',
      to: 'APROBADA',
      label: 'Aprobar',
      roleId: approverRole,
      condition: { field: 'tipo', op: 'eq', value: 'A' },
      action: { kind: 'notify', message: 'Su solicitud fue aprobada.' },
    },
  ],
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  clerk = await t.createUser({
    grants: [
      { resource: 'sig-items', action: 'READ', scope: 'ENTITY' },
      { resource: 'sig-items', action: 'CREATE', scope: 'ENTITY' },
      { resource: 'sig-items', action: 'UPDATE', scope: 'ENTITY' },
    ],
  });
  await attachUserToEntity(t.database.db, clerk.id, fx.entityA.id);
  reviewer = await t.createUser({
    grants: [
      { resource: 'sig-items', action: 'READ', scope: 'ALL' },
      { resource: 'sig-items', action: 'UPDATE', scope: 'ALL' },
      { resource: 'sig-query', action: 'READ', scope: 'ALL' },
    ],
  });
  approver = await t.createUser({
    grants: [
      { resource: 'sig-items', action: 'READ', scope: 'ALL' },
      { resource: 'sig-items', action: 'UPDATE', scope: 'ALL' },
      { resource: 'passive-classes', action: 'CREATE', scope: 'ALL' },
      { resource: 'passive-classes', action: 'READ', scope: 'ALL' },
    ],
  });
  outsider = await t.createUser({
    grants: [
      { resource: 'sig-items', action: 'READ', scope: 'ALL' },
      { resource: 'sig-items', action: 'UPDATE', scope: 'ALL' },
    ],
  });
  reviewerRole = await roleOf(reviewer);
  approverRole = await roleOf(approver);
}, 60_000);
afterAll(() => t.close());

async function publishedForm(title = 'Trámite de prueba') {
  const res = await req('POST', '/api/wf/forms', { title, fields });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  const pub = await req('POST', `/api/wf/forms/${id}/versions/1/publish`);
  expect(pub.statusCode, pub.body).toBe(200);
  return id;
}

async function publishedFlow(formId: number, def = flowDef()) {
  const res = await req('POST', '/api/wf/flows', { title: `Flujo ${formId}`, formId, definition: def });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  const pub = await req('POST', `/api/wf/flows/${id}/versions/1/publish`);
  expect(pub.statusCode, pub.body).toBe(200);
  return id;
}

const goodData = {
  cui: '1587564440904',
  monto: 'Q 1,500.5',
  fecha: '2026-03-01',
  tipo: 'B',
  motivo: 'Revisión',
  hijos: [{ nombre: 'Ana', edad: 7 }],
};

describe('forms', () => {
  it('compiles the builder fields into JSON Schema, publishes, and a save after publishing opens version 2', async () => {
    const id = await publishedForm();
    const detail = (await req('GET', `/api/wf/forms/${id}`)).json();
    expect(detail.publishedVersion).toBe(1);
    const v1 = detail.versions[0];
    expect(v1.schema.properties.monto).toMatchObject({ type: 'string', format: 'money' });
    expect(v1.schema.required).toEqual(['cui', 'monto', 'tipo']);
    expect(v1.uiSchema['ui:options'].sections[0]).toEqual({ before: 'cui', title: 'Datos del trámite' });
    const saved = await req('PUT', `/api/wf/forms/${id}`, { title: 'Trámite de prueba', fields: fields.slice(0, 3) });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().versions.map((v: { version: number; state: string }) => [v.version, v.state])).toEqual([
      [2, 'BORRADOR'],
      [1, 'PUBLICADA'],
    ]);
    const again = await req('POST', `/api/wf/forms/${id}/versions/1/publish`);
    expect(again.statusCode).toBe(409);
    const retire = await req('POST', `/api/wf/forms/${id}/versions/1/retire`);
    expect(retire.json().publishedVersion).toBeNull();
  });

  it('refuses a repeated field name, a condition on an unknown field and a definition that is not JSON Schema', async () => {
    const dup = await req('POST', '/api/wf/forms', {
      title: 'Malo',
      fields: [
        { name: 'a', label: 'A', type: 'text' },
        { name: 'a', label: 'Otra A', type: 'number' },
      ],
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.body).toContain('«a» está repetido');
    const cond = await req('POST', '/api/wf/forms', {
      title: 'Malo',
      fields: [{ name: 'b', label: 'B', type: 'text', visibleIf: { field: 'zz', equals: 'x' } }],
    });
    expect(cond.statusCode).toBe(400);
    expect(cond.body).toContain('campo anterior');
    const raw = await req('POST', '/api/wf/forms', {
      title: 'Raw',
      schema: { type: 'object', properties: { x: { type: 'cadena' } } },
    });
    expect(raw.statusCode).toBe(400);
    expect(raw.json().error.message).toContain('no es un JSON Schema válido');
    const rawOk = await req('POST', '/api/wf/forms', {
      title: 'Raw',
      schema: { type: 'object', properties: { x: { type: 'string', title: 'X' } } },
    });
    expect(rawOk.statusCode, rawOk.body).toBe(201);
    expect(FORM_DEFINITION_FORMAT).toBe('aporta-formulario');
  });

  it('forms need their permission to save', async () => {
    const res = await req('POST', '/api/wf/forms', { title: 'X', fields }, clerk.token);
    expect(res.statusCode).toBe(403);
  });
});

describe('one state per form version: the save, the library and the detail agree', () => {
  type Row = { id: number; latestVersion: number; latestState: string; publishedVersion: number | null };
  const listed = async (id: number, query = '') =>
    ((await req('GET', `/api/wf/forms?pageSize=100${query}`)).json().items as Row[]).find((f) => f.id === id);

  it('a form saved after another was published is a draft everywhere; published, it is PUBLICADA everywhere', async () => {
    // Another form published first: its version row must not lend its state to the new one.
    await publishedForm('Publicado antes');
    const saved = await req('POST', '/api/wf/forms', { title: 'Borrador nuevo', fields: fields.slice(0, 3) });
    expect(saved.statusCode, saved.body).toBe(201);
    const answer = saved.json();
    expect([answer.latestVersion, answer.latestState, answer.publishedVersion]).toEqual([1, 'BORRADOR', null]);
    expect(answer.versions.map((v: { version: number; state: string }) => [v.version, v.state])).toEqual([[1, 'BORRADOR']]);
    const row = await listed(answer.id);
    expect(row).toMatchObject({ latestVersion: 1, latestState: 'BORRADOR', publishedVersion: null });
    const detail = (await req('GET', `/api/wf/forms/${answer.id}`)).json();
    expect([detail.latestState, detail.versions[0].state]).toEqual(['BORRADOR', 'BORRADOR']);
    // The state filter and its count name the same rows.
    const drafts = (await req('GET', '/api/wf/forms?pageSize=100&state=BORRADOR')).json();
    expect(drafts.items.map((f: Row) => f.id)).toContain(answer.id);
    expect(drafts.items.every((f: Row) => f.latestState === 'BORRADOR')).toBe(true);
    expect(drafts.total).toBe(drafts.items.length);
    expect(await listed(answer.id, '&state=PUBLICADA')).toBeUndefined();

    const pub = await req('POST', `/api/wf/forms/${answer.id}/versions/1/publish`);
    expect(pub.statusCode, pub.body).toBe(200);
    expect([pub.json().latestState, pub.json().publishedVersion, pub.json().versions[0].state]).toEqual([
      'PUBLICADA',
      1,
      'PUBLICADA',
    ]);
    expect(await listed(answer.id)).toMatchObject({ latestState: 'PUBLICADA', publishedVersion: 1 });
    expect(await listed(answer.id, '&state=PUBLICADA')).toBeDefined();
  });

  it('publish form → listed published → flow on it published → in the procedures of a clerk in scope', async () => {
    const created = await req('POST', '/api/wf/forms', { title: 'Trámite visible', fields });
    const formId = created.json().id as number;
    const options = async () =>
      (await req('GET', '/api/wf/flows/options')).json().forms.find((f: { id: number }) => f.id === formId);
    // The designer is told the form has no published version yet.
    expect(await options()).toMatchObject({ publishedVersion: null, latestVersion: 1, latestState: 'BORRADOR' });
    const flow = await req('POST', '/api/wf/flows', { title: 'Flujo visible', formId, definition: flowDef() });
    expect(flow.statusCode, flow.body).toBe(201);
    const flowId = flow.json().id as number;
    const procedures = async () =>
      ((await req('GET', '/api/sig/options', undefined, clerk.token)).json().flows as { id: number }[]).map((f) => f.id);
    // A draft flow is not offered; the flow's own detail says it is a draft with no published version.
    expect(flow.json()).toMatchObject({ latestState: 'BORRADOR', publishedVersion: null });
    expect(await procedures()).not.toContain(flowId);
    expect((await req('POST', `/api/wf/flows/${flowId}/versions/1/publish`)).statusCode).toBe(200);
    // Published flow on a draft form: still not offered, and the designer can tell why.
    expect(await procedures()).not.toContain(flowId);
    expect((await req('POST', `/api/wf/forms/${formId}/versions/1/publish`)).statusCode).toBe(200);
    expect(await listed(formId)).toMatchObject({ latestState: 'PUBLICADA', publishedVersion: 1 });
    expect(await options()).toMatchObject({ publishedVersion: 1, latestVersion: 1, latestState: 'PUBLICADA' });
    const flows = (await req('GET', '/api/wf/flows?pageSize=100')).json().items;
    expect(flows.find((f: { id: number }) => f.id === flowId)).toMatchObject({ latestState: 'PUBLICADA', publishedVersion: 1 });
    expect(await procedures()).toContain(flowId);
    // Offered with the published version's form (what the request is filled with).
    const offered = (await req('GET', '/api/sig/options', undefined, clerk.token))
      .json()
      .flows.find((f: { id: number }) => f.id === flowId);
    expect(Object.keys(offered.schema.properties)).toContain('monto');
  });
});

describe('flows', () => {
  it('refuses to publish a flow with an orphan state or without a final state, naming them', async () => {
    const formId = await publishedForm('Para flujos');
    const orphan = flowDef({ states: [...flowDef().states, { key: 'PERDIDA', label: 'Perdida' }] });
    const created = await req('POST', '/api/wf/flows', { title: 'Con huérfano', formId, definition: orphan });
    expect(created.statusCode, created.body).toBe(201);
    const pub = await req('POST', `/api/wf/flows/${created.json().id}/versions/1/publish`);
    expect(pub.statusCode).toBe(400);
    expect(pub.json().error.message).toContain('«Perdida» no se alcanza');
    expect(pub.json().error.key).toBe('workflow.flowNotPublishable');
    expect(pub.json().error.details).toContainEqual(
      expect.objectContaining({ path: 'states', key: 'workflow.stateOrphan', params: { state: 'Perdida' } }),
    );
    const loop = flowDef({
      transitions: [
        { key: 'IR', from: 'RECIBIDA', to: 'OBSERVADA', label: 'Ir', roleId: reviewerRole },
        { key: 'VOLVER', from: 'OBSERVADA', to: 'RECIBIDA', label: 'Volver', requester: true },
        { key: 'CERRAR', from: 'OBSERVADA', to: 'APROBADA', label: 'Cerrar', roleId: reviewerRole },
        { key: 'REABRIR', from: 'APROBADA', to: 'RECIBIDA', label: 'Reabrir', roleId: reviewerRole },
      ],
    });
    const v = await req('POST', '/api/wf/flows/validate', { formId, definition: loop });
    expect(v.json().problems.map((p: { message: string }) => p.message)).toContain(
      'El flujo no tiene estado final: de todo estado sale alguna transición.',
    );
    const badCond = await req('POST', '/api/wf/flows/validate', {
      formId,
      definition: flowDef({
        transitions: [
          {
            key: 'A',
            from: 'RECIBIDA',
            to: 'APROBADA',
            label: 'A',
            roleId: reviewerRole,
            condition: { field: 'nada', op: 'filled' },
          },
        ],
        states: flowDef().states.filter((s) => s.key !== 'OBSERVADA'),
      }),
    });
    expect(badCond.json().problems[0].message).toContain('campo que el formulario no tiene');
    expect(badCond.json().problems[0]).toMatchObject({
      key: 'workflow.conditionFieldMissing',
      params: { label: 'A', field: 'nada' },
    });
  });
});

describe('requests', () => {
  let flowId: number;
  let id: number;

  beforeAll(async () => {
    flowId = await publishedFlow(await publishedForm('Trámite con solicitudes'));
  });

  it('the server validates the data against the form, naming each field', async () => {
    const res = await req(
      'POST',
      '/api/sig/items',
      {
        flowId,
        entityId: fx.entityA.id,
        data: { cui: '1680352240101', monto: '12,34', tipo: 'B', hijos: [{ edad: 40 }], extra: 1 },
      },
      clerk.token,
    );
    expect(res.statusCode).toBe(400);
    const paths = res.json().error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['data.cui', 'data.monto', 'data.motivo', 'data.hijos.0.nombre', 'data.hijos.0.edad']),
    );
    expect(res.body).toContain('CUI del afiliado');
    const badCatalog = await req(
      'POST',
      '/api/sig/items',
      { flowId, entityId: fx.entityA.id, data: { ...goodData, depto: '99' } },
      clerk.token,
    );
    expect(badCatalog.statusCode).toBe(400);
    expect(badCatalog.body).toContain('no está en el catálogo');
    const otherEntity = await req('POST', '/api/sig/items', { flowId, entityId: fx.entityB.id, data: goodData }, clerk.token);
    expect(otherEntity.statusCode).toBe(400);
    expect(otherEntity.json().error.details[0].path).toBe('entityId');
  });

  it('a clerk files, the reviewer observes, the clerk corrects, the approver approves', async () => {
    const created = await req(
      'POST',
      '/api/sig/items',
      { flowId, entityId: fx.entityA.id, data: { ...goodData, depto: '01' } },
      clerk.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const r = created.json();
    id = r.id;
    expect(r.number).toMatch(/^SIG-\d{4}-\d{6}$/);
    expect(r.state).toBe('RECIBIDA');
    expect(r.data.monto).toBe('1500.50');
    expect(r.editable).toBe(true);
    expect(r.expected.map((e: { role: string; users: string[] }) => e.users.length)).toEqual([1, 1]);
    // The reviewer was notified of the assignment and sees it in the home queue.
    const queues = (await req('GET', '/api/home/queues', undefined, reviewer.token)).json().items;
    expect(queues.find((q: { id: string }) => q.id === 'sig-requests-waiting').count).toBe(1);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, reviewer.id));
    expect(notes.map((n) => n.title).join()).toContain(r.number);

    // The clerk cannot take the reviewer's transition; someone without the role neither.
    expect(
      (await req('POST', `/api/sig/items/${id}/transitions`, { to: 'OBSERVADA', comment: 'x' }, clerk.token)).statusCode,
    ).toBe(403);
    const noRole = await req('POST', `/api/sig/items/${id}/transitions`, { to: 'OBSERVADA', comment: 'x' }, outsider.token);
    expect(noRole.statusCode).toBe(403);
    expect(noRole.json().error.message).toContain('lo toma el rol');
    // Approving needs tipo = A: the condition is not met.
    const cond = await req('POST', `/api/sig/items/${id}/transitions`, { to: 'APROBADA' }, approver.token);
    expect(cond.statusCode).toBe(409);
    expect(cond.json().error.message).toContain('tipo es igual a A');
    expect(cond.json().error).toMatchObject({ key: 'workflow.conditionRequiresEq', params: { field: 'tipo', value: 'A' } });
    const reviewerView = (await req('GET', `/api/sig/items/${id}`, undefined, reviewer.token)).json();
    expect(reviewerView.transitions.map((x: { to: string }) => x.to)).toEqual(['OBSERVADA']);
    // Observing needs a comment.
    const noComment = await req('POST', `/api/sig/items/${id}/transitions`, { to: 'OBSERVADA' }, reviewer.token);
    expect(noComment.statusCode).toBe(400);
    const observed = await req(
      'POST',
      `/api/sig/items/${id}/transitions`,
      { to: 'OBSERVADA', comment: 'Falta tipo A', expected: 'RECIBIDA' },
      reviewer.token,
    );
    expect(observed.statusCode, observed.body).toBe(200);
    expect(observed.json().dueAt).not.toBeNull();
    // The clerk corrects the data (server validates again) and sends it back.
    const bad = await req('PUT', `/api/sig/items/${id}`, { data: { ...goodData, tipo: 'C' } }, clerk.token);
    expect(bad.statusCode).toBe(400);
    const fixed = await req(
      'PUT',
      `/api/sig/items/${id}`,
      { data: { ...goodData, tipo: 'A' }, expected: 'OBSERVADA' },
      clerk.token,
    );
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().data.motivo).toBeUndefined();
    const back = await req('POST', `/api/sig/items/${id}/transitions`, { to: 'RECIBIDA' }, clerk.token);
    expect(back.statusCode, back.body).toBe(200);
    const comment = await req('POST', `/api/sig/items/${id}/comments`, { comment: 'Corregido el tipo.' }, clerk.token);
    expect(comment.statusCode).toBe(200);
    const approved = await req(
      'POST',
      `/api/sig/items/${id}/transitions`,
      { to: 'APROBADA', comment: 'Conforme' },
      approver.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const done = approved.json();
    expect(done.final).toBe(true);
    expect(done.transitions).toEqual([]);
    expect(done.timeline.map((e: { kind: string }) => e.kind)).toEqual([
      'CREATED',
      'TRANSITION',
      'TRANSITION',
      'COMMENT',
      'TRANSITION',
    ]);
    const clerkNotes = await t.database.db.select().from(notifications).where(eq(notifications.userId, clerk.id));
    expect(clerkNotes.map((n) => n.body)).toContain('Su solicitud fue aprobada.');
    // Editing a closed request is refused.
    expect((await req('PUT', `/api/sig/items/${id}`, { data: goodData }, clerk.token)).statusCode).toBe(409);
  });

  it('Consulta SIG finds the request, counts by state and exports; scope keeps others out', async () => {
    const found = await req(
      'GET',
      `/api/sig/query?q=${encodeURIComponent(`SIG-`)}&flowId=${flowId}&state=APROBADA`,
      undefined,
      reviewer.token,
    );
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().items.map((x: { id: number }) => x.id)).toEqual([id]);
    const counts = (await req('GET', `/api/sig/query/counts?flowId=${flowId}`, undefined, reviewer.token)).json().items;
    expect(counts).toEqual([expect.objectContaining({ state: 'APROBADA', stateLabel: 'Aprobada', count: 1, overdue: 0 })]);
    const csv = await req('GET', `/api/sig/query/export?format=csv&flowId=${flowId}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Aprobada');
    expect((await req('GET', '/api/sig/query', undefined, clerk.token)).statusCode).toBe(403);
    // A clerk of another entity does not see it.
    const other = await t.createUser({ grants: [{ resource: 'sig-items', action: 'READ', scope: 'ENTITY' }] });
    await attachUserToEntity(t.database.db, other.id, fx.entityB.id);
    expect((await req('GET', `/api/sig/items/${id}`, undefined, other.token)).statusCode).toBe(404);
  });

  it('publishing a version that removes a state holding requests is refused with the list', async () => {
    const open = await req('POST', '/api/sig/items', { flowId, entityId: fx.entityA.id, data: goodData }, clerk.token);
    const openId = open.json().id;
    await req('POST', `/api/sig/items/${openId}/transitions`, { to: 'OBSERVADA', comment: 'Ver' }, reviewer.token);
    const def = flowDef({
      states: flowDef().states.filter((s) => s.key !== 'OBSERVADA'),
      transitions: flowDef().transitions.filter((x) => x.key === 'APROBAR'),
    });
    const flow = (await req('GET', `/api/wf/flows/${flowId}`)).json();
    const saved = await req('PUT', `/api/wf/flows/${flowId}`, { title: flow.title, formId: flow.formId, definition: def });
    expect(saved.json().versions[0]).toMatchObject({ version: 2, state: 'BORRADOR' });
    const pub = await req('POST', `/api/wf/flows/${flowId}/versions/2/publish`);
    expect(pub.statusCode).toBe(409);
    expect(pub.json().error.message).toContain(`${open.json().number} (OBSERVADA)`);
    expect(pub.json().error).toMatchObject({ key: 'workflow.flowStatesInUse', params: { version: 2 } });
    // Keeping the state publishes and moves the open request onto version 2.
    const keep = flowDef({ states: flowDef().states.map((s) => (s.key === 'APROBADA' ? { ...s, label: 'Aprobada (v2)' } : s)) });
    await req('PUT', `/api/wf/flows/${flowId}`, { title: flow.title, formId: flow.formId, definition: keep });
    const ok = await req('POST', `/api/wf/flows/${flowId}/versions/2/publish`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await req('GET', `/api/sig/items/${openId}`)).json().flowVersion).toBe(2);
  });
});

describe('the jubilación flow', () => {
  it("its final transition creates the pension through the pensions module's action", async () => {
    const contributor = await req('POST', '/api/contributors', {
      cui: newCui(),
      firstName: 'Rosa',
      firstSurname: 'Jubilada',
      birthDate: '1958-03-10',
      sex: 'F',
      typeId: fx.typeId,
      entityId: fx.entityA.id,
    });
    expect(contributor.statusCode, contributor.body).toBe(201);
    const cui = contributor.json().contributor.cui as string;
    const form = await req('POST', '/api/wf/forms', {
      title: 'Jubilación (prueba)',
      fields: [
        { name: 'cui', label: 'CUI', type: 'cui', required: true },
        { name: 'fechaInicio', label: 'Inicio', type: 'date', required: true },
        { name: 'montoMensual', label: 'Monto mensual', type: 'money', required: true },
        { name: 'cuentaBancaria', label: 'Cuenta', type: 'text', required: true },
      ],
    });
    const formId = form.json().id;
    await req('POST', `/api/wf/forms/${formId}/versions/1/publish`);
    const flowId = await publishedFlow(formId, {
      initial: 'RESOLUCION',
      states: [
        { key: 'RESOLUCION', label: 'Resolución' },
        { key: 'RESUELTA', label: 'Resuelta' },
      ],
      transitions: [
        {
          key: 'APROBAR',
          from: 'RESOLUCION',
          to: 'RESUELTA',
          label: 'Aprobar',
          roleId: approverRole,
          action: { kind: 'module', module: 'create-pension' },
        },
      ],
    });
    const r = await req('POST', '/api/sig/items', {
      flowId,
      entityId: fx.entityA.id,
      data: { cui, fechaInicio: '2026-01-01', montoMensual: '2,500.00', cuentaBancaria: '3010-555555-1' },
    });
    expect(r.statusCode, r.body).toBe(201);
    // Someone without the role cannot take it; the request stays where it was.
    const noPerm = await req('POST', `/api/sig/items/${r.json().id}/transitions`, { to: 'RESUELTA' }, reviewer.token);
    expect(noPerm.statusCode).toBe(403);
    const done = await req('POST', `/api/sig/items/${r.json().id}/transitions`, { to: 'RESUELTA' }, approver.token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().result.link).toMatch(/^\/contributors\/passive-classes\/\d+$/);
    const [p] = await t.database.db.select().from(pensions).where(eq(pensions.cui, cui));
    expect(p).toMatchObject({ type: 'JUBILACION', resolutionNumber: r.json().number, entityId: fx.entityA.id });
    // A second approval cannot happen: the request is closed.
    expect((await req('POST', `/api/sig/items/${r.json().id}/transitions`, { to: 'RESUELTA' }, approver.token)).statusCode).toBe(
      409,
    );
  });
});

describe('file fields', () => {
  it("a file field's upload becomes the request's document: named on the request, downloadable within scope only", async () => {
    const form = await req('POST', '/api/wf/forms', {
      title: 'Trámite con archivo',
      fields: [
        { name: 'motivo', label: 'Motivo', type: 'text', required: true },
        { name: 'soporte', label: 'Documento de soporte', type: 'file', required: true },
      ],
    });
    expect(form.statusCode, form.body).toBe(201);
    const formId = form.json().id as number;
    expect((await req('POST', `/api/wf/forms/${formId}/versions/1/publish`)).statusCode).toBe(200);
    const flowId = await publishedFlow(formId, {
      initial: 'RECIBIDA',
      states: [
        { key: 'RECIBIDA', label: 'Recibida', editable: true },
        { key: 'CERRADA', label: 'Cerrada' },
      ],
      transitions: [{ key: 'CERRAR', from: 'RECIBIDA', to: 'CERRADA', label: 'Cerrar', roleId: reviewerRole }],
    });
    const pdf = await samplePdf('Constancia de soporte');
    const upload = async (user: TestUser, name: string) => {
      const body = multipartBody({}, { name, bytes: pdf });
      const res = await t.request({ method: 'POST', url: '/api/sig/uploads', token: user.token, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { documentId: number; filename: string };
    };
    const mine = await upload(clerk, 'soporte-clerk.pdf');
    expect(mine.filename).toBe('soporte-clerk.pdf');

    // Another user cannot name the clerk's upload in a request of theirs.
    const stranger = await t.createUser({
      grants: [
        { resource: 'sig-items', action: 'READ', scope: 'ALL' },
        { resource: 'sig-items', action: 'CREATE', scope: 'ALL' },
      ],
    });
    const stolen = await req(
      'POST',
      '/api/sig/items',
      { flowId, entityId: fx.entityA.id, data: { motivo: 'x', soporte: mine.documentId } },
      stranger.token,
    );
    expect(stolen.statusCode, stolen.body).toBe(400);
    expect(stolen.json().error.details[0].path).toBe('data.soporte');

    const created = await req(
      'POST',
      '/api/sig/items',
      { flowId, entityId: fx.entityA.id, data: { motivo: 'Permiso', soporte: mine.documentId } },
      clerk.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const r = created.json();
    expect(r.files).toEqual([{ field: 'soporte', documentId: mine.documentId, filename: 'soporte-clerk.pdf' }]);

    const url = `/api/sig/items/${r.id}/documents/${mine.documentId}`;
    // The clerk (ENTITY scope, the request's entity) and the reviewer (ALL) download the same bytes.
    for (const user of [clerk, reviewer]) {
      const res = await req('GET', url, undefined, user.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('application/pdf');
      expect(res.headers['content-disposition']).toContain('soporte-clerk.pdf');
      expect(Buffer.compare(res.rawPayload, pdf)).toBe(0);
    }
    // A clerk of another entity reaches neither the request nor its file.
    const other = await t.createUser({ grants: [{ resource: 'sig-items', action: 'READ', scope: 'ENTITY' }] });
    await attachUserToEntity(t.database.db, other.id, fx.entityB.id);
    expect((await req('GET', url, undefined, other.token)).statusCode).toBe(404);
    // The file belongs to this request only: asked through another request, it is not found.
    const second = await upload(clerk, 'otro.pdf');
    const another = await req(
      'POST',
      '/api/sig/items',
      { flowId, entityId: fx.entityA.id, data: { motivo: 'Otro', soporte: second.documentId } },
      clerk.token,
    );
    expect(another.statusCode, another.body).toBe(201);
    expect((await req('GET', `/api/sig/items/${another.json().id}/documents/${mine.documentId}`)).statusCode).toBe(404);

    // Correcting the data with a new upload: the request names the new file.
    const replacement = await upload(clerk, 'soporte-corregido.pdf');
    const fixed = await req(
      'PUT',
      `/api/sig/items/${r.id}`,
      { data: { motivo: 'Permiso', soporte: replacement.documentId } },
      clerk.token,
    );
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().files).toEqual([
      { field: 'soporte', documentId: replacement.documentId, filename: 'soporte-corregido.pdf' },
    ]);
    expect(
      (await req('GET', `/api/sig/items/${r.id}/documents/${replacement.documentId}`, undefined, clerk.token)).statusCode,
    ).toBe(200);
  });
});
