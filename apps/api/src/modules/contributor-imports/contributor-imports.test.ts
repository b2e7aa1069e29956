import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { formatCui } from '@aporta/domain';
import archiver from 'archiver';
import { eq, sql } from 'drizzle-orm';
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
  // Validation is a background job: this app's worker runs it.
  await t.app.jobs.start();
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

const post = (fileName: string, content: Buffer, token = clerk.token, id?: string) =>
  t.request({ method: 'POST', url: `/api/contributor-imports${id ? `?id=${id}` : ''}`, token, ...multipart(fileName, content) });

/**
 * Uploads and, once the upload is accepted (201, the validation continues in the background), waits for
 * the validation and answers the batch as GET /api/contributor-imports/:id then shows it.
 */
async function upload(fileName: string, content: Buffer, token = clerk.token, id?: string) {
  const res = await post(fileName, content, token, id);
  if (res.statusCode !== 201) return res;
  expect(res.json()).toMatchObject({ status: 'VALIDANDO', phase: 'VALIDACION' });
  return waitForValidation(res.json().id, token);
}

/** GET /api/contributor-imports/:id until the batch leaves VALIDANDO (its job is done). */
async function waitForValidation(id: string, token = clerk.token) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await t.request({ method: 'GET', url: `/api/contributor-imports/${id}`, token });
    if (res.json().status !== 'VALIDANDO' || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Asks for the commit (202 CONFIRMANDO with its job, or a refusal) and, once accepted, waits for the job
 * and answers the batch as GET then shows it (CONFIRMADO, or back to VALIDADO / FALLIDO with the reason).
 */
async function commitAndWait(id: string, token = clerk.token) {
  const res = await t.request({ method: 'POST', url: `/api/contributor-imports/${id}/commit`, token });
  if (res.statusCode !== 202) return res;
  expect(res.json()).toMatchObject({ status: 'CONFIRMANDO', jobId: expect.any(Number) });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = await t.request({ method: 'GET', url: `/api/contributor-imports/${id}`, token });
    if (now.json().status !== 'CONFIRMANDO' || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
}

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
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'VALIDADO', totalRows: 14, validRows: 11, errorRows: 3, format: 'csv' });

    const errs = await t.request({ method: 'GET', url: `/api/contributor-imports/${id}/rows?kind=error`, token: clerk.token });
    const items = errs.json().items;
    expect(items.map((r: { rowNumber: number }) => r.rowNumber)).toEqual([12, 13, 15]);
    expect(items[0].errors).toEqual([
      { column: 'CUI', cell: 'A12', message: 'El dígito verificador del CUI no es válido.', key: 'contributors.cuiCheckDigit' },
    ]);
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
    expect(String(sheet.getRow(2).getCell(23).value)).toMatch(/^CUI \(A12\): El dígito verificador/);

    const commit = await commitAndWait(id, clerk.token);
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

    const again = await commitAndWait(id, clerk.token);
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
      new Date(Date.UTC(1985, 2, 5)),
      'M',
      'ACTIVO',
      fx.entityA.code,
      '011',
      { formula: 'B1*2', result: 10 },
      '0904',
    ]);
    const res = await upload('libro.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ format: 'xlsx', validRows: 1, errorRows: 1 });
    const errs = await t.request({
      method: 'GET',
      url: `/api/contributor-imports/${res.json().id}/rows?kind=error`,
      token: clerk.token,
    });
    expect(errs.json().items[0].errors).toEqual([
      {
        column: 'SALARIO',
        cell: 'J3',
        message: 'La celda contiene una fórmula; pegue solo valores.',
        key: 'platform.importCellFormula',
      },
    ]);
    const commit = await commitAndWait(res.json().id, clerk.token);
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
    expect(byCol.FECHA_NACIMIENTO).toMatch(/^Fecha de nacimiento no válida: "30\/02\/1990" \(esa fecha no existe/);
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
    const commit = await commitAndWait(res.json().id, clerk.token);
    expect(commit.statusCode).toBe(409);
    expect(commit.json().error.details[0]).toMatchObject({ row: 3, path: 'CUI' });
    const rows = await t.database.db.select().from(contributors).where(eq(contributors.importId, res.json().id));
    expect(rows).toHaveLength(0);
    const status = await t.request({ method: 'GET', url: `/api/contributor-imports/${res.json().id}`, token: clerk.token });
    expect(status.json().status).toBe('VALIDADO');
  });
});

