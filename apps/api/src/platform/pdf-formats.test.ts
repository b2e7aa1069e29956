import { addDays, type FlowDefinition, type FormField, guatemalaToday, periodOf } from '@aporta/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banks, documents, userRoles } from '../db/schema/index.ts';
import { contributorFixtures, newCui } from '../modules/contributors/fixtures.ts';
import { insertOrder } from '../modules/payments/orders.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { multipartBody, samplePdf } from '../test/pdfs.ts';
import { hasPoppler, pdfPages, popplerMissing } from '../test/poppler.ts';
import { systemContext } from './context.ts';

// Issue 28: no PDF the product issues prints a raw number, an ISO date, a period as aaaa-mm, a UTC ISO
// timestamp or a currency code. Each kind of PDF is produced here as a user would get it and read back
// from outside with pdftotext; what a reader sees is checked against the patterns below.

/** What must never be printed, each with why. Precise enough that references, CUIs and codes pass. */
const forbidden: [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, 'una marca de tiempo ISO'],
  [/\b\d{4}-\d{2}-\d{2}\b/, 'una fecha ISO (aaaa-mm-dd)'],
  [/(?<![\d-])\d{4}-(0[1-9]|1[0-2])(?![\d-])/, 'un período aaaa-mm'],
  [/(?<![\d,.])\d{4,}\.\d{2}(?!\d)/, 'un monto ≥ 1,000 sin separador de miles'],
  [/(?<![\d,.])\d{1,3}(\.\d{3})+,\d{2}(?!\d)/, 'un monto con coma decimal'],
  [/\bGTQ\b/, 'el código de moneda GTQ'],
  [/\bUTC\b/, 'una hora en UTC'],
];

/** The offences in `text`, each with the line it is on. */
function offences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n'))
    for (const [re, why] of forbidden) {
      const m = re.exec(line);
      if (m) out.push(`${why}: «${m[0]}» en «${line.trim()}»`);
    }
  return out;
}

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
const today = guatemalaToday();
/** Each PDF read back, by what it is. */
const texts = new Map<string, string>();

const req = (method: 'GET' | 'POST', url: string, payload?: unknown, token = admin.token) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

async function pdfText(url: string, token = admin.token): Promise<string> {
  const res = await req('GET', url, undefined, token);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return pdfPages(res.rawPayload).join('\n');
}

