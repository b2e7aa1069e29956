import type { Grant } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  institutionRoles,
  institutions,
  jobs,
  roleGrants,
  roles,
  signingCertificates,
  userInstitutions,
} from '../../db/schema/index.ts';
import { sha256Hex } from '../../platform/blobs.ts';
import { generateKeyPair, issueCertificate, newSerial } from '../../platform/pki.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { multipartBody, samplePdf } from '../../test/pdfs.ts';
import { hasPdfsig, type NssDb, pdfsigMissing, trustedNssDb } from '../../test/pdfsig.ts';
import { hasPoppler, pdfPages } from '../../test/poppler.ts';
import { startTsa } from '../../test/tsa.ts';
import { caMaterial, currentCrl } from './authority.ts';
import { signedFilename } from './lists.ts';

let t: TestApp;
let admin: TestUser;
let sender: TestUser;
let ana: TestUser;
let luis: TestUser;
let outsider: TestUser;
let nss: NssDb | null = null;
const passAna = 'frase de Ana 2026';
const passLuis = 'frase de Luis 2026';

const signerGrants: Grant[] = [
  { resource: 'signing-pending', action: 'READ', scope: 'ALL' },
  { resource: 'signing-pending', action: 'SIGN', scope: 'ALL' },
  { resource: 'signing-signed', action: 'READ', scope: 'ALL' },
  { resource: 'signing-rejected', action: 'READ', scope: 'ALL' },
];

const json = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

async function upload(token: string, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) {
  const body = multipartBody(fields, file);
  return t.request({ method: 'POST', url: '/api/signing/requests', token, payload: body.payload, headers: body.headers });
}

async function pdfOf(token: string, id: number) {
  const res = await t.request({ method: 'GET', url: `/api/signing/requests/${id}/pdf`, token });
  expect(res.statusCode).toBe(200);
  return { bytes: res.rawPayload, sha256: String(res.headers['x-document-sha256']) };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  sender = await t.createUser({
    grants: [
      { resource: 'signing-upload', action: 'CREATE', scope: 'ALL' },
      { resource: 'signing-upload', action: 'READ', scope: 'ALL' },
      { resource: 'signing-rejected', action: 'READ', scope: 'ALL' },
      { resource: 'signing-signed', action: 'READ', scope: 'ALL' },
    ],
  });
  ana = await t.createUser({ grants: signerGrants });
  luis = await t.createUser({ grants: signerGrants });
  outsider = await t.createUser({ grants: signerGrants });
  if (hasPdfsig) {
    const { root, ca } = await caMaterial(t.app.db, t.config);
    nss = trustedNssDb(root, [ca]);
  }
}, 60_000);

afterAll(async () => {
  nss?.close();
  await t?.close();
});

