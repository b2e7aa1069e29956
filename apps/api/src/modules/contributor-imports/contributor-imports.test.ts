import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { formatCui } from '@aporta/domain';
import archiver from 'archiver';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contributors, cuiApprovalRequests } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { contributorFixtures, newCui } from '../contributors/fixtures.ts';

let t: TestApp;
let clerk: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await t.createUser({
    grants: [
      { resource: 'contributor-bulk-upload', action: 'READ', scope: 'ALL' },
      { resource: 'contributor-bulk-upload', action: 'CREATE', scope: 'ALL' },
    ],
  });
  fx = await contributorFixtures(t.database.db);
});
afterAll(() => t.close());

/** A multipart/form-data body with one file field, as a browser sends it. */
function multipart(fileName: string, content: Buffer, type = 'application/octet-stream') {
  const boundary = `----aporta${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (fileName: string, content: Buffer, token = clerk.token, id?: string) =>
  t.request({ method: 'POST', url: `/api/contributor-imports${id ? `?id=${id}` : ''}`, token, ...multipart(fileName, content) });

const header = 'CUI;NIT;PRIMER_NOMBRE;PRIMER_APELLIDO;FECHA_NACIMIENTO;SEXO;TIPO;ENTIDAD;RENGLON;SALARIO;MUNICIPIO';
const goodLine = (cui = newCui()) =>
  `${formatCui(cui)};576937-K;José;Pérez;01/05/1990;M;ACTIVO;${fx.entityA.code};011;3500.50;0904`;

describe('bulk upload', () => {
  it('serves the template as xlsx and csv', async () => {
    const csv = await t.request({ method: 'GET', url: '/api/contributor-imports/template?format=csv', token: clerk.token });
    expect(csv.body.replace(/^\uFEFF/, '').trim()).toBe(
      'CUI;NIT;PRIMER_NOMBRE;SEGUNDO_NOMBRE;TERCER_NOMBRE;PRIMER_APELLIDO;SEGUNDO_APELLIDO;APELLIDO_CASADA;FECHA_NACIMIENTO;SEXO;ESTADO_CIVIL;DIRECCION;MUNICIPIO;TELEFONO;CORREO;TIPO;ESTADO;ENTIDAD;RENGLON;FECHA_INGRESO;SALARIO',
    );
    const xlsx = await t.request({ method: 'GET', url: '/api/contributor-imports/template', token: clerk.token });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as never);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Afiliados', 'Instrucciones']);
    expect(wb.worksheets[0].getRow(1).getCell(1).value).toBe('CUI');
  });

  it('validates a UTF-8 CSV with BOM: valid rows, exceptions per row and column, then commits all valid rows at once', async () => {
    const dupCui = newCui();
    const lines = [
      header,
      ...Array.from({ length: 10 }, () => goodLine()),
      `1680352240101;576937-K;Ana;López;01/05/1990;F;ACTIVO;${fx.entityA.code};011;100;0904`,
      `${newCui()};8977112-0;Ana;López;31/02/1990;F;NADA;${fx.entityA.code};011;mil;0904`,
      goodLine(dupCui),
      goodLine(dupCui),
    ];
    const id = randomUUID();
    const res = await upload('afiliados.csv', Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8'), clerk.token, id);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ id, status: 'VALIDADO', totalRows: 14, validRows: 11, errorRows: 3, format: 'csv' });

    const errs = await t.request({ method: 'GET', url: `/api/contributor-imports/${id}/rows?kind=error`, token: clerk.token });
    const items = errs.json().items;
    expect(items.map((r: { rowNumber: number }) => r.rowNumber)).toEqual([12, 13, 15]);
    expect(items[0].errors).toEqual([{ column: 'CUI', message: 'El dígito verificador del CUI no es válido.' }]);
    const cols = items[1].errors.map((e: { column: string }) => e.column).sort();
    expect(cols).toEqual(['FECHA_NACIMIENTO', 'NIT', 'SALARIO', 'TIPO']);
    expect(items[2].errors[0].message).toBe('CUI repetido en el archivo (ya está en la fila 14).');
    const valid = await t.request({
      method: 'GET',
      url: `/api/contributor-imports/${id}/rows?kind=valid&pageSize=5`,
      token: clerk.token,
    });
    expect(valid.json().total).toBe(11);
    expect(valid.json().items[0].name).toBe('José Pérez');

    const ex = await t.request({ method: 'GET', url: `/api/contributor-imports/${id}/exceptions`, token: clerk.token });
    expect(ex.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(ex.rawPayload as never);
    const sheet = wb.worksheets[0];
    expect(sheet.rowCount).toBe(4);
    expect(String(sheet.getRow(2).getCell(1).value)).toBe('1680352240101');
    expect(String(sheet.getRow(2).getCell(23).value)).toMatch(/^CUI: El dígito verificador/);

    const commit = await t.request({ method: 'POST', url: `/api/contributor-imports/${id}/commit`, token: clerk.token });
    expect(commit.statusCode).toBe(200);
    expect(commit.json()).toMatchObject({ status: 'CONFIRMADO', committedRows: 11 });
    const rows = await t.database.db.select().from(contributors).where(eq(contributors.importId, id));
    expect(rows).toHaveLength(11);
    expect(rows[0]).toMatchObject({
      nit: '576937K',
      salary: '3500.50',
      cuiState: 'PENDIENTE',
      birthDate: '1990-05-01',
      searchName: 'JOSE PEREZ',
    });
    const reqs = await t.database.db.select().from(cuiApprovalRequests).where(eq(cuiApprovalRequests.contributorId, rows[0].id));
    expect(reqs).toMatchObject([{ kind: 'ALTA', state: 'PENDIENTE', requestedBy: clerk.id }]);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(rows[0].id)));
    expect(audit.map((a) => a.action)).toContain('CREATE');

    const again = await t.request({ method: 'POST', url: `/api/contributor-imports/${id}/commit`, token: clerk.token });
    expect(again.statusCode).toBe(409);
    // The same file once more: every CUI is now an exception against the database.
    const second = await upload('afiliados.csv', Buffer.from(lines.join('\n'), 'utf8'));
    expect(second.json()).toMatchObject({ validRows: 0, errorRows: 14 });
  });

  it('reads Latin-1 CSV with commas, accents intact', async () => {
    const text = `${header.replace(/;/g, ',')}\n${goodLine().replace(/;/g, ',').replace('José', 'Íñigo')}\n`;
    const res = await upload('latin1.csv', Buffer.from(text, 'latin1'));
    expect(res.json()).toMatchObject({ validRows: 1, errorRows: 0 });
    const valid = await t.request({
      method: 'GET',
      url: `/api/contributor-imports/${res.json().id}/rows?kind=valid`,
      token: clerk.token,
    });
    expect(valid.json().items[0].name).toBe('Íñigo Pérez');
  });

  it('reads xlsx with numbers and dates as Excel writes them, and refuses formula cells row by row', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Hoja1');
    ws.addRow(header.split(';'));
    const cui = newCui();
    ws.addRow([
      Number(cui),
      '7108-0',
      'Rosa',
      'Cux',
      new Date(Date.UTC(1985, 2, 4)),
      'F',
      'ACTIVO',
      fx.entityA.code,
      '011',
      4200.25,
      '0904',
    ]);
    ws.addRow([
      Number(newCui()),
      null,
      'Luis',
      'Batz',
      31_107,
      'M',
      'ACTIVO',
      fx.entityA.code,
      '011',
      { formula: 'B1*2', result: 10 },
      '0904',
    ]);
    const res = await upload('libro.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ format: 'xlsx', validRows: 1, errorRows: 1 });
    const errs = await t.request({
      method: 'GET',
      url: `/api/contributor-imports/${res.json().id}/rows?kind=error`,
      token: clerk.token,
    });
    expect(errs.json().items[0].errors).toEqual([
      { column: 'SALARIO', message: 'La celda contiene una fórmula; pegue solo valores.' },
    ]);
    const commit = await t.request({
      method: 'POST',
      url: `/api/contributor-imports/${res.json().id}/commit`,
      token: clerk.token,
    });
    expect(commit.json().committedRows).toBe(1);
    const [row] = await t.database.db.select().from(contributors).where(eq(contributors.cui, cui));
    expect(row).toMatchObject({ birthDate: '1985-03-04', salary: '4200.25', nit: '71080' });
  });

  it('names missing and unknown columns, and refuses empty or merged header rows', async () => {
    const wrong = await upload('x.csv', Buffer.from('CUI;NOMBRE;COLOR\n1;2;3\n'));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(
      'Las columnas no coinciden con la plantilla: faltan PRIMER_NOMBRE, PRIMER_APELLIDO, FECHA_NACIMIENTO, SEXO, TIPO; no se reconocen NOMBRE, COLOR.',
    );
    const empty = await upload('x.csv', Buffer.from(`;;\n${goodLine()}\n`));
    expect(empty.json().error.message).toMatch(/primera fila está vacía/);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('H');
    ws.addRow(['CUI', 'DATOS PERSONALES', null, 'TIPO']);
    ws.mergeCells('B1:C1');
    const merged = await upload('m.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(merged.statusCode).toBe(400);
    expect(merged.json().error.message).toMatch(/celdas vacías o combinadas \(columnas C\)/);
  });

  it('refuses a non-spreadsheet, an old .xls, and a file over 20 MB', async () => {
    const pdf = await upload('a.pdf', Buffer.from('%PDF-1.4\n\0\0binary'));
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().error.message).toMatch(/no es una hoja de cálculo/);
    const xls = await upload('a.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    expect(xls.json().error.message).toMatch(/\.xls antiguo/);
    const big = await upload('big.csv', Buffer.alloc(21 * 1024 * 1024, 'a'));
    expect(big.statusCode).toBe(413);
  });

  it('refuses a zip bomb without expanding it', async () => {
    const archive = archiver('zip', { zlib: { level: 1 } });
    const chunks: Buffer[] = [];
    archive.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((r) => archive.on('end', r));
    archive.append('<workbook/>', { name: 'xl/workbook.xml' });
    let left = 320;
    const zeros = new Readable({
      read() {
        this.push(left-- > 0 ? Buffer.alloc(1024 * 1024) : null);
      },
    });
    archive.append(zeros, { name: 'xl/worksheets/sheet1.xml' });
    await archive.finalize();
    await done;
    const res = await upload('bomba.xlsx', Buffer.concat(chunks));
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toMatch(/bomba zip/);
  });

  it('refuses text in the CUI number column written in scientific notation, and impossible dates', async () => {
    const res = await upload('x.csv', Buffer.from(`${header}\n1.58756E+12;;Ana;López;30/02/1990;F;ACTIVO;;;;\n`));
    const errs = await t.request({
      method: 'GET',
      url: `/api/contributor-imports/${res.json().id}/rows?kind=error`,
      token: clerk.token,
    });
    const byCol = Object.fromEntries(
      errs.json().items[0].errors.map((e: { column: string; message: string }) => [e.column, e.message]),
    );
    expect(byCol.CUI).toMatch(/notación científica/);
    expect(byCol.FECHA_NACIMIENTO).toMatch(/Fecha imposible/);
  });

  it('keeps an upload private to its uploader and commits nothing when a CUI appeared meanwhile', async () => {
    const cui = newCui();
    const res = await upload('x.csv', Buffer.from(`${header}\n${goodLine()}\n${goodLine(cui)}\n`));
    const other = await t.createUser({
      grants: [
        { resource: 'contributor-bulk-upload', action: 'CREATE', scope: 'ALL' },
        { resource: 'contributor-bulk-upload', action: 'READ', scope: 'ALL' },
      ],
    });
    expect(
      (await t.request({ method: 'GET', url: `/api/contributor-imports/${res.json().id}`, token: other.token })).statusCode,
    ).toBe(404);
    await t.database.db
      .insert(contributors)
      .values({ cui, firstName: 'X', firstSurname: 'Y', birthDate: '1990-01-01', sex: 'M', typeId: fx.typeId });
    const commit = await t.request({
      method: 'POST',
      url: `/api/contributor-imports/${res.json().id}/commit`,
      token: clerk.token,
    });
    expect(commit.statusCode).toBe(409);
    expect(commit.json().error.details[0]).toMatchObject({ row: 3, path: 'CUI' });
    const rows = await t.database.db.select().from(contributors).where(eq(contributors.importId, res.json().id));
    expect(rows).toHaveLength(0);
    const status = await t.request({ method: 'GET', url: `/api/contributor-imports/${res.json().id}`, token: clerk.token });
    expect(status.json().status).toBe('VALIDADO');
  });
});
