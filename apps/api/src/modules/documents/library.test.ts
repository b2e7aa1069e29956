import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs, contributors } from '../../db/schema/index.ts';
import { blobKey, MAX_BLOB_BYTES, putBlob, sha256Hex } from '../../platform/blobs.ts';
import { localFileStore } from '../../platform/files.ts';
import { checkUpload, detectType } from '../../platform/uploads.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { multipartBody, samplePdf } from '../../test/pdfs.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

let t: TestApp;
let admin: TestUser;
let reader: TestUser;
const dirs: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  reader = await t.createUser({ grants: [{ resource: 'documents', action: 'READ', scope: 'ALL' }] });
}, 60_000);
afterAll(async () => {
  await t?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const upload = async (
  token: string,
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type?: string },
) => {
  const body = multipartBody(fields, file);
  return t.request({ method: 'POST', url: '/api/library/documents', token, payload: body.payload, headers: body.headers });
};

describe('content-addressed storage', () => {
  it('keeps the same bytes once, under their SHA-256, and detects types from the bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aporta-blobs-'));
    dirs.push(dir);
    const store = localFileStore(dir);
    const pdf = await samplePdf('una vez');
    const a = await putBlob(t.app.db, store, pdf, 'application/pdf');
    const b = await putBlob(t.app.db, store, pdf, 'application/pdf');
    expect(a).toBe(sha256Hex(pdf));
    expect(b).toBe(a);
    expect(blobKey(a)).toBe(`blobs/${a.slice(0, 2)}/${a.slice(2, 4)}/${a}`);
    expect(readdirSync(join(dir, 'blobs', a.slice(0, 2), a.slice(2, 4)))).toEqual([a]);
    expect((await t.app.db.select().from(blobs)).filter((r) => r.sha256 === a)).toHaveLength(1);

    expect(detectType(pdf)).toBe('application/pdf');
    expect(detectType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(detectType(Buffer.from('MZ\x90\x00'), 'programa.exe')).toBeNull();
    expect(() => checkUpload(Buffer.from('hola'), 'a.exe')).toThrow(/no es de un tipo aceptado/);
    expect(() => checkUpload(new Uint8Array(0), 'vacio.pdf')).toThrow(/está vacío/);
    expect(() => checkUpload(new Uint8Array(MAX_BLOB_BYTES + 1), 'grande.pdf')).toThrow(/supera el tamaño máximo/);
  });
});

