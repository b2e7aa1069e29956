import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import type { Cents } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalCases } from '../db/schema/index.ts';
import { contributorFixtures } from '../modules/contributors/fixtures.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { encryptedWorkbook } from '../test/office.ts';
import { multipartBody, samplePdf } from '../test/pdfs.ts';
import { cleanFileName, detectType, pdfActiveContent } from './uploads.ts';

/**
 * Every upload route (the multipart routes of the OpenAPI document) reads its file through
 * platform/uploads.ts: the type from the bytes whatever is declared, active PDFs refused where they are
 * kept, names cleaned. The table below must name every upload route: a new one fails the first test.
 */
let t: TestApp;
let admin: TestUser;
let pdf: Buffer;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC', 'base64');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

interface UploadCase {
  url: string;
  fields?: Record<string, string>;
  /** The ending and declared type of a file this route takes. */
  ext: string;
  type: string;
  file: () => Buffer;
}
let cases: Record<string, UploadCase>;

/** A PDF whose catalog runs a script when it opens: plain, with an escaped name, or inside a compressed object stream. */
function activePdf(variant: 'plain' | 'escaped' | 'objstm' | 'launch' | 'embedded'): Buffer {
  const action = {
    plain: '/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>',
    escaped: '/OpenAction << /S /J#61vaScript /J#53 (app.alert\\(1\\)) >>',
    objstm: '/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>',
    launch: '/OpenAction << /S /Launch /F (cmd.exe) >>',
    embedded: '/Names << /EmbeddedFiles << /Names [(a.exe) 5 0 R] >> >>',
  }[variant];
  const catalog = `<< /Type /Catalog /Pages 2 0 R ${action} >>`;
  const pages = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>';
  if (variant !== 'objstm') {
    const body = [`1 0 obj\n${catalog}\nendobj\n`, `2 0 obj\n${pages}\nendobj\n`, `3 0 obj\n${page}\nendobj\n`];
    return Buffer.from(`%PDF-1.4\n${body.join('')}trailer\n<< /Root 1 0 R /Size 4 >>\n%%EOF\n`, 'latin1');
  }
  // PDF 1.5: the three dictionaries inside one FlateDecode object stream (no name visible in the raw bytes).
  const objects = [catalog, pages, page];
  let offsets = '';
  let data = '';
  objects.forEach((o, i) => {
    offsets += `${i + 1} ${data.length} `;
    data += `${o}\n`;
  });
  const plain = Buffer.from(`${offsets}\n${data}`, 'latin1');
  const packed = deflateSync(plain);
  const head = Buffer.from(
    `%PDF-1.5\n4 0 obj\n<< /Type /ObjStm /N 3 /First ${offsets.length + 1} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 5 >>\n%%EOF\n', 'latin1');
  return Buffer.concat([head, packed, tail]);
}

/** The file names and titles in an answer (keys naming a file, a name or a title), at any depth. */
function namesIn(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return /file|name|title/i.test(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => namesIn(v, key));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => namesIn(v, k));
  return [];
}

const post = (c: UploadCase, file: { name: string; bytes: Uint8Array; type: string }) => {
  const body = multipartBody(c.fields ?? {}, file);
  return t.request({ method: 'POST', url: c.url, token: admin.token, headers: body.headers, payload: body.payload });
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  const other = await t.createUser({ system: true });
  const fx = await contributorFixtures(t.database.db);
  pdf = await samplePdf('Acta notarial de prueba');
  const json = async (method: 'POST', url: string, payload: Record<string, unknown>) => {
    const res = await t.request({ method, url, token: admin.token, payload });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  // A case needs arrears to be opened through the API; the upload only needs the case to exist.
  const [legalCase] = await t.database.db
    .insert(legalCases)
    .values({ number: 'EXP-2026-999001', entityId: fx.entityA.id, openedOn: '2026-01-05', amountAtOpening: 1000n as Cents })
    .returning({ id: legalCases.id });
  const room = await json('POST', '/api/chat/direct', { userId: other.id });
  const folder = await json('POST', '/api/folders', { name: 'Cargas de prueba' });
  const firstDoc = multipartBody(
    { folderId: String(folder.id), title: 'Base', docType: 'OTRO' },
    { name: 'base.pdf', bytes: pdf },
  );
  const doc = await t.request({
    method: 'POST',
    url: '/api/library/documents',
    token: admin.token,
    headers: firstDoc.headers,
    payload: firstDoc.payload,
  });
  expect(doc.statusCode, doc.body).toBe(201);
  const template = async (url: string) => {
    const res = await t.request({ method: 'GET', url, token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.body.replace(/^\uFEFF/, '').trim();
  };
  const planillaHeader = await template('/api/planilla-uploads/template?format=csv');
  const contributorHeader = await template('/api/contributor-imports/template?format=csv');
  const row = (header: string) =>
    header
      .split(';')
      .map((_, i) => (i === 0 ? '1234567890101' : 'x'))
      .join(';');
  const pdfCase = (url: string, fields?: Record<string, string>): UploadCase => ({
    url,
    fields,
    ext: 'pdf',
    type: 'application/pdf',
    file: () => pdf,
  });
  cases = {
    'POST /api/planilla-uploads': {
      url: `/api/planilla-uploads?entityId=${fx.entityA.id}&period=2024-01`,
      ext: 'csv',
      type: 'text/csv',
      file: () => Buffer.from(`${planillaHeader}\r\n${row(planillaHeader)}\r\n`),
    },
    'POST /api/contributor-imports': {
      url: '/api/contributor-imports',
      ext: 'csv',
      type: 'text/csv',
      file: () => Buffer.from(`${contributorHeader}\r\n${row(contributorHeader)}\r\n`),
    },
    // A DER sequence (the shape of a PKCS#12) that is not a valid one: refused by the seal's own check.
    'POST /api/signing/seal': {
      url: '/api/signing/seal',
      fields: { password: 'clave' },
      ext: 'p12',
      type: 'application/x-pkcs12',
      file: () => Buffer.from([0x30, 0x03, 0x02, 0x01, 0x03]),
    },
    'POST /api/signing/settings/image': { url: '/api/signing/settings/image', ext: 'png', type: 'image/png', file: () => PNG },
    'POST /api/signing/requests': pdfCase('/api/signing/requests', { title: 'Prueba', signers: String(admin.id), send: 'false' }),
    'POST /api/signing/verify': pdfCase('/api/signing/verify'),
    'POST /api/legal/cases/:id/documents': pdfCase(`/api/legal/cases/${legalCase.id}/documents`),
    'POST /api/chat/conversations/:id/attachments': pdfCase(`/api/chat/conversations/${room.id}/attachments`),
    'POST /api/sig/uploads': pdfCase('/api/sig/uploads'),
    // No request is created here (a flow and its form would be): the file is read, and refused, before the id is looked up.
    'POST /api/sig/items/:id/attachments': pdfCase('/api/sig/items/999999/attachments'),
    'POST /api/survival/attachments': pdfCase('/api/survival/attachments'),
    'POST /api/library/documents': pdfCase('/api/library/documents', {
      folderId: String(folder.id),
      title: 'Carga',
      docType: 'OTRO',
    }),
    'POST /api/library/documents/:id/versions': pdfCase(`/api/library/documents/${doc.json().id}/versions`),
  };
}, 120_000);

afterAll(() => t?.close());

describe('the upload routes', () => {
  it('every multipart route of the modules is in this table', () => {
    // The OpenAPI document has no request body for a multipart route (no body schema): the sources are read,
    // each `consumes: ['multipart/form-data']` paired with the route it belongs to.
    const found: string[] = [];
    const modules = fileURLToPath(new URL('../modules', import.meta.url));
    // A module's routes.ts and the routes-<part>.ts files it registers.
    const routeFiles = readdirSync(modules).flatMap((name) =>
      readdirSync(join(modules, name))
        .filter((f) => /^routes(-[a-z0-9-]+)?\.ts$/.test(f))
        .map((f) => join(modules, name, f)),
    );
    for (const file of routeFiles) {
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/app\.(post|put|patch)\(\s*'([^']+)'[\s\S]*?(?=app\.(?:get|post|put|patch|delete)\(|$)/g))
        if (m[0].includes("consumes: ['multipart/form-data']")) found.push(`${m[1].toUpperCase()} ${m[2]}`);
    }
    expect(found.sort()).toEqual(Object.keys(cases).sort());
  });

  it('reads the type from the bytes on every route: a file whose declared type lies is refused', {
    timeout: 180_000,
  }, async () => {
    const accepted: string[] = [];
    for (const [route, c] of Object.entries(cases)) {
      // HTML with a script, named and declared as what the route takes.
      const html = await post(c, { name: `documento.${c.ext}`, bytes: HTML, type: c.type });
      if (![400, 415].includes(html.statusCode)) accepted.push(`${route} HTML as .${c.ext}: ${html.statusCode}`);
      else expect(typeof html.json().error.message, route).toBe('string');
      // An encrypted workbook or a PNG declared as what the route takes.
      const other =
        c.ext === 'png' ? { bytes: pdf, what: 'PDF' } : { bytes: c.ext === 'pdf' ? PNG : encryptedWorkbook(), what: 'otro' };
      const lie = await post(c, { name: `documento.${c.ext}`, bytes: other.bytes, type: c.type });
      if (![400, 415].includes(lie.statusCode)) accepted.push(`${route} ${other.what} as .${c.ext}: ${lie.statusCode}`);
    }
    expect(accepted).toEqual([]);
  });

  it('refuses a PDF with active content wherever a PDF is kept, compressed or escaped; a plain PDF is taken', {
    timeout: 180_000,
  }, async () => {
    for (const variant of ['plain', 'escaped', 'objstm', 'launch', 'embedded'] as const) {
      expect(pdfActiveContent(activePdf(variant)), variant).not.toBeNull();
    }
    expect(pdfActiveContent(pdf)).toBeNull();
    const kept = Object.entries(cases).filter(([route, c]) => c.ext === 'pdf' && route !== 'POST /api/signing/verify');
    for (const [route, c] of kept) {
      for (const variant of ['plain', 'objstm'] as const) {
        const res = await post(c, { name: 'acta.pdf', bytes: activePdf(variant), type: 'application/pdf' });
        expect(res.statusCode, `${route} ${variant}: ${res.body}`).toBe(400);
        expect(res.json().error.message).toMatch(/contiene JavaScript/);
      }
    }
    const taken = await post(cases['POST /api/survival/attachments'], { name: 'acta.pdf', bytes: pdf, type: 'application/pdf' });
    expect(taken.statusCode, taken.body).toBe(201);
  });

  it('cleans file names on every route: no 5xx, and every stored or answered name is clean', { timeout: 180_000 }, async () => {
    const names = (ext: string) => [
      `acta\u0000nula.${ext}`,
      `informe\u202Egnp.${ext}`,
      `\u2066firma\u2069 \u200Bfinal.${ext}`,
      `../../etc/passwd.${ext}`,
      `C:\\Users\\ana\\..\\acta.${ext}`,
      `campana\u0007\u001b[31m.${ext}`,
      `${'largo'.repeat(100)}.${ext}`,
      `\u0000`,
    ];
    const failures: string[] = [];
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    const dirty = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|\.\.|[/\\]/;
    for (const [route, c] of Object.entries(cases)) {
      for (const name of names(c.ext)) {
        const res = await post(c, { name, bytes: c.file(), type: c.type });
        if (res.statusCode >= 500) failures.push(`${route} ${JSON.stringify(name)}: ${res.statusCode} ${res.body}`);
        else if (res.statusCode < 300) {
          const shown = namesIn(res.json()).filter((n) => dirty.test(n));
          if (shown.length) failures.push(`${route} ${JSON.stringify(name)}: answered ${JSON.stringify(shown)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    const stored = (await t.database.db.execute(sql`
      select filename as name from stored_files
      union all select filename from document_versions
      union all select title from documents
      union all select file_name from import_batches`)) as unknown as { rows: { name: string }[] };
    const bad = stored.rows.map((r) => r.name).filter((n) => dirty.test(n) || [...n].length > 200);
    expect(bad).toEqual([]);
    expect(stored.rows.length).toBeGreaterThan(10);
  });
});

describe('cleanFileName and detectType', () => {
  it('keeps a plain name, removes what deceives, bounds the length and keeps the ending', () => {
    expect(cleanFileName('Acta de José (copia).pdf')).toBe('Acta de José (copia).pdf');
    expect(cleanFileName('informe\u202Efdp.exe')).toBe('informefdp.exe');
    expect(cleanFileName('a\u0000b\u0007.pdf')).toBe('a_b_.pdf');
    expect(cleanFileName('../../x.pdf')).toBe('_._x.pdf');
    expect(cleanFileName('..')).toBe('archivo');
    expect(cleanFileName('', 'acta')).toBe('acta');
    const long = cleanFileName(`${'ñ'.repeat(400)}.pdf`);
    expect(long.endsWith('.pdf')).toBe(true);
    expect([...long].length).toBeLessThanOrEqual(150);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(240);
  });

  it('tells an xlsx from a docx by its directory, not its name', () => {
    expect(detectType(HTML, 'nota.txt')).toBeNull();
    expect(detectType(Buffer.from('Acta de la reunión'), 'nota.txt')).toBe('text/plain');
    expect(detectType(encryptedWorkbook(), 'clave.xlsx')).toBeNull();
  });
});