describe('scope of a bulk upload (issue 10)', () => {
  it('a scoped uploader writes only to entities in scope; a CUI held outside it is not named; a narrowed scope stops the commit', async () => {
    const { attachUserToEntity } = await import('../contributors/fixtures.ts');
    const scoped = await t.createUser({
      grants: [
        { resource: 'contributor-bulk-upload', action: 'READ', scope: 'ENTITY' },
        { resource: 'contributor-bulk-upload', action: 'CREATE', scope: 'ENTITY' },
      ],
    });
    await attachUserToEntity(t.database.db, scoped.id, fx.entityA.id);
    const elsewhere = newCui();
    await t.database.db.insert(contributors).values({
      cui: elsewhere,
      firstName: 'Otra',
      firstSurname: 'Entidad',
      birthDate: '1990-01-01',
      sex: 'F',
      typeId: fx.typeId,
      entityId: fx.entityB.id,
    });
    const row = (cui: string, entity: string) =>
      `${formatCui(cui)};576937-K;Ana;López;01/05/1990;F;ACTIVO;${entity};011;100;0904`;
    const res = await upload(
      'alcance.csv',
      Buffer.from(
        [
          header,
          row(newCui(), fx.entityA.code),
          row(newCui(), fx.entityB.code),
          row(newCui(), ''),
          row(elsewhere, fx.entityA.code),
        ].join('\n'),
      ),
      scoped.token,
    );
    expect(res.json()).toMatchObject({ status: 'VALIDADO', validRows: 1, errorRows: 3 });
    const errs = await t.request({
      method: 'GET',
      url: `/api/contributor-imports/${res.json().id}/rows?kind=error`,
      token: scoped.token,
    });
    expect(errs.json().items.map((r: { rowNumber: number; errors: unknown[] }) => [r.rowNumber, r.errors])).toEqual([
      [3, [{ column: 'ENTIDAD', cell: 'H3', message: 'No tiene acceso a esa entidad.', key: 'contributors.entityNoAccess' }]],
      [
        4,
        [
          {
            column: 'ENTIDAD',
            cell: 'H4',
            message: 'Indique una entidad de su alcance.',
            key: 'contributors.importEntityRequired',
          },
        ],
      ],
      [
        5,
        [
          {
            column: 'CUI',
            cell: 'A5',
            message: 'Este CUI no se puede registrar. Si cree que es un error, consulte con la administración.',
            key: 'contributors.cuiOutOfScope',
          },
        ],
      ],
    ]);
    // Moved to entity B before confirming: the valid row of A is no longer theirs to write.
    await t.database.db.execute(sql`delete from user_institutions where user_id = ${scoped.id}`);
    await attachUserToEntity(t.database.db, scoped.id, fx.entityB.id);
    const valid = await t.request({
      method: 'GET',
      url: `/api/contributor-imports/${res.json().id}/rows?kind=valid`,
      token: scoped.token,
    });
    expect(valid.json().total).toBe(0);
    const commit = await commitAndWait(res.json().id, scoped.token);
    expect(commit.statusCode).toBe(409);
    expect(commit.json().error.details[0]).toMatchObject({ row: 2, path: 'entidad' });
    expect(await t.database.db.select().from(contributors).where(eq(contributors.importId, res.json().id))).toHaveLength(0);
  });
});