describe('certificates (administradorFirma)', () => {
  it('the authority exists from the first start; an administrator issues certificates; others may not', async () => {
    const settings = await json(admin.token, 'GET', '/api/signing/settings');
    expect(settings.statusCode).toBe(200);
    expect(settings.json().authorities.map((a: { kind: string }) => a.kind)).toEqual(['ROOT', 'CA', 'SEAL']);

    const denied = await json(sender.token, 'POST', '/api/signing/certificates', { userId: ana.id, passphrase: passAna });
    expect(denied.statusCode).toBe(403);
    const short = await json(admin.token, 'POST', '/api/signing/certificates', { userId: ana.id, passphrase: 'corta' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details[0].message).toMatch(/Frase de paso: al menos 8/);
    const nobody = await json(admin.token, 'POST', '/api/signing/certificates', { userId: 999999, passphrase: passAna });
    expect(nobody.statusCode).toBe(400);

    for (const [u, pass, position] of [
      [ana, passAna, 'Jefa de Planillas'],
      [luis, passLuis, 'Gerente'],
    ] as const) {
      const res = await json(admin.token, 'POST', '/api/signing/certificates', { userId: u.id, passphrase: pass, position });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ userId: u.id, state: 'VIGENTE', position });
    }
    const list = await json(admin.token, 'GET', '/api/signing/certificates?state=VIGENTE');
    expect(list.json().total).toBe(2);
    // Keys are stored encrypted with the passphrase, never in the clear.
    const rows = await t.app.db.select().from(signingCertificates);
    for (const r of rows) expect(r.encryptedKey).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);

    // Appearance and timestamp server; a bad URL is refused naming the field.
    const badUrl = await json(admin.token, 'PUT', '/api/signing/settings', {
      showName: true,
      showPosition: true,
      showDate: false,
      timestampUrl: 'no es url',
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().error.details[0].message).toMatch(/sellado de tiempo: debe ser una URL/);
    const saved = await json(admin.token, 'PUT', '/api/signing/settings', {
      showName: true,
      showPosition: true,
      showDate: false,
      timestampUrl: '',
    });
    expect(saved.json()).toMatchObject({ showDate: false, timestampUrl: null });
    await json(admin.token, 'PUT', '/api/signing/settings', {
      showName: true,
      showPosition: true,
      showDate: true,
      timestampUrl: null,
    });
    // A file that is not a PKCS#12 is refused as the seal, and the seal stays.
    const p12 = multipartBody(
      { password: 'x' },
      { name: 'sello.p12', bytes: Buffer.from('no es un pkcs12'), type: 'application/x-pkcs12' },
    );
    const badSeal = await t.request({
      method: 'POST',
      url: '/api/signing/seal',
      token: admin.token,
      payload: p12.payload,
      headers: p12.headers,
    });
    expect(badSeal.statusCode).toBe(400);
    expect(badSeal.json().error.message).toMatch(/no es de un tipo aceptado \(PKCS#12\): su contenido es texto/);

    // Renewing issues a new certificate and revokes the old one (published in the CRL).
    const extra = await t.createUser({ grants: signerGrants });
    const first = await json(admin.token, 'POST', '/api/signing/certificates', {
      userId: extra.id,
      passphrase: 'frase inicial 1',
    });
    const renewed = await json(admin.token, 'POST', `/api/signing/certificates/${first.json().id}/renew`, {
      passphrase: 'frase renovada 2',
    });
    expect(renewed.statusCode).toBe(201);
    expect(renewed.json().serial).not.toBe(first.json().serial);
    const old = (await json(admin.token, 'GET', '/api/signing/certificates?state=REVOCADO')).json().items;
    expect(old.map((c: { id: number }) => c.id)).toContain(first.json().id);
    await json(admin.token, 'POST', `/api/signing/certificates/${renewed.json().id}/revoke`, { reason: 'Prueba terminada' });

    const signers = await json(sender.token, 'GET', '/api/signing/signers');
    expect(
      signers
        .json()
        .items.map((s: { id: number }) => s.id)
        .sort(),
    ).toEqual([ana.id, luis.id].sort());
  });

  it('offers as signers only users who can sign; a request naming anyone else is refused, saying who and why', async () => {
    // A read-only user (Consulta) with a certificate, a signer without one, a member of SISTEMA and a user
    // whose institution's role grants signing, both with certificates.
    const readOnly = await t.createUser({
      grants: [
        { resource: 'signing-pending', action: 'READ', scope: 'ALL' },
        { resource: 'signing-signed', action: 'READ', scope: 'ALL' },
      ],
    });
    const noCertificate = await t.createUser({ grants: signerGrants });
    const system = await t.createUser({ system: true });
    const viaInstitution = await t.createUser();
    const db = t.app.db;
    const [inst] = await db
      .insert(institutions)
      .values({ code: `FIRMANTES-${viaInstitution.id}`, name: 'Firmantes', kind: 'INSTITUCION' })
      .returning();
    const [role] = await db
      .insert(roles)
      .values({ name: `firmantes-${viaInstitution.id}` })
      .returning();
    await db.insert(roleGrants).values({ roleId: role.id, resource: 'signing-pending', action: 'SIGN', scope: 'ALL' });
    await db.insert(institutionRoles).values({ institutionId: inst.id, roleId: role.id });
    await db.insert(userInstitutions).values({ userId: viaInstitution.id, institutionId: inst.id });
    for (const u of [readOnly, system, viaInstitution]) {
      const res = await json(admin.token, 'POST', '/api/signing/certificates', {
        userId: u.id,
        passphrase: 'frase de prueba 2026',
      });
      expect(res.statusCode).toBe(201);
    }

    const offered = (await json(sender.token, 'GET', '/api/signing/signers')).json().items.map((s: { id: number }) => s.id);
    expect(offered).toEqual(expect.arrayContaining([ana.id, luis.id, system.id, viaInstitution.id]));
    // No permission to sign (with a certificate), no certificate (with the permission), neither.
    for (const u of [readOnly, noCertificate, sender, admin]) expect(offered).not.toContain(u.id);

    const sentBefore = (await json(sender.token, 'GET', '/api/signing/requests/sent')).json().total;
    const refused = await upload(
      sender.token,
      { title: 'Oficio', signers: `${ana.id},${readOnly.id},${noCertificate.id}` },
      { name: 'oficio.pdf', bytes: await samplePdf('Oficio') },
    );
    expect(refused.statusCode).toBe(400);
    const error = refused.json().error;
    expect(error.message).toMatch(/^Firmante 2 \(Usuario Prueba \d+\): su rol no tiene el permiso de firmar documentos\.$/);
    expect(error).toMatchObject({ key: 'signing.signerCannotSign', params: { position: 2 } });
    expect(error.details.map((d: { path: string; key: string }) => [d.path, d.key])).toEqual([
      ['signers.1', 'signing.signerCannotSign'],
      ['signers.2', 'signing.signerNoCertificate'],
    ]);
    expect(error.details[1].message).toMatch(
      /^Firmante 3 \(Usuario Prueba \d+\): no tiene un certificado de firma vigente; un administrador lo emite en «Administrador de firma»\.$/,
    );
    // Nothing was created.
    expect((await json(sender.token, 'GET', '/api/signing/requests/sent')).json().total).toBe(sentBefore);

    // A draft whose signer can no longer sign when it is sent is refused the same way, and stays a draft.
    const draft = await upload(
      sender.token,
      { title: 'Borrador', signers: `${viaInstitution.id}`, send: 'false' },
      { name: 'borrador.pdf', bytes: await samplePdf('Borrador') },
    );
    expect(draft.statusCode).toBe(201);
    await db.delete(institutionRoles).where(eq(institutionRoles.roleId, role.id));
    const notSent = await json(sender.token, 'POST', `/api/signing/requests/${draft.json().id}/send`);
    expect(notSent.statusCode).toBe(400);
    expect(notSent.json().error.key).toBe('signing.signerCannotSign');
    expect((await json(sender.token, 'GET', `/api/signing/requests/${draft.json().id}`)).json().state).toBe('BORRADOR');
    expect((await json(sender.token, 'GET', '/api/signing/signers')).json().items.map((s: { id: number }) => s.id)).not.toContain(
      viaInstitution.id,
    );
  });
});

describe('signing flow (firmaDoc)', () => {
  let firstId: number;
  let secondId: number;

  it('refuses bad uploads with Spanish messages naming the file', async () => {
    const notPdf = await upload(
      sender.token,
      { title: 'X', signers: `${ana.id}` },
      { name: 'nota.txt', bytes: Buffer.from('hola') },
    );
    expect(notPdf.statusCode).toBe(400);
    expect(notPdf.json().error.message).toMatch(/«nota.txt» no es de un tipo aceptado \(PDF\)/);
    const damaged = await upload(
      sender.token,
      { title: 'X', signers: `${ana.id}` },
      { name: 'roto.pdf', bytes: Buffer.from('%PDF-1.7\nbasura sin estructura') },
    );
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json().error.message).toMatch(/«roto.pdf» no es un PDF válido o está dañado/);
    // A password-protected PDF (an /Encrypt dictionary in the trailer).
    const encrypted = (await samplePdf())
      .toString('latin1')
      .replace(
        /trailer\s*<</,
        `trailer\n<< /Encrypt << /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${'00'.repeat(32)}> /U <${'00'.repeat(32)}> >>`,
      );
    const locked = await upload(
      sender.token,
      { title: 'X', signers: `${ana.id}` },
      { name: 'cifrado.pdf', bytes: Buffer.from(encrypted, 'latin1') },
    );
    expect(locked.statusCode).toBe(400);
    expect(locked.json().error.message).toMatch(/«cifrado.pdf» está protegido con contraseña/);
    const noSigners = await upload(sender.token, { title: 'X', signers: '' }, { name: 'a.pdf', bytes: await samplePdf() });
    expect(noSigners.statusCode).toBe(400);
    const dupSigners = await upload(
      sender.token,
      { title: 'X', signers: `${ana.id},${ana.id}` },
      { name: 'a.pdf', bytes: await samplePdf() },
    );
    expect(dupSigners.json().error.message).toMatch(/aparece dos veces/);
    const unknownSigner = await upload(
      sender.token,
      { title: 'X', signers: '999999' },
      { name: 'a.pdf', bytes: await samplePdf() },
    );
    expect(unknownSigner.json().error.message).toMatch(/Firmante 1: el usuario no existe/);
    const big = await upload(
      sender.token,
      { title: 'X', signers: `${ana.id}` },
      { name: 'grande.pdf', bytes: Buffer.alloc(21 * 1024 * 1024, 32) },
    );
    expect(big.statusCode).toBe(413);
    const noFile = await upload(sender.token, { title: 'X', signers: `${ana.id}` });
    expect(noFile.statusCode).toBe(400);
  });

  it('first signs, second rejects with a reason; the sender sees it in rejected', async () => {
    const res = await upload(
      sender.token,
      { title: 'Resolución 12-2026', message: 'Por favor firmar hoy', signers: `${ana.id},${luis.id}` },
      { name: 'resolucion.pdf', bytes: await samplePdf('Resolución 12-2026') },
    );
    expect(res.statusCode).toBe(201);
    firstId = res.json().id;
    expect(res.json()).toMatchObject({ state: 'PENDIENTE', currentPosition: 1 });

    // The pending count and the notification reach the first signer only.
    expect((await json(ana.token, 'GET', '/api/signing/requests/count')).json()).toEqual({ pending: 1 });
    expect((await json(luis.token, 'GET', '/api/signing/requests/count')).json()).toEqual({ pending: 0 });
    const notes = await json(ana.token, 'GET', '/api/notifications');
    expect(notes.json().items.some((n: { title: string }) => n.title === 'Documento pendiente de firma')).toBe(true);

    // Out of order, not a signer, wrong preview hash.
    const { sha256 } = await pdfOf(ana.token, firstId);
    const early = await json(luis.token, 'POST', `/api/signing/requests/${firstId}/sign`, { passphrase: passLuis, sha256 });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toMatch(/Aún no es su turno/);
    const stranger = await json(outsider.token, 'POST', `/api/signing/requests/${firstId}/sign`, { passphrase: 'x', sha256 });
    expect(stranger.statusCode).toBe(404);
    const changed = await json(ana.token, 'POST', `/api/signing/requests/${firstId}/sign`, {
      passphrase: passAna,
      sha256: 'a'.repeat(64),
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.message).toMatch(/El documento cambió desde que lo revisó/);

    const signed = await json(ana.token, 'POST', `/api/signing/requests/${firstId}/sign`, { passphrase: passAna, sha256 });
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toMatchObject({ state: 'PENDIENTE', currentPosition: 2 });
    const twice = await json(ana.token, 'POST', `/api/signing/requests/${firstId}/sign`, { passphrase: passAna, sha256 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toMatch(/ya firmó/);

    const noReason = await json(luis.token, 'POST', `/api/signing/requests/${firstId}/reject`, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    const rejected = await json(luis.token, 'POST', `/api/signing/requests/${firstId}/reject`, {
      reason: 'Falta el número de expediente',
    });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().state).toBe('RECHAZADO');

    const list = await json(sender.token, 'GET', '/api/signing/requests/rejected');
    expect(list.json().items[0]).toMatchObject({ id: firstId, state: 'RECHAZADO' });
    expect(list.json().items[0].signers[1]).toMatchObject({ state: 'RECHAZADO', reason: 'Falta el número de expediente' });
    const spec = await json(sender.token, 'GET', '/api/files/documentos/rechazado');
    expect(spec.json()[0]).toMatchObject({ id: firstId, estado: 'RECHAZADO', titulo: 'Resolución 12-2026' });

    const detail = await json(sender.token, 'GET', `/api/signing/requests/${firstId}`);
    const actions = detail.json().events.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['CREADO', 'ENVIADO', 'FIRMADO', 'RECHAZADO']);
    const signEvent = detail.json().events[2];
    expect(signEvent.hashBefore).toBe(sha256);
    expect(signEvent.hashAfter).toMatch(/^[0-9a-f]{64}$/);
    expect(signEvent.hashAfter).not.toBe(sha256);
  });

  it(`sent again, both sign; pdfsig reports two valid signatures chained to our CA and the seal over the audit trail page${hasPdfsig ? '' : ` (${pdfsigMissing})`}`, async () => {
    const original = await samplePdf('Resolución 12-2026 (corregida)');
    const res = await upload(
      sender.token,
      { title: 'Resolución 12-2026 corregida', signers: `${ana.id},${luis.id}`, send: 'false' },
      { name: 'resolucion.pdf', bytes: original },
    );
    expect(res.json().state).toBe('BORRADOR');
    secondId = res.json().id;
    expect((await json(sender.token, 'GET', '/api/files/documentos/borrador')).json().map((d: { id: number }) => d.id)).toContain(
      secondId,
    );
    expect((await json(ana.token, 'GET', '/api/signing/requests/count')).json()).toEqual({ pending: 0 });
    expect((await json(sender.token, 'POST', `/api/signing/requests/${secondId}/send`)).json().state).toBe('PENDIENTE');

    const nameOf = async () =>
      (await t.request({ method: 'GET', url: `/api/signing/requests/${secondId}/pdf`, token: sender.token })).headers[
        'content-disposition'
      ];
    expect(await nameOf()).toContain(`filename*=UTF-8''resolucion.pdf`);
    for (const [u, pass] of [
      [ana, passAna],
      [luis, passLuis],
    ] as const) {
      const { sha256 } = await pdfOf(u.token, secondId);
      const r = await json(u.token, 'POST', `/api/signing/requests/${secondId}/sign`, { passphrase: pass, sha256 });
      expect(r.statusCode).toBe(200);
      // Signed by the first but not yet by all: named as partly signed.
      if (u === ana) expect(await nameOf()).toContain(`filename*=UTF-8''resolucion-firma-parcial.pdf`);
    }
    const done = await json(sender.token, 'GET', `/api/signing/requests/${secondId}`);
    expect(done.json().state).toBe('FIRMADO');
    for (const u of [sender, ana, luis]) {
      const signedList = await json(u.token, 'GET', '/api/signing/requests/signed');
      expect(signedList.json().items.map((i: { id: number }) => i.id)).toContain(secondId);
    }
    expect((await json(ana.token, 'GET', '/api/files/documentos/firmado')).json()[0]).toMatchObject({
      id: secondId,
      estado: 'FIRMADO',
    });

    const { bytes } = await pdfOf(sender.token, secondId);
    // Downloaded, the file is named as signed.
    const download = await t.request({
      method: 'GET',
      url: `/api/signing/requests/${secondId}/pdf?download=1`,
      token: ana.token,
    });
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="resolucion-firmado.pdf"; filename*=UTF-8''resolucion-firmado.pdf`,
    );
    // Incremental: the original bytes are the start of the signed file.
    expect(Buffer.from(bytes.subarray(0, original.length)).equals(original)).toBe(true);

    // Our own verification page agrees.
    const v = multipartBody({}, { name: 'firmado.pdf', bytes });
    const report = await t.request({
      method: 'POST',
      url: '/api/signing/verify',
      token: outsider.token,
      payload: v.payload,
      headers: v.headers,
    });
    expect(report.statusCode).toBe(200);
    // The two signers, then the institution's seal over the audit trail appended after the last signature.
    expect(report.json().signatures).toHaveLength(3);
    for (const s of report.json().signatures)
      expect(s, JSON.stringify(s)).toMatchObject({ intact: true, chainTrusted: true, modifiedAfter: false, revoked: false });
    // The trail is in the request's events and on the last page: who, when, from where, hashes before and after.
    const detail = (await json(sender.token, 'GET', `/api/signing/requests/${secondId}`)).json();
    const trail = detail.events.find((e: { action: string }) => e.action === 'CONSTANCIA');
    expect(trail.hashAfter).toBe(sha256Hex(bytes));
    const lastSigned = detail.events.filter((e: { action: string }) => e.action === 'FIRMADO').at(-1);
    expect(trail.hashBefore).toBe(lastSigned.hashAfter);
    if (hasPoppler) {
      const pages = pdfPages(Buffer.from(bytes));
      const last = pages.at(-1) ?? '';
      expect(pages.length).toBeGreaterThan(1);
      expect(last).toContain('Constancia de firmas');
      expect(last).toContain(lastSigned.hashAfter);
      expect(last).toContain(`Firmado · ${lastSigned.userName}`);
      // Visible signatures: both signers' boxes on the document's last page, the seal's on the trail page.
      const signedPage = pages.at(-2) ?? '';
      expect(signedPage.match(/Firmado digitalmente por/g)).toHaveLength(2);
      expect(signedPage).toContain('Jefa de Planillas');
      expect(signedPage).toContain('Gerente');
      expect(last).toContain('Sellado digitalmente por');
    }

    if (!nss) return;
    const out = nss.pdfsig(bytes);
    console.info(`pdfsig of a document signed by two users and sealed with its audit trail:\n${out}`);
    expect(out.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(3);
    expect(out.match(/Certificate Validation: Certificate is Trusted\./g)).toHaveLength(3);
    expect(out.match(/Signature Type: ETSI\.CAdES\.detached/g)).toHaveLength(3);
    // Each personal signature covers the document as it signed it; the seal, the whole file with the trail.
    expect(out.split('Signature #3')[1]).toContain('Total document signed');

    // A document altered after signing (one byte inside the signed range) is reported.
    const altered = Buffer.from(bytes);
    // The producer's name in the document information (uncompressed, inside the first signed range).
    const at = altered.indexOf('pdfmake');
    expect(at).toBeGreaterThan(0);
    altered[at] = 'P'.charCodeAt(0);
    const alteredOut = nss.pdfsig(altered);
    expect(alteredOut).toMatch(/Digest Mismatch/);
    const v2 = multipartBody({}, { name: 'alterado.pdf', bytes: altered });
    const report2 = await t.request({
      method: 'POST',
      url: '/api/signing/verify',
      token: outsider.token,
      payload: v2.payload,
      headers: v2.headers,
    });
    expect(report2.json().signatures.every((s: { intact: boolean }) => !s.intact)).toBe(true);
  });

  it(`a revoked certificate is refused for signing and reported by pdfsig once the CRL is published${hasPdfsig ? '' : ` (${pdfsigMissing})`}`, async () => {
    const sentToLuis = (
      await upload(
        sender.token,
        { title: 'Oficio', signers: `${luis.id}` },
        { name: 'oficio.pdf', bytes: await samplePdf('Oficio') },
      )
    ).json().id;
    const [luisCert] = (await json(admin.token, 'GET', '/api/signing/certificates?state=VIGENTE'))
      .json()
      .items.filter((c: { userId: number }) => c.userId === luis.id);
    const revoked = await json(admin.token, 'POST', `/api/signing/certificates/${luisCert.id}/revoke`, {
      reason: 'Clave comprometida',
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().state).toBe('REVOCADO');
    const again = await json(admin.token, 'POST', `/api/signing/certificates/${luisCert.id}/revoke`, { reason: 'otra vez' });
    expect(again.statusCode).toBe(409);

    const crl = await t.request({ method: 'GET', url: '/api/pki/crl' });
    expect(crl.statusCode).toBe(200);
    expect(crl.headers['content-type']).toBe('application/pkix-crl');

    const { bytes } = await pdfOf(sender.token, secondId);
    const v = multipartBody({}, { name: 'firmado.pdf', bytes });
    const report = await t.request({
      method: 'POST',
      url: '/api/signing/verify',
      token: outsider.token,
      payload: v.payload,
      headers: v.headers,
    });
    // Ana's, Luis's (revoked), and the institution's seal over the trail page.
    expect(report.json().signatures.map((s: { revoked: boolean }) => s.revoked)).toEqual([false, true, false]);

    // Luis can no longer sign what was sent to him before the revocation, and is no longer offered.
    const { sha256 } = await pdfOf(luis.token, sentToLuis);
    const refused = await json(luis.token, 'POST', `/api/signing/requests/${sentToLuis}/sign`, {
      passphrase: passLuis,
      sha256,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/certificado de firma está revocado/);
    expect((await json(sender.token, 'GET', '/api/signing/signers')).json().items.map((s: { id: number }) => s.id)).not.toContain(
      luis.id,
    );
    const toLuis = await upload(
      sender.token,
      { title: 'Oficio 2', signers: `${luis.id}` },
      { name: 'oficio.pdf', bytes: await samplePdf('Oficio 2') },
    );
    expect(toLuis.statusCode).toBe(400);
    expect(toLuis.json().error.key).toBe('signing.signerNoCertificate');

    if (!nss) return;
    nss.importCrl(await currentCrl(t.app.db, t.config));
    const out = nss.pdfsig(bytes);
    // Luis's (the second) is reported revoked; the signatures themselves, his included, stay valid.
    expect(out.split('Signature #2')[1].split('Signature #3')[0]).toMatch(/Certificate has been Revoked/);
    expect(out.match(/Certificate has been Revoked/g)).toHaveLength(1);
    expect(out.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(3);
  });

  it('three wrong passphrases pause signing; the document is not touched', async () => {
    const res = await upload(
      sender.token,
      { title: 'Acta', signers: `${ana.id}` },
      { name: 'acta.pdf', bytes: await samplePdf('Acta') },
    );
    const id = res.json().id;
    const { sha256 } = await pdfOf(ana.token, id);
    for (const n of [1, 2, 3]) {
      const r = await json(ana.token, 'POST', `/api/signing/requests/${id}/sign`, { passphrase: 'no es la frase', sha256 });
      expect(r.statusCode).toBe(400);
      expect(r.json().error.message).toMatch(n < 3 ? new RegExp(`intento ${n} de 3`) : /queda en pausa/);
      // Said once: the passphrase field's detail is the same message, with the same key (a toast shows it once).
      const { message, key, details } = r.json().error;
      expect(details).toEqual([{ path: 'passphrase', message, key, params: r.json().error.params }]);
    }
    const paused = await json(ana.token, 'POST', `/api/signing/requests/${id}/sign`, { passphrase: passAna, sha256 });
    expect(paused.statusCode).toBe(429);
    expect(paused.json().error.message).toMatch(/la firma está en pausa/);
    const after = await pdfOf(ana.token, id);
    expect(after.sha256).toBe(sha256);
    expect(sha256Hex(after.bytes)).toBe(sha256);
  });
});

describe('automatic signing (firmaAutomatica)', () => {
  it('rules validate their kind and seal generated reports; a batch seals the picked PDFs as a job with progress and reports failures', async () => {
    const bad = await json(admin.token, 'POST', '/api/signing/rules', { name: 'X', documentKind: 'no-existe' });
    expect(bad.statusCode).toBe(400);
    const rule = await json(admin.token, 'POST', '/api/signing/rules', {
      name: 'Reportes generales',
      documentKind: 'contributor-report-general',
    });
    expect(rule.statusCode).toBe(201);
    const dup = await json(admin.token, 'POST', '/api/signing/rules', {
      name: 'Otra',
      documentKind: 'contributor-report-general',
    });
    expect(dup.statusCode).toBe(409);
    expect((await json(admin.token, 'PUT', `/api/signing/rules/${rule.json().id}`, { isActive: false })).json().isActive).toBe(
      false,
    );

    const folder = await json(admin.token, 'POST', '/api/folders', { name: 'Recibos 2026' });
    expect(folder.statusCode).toBe(201);
    for (let i = 1; i <= 6; i++) {
      const b = multipartBody(
        { folderId: String(folder.json().id), title: `Recibo ${i}`, docType: 'RECIBO' },
        { name: `recibo-${i}.pdf`, bytes: await samplePdf(`Recibo ${i}`) },
      );
      const r = await t.request({
        method: 'POST',
        url: '/api/library/documents',
        token: admin.token,
        payload: b.payload,
        headers: b.headers,
      });
      expect(r.statusCode).toBe(201);
    }
    const start = await json(admin.token, 'POST', '/api/signing/batch', { folderId: folder.json().id, docType: 'RECIBO' });
    expect(start.statusCode).toBe(202);
    expect(start.json().total).toBe(6);
    await t.app.jobs.start();
    let job: { state: string; done: number; total: number; result: { sealed: number; failed: unknown[] } } | null = null;
    for (let i = 0; i < 200; i++) {
      job = (await json(admin.token, 'GET', `/api/jobs/${start.json().jobId}`)).json();
      if (job && ['DONE', 'FAILED'].includes(job.state)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await t.app.jobs.stop();
    expect(job).toMatchObject({ state: 'DONE', done: 6, total: 6, result: { sealed: 6, failed: [] } });
    const docs = await json(admin.token, 'GET', `/api/library/documents?folderId=${folder.json().id}`);
    expect(docs.json().items.every((d: { version: number }) => d.version === 2)).toBe(true);
    // The process dies after sealing, before the job records its end: the retry seals nothing a second time.
    await t.database.db
      .update(jobs)
      .set({ state: 'QUEUED', finishedAt: null, result: null })
      .where(eq(jobs.id, start.json().jobId));
    await t.app.jobs.start();
    for (let i = 0; i < 200; i++) {
      job = (await json(admin.token, 'GET', `/api/jobs/${start.json().jobId}`)).json();
      if (job && ['DONE', 'FAILED'].includes(job.state)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await t.app.jobs.stop();
    expect(job).toMatchObject({ state: 'DONE', result: { sealed: 6, failed: [] } });
    const again = await json(admin.token, 'GET', `/api/library/documents?folderId=${folder.json().id}`);
    expect(again.json().items.every((d: { version: number }) => d.version === 2)).toBe(true);
    if (!nss) return;
    const content = await t.request({
      method: 'GET',
      url: `/api/library/documents/${docs.json().items[0].id}/content`,
      token: admin.token,
    });
    const out = nss.pdfsig(content.rawPayload);
    expect(out).toMatch(/Sello institucional/);
    expect(out).toMatch(/Signature is Valid/);
    expect(out).toMatch(/Certificate is Trusted/);
  });
});

describe('automatic sealing on filing, the signature image and the timestamp server', () => {
  it(`a rule for receipts seals every receipt PDF as it is filed, visibly, with the configured image and timestamp${hasPdfsig ? '' : ` (${pdfsigMissing})`}`, async () => {
    // The signature image: PNG or JPEG only, within the size limit, readable; only the signing administrator.
    const postImage = (token: string, name: string, bytes: Uint8Array, type = 'image/png') => {
      const body = multipartBody({}, { name, bytes, type });
      return t.request({
        method: 'POST',
        url: '/api/signing/settings/image',
        token,
        payload: body.payload,
        headers: body.headers,
      });
    };
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(600 * 1024)]);
    for (const [name, bytes, type, message] of [
      ['firma.txt', Buffer.from('hola'), 'text/plain', /«firma.txt» no es de un tipo aceptado/],
      ['grande.png', big, 'image/png', /supera 512 KB/],
      ['rota.png', big.subarray(0, 200), 'image/png', /dañada/],
    ] as const) {
      const refused = await postImage(admin.token, name, bytes, type);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toMatch(message);
    }
    expect((await postImage(sender.token, 'firma.png', SMALL_PNG)).statusCode).toBe(403);
    const set = await postImage(admin.token, 'firma.png', SMALL_PNG);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().hasImage).toBe(true);

    // The timestamp server in the settings (a test RFC 3161 authority).
    const { ca, caKey } = await caMaterial(t.app.db, t.config);
    const tsaKeys = await generateKeyPair();
    const tsaCert = await issueCertificate({
      subject: { commonName: 'TSA de prueba', organization: 'Aporta', country: 'GT' },
      publicKey: tsaKeys.publicKey,
      issuer: { der: ca, key: caKey },
      serial: newSerial(),
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 86_400_000),
      kind: 'signing',
      purpose: 'timestamping',
    });
    const tsa = await startTsa({ certificate: tsaCert, key: tsaKeys.privateKey, chain: [ca] });
    try {
      const settings = await json(admin.token, 'PUT', '/api/signing/settings', {
        showName: true,
        showPosition: true,
        showDate: true,
        timestampUrl: tsa.url,
      });
      expect(settings.json().timestampUrl).toBe(tsa.url);

      const rule = await json(admin.token, 'POST', '/api/signing/rules', { name: 'Recibos', documentKind: 'documento:RECIBO' });
      expect(rule.statusCode, rule.body).toBe(201);
      const kinds = (await json(admin.token, 'GET', '/api/signing/rules')).json().kinds.map((k: { kind: string }) => k.kind);
      expect(kinds).toEqual(expect.arrayContaining(['documento:RECIBO', 'documento:SOLVENCIA', 'planilla']));

      const folder = await json(admin.token, 'POST', '/api/folders', { name: 'Recibos sellados al archivar' });
      const fileIt = async (title: string, docType: string) => {
        const original = await samplePdf(title);
        const b = multipartBody(
          { folderId: String(folder.json().id), title, docType },
          { name: `${title}.pdf`, bytes: original },
        );
        const r = await t.request({
          method: 'POST',
          url: '/api/library/documents',
          token: admin.token,
          payload: b.payload,
          headers: b.headers,
        });
        expect(r.statusCode, r.body).toBe(201);
        const content = await t.request({
          method: 'GET',
          url: `/api/library/documents/${r.json().id}/content`,
          token: admin.token,
        });
        return { original, doc: r.json(), bytes: content.rawPayload };
      };
      const receipt = await fileIt('Recibo 77', 'RECIBO');
      const resolution = await fileIt('Resolución 3', 'RESOLUCION');
      // The receipt is stored sealed (the upload is the start of it: an incremental update); the resolution as it came.
      expect(receipt.bytes.length).toBeGreaterThan(receipt.original.length);
      expect(Buffer.from(receipt.bytes.subarray(0, receipt.original.length)).equals(receipt.original)).toBe(true);
      expect(receipt.doc.versions[0].note).toMatch(/sellado automáticamente/);
      expect(resolution.bytes.equals(resolution.original)).toBe(true);
      expect(tsa.served).toBe(1);

      const v = multipartBody({}, { name: 'recibo.pdf', bytes: receipt.bytes });
      const report = (
        await t.request({
          method: 'POST',
          url: '/api/signing/verify',
          token: outsider.token,
          payload: v.payload,
          headers: v.headers,
        })
      ).json();
      expect(report.signatures).toHaveLength(1);
      expect(report.signatures[0]).toMatchObject({
        signer: expect.stringMatching(/Sello institucional/),
        intact: true,
        chainTrusted: true,
        timestamp: { authority: 'TSA de prueba', matches: true },
      });
      if (hasPoppler) {
        // The seal is visible: its box is on the page as a reader extracts it.
        const text = pdfPages(Buffer.from(receipt.bytes)).join('\n');
        expect(text).toContain('Sellado digitalmente por');
        expect(text).toMatch(/Sello institucional/);
        expect(text).toMatch(/\d\d\/\d\d\/\d{4} \d\d:\d\d \(Guatemala\)/);
      }
      if (nss) {
        const out = nss.pdfsig(receipt.bytes);
        expect(out).toMatch(/Signature Validation: Signature is Valid\./);
        expect(out).toMatch(/Certificate Validation: Certificate is Trusted\./);
        expect(out).toMatch(/Total document signed/);
      }

      // A failing timestamp server does not lose the upload: stored as it came, the note says why.
      tsa.down = true;
      const unsealed = await fileIt('Recibo 78', 'RECIBO');
      expect(unsealed.bytes.equals(unsealed.original)).toBe(true);
      expect(unsealed.doc.versions[0].note).toMatch(/no se pudo sellar automáticamente \(El servidor de sellado de tiempo/);
    } finally {
      await tsa.close();
      await json(admin.token, 'PUT', '/api/signing/settings', {
        showName: true,
        showPosition: true,
        showDate: true,
        timestampUrl: null,
      });
      const removed = await json(admin.token, 'DELETE', '/api/signing/settings/image');
      expect(removed.json().hasImage).toBe(false);
    }
  });
});

/** A 1×1 PNG (a blue pixel). */
const SMALL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC',
  'base64',
);

describe('signedFilename', () => {
  const req = (state: 'BORRADOR' | 'PENDIENTE' | 'FIRMADO' | 'RECHAZADO', signed: boolean) => ({
    state,
    originalSha256: 'a'.repeat(64),
    currentSha256: (signed ? 'b' : 'a').repeat(64),
  });
  it('marks a document signed by all as -firmado, one partly signed as -firma-parcial, and leaves the rest', () => {
    expect(signedFilename('Resolución 12.PDF', req('FIRMADO', true))).toBe('Resolución 12-firmado.pdf');
    expect(signedFilename('acta', req('FIRMADO', true))).toBe('acta-firmado.pdf');
    expect(signedFilename('.pdf', req('FIRMADO', true))).toBe('documento-firmado.pdf');
    expect(signedFilename('acta.pdf', req('PENDIENTE', true))).toBe('acta-firma-parcial.pdf');
    expect(signedFilename('acta.pdf', req('RECHAZADO', true))).toBe('acta-firma-parcial.pdf');
    expect(signedFilename('acta.pdf', req('PENDIENTE', false))).toBe('acta.pdf');
    expect(signedFilename('acta.pdf', req('BORRADOR', false))).toBe('acta.pdf');
  });
});