describe('documents library (/folders)', () => {
  it('folders, sub-folders, upload, versions, search, preview and download', async () => {
    const root = await t.request({ method: 'POST', url: '/api/folders', token: admin.token, payload: { name: 'Resoluciones' } });
    expect(root.statusCode).toBe(201);
    const dup = await t.request({ method: 'POST', url: '/api/folders', token: admin.token, payload: { name: 'resoluciones' } });
    expect(dup.statusCode).toBe(409);
    const slash = await t.request({ method: 'POST', url: '/api/folders', token: admin.token, payload: { name: 'a/b' } });
    expect(slash.statusCode).toBe(400);
    const sub = await t.request({
      method: 'POST',
      url: '/api/folders',
      token: admin.token,
      payload: { name: '2026', parentId: root.json().id },
    });
    expect(sub.statusCode).toBe(201);
    const denied = await t.request({ method: 'POST', url: '/api/folders', token: reader.token, payload: { name: 'X' } });
    expect(denied.statusCode).toBe(403);

    const folderId = String(sub.json().id);
    const first = await upload(
      admin.token,
      { folderId, title: 'Resolución de junta 5', docType: 'RESOLUCION' },
      { name: 'res5.pdf', bytes: await samplePdf('Resolución 5') },
    );
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ version: 1, pages: 1, contentType: 'application/pdf', folderName: '2026' });
    const attachment = await upload(
      admin.token,
      { folderId, title: 'Notas', docType: 'OTRO' },
      { name: 'notas.txt', bytes: Buffer.from('texto simple'), type: 'text/plain' },
    );
    expect(attachment.statusCode).toBe(201);
    // Bad input: no type, damaged PDF, unknown folder, no title, a type not accepted.
    expect((await upload(admin.token, { folderId, title: 'X' }, { name: 'a.pdf', bytes: await samplePdf() })).statusCode).toBe(
      400,
    );
    const damaged = await upload(
      admin.token,
      { folderId, title: 'X', docType: 'OTRO' },
      { name: 'roto.pdf', bytes: Buffer.from('%PDF-1.4 nada') },
    );
    expect(damaged.json().error.message).toMatch(/«roto.pdf» no es un PDF válido/);
    expect(
      (
        await upload(
          admin.token,
          { folderId: '999999', title: 'X', docType: 'OTRO' },
          { name: 'a.pdf', bytes: await samplePdf() },
        )
      ).statusCode,
    ).toBe(404);
    const noTitle = await upload(
      admin.token,
      { folderId, title: ' ', docType: 'OTRO' },
      { name: 'a.pdf', bytes: await samplePdf() },
    );
    expect(noTitle.json().error.message).toMatch(/Título: es obligatorio/);
    expect(
      (await upload(admin.token, { folderId, title: 'X', docType: 'OTRO' }, { name: 'x.exe', bytes: Buffer.from('MZ....') }))
        .statusCode,
    ).toBe(400);

    const id = first.json().id;
    const v2 = multipartBody({}, { name: 'res5-v2.pdf', bytes: await samplePdf('Resolución 5 corregida') });
    const version = await t.request({
      method: 'POST',
      url: `/api/library/documents/${id}/versions`,
      token: admin.token,
      payload: v2.payload,
      headers: v2.headers,
    });
    expect(version.statusCode).toBe(201);
    expect(version.json().versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);

    const search = await t.request({
      method: 'GET',
      url: '/api/library/documents?q=junta&docType=RESOLUCION',
      token: reader.token,
    });
    expect(search.json()).toMatchObject({ total: 1, items: [{ id, version: 2, filename: 'res5-v2.pdf' }] });
    const preview = await t.request({ method: 'GET', url: `/api/library/documents/${id}/content`, token: reader.token });
    expect(preview.headers['content-type']).toBe('application/pdf');
    // An uploaded PDF is saved, never shown by the browser from this origin (issue 25).
    expect(preview.headers['content-disposition']).toMatch(/^attachment/);
    const old = await t.request({
      method: 'GET',
      url: `/api/library/documents/${id}/content?version=1&download=1`,
      token: reader.token,
    });
    expect(old.headers['content-disposition']).toMatch(/^attachment; filename="res5.pdf"/);
    expect(sha256Hex(old.rawPayload)).toBe(first.json().sha256);

    const listing = await t.request({ method: 'GET', url: `/api/folders?parentId=${root.json().id}`, token: reader.token });
    expect(listing.json()).toMatchObject({ path: [{ name: 'Resoluciones' }], items: [{ name: '2026', documents: 2 }] });
    expect((await t.request({ method: 'DELETE', url: `/api/folders/${sub.json().id}`, token: admin.token })).statusCode).toBe(
      409,
    );
  });
});