describe.skipIf(!hasPoppler)(`every PDF the product issues, read back${hasPoppler ? '' : ` (${popplerMissing})`}`, () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser({ system: true });
    fx = await contributorFixtures(t.database.db);
  }, 60_000);
  afterAll(() => t?.close());

  it('the patterns catch what they must and let references, CUIs and codes pass', () => {
    for (const bad of [
      '2026-11-21',
      'Período: 2026-11',
      '2026-11-21T15:04:05.000Z',
      'Monto 12576.10',
      '1.234,50',
      'GTQ 10.00',
      '21:04:05 UTC',
    ])
      expect(offences(bad), bad).not.toEqual([]);
    for (const good of [
      'Referencia: 2611 0000 1234 5678 901',
      '26110000123456789 01',
      'CUI 1587 56444 0904',
      'Código de verificación: 7K2M-0012-2026-1130',
      'Convenio CP-2026-000123',
      'Q 12,576.10 · 10/2026 · 21/11/2026 15:04',
      'Cuenta 3010-123456-7',
      'SHA-256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'Total 950.00',
    ])
      expect(offences(good), good).toEqual([]);
  });

  it('payment order and 7-B receipt', async () => {
    const order = await insertOrder(systemContext(t.database.db), t.database.db, {
      kind: 'LABORAL',
      entityId: fx.entityA.id,
      period: '2026-10',
      principal: 1_234_550n,
      issueDate: today,
      dueDate: addDays(today, 15),
    });
    const orderText = await pdfText(`/api/payment-orders/${order.id}/pdf`);
    // A document, not a list: its own data, money as Q 1,234.50, the period mm/aaaa.
    expect(orderText).not.toContain('Filtros:');
    expect(orderText.replace(/\s+/g, ' ')).toContain('Período: 10/2026');
    expect(orderText).toContain('Q 12,345.50');
    texts.set('orden de pago', orderText);
    const rng = await req('POST', '/api/receipt-ranges', {
      office: 'FORMATOS',
      series: 'F',
      firstNumber: 1,
      lastNumber: 50,
      authorizationRef: 'Res. formatos',
      authorizationDate: '2024-01-02',
    });
    expect(rng.statusCode, rng.body).toBe(201);
    const [bank] = await t.database.db.select().from(banks).where(eq(banks.code, 'BANRURAL'));
    const p = await req('POST', '/api/payments', {
      idempotencyKey: `fmt-${Date.now()}`,
      orderIds: [order.id],
      bankId: bank.id,
      payDate: today,
      bankReference: `FMT-${Date.now()}`,
      amount: '5000.00',
      office: 'FORMATOS',
    });
    expect(p.statusCode, p.body).toBe(201);
    texts.set('recibo 7-B', await pdfText(`/api/receipts/${p.json().payment.receipt.id}/pdf`));
    // The order partly paid: its account statement has every kind of amount.
    texts.set('orden de pago (abonada)', await pdfText(`/api/payment-orders/${order.id}/pdf`));
  });

  it('agreement, account statement (a list exported as PDF) and solvency certificate', async () => {
    const own = await contributorFixtures(t.database.db);
    const ctx = systemContext(t.database.db);
    for (const period of ['2024-01', '2024-02'])
      for (const kind of ['LABORAL', 'PATRONAL'] as const)
        await insertOrder(ctx, t.database.db, {
          kind,
          entityId: own.entityA.id,
          period,
          principal: 1_234_567n,
          issueDate: `${period}-28`,
        });
    const debt = await req('GET', `/api/payment-agreements/debt?entityId=${own.entityA.id}`);
    expect(debt.statusCode, debt.body).toBe(200);
    const ag = await req('POST', '/api/payment-agreements', {
      entityId: own.entityA.id,
      downPayment: debt.json().minDownPayment,
      instalments: 4,
      firstDueDate: addDays(today, 30),
    });
    expect(ag.statusCode, ag.body).toBe(201);
    texts.set('convenio', await pdfText(`/api/payment-agreements/${ag.json().id}/pdf`));
    texts.set('estado de cuenta', await pdfText(`/api/financial/statement/export?entityId=${own.entityA.id}&format=pdf`));
    const cert = await req('POST', '/api/financial/certificates', { entityId: own.entityB.id });
    expect(cert.statusCode, cert.body).toBe(201);
    texts.set('certificado de solvencia', await pdfText(`/api/financial/certificates/${cert.json().id}/pdf`));
  });

  it('survival letter and pension payroll summary', async () => {
    const c = await req('POST', '/api/contributors', {
      cui: newCui(),
      firstName: 'Rosa',
      firstSurname: 'Formato',
      birthDate: '1955-03-10',
      sex: 'F',
      typeId: fx.typeId,
      entityId: fx.entityA.id,
    });
    expect(c.statusCode, c.body).toBe(201);
    const p = await req('POST', '/api/pensions', {
      cui: c.json().contributor.cui,
      type: 'JUBILACION',
      resolutionNumber: 'RES-2020-001',
      resolutionDate: '2020-01-10',
      startDate: '2020-02-01',
      monthlyAmount: '3,100.00',
      bankAccount: '3010-123456-7',
    });
    expect(p.statusCode, p.body).toBe(201);
    texts.set('carta de supervivencia', await pdfText(`/api/pensions/${p.json().id}/survival-letter`));
    const period = periodOf(today);
    const gen = await req('POST', `/api/pension-payrolls/${period}/generate`);
    expect(gen.statusCode, gen.body).toBe(200);
    texts.set('resumen de planilla de pensiones', await pdfText(`/api/pension-payrolls/${period}/summary`));
  });

  it("signed document's signature record page", async () => {
    const signer = await t.createUser({
      grants: [
        { resource: 'signing-pending', action: 'READ', scope: 'ALL' },
        { resource: 'signing-pending', action: 'SIGN', scope: 'ALL' },
        { resource: 'signing-signed', action: 'READ', scope: 'ALL' },
      ],
    });
    const pass = 'frase de formato 2026';
    const cert = await req('POST', '/api/signing/certificates', { userId: signer.id, passphrase: pass, position: 'Gerente' });
    expect(cert.statusCode, cert.body).toBe(201);
    const body = multipartBody(
      { title: 'Resolución de formatos', signers: `${signer.id}` },
      { name: 'resolucion.pdf', bytes: await samplePdf('Resolución de formatos') },
    );
    const up = await t.request({
      method: 'POST',
      url: '/api/signing/requests',
      token: admin.token,
      payload: body.payload,
      headers: body.headers,
    });
    expect(up.statusCode, up.body).toBe(201);
    const id = up.json().id as number;
    if (up.json().state !== 'PENDIENTE') expect((await req('POST', `/api/signing/requests/${id}/send`)).statusCode).toBe(200);
    const before = await req('GET', `/api/signing/requests/${id}/pdf`, undefined, signer.token);
    const signed = await req(
      'POST',
      `/api/signing/requests/${id}/sign`,
      { passphrase: pass, sha256: String(before.headers['x-document-sha256']) },
      signer.token,
    );
    expect(signed.statusCode, signed.body).toBe(200);
    const text = await pdfText(`/api/signing/requests/${id}/pdf`);
    expect(text).toContain('Constancia de firmas');
    // Times in Guatemala's time, dd/mm/aaaa hh:mm.
    expect(text).toContain('Fechas y horas en hora de Guatemala.');
    expect(text).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} · Firmado · /);
    texts.set('constancia de firmas', text);
  });

  it('workflow certificate (constancia)', async () => {
    const fields: FormField[] = [
      { name: 'monto', label: 'Monto solicitado', type: 'money', required: true },
      { name: 'fecha', label: 'Fecha de solicitud', type: 'date', required: true },
      { name: 'cantidad', label: 'Cantidad', type: 'number' },
    ];
    const form = await req('POST', '/api/wf/forms', { title: 'Trámite con constancia', fields });
    expect(form.statusCode, form.body).toBe(201);
    expect((await req('POST', `/api/wf/forms/${form.json().id}/versions/1/publish`)).statusCode).toBe(200);
    const approver = await t.createUser({
      grants: (['READ', 'UPDATE'] as const).map((action) => ({ resource: 'sig-items' as const, action, scope: 'ALL' as const })),
    });
    const [role] = await t.database.db.select({ id: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, approver.id));
    const def: FlowDefinition = {
      initial: 'RECIBIDA',
      states: [
        { key: 'RECIBIDA', label: 'Recibida', editable: true },
        { key: 'APROBADA', label: 'Aprobada' },
      ],
      transitions: [
        { key: 'APROBAR', from: 'RECIBIDA', to: 'APROBADA', label: 'Aprobar', roleId: role.id, action: { kind: 'document' } },
      ],
    };
    const flow = await req('POST', '/api/wf/flows', { title: 'Flujo con constancia', formId: form.json().id, definition: def });
    expect(flow.statusCode, flow.body).toBe(201);
    expect((await req('POST', `/api/wf/flows/${flow.json().id}/versions/1/publish`)).statusCode).toBe(200);
    const item = await req('POST', '/api/sig/items', {
      flowId: flow.json().id,
      entityId: fx.entityA.id,
      data: { monto: 'Q 12,500.50', fecha: '2026-03-01', cantidad: 12345 },
    });
    expect(item.statusCode, item.body).toBe(201);
    const moved = await req('POST', `/api/sig/items/${item.json().id}/transitions`, { to: 'APROBADA' }, approver.token);
    expect(moved.statusCode, moved.body).toBe(200);
    const [doc] = await t.database.db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.sourceType, 'sig_request'), eq(documents.sourceId, item.json().id)));
    expect(doc, 'la constancia se archiva en la biblioteca').toBeDefined();
    const text = await pdfText(`/api/library/documents/${doc.id}/content`);
    expect(text).not.toContain('Filtros:');
    expect(text).toContain('01/03/2026');
    expect(text).toContain('Q 12,500.50');
    // Its QR and link open the public verification page.
    expect(text).toMatch(/Verificación en línea: https?:\/\/\S+\/verificar\?codigo=/);
    texts.set('constancia de trámite', text);
  });

  it('none prints a raw number, an ISO date, a period as aaaa-mm, a UTC time or GTQ', () => {
    const found = [...texts].flatMap(([what, text]) => offences(text).map((o) => `${what}: ${o}`));
    expect(found).toEqual([]);
    expect([...texts.keys()].sort()).toEqual(
      [
        'carta de supervivencia',
        'certificado de solvencia',
        'constancia de firmas',
        'constancia de trámite',
        'convenio',
        'estado de cuenta',
        'orden de pago',
        'orden de pago (abonada)',
        'recibo 7-B',
        'resumen de planilla de pensiones',
      ].sort(),
    );
  });
});
