import { addDays, decimalToCents, formatAmount, formatDay, guatemalaToday } from '@aporta/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrearsNotices, documentVersions, mailOutbox, municipalEntities } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { createMailTransport, sendOutboxBatch } from '../../platform/mail-dispatcher.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { hasPoppler, pdfPages } from '../../test/poppler.ts';
import { startTestSmtp } from '../../test/smtp.ts';
import { attachUserToEntity, contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder } from '../payments/orders.ts';

// Issue 29: arrears notices as a campaign — the notice addresses of an entity (a catalogue field), the
// campaign started from the ranking and run as a job (letter filed in Documentos, mail queued in the
// outbox), the record of who was notified when, one notice per entity and day, scope, and the legal case
// citing the notices.

let t: TestApp;
let admin: TestUser;
const today = guatemalaToday();
const asOf = addDays(today, -2);

const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, token = admin.token) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload }) });

async function orderDue(entityId: number, daysAgo: number, principal: bigint, period = '2025-03') {
  const due = addDays(today, -daysAgo);
  return insertOrder(systemContext(t.database.db), t.database.db, {
    kind: 'LABORAL',
    entityId,
    period,
    principal,
    dueDate: due,
    issueDate: addDays(due, -20),
  });
}

/** Waits for a job to end; its row as the API answers it. */
async function waitJob(jobId: number, token = admin.token) {
  for (let i = 0; i < 400; i++) {
    const j = await req('GET', `/api/jobs/${jobId}`, undefined, token);
    if (['DONE', 'FAILED', 'CANCELLED'].includes(j.json().state)) return j.json();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('job did not finish');
}

/** Starts a campaign (202) and waits for its job; the campaign as it ended. */
async function campaign(body: object, token = admin.token) {
  const res = await req('POST', '/api/financial/notice-campaigns', body, token);
  expect(res.statusCode, res.body).toBe(202);
  const job = await waitJob(res.json().jobId, token);
  expect(job.state, JSON.stringify(job)).toBe('DONE');
  const c = await req('GET', `/api/financial/notice-campaigns/${res.json().campaign.id}`, undefined, token);
  expect(c.statusCode, c.body).toBe(200);
  return c.json();
}

const noticesOf = async (campaignId: number, token = admin.token) => {
  const r = await req('GET', `/api/financial/notices?campaignId=${campaignId}&pageSize=200`, undefined, token);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().items as {
    id: number;
    entityId: number;
    outcome: string;
    amount: string | null;
    addresses: string[];
    documentId: number | null;
    outboxId: number | null;
    mailState: string | null;
  }[];
};

let fx: Awaited<ReturnType<typeof contributorFixtures>>;
let entityC: typeof municipalEntities.$inferSelect;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  const [c] = await t.database.db
    .insert(municipalEntities)
    .values({
      code: `E-C-${Date.now()}`,
      name: 'Municipalidad de San Marcos sin correo',
      classificationId: fx.entityA.classificationId,
      municipalityId: fx.entityA.municipalityId,
    })
    .returning();
  entityC = c;
  await t.app.jobs.start();
}, 60_000);
afterAll(() => t?.close());

describe('notice addresses (a catalogue field of municipal entities)', () => {
  it('keeps up to 5 addresses, cleaned; names a bad address; refuses a sixth', async () => {
    const url = `/api/collections/municipal-entities/${fx.entityA.id}`;
    const ok = await req('PATCH', url, { noticeEmails: ' Cobros@MuniA.gt; tesoreria@munia.gt,cobros@munia.gt ' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().noticeEmails).toBe('cobros@munia.gt, tesoreria@munia.gt');

    const bad = await req('PATCH', url, { noticeEmails: 'cobros@munia.gt, tesoreria-sin-arroba' });
    expect(bad.statusCode).toBe(400);
    const detail = bad.json().error.details[0];
    expect(detail.path).toBe('noticeEmails');
    expect(detail.message).toBe('Correos para avisos: «tesoreria-sin-arroba» no es un correo electrónico válido.');
    expect(detail.key).toBe('catalogs.fieldEmailListInvalid');

    const six = Array.from({ length: 6 }, (_, i) => `a${i}@munia.gt`).join(', ');
    const tooMany = await req('PATCH', url, { noticeEmails: six });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.details[0].message).toContain('como máximo 5 direcciones');

    // Entity B has only its general e-mail: the notice falls back to it.
    const b = await req('PATCH', `/api/collections/municipal-entities/${fx.entityB.id}`, { email: 'Info@MuniB.gt' });
    expect(b.statusCode, b.body).toBe(200);
  });
});