describe('exact amounts, dates and NITs from spreadsheets (issue 9)', () => {
  const errorsOf = async (id: string) => {
    const res = await t.request({ method: 'GET', url: `/api/contributor-imports/${id}/rows?kind=error`, token: clerk.token });
    return res.json().items as { rowNumber: number; errors: { column: string; cell?: string; message: string }[] }[];
  };
  // A refused salary: the amount parser's reason after the field's name, keyed, the reason as its parameter.
  const salaryRefusal = (cell: string, reason: RegExp) => ({
    column: 'SALARIO',
    cell,
    message: expect.stringMatching(new RegExp(`^Salario: ${reason.source.slice(1)}`)),
    key: 'contributors.salaryInvalid',
    params: { reason: expect.stringMatching(reason) },
  });
  const birthDateRefusal = (cell: string, value: string) => ({
    column: 'FECHA_NACIMIENTO',
    cell,
    message: `Fecha de nacimiento no válida: "${value}" (escriba dd/mm/aaaa).`,
    key: 'platform.cellDateInvalid',
    params: { label: 'Fecha de nacimiento', value },
  });
  // header: CUI;NIT;PRIMER_NOMBRE;PRIMER_APELLIDO;FECHA_NACIMIENTO;SEXO;TIPO;ENTIDAD;RENGLON;SALARIO;MUNICIPIO
  const line = (cui: string, birth: string, salary: string, nit = '576937-K') =>
    `${formatCui(cui)};${nit};Ana;López;${birth};F;ACTIVO;${fx.entityA.code};011;${salary};0904`;

  it('CSV: 1,234.50 is 123450 cents; 1.234,50, 12,34 and 1.234 are refused naming the cell; 1980 is no birth date', async () => {
    const good = [newCui(), newCui(), newCui()];
    const lines = [
      header,
      line(good[0], '01/05/1990', '1,234.50'),
      line(good[1], '1990-05-01', 'Q 1,234.50', '0576937-K'),
      line(good[2], '1/5/1990', '1234.5', '000576937-k'),
      line(newCui(), '01/05/1990', '1.234,50'),
      line(newCui(), '01/05/1990', '12,34'),
      line(newCui(), '01/05/1990', '1.234'),
      line(newCui(), '1980', '100'),
      line(newCui(), '31107', '100'),
    ];
    const res = await upload('montos.csv', Buffer.from(lines.join('\n')));
    expect(res.json()).toMatchObject({ validRows: 3, errorRows: 5 });
    const errs = await errorsOf(res.json().id);
    expect(errs.map((r) => [r.rowNumber, r.errors])).toEqual([
      [5, [salaryRefusal('J5', /^El monto "1\.234,50" usa coma decimal/)]],
      [6, [salaryRefusal('J6', /^El monto "12,34" usa coma decimal/)]],
      [7, [salaryRefusal('J7', /^El monto "1\.234" es ambiguo/)]],
      [8, [birthDateRefusal('E8', '1980')]],
      [9, [birthDateRefusal('E9', '31107')]],
    ]);
    const commit = await commitAndWait(res.json().id, clerk.token);
    expect(commit.json().committedRows).toBe(3);
    const rows = await t.database.db.select().from(contributors).where(eq(contributors.importId, res.json().id));
    expect(rows.map((r) => [r.salary, r.birthDate, r.nit])).toEqual([
      ['1234.50', '1990-05-01', '576937K'],
      ['1234.50', '1990-05-01', '576937K'],
      ['1234.50', '1990-05-01', '576937K'],
    ]);
  });

  it('xlsx: a real date cell is a date, a number cell or text 1980 is not; number cells are exact cents', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Afiliados');
    ws.addRow(header.split(';'));
    const row = (birth: unknown, salary: unknown, cui = newCui()) =>
      ws.addRow([formatCui(cui), '0576937-K', 'Rosa', 'Cux', birth, 'F', 'ACTIVO', fx.entityA.code, '011', salary, '0904']);
    const dated = newCui();
    row(new Date(Date.UTC(1980, 5, 2)), 1234.5000000000002, dated); // a date cell; float noise of a pasted result
    row(1980, 100); // a plain number cell: not a date
    row('1980', 100); // text: not a date
    row(29_221, 100); // an Excel serial typed as a number: not a date
    row('01/05/1990', 1234.567); // three decimals in a number cell
    row('01/05/1990', '1.234,50'); // text in the salary column
    const res = await upload('libro.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(res.json()).toMatchObject({ validRows: 1, errorRows: 5 });
    const errs = await errorsOf(res.json().id);
    expect(errs.map((r) => r.errors.map((e) => `${e.cell} ${e.message}`))).toEqual([
      ['E3 Fecha de nacimiento no válida: "1980" (escriba dd/mm/aaaa).'],
      ['E4 Fecha de nacimiento no válida: "1980" (escriba dd/mm/aaaa).'],
      ['E5 Fecha de nacimiento no válida: "29221" (escriba dd/mm/aaaa).'],
      ['J6 Salario: El monto 1234.567 tiene más de dos decimales.'],
      [expect.stringMatching(/^J7 Salario: El monto "1\.234,50" usa coma decimal/)],
    ]);
    await commitAndWait(res.json().id, clerk.token);
    const [saved] = await t.database.db.select().from(contributors).where(eq(contributors.cui, dated));
    expect(saved).toMatchObject({ birthDate: '1980-06-02', salary: '1234.50', nit: '576937K' });
  });

  /** The template's data sheet and a help sheet, in either order. */
  async function twoSheetBook(helpFirst: boolean, cuis: string[]) {
    const wb = new ExcelJS.Workbook();
    const help = () => {
      const h = wb.addWorksheet('Instrucciones');
      h.addRow(['Columna', 'Qué escribir']);
      for (let i = 0; i < 30; i++) h.addRow([`Ayuda ${i}`, 'Texto compartido con la hoja de datos: José']);
    };
    if (helpFirst) help();
    const ws = wb.addWorksheet('Afiliados');
    ws.addRow(header.split(';'));
    for (const cui of cuis) {
      ws.addRow([
        formatCui(cui),
        '576937-K',
        'José',
        'Pérez',
        new Date(Date.UTC(1990, 4, 1)),
        'M',
        'ACTIVO',
        fx.entityA.code,
        '011',
        3500.5,
        '0904',
      ]);
    }
    if (!helpFirst) help();
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  it('reads a two-sheet workbook (help sheet before or after the data) every time, many reads in parallel', async () => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { xlsxRows } = await import('../../platform/imports/reader.ts');
    const dir = await mkdtemp(join(tmpdir(), 'aporta-two-sheets-'));
    try {
      for (const helpFirst of [false, true]) {
        const path = join(dir, `libro-${helpFirst}.xlsx`);
        await writeFile(path, await twoSheetBook(helpFirst, [newCui(), newCui(), newCui()]));
        const isDataSheet = (cells: unknown[]) => cells[0] === 'CUI';
        // ExcelJS's single-pass reader lost xl/workbook.xml (stored last) in ~1-2 % of such reads.
        const reads = await Promise.all(
          Array.from({ length: 150 }, async () => {
            const rows = [];
            for await (const r of xlsxRows(path, { isDataSheet })) rows.push(r);
            return rows;
          }),
        );
        for (const rows of reads) {
          expect(rows).toHaveLength(4);
          expect(rows[0].cells[0]).toBe('CUI');
          expect(rows[1].cells[2]).toBe('José');
          expect(rows[1].cells[4]).toEqual(new Date(Date.UTC(1990, 4, 1)));
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // And through the upload: the data sheet is found behind the help sheet.
    const res = await upload('dos-hojas.xlsx', await twoSheetBook(true, [newCui(), newCui()]));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ validRows: 2, errorRows: 0 });
  });
});

describe('an upload interrupted by a restart (issue 9)', () => {
  it('is marked failed at start-up with the reason, listed for its uploader, and can be discarded', async () => {
    const { importBatches } = await import('../../db/schema/index.ts');
    const { recoverImports, INTERRUPTED_IMPORT_MESSAGE } = await import('../../platform/imports/pipeline.ts');
    const recoverInterruptedImports = recoverImports;
    const id = randomUUID();
    // Cut while the upload request was still reading the file: the file is gone, so it cannot resume.
    await t.database.db.insert(importBatches).values({
      id,
      kind: 'contributors',
      fileName: 'grande.xlsx',
      format: 'xlsx',
      status: 'VALIDANDO',
      phase: 'LECTURA',
      createdBy: clerk.id,
      processedRows: 4000,
    });
    // While validating, it cannot be discarded (the validation would overwrite the discard).
    const early = await t.request({ method: 'POST', url: `/api/contributor-imports/${id}/discard`, token: clerk.token });
    expect(early.statusCode).toBe(409);

    const marked = await recoverInterruptedImports(t.database.db);
    expect(marked).toContain(id);
    const status = await t.request({ method: 'GET', url: `/api/contributor-imports/${id}`, token: clerk.token });
    expect(status.json()).toMatchObject({ status: 'FALLIDO', message: INTERRUPTED_IMPORT_MESSAGE });
    expect(INTERRUPTED_IMPORT_MESSAGE).toMatch(/^El proceso se interrumpió \(reinicio del servidor\)/);

    const open = await t.request({ method: 'GET', url: '/api/contributor-imports', token: clerk.token });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toContainEqual(expect.objectContaining({ id, status: 'FALLIDO' }));

    const discard = await t.request({ method: 'POST', url: `/api/contributor-imports/${id}/discard`, token: clerk.token });
    expect(discard.statusCode).toBe(200);
    expect(discard.json().status).toBe('DESCARTADO');
    const after = await t.request({ method: 'GET', url: '/api/contributor-imports', token: clerk.token });
    expect(after.json().map((i: { id: string }) => i.id)).not.toContain(id);
    // A second start finds nothing left to recover.
    expect(await recoverInterruptedImports(t.database.db)).not.toContain(id);
  });
});