describe("what a document concerns, the forms' options and the export", () => {
  it('records the entity and the contributor (by CUI, within scope), lists and exports them', async () => {
    const fx = await contributorFixtures(t.app.db);
    const cuiA = newCui();
    const cuiB = newCui();
    await t.app.db.insert(contributors).values(
      [
        [cuiA, fx.entityA.id],
        [cuiB, fx.entityB.id],
      ].map(([cui, entityId]) => ({
        cui: cui as string,
        firstName: 'Marta',
        firstSurname: 'Ixcot',
        birthDate: '1980-02-03',
        sex: 'F' as const,
        typeId: fx.typeId,
        municipalityId: fx.municipality.id,
        entityId: entityId as number,
      })),
    );
    const clerk = await t.createUser({
      grants: (['READ', 'CREATE', 'EXPORT'] as const).map((action) => ({
        resource: 'documents' as const,
        action,
        scope: 'ENTITY' as const,
      })),
    });
    await attachUserToEntity(t.app.db, clerk.id, fx.entityA.id);

    const options = await t.request({ method: 'GET', url: '/api/folders/options', token: clerk.token });
    expect(options.json()).toEqual({ institution: false, entities: [expect.objectContaining({ id: fx.entityA.id })] });
    const adminOptions = await t.request({ method: 'GET', url: '/api/folders/options', token: admin.token });
    expect(adminOptions.json().institution).toBe(true);
    expect(adminOptions.json().entities.map((e: { id: number }) => e.id)).toEqual(
      expect.arrayContaining([fx.entityA.id, fx.entityB.id]),
    );

    // The clerk's folder is owned by their entity; one of the institution or another entity is refused.
    const own = await t.request({
      method: 'POST',
      url: '/api/folders',
      token: clerk.token,
      payload: { name: 'Actas', entityId: fx.entityA.id },
    });
    expect(own.statusCode).toBe(201);
    expect(own.json().entityId).toBe(fx.entityA.id);
    const other = await t.request({
      method: 'POST',
      url: '/api/folders',
      token: clerk.token,
      payload: { name: 'Ajena', entityId: fx.entityB.id },
    });
    expect(other.json().error.details).toEqual([expect.objectContaining({ path: 'entityId' })]);
    expect(
      (await t.request({ method: 'POST', url: '/api/folders', token: clerk.token, payload: { name: 'Inst' } })).statusCode,
    ).toBe(403);

    const folderId = String(own.json().id);
    const pdf = { name: 'acta.pdf', bytes: await samplePdf('Acta notarial') };
    const made = await upload(
      clerk.token,
      { folderId, title: 'Acta de supervivencia', docType: 'ACTA', contributorCui: cuiA },
      pdf,
    );
    expect(made.statusCode).toBe(201);
    // The contributor's entity is what the document concerns when none is given.
    expect(made.json()).toMatchObject({
      contributorCui: cuiA,
      contributorName: 'Marta Ixcot',
      aboutEntityId: fx.entityA.id,
      aboutEntityName: fx.entityA.name,
    });
    const outOfScope = await upload(clerk.token, { folderId, title: 'X', docType: 'ACTA', contributorCui: cuiB }, pdf);
    expect(outOfScope.statusCode).toBe(400);
    expect(outOfScope.json().error.details).toEqual([expect.objectContaining({ path: 'contributorCui' })]);
    const badCui = await upload(clerk.token, { folderId, title: 'X', docType: 'ACTA', contributorCui: '123' }, pdf);
    expect(badCui.json().error.details).toEqual([expect.objectContaining({ path: 'contributorCui' })]);
    const otherEntity = await upload(
      clerk.token,
      { folderId, title: 'X', docType: 'ACTA', aboutEntityId: String(fx.entityB.id) },
      pdf,
    );
    expect(otherEntity.json().error.details).toEqual([expect.objectContaining({ path: 'aboutEntityId' })]);
    const missing = await upload(admin.token, { folderId, title: 'X', docType: 'ACTA', aboutEntityId: '99999999' }, pdf);
    expect(missing.statusCode).toBe(400);

    const exported = await t.request({
      method: 'GET',
      url: `/api/folders/${folderId}/documents/export?format=xlsx`,
      token: clerk.token,
    });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as never);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(1).value).toBe('Acta de supervivencia');
    expect(sheet.getRow(2).getCell(5).value).toBe(cuiA);
    // Export is its own permission.
    expect((await t.request({ method: 'GET', url: '/api/library/documents/export', token: reader.token })).statusCode).toBe(403);

    // Deleting: the folder with a document is refused; the document, then the empty folder, go.
    const clerkDel = await t.createUser({
      grants: (['READ', 'DELETE'] as const).map((action) => ({
        resource: 'documents' as const,
        action,
        scope: 'ENTITY' as const,
      })),
    });
    await attachUserToEntity(t.app.db, clerkDel.id, fx.entityA.id);
    expect((await t.request({ method: 'DELETE', url: `/api/folders/${folderId}`, token: clerkDel.token })).statusCode).toBe(409);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/library/documents/${made.json().id}`, token: clerkDel.token })).statusCode,
    ).toBe(204);
    expect((await t.request({ method: 'DELETE', url: `/api/folders/${folderId}`, token: clerkDel.token })).statusCode).toBe(204);
  });
});