describe('a campaign of arrears notices', () => {
  let first: { id: number };
  let noticeA: { id: number; documentId: number | null };

  it('notifies two entities (letter filed, mail queued with the letter), reports the one without address; amounts equal the ranking', async () => {
    await orderDue(fx.entityA.id, 60, 250_000n, '2025-01');
    await orderDue(fx.entityA.id, 20, 125_050n, '2025-02');
    await orderDue(fx.entityB.id, 45, 80_000n);
    await orderDue(entityC.id, 30, 40_000n);
    // Due after the day of the campaign: not in its letters (nor in the ranking of that day).
    await orderDue(fx.entityA.id, 1, 999_999n, '2025-04');

    const ranking = await req('GET', `/api/financial/arrears?asOf=${asOf}`);
    expect(ranking.statusCode, ranking.body).toBe(200);
    const totalOf = (id: number) =>
      decimalToCents((ranking.json().items as { entityId: number; total: string }[]).find((r) => r.entityId === id)!.total);

    const c = await campaign({ asOf, entityIds: [fx.entityA.id, fx.entityB.id, entityC.id] });
    first = c;
    expect(c).toMatchObject({
      asOf,
      issuedOn: today,
      state: 'TERMINADA',
      createdBy: admin.email,
      counts: { entities: 3, notified: 2, withoutAddress: 1, withoutDebt: 0, alreadyNotified: 0, pending: 0 },
    });
    expect(decimalToCents(c.amount)).toBe(totalOf(fx.entityA.id) + totalOf(fx.entityB.id) + totalOf(entityC.id));

    const notices = await noticesOf(c.id);
    const byEntity = new Map(notices.map((n) => [n.entityId, n]));
    const a = byEntity.get(fx.entityA.id)!;
    const b = byEntity.get(fx.entityB.id)!;
    const cc = byEntity.get(entityC.id)!;
    noticeA = a;
    expect(a).toMatchObject({ outcome: 'NOTIFICADA', addresses: ['cobros@munia.gt', 'tesoreria@munia.gt'], mailState: 'QUEUED' });
    expect(b).toMatchObject({ outcome: 'NOTIFICADA', addresses: ['info@munib.gt'], mailState: 'QUEUED' });
    expect(cc).toMatchObject({ outcome: 'SIN_DIRECCION', addresses: [], outboxId: null, mailState: null });
    for (const n of [a, b, cc]) expect(decimalToCents(n.amount!)).toBe(totalOf(n.entityId));

    // Three letters filed in Documentos, in each entity's folder «Avisos de mora».
    for (const n of [a, b, cc]) {
      const doc = await req('GET', `/api/library/documents/${n.documentId}`);
      expect(doc.statusCode, doc.body).toBe(200);
      expect(doc.json()).toMatchObject({ docType: 'OFICIO', folderName: 'Avisos de mora' });
    }

    // Two mails in the outbox, each with its letter attached (the filed content), to the entity's addresses.
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.id, [a.outboxId!, b.outboxId!]));
    expect(mails).toHaveLength(2);
    for (const n of [a, b]) {
      const m = mails.find((x) => x.id === n.outboxId)!;
      expect(m).toMatchObject({ event: 'arrears.notice', to: n.addresses, state: 'PENDING' });
      const [v] = await t.database.db
        .select()
        .from(documentVersions)
        .where(eq(documentVersions.documentId, n.documentId!))
        .orderBy(documentVersions.version);
      expect(m.attachments).toEqual([{ kind: 'blob', sha256: v.sha256, filename: v.filename, contentType: 'application/pdf' }]);
      expect(m.text).toContain(formatAmount(decimalToCents(n.amount!)));
    }

    // The campaign and its notices are listed and exported.
    const list = await req('GET', '/api/financial/notice-campaigns');
    expect(list.json().items.map((x: { id: number }) => x.id)).toContain(c.id);
    const csv = await req('GET', `/api/financial/notices/export?format=csv&campaignId=${c.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Sin dirección');
    expect(csv.body).toContain(fx.entityA.name);
  });

  it('through a real SMTP server: two messages arrive, each with its letter attached as a PDF', async () => {
    const smtp = await startTestSmtp();
    try {
      const transport = createMailTransport(smtp.url);
      for (;;) {
        const r = await sendOutboxBatch(t.database.db, transport, {
          from: t.config.MAIL_FROM,
          host: 'aporta.test',
          files: t.app.files,
        });
        if (r.claimed === 0) break;
        expect(r.sent).toBe(r.claimed);
      }
      await smtp.waitFor(2);
      const to = (m: (typeof smtp.messages)[number]) => [m.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? []);
      const notices = (await noticesOf(first.id)).filter((n) => n.outcome === 'NOTIFICADA');
      expect(notices).toHaveLength(2);
      for (const n of notices) {
        const got = smtp.messages.filter((m) => n.addresses.every((a) => to(m).includes(a)));
        expect(got, n.addresses.join(', ')).toHaveLength(1);
        const [m] = got;
        expect(m.subject).toContain('Aviso de mora');
        expect(m.attachments).toHaveLength(1);
        expect(m.attachments[0].contentType).toBe('application/pdf');
        expect(m.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
      }
      // The record now says sent.
      expect((await noticesOf(first.id)).filter((n) => n.mailState === 'SENT')).toHaveLength(2);
    } finally {
      await smtp.close();
    }
  });

  it.skipIf(!hasPoppler)(
    'the letter prints the debt by order as of the day, how to pay and the agreement, with no raw date or amount',
    async () => {
      const res = await req('GET', `/api/library/documents/${noticeA.documentId}/content`);
      expect(res.statusCode).toBe(200);
      const text = pdfPages(res.rawPayload).join('\n');
      expect(text).toContain('Aviso de cobro por mora');
      expect(text).toContain(fx.entityA.name);
      expect(text).toContain(`Órdenes vencidas al ${formatDay(asOf)}`);
      expect(text).toContain('Referencia de pago');
      expect(text).toContain('Convenio de pago');
      expect(text).toContain('Sección de Cobros');
      const [n] = await t.database.db.select().from(arrearsNotices).where(eq(arrearsNotices.id, noticeA.id));
      expect(text).toContain(`Q ${formatAmount(n.amount!)}`);
      // The order due after the day is not in it.
      expect(text).not.toContain('9,999.99');
      // The conventions of pdf-formats.test.ts: no ISO date, period aaaa-mm, amount without separators, GTQ, UTC.
      for (const line of text.split('\n')) {
        expect(line).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
        expect(line).not.toMatch(/(?<![\d-])\d{4}-(0[1-9]|1[0-2])(?![\d-])/);
        expect(line).not.toMatch(/(?<![\d,.])\d{4,}\.\d{2}(?!\d)/);
        expect(line).not.toMatch(/\bGTQ\b|\bUTC\b/);
      }
    },
  );

  it('a second campaign the same day records an entity already notified instead of notifying it again; only such entities: 409', async () => {
    const fx2 = await contributorFixtures(t.database.db);
    await t.database.db
      .update(municipalEntities)
      .set({ email: 'cobros@otra.gt' })
      .where(eq(municipalEntities.id, fx2.entityA.id));
    await orderDue(fx2.entityA.id, 50, 70_000n);
    const again = await campaign({ asOf, entityIds: [fx.entityA.id, fx2.entityA.id] });
    expect(again.counts).toMatchObject({ entities: 2, notified: 1, alreadyNotified: 1 });
    const notices = await noticesOf(again.id);
    expect(notices.find((n) => n.entityId === fx.entityA.id)).toMatchObject({ outcome: 'YA_NOTIFICADA', outboxId: null });
    const sentToA = await t.database.db.select().from(arrearsNotices).where(eq(arrearsNotices.entityId, fx.entityA.id));
    expect(sentToA.filter((n) => n.outcome === 'NOTIFICADA')).toHaveLength(1);

    const refused = await req('POST', '/api/financial/notice-campaigns', { entityIds: [fx.entityA.id] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.key).toBe('financial.campaignAllAlreadyNotified');
  });

  it('"every entity owing at least": takes the ranking of the day', async () => {
    const fx3 = await contributorFixtures(t.database.db);
    await orderDue(fx3.entityA.id, 90, 9_000_000_000n);
    const min = '80000000.00';
    const ranking = (await req('GET', `/api/financial/arrears?asOf=${asOf}`)).json().items as {
      entityId: number;
      total: string;
    }[];
    const expected = ranking.filter((r) => decimalToCents(r.total) >= decimalToCents(min)).map((r) => r.entityId);
    expect(expected).toContain(fx3.entityA.id);
    const c = await campaign({ asOf, minTotal: '80,000,000.00' });
    expect(c.minTotal).toBe(min);
    expect((await noticesOf(c.id)).map((n) => n.entityId).sort()).toEqual([...expected].sort());
    expect((await noticesOf(c.id)).find((n) => n.entityId === fx3.entityA.id)).toMatchObject({ outcome: 'SIN_DIRECCION' });

    const none = await req('POST', '/api/financial/notice-campaigns', { asOf, minTotal: '999999999999.00' });
    expect(none.statusCode).toBe(409);
  });

  it('refuses bad input with the field named', async () => {
    const both = await req('POST', '/api/financial/notice-campaigns', { entityIds: [fx.entityB.id], minTotal: '10.00' });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.details[0]).toMatchObject({ path: 'entityIds', key: 'financial.campaignSelectionRequired' });
    const neither = await req('POST', '/api/financial/notice-campaigns', {});
    expect(neither.statusCode).toBe(400);
    const future = await req('POST', '/api/financial/notice-campaigns', { asOf: addDays(today, 1), entityIds: [fx.entityB.id] });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details[0].path).toBe('asOf');
    const zero = await req('POST', '/api/financial/notice-campaigns', { minTotal: '0' });
    expect(zero.statusCode).toBe(400);
    const unknown = await req('POST', '/api/financial/notice-campaigns', { entityIds: [999_999_999] });
    expect(unknown.statusCode).toBe(404);
  });

  it('within scope: a user of one entity starts campaigns for it only (another entity: 404) and reads only its notices', async () => {
    const fx4 = await contributorFixtures(t.database.db);
    await orderDue(fx4.entityA.id, 35, 60_000n);
    await orderDue(fx4.entityB.id, 35, 60_000n);
    const local = await t.createUser({
      grants: [
        { resource: 'financial-module', action: 'READ', scope: 'ENTITY' },
        { resource: 'financial-module', action: 'CREATE', scope: 'ENTITY' },
      ],
    });
    await attachUserToEntity(t.database.db, local.id, fx4.entityA.id);
    const out = await req(
      'POST',
      '/api/financial/notice-campaigns',
      { entityIds: [fx4.entityA.id, fx4.entityB.id] },
      local.token,
    );
    expect(out.statusCode).toBe(404);
    expect(out.json().error.key).toBe('financial.campaignEntityNotFound');
    expect(out.json().error.message).toContain(String(fx4.entityB.id));

    const own = await campaign({ entityIds: [fx4.entityA.id] }, local.token);
    expect(own.counts).toMatchObject({ entities: 1, withoutAddress: 1 });
    // The admin's campaigns are not theirs to see; their own notices only.
    expect((await req('GET', `/api/financial/notice-campaigns/${first.id}`, undefined, local.token)).statusCode).toBe(404);
    const listed = await req('GET', '/api/financial/notices?pageSize=200', undefined, local.token);
    expect(new Set(listed.json().items.map((n: { entityId: number }) => n.entityId))).toEqual(new Set([fx4.entityA.id]));
    const campaigns = await req('GET', '/api/financial/notice-campaigns', undefined, local.token);
    expect(campaigns.json().items.map((x: { id: number }) => x.id)).toEqual([own.id]);
  });

  it('the legal case of an entity shows the notices it was sent', async () => {
    const opened = await req('POST', '/api/legal/cases', { entityId: fx.entityB.id });
    expect(opened.statusCode, opened.body).toBe(201);
    const notices = opened.json().notices as { campaignId: number; outcome: string; documentId: number }[];
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ campaignId: first.id, outcome: 'NOTIFICADA', mailState: 'SENT' });
  });
});
