import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contributors } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { hasPoppler, pdfInfo, pdfPages, popplerMissing } from '../../test/poppler.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'error' });
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  const row = (over: Partial<typeof contributors.$inferInsert>) => ({
    cui: newCui(),
    firstName: 'A',
    firstSurname: 'B',
    birthDate: '1990-01-01',
    sex: 'M' as const,
    typeId: fx.typeId,
    municipalityId: fx.municipality.id,
    entityId: fx.entityA.id,
    salary: '1000.50',
    ...over,
  });
  await t.database.db
    .insert(contributors)
    .values([
      row({}),
      row({ state: 'INACTIVO' }),
      row({ typeId: fx.types[1].id, entityId: fx.entityB.id, salary: '2000.25' }),
      row({ state: 'FALLECIDO', municipalityId: null, salary: null }),
    ]);
});
afterAll(() => t.close());

describe('contributor reports', () => {
  it('counts by department and state with totals', async () => {
    const res = await t.request({ method: 'GET', url: '/api/contributor-reports/general', token: admin.token });
    expect(res.statusCode).toBe(200);
    const { items, totals } = res.json();
    const quetzaltenango = items.find((r: { key: string }) => r.key === '09');
    expect(quetzaltenango).toMatchObject({ ACTIVO: 2, INACTIVO: 1, FALLECIDO: 0, total: 3, salaryTotal: '4001.25' });
    expect(items.find((r: { key: string }) => r.key === '—')).toMatchObject({ FALLECIDO: 1, label: 'Sin municipio registrado' });
    expect(totals).toMatchObject({ ACTIVO: 2, INACTIVO: 1, FALLECIDO: 1, total: 4, salaryTotal: '4001.25' });
  });

  it('groups by municipality and by type, and applies filters', async () => {
    const byMun = await t.request({
      method: 'GET',
      url: '/api/contributor-reports/by-municipality?state=ACTIVO',
      token: admin.token,
    });
    expect(byMun.json().items).toEqual([expect.objectContaining({ key: '0904', group: 'Quetzaltenango', total: 2 })]);
    const byType = await t.request({
      method: 'GET',
      url: `/api/contributor-reports/by-type?entityId=${fx.entityB.id}`,
      token: admin.token,
    });
    expect(byType.json().items).toEqual([expect.objectContaining({ key: fx.types[1].code, total: 1 })]);
  });

  it('limits a scoped user to their entity', async () => {
    const clerk = await t.createUser({ grants: [{ resource: 'contributor-report-general', action: 'READ', scope: 'ENTITY' }] });
    await attachUserToEntity(t.database.db, clerk.id, fx.entityB.id);
    const res = await t.request({ method: 'GET', url: '/api/contributor-reports/general', token: clerk.token });
    expect(res.json().totals.total).toBe(1);
  });

  it('exports xlsx and pdf with the header, date and filters', async () => {
    const xlsx = await t.request({
      method: 'GET',
      url: `/api/contributor-reports/by-type/export?format=xlsx&typeId=${fx.typeId}`,
      token: admin.token,
    });
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as never);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe('Plan de Prestaciones del Empleado Municipal');
    expect(ws.getRow(2).getCell(1).value).toBe('Afiliados por tipo y estado');
    expect(String(ws.getRow(3).getCell(1).value)).toMatch(/^Generado el \d\d\/\d\d\/\d{4} \d\d:\d\d por .*\(.+@.+\)$/);
    expect(ws.getRow(4).getCell(1).value).toBe('Filtros: Tipo: Activo');
    expect(ws.getRow(6).values).toEqual([
      undefined,
      'Tipo de afiliado',
      'Activos',
      'Inactivos',
      'Fallecidos',
      'Total',
      'Salarios (Q)',
    ]);
    expect(ws.getRow(ws.rowCount).getCell(1).value).toBe('Total');
    const pdf = await t.request({ method: 'GET', url: '/api/contributor-reports/general/export?format=pdf', token: admin.token });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBeGreaterThan(1000);
    expect(pdf.headers['x-verification-code']).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  });

  it.skipIf(!hasPoppler)(
    `prints the pdf through the one facility, checked with pdftotext${hasPoppler ? '' : ` (${popplerMissing})`}`,
    async () => {
      const res = await t.request({
        method: 'GET',
        url: `/api/contributor-reports/by-municipality/export?format=pdf&state=ACTIVO&entityId=${fx.entityA.id}`,
        token: admin.token,
      });
      expect(res.statusCode).toBe(200);
      const code = String(res.headers['x-verification-code']);
      const pdf = res.rawPayload;
      expect(pdfInfo(pdf)).toMatchObject({ Title: 'Afiliados por municipio y estado', Pages: '1' });
      const [page] = pdfPages(pdf);
      expect(page).toContain('Plan de Prestaciones del Empleado Municipal');
      expect(page).toContain('Afiliados por municipio y estado');
      expect(page).toMatch(new RegExp(`Filtros:\\s+Entidad: ${fx.entityA.name}; Estado: Activo`));
      expect(page).toMatch(/Generado el:\s+\d\d\/\d\d\/\d{4} \d\d:\d\d \(hora de Guatemala\)/);
      expect(page).toMatch(/Municipio\s+Departamento\s+Activos\s+Inactivos\s+Fallecidos\s+Total\s+Salarios \(Q\)/);
      expect(page).toMatch(/San Carlos Sija\s+Quetzaltenango\s+1\s+0\s+0\s+1\s+1,000.50/);
      expect(page).toContain('Página 1 de 1');
      expect(page).toContain(`Verificación: ${code}`);
      const verify = await t.request({ method: 'GET', url: `/api/documents/verify/${code}` });
      expect(verify.json()).toMatchObject({ code, title: 'Afiliados por municipio y estado', pages: 1 });
    },
  );
});
