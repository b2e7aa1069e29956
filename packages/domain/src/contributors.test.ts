import { describe, expect, it } from 'vitest';
import {
  checkImportHeaders,
  compareWithRenap,
  contributorFullName,
  contributorInputSchema,
  type ImportCatalogues,
  parseSpreadsheetDate,
  validateImportRow,
} from './contributors.ts';

const base = {
  cui: '1587 56444 0904',
  firstName: 'Ana',
  firstSurname: 'López',
  birthDate: '1990-05-01',
  sex: 'F',
  typeId: 1,
};

describe('contributor input', () => {
  it('normalises the CUI and NIT and fills defaults', () => {
    const v = contributorInputSchema.parse({ ...base, nit: '576937-k', salary: 'Q 1,234.5' });
    expect(v).toMatchObject({ cui: '1587564440904', nit: '576937K', state: 'ACTIVO', salary: '1234.50' });
  });

  it('names each bad field in Spanish', () => {
    const r = contributorInputSchema.safeParse({ ...base, cui: '1680352240101', nit: '8977112-0', birthDate: '2020-02-30' });
    expect(r.success).toBe(false);
    const byPath = Object.fromEntries(r.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(byPath.cui).toBe('El dígito verificador del CUI no es válido.');
    expect(byPath.nit).toBe('El dígito verificador del NIT no es válido.');
    expect(byPath.birthDate).toBe('La fecha no existe.');
  });

  it('builds the full name with the married surname', () => {
    expect(contributorFullName({ firstName: 'Ana', secondName: 'María', firstSurname: 'López', marriedSurname: 'Pérez' })).toBe(
      'Ana María López de Pérez',
    );
  });

  it('compares with RENAP ignoring accents and case', () => {
    const person = {
      cui: '1',
      firstName: 'ANA',
      secondName: null,
      thirdName: null,
      firstSurname: 'LOPEZ',
      secondSurname: 'GARCIA',
      marriedSurname: null,
      birthDate: '1990-05-01',
      sex: 'F',
      deathDate: null,
    };
    expect(compareWithRenap({ ...base, firstSurname: 'López', secondSurname: 'García' }, person)).toEqual([]);
    expect(compareWithRenap({ ...base, firstSurname: 'Lopes', secondSurname: 'Gómez' }, person)).toEqual([
      'firstSurname',
      'secondSurname',
    ]);
  });
});

describe('spreadsheet dates', () => {
  it('reads Excel serials, dd/mm/yyyy and ISO, and refuses impossible dates', () => {
    expect(parseSpreadsheetDate(32874)).toBe('1990-01-01');
    expect(parseSpreadsheetDate('45292')).toBe('2024-01-01');
    expect(parseSpreadsheetDate('01/05/1990')).toBe('1990-05-01');
    expect(parseSpreadsheetDate('1990-05-01')).toBe('1990-05-01');
    expect(parseSpreadsheetDate('31/02/2020')).toBeNull();
    expect(parseSpreadsheetDate('mañana')).toBeNull();
    expect(parseSpreadsheetDate(60)).toBeNull();
  });
});

describe('bulk upload rows', () => {
  const cat: ImportCatalogues = {
    municipalities: new Map([['0904', 9]]),
    types: new Map([['ACTIVO', 1]]),
    entities: new Map([['E-1', 5]]),
    budgetLines: new Set(['011']),
  };

  it('reports missing and unknown columns by name', () => {
    const r = checkImportHeaders(['cui', 'Primer nombre', 'PRIMER_APELLIDO', 'COLOR']);
    expect(r.missing).toEqual(['FECHA_NACIMIENTO', 'SEXO', 'TIPO']);
    expect(r.unknown).toEqual(['COLOR']);
  });

  it('accepts a good row and resolves catalogue codes', () => {
    const r = validateImportRow(
      {
        cui: '1587564440904',
        firstName: 'Ana',
        firstSurname: 'López',
        birthDate: '01/05/1990',
        sex: 'Femenino',
        type: 'activo',
        municipality: '0904',
        entity: 'E-1',
        budgetLine: '011',
        salary: '3,500.00',
        hireDate: '44000',
      },
      cat,
    );
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.data).toMatchObject({
        municipalityId: 9,
        entityId: 5,
        typeId: 1,
        sex: 'F',
        salary: '3500.00',
        hireDate: '2020-06-18',
      });
  });

  it('reports each bad cell with its column', () => {
    const r = validateImportRow(
      { cui: '1680352240101', firstName: '', firstSurname: 'X', birthDate: '31/02/1990', sex: 'F', type: 'NADA', salary: 'mil' },
      cat,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      const cols = Object.fromEntries(r.errors.map((e) => [e.column, e.message]));
      expect(cols.CUI).toMatch(/dígito verificador/);
      expect(cols.PRIMER_NOMBRE).toMatch(/primer nombre/);
      expect(cols.FECHA_NACIMIENTO).toMatch(/Fecha imposible/);
      expect(cols.TIPO).toMatch(/no existe/);
      expect(cols.SALARIO).toMatch(/número/);
    }
  });

  it('refuses an entity outside the uploader scope', () => {
    const r = validateImportRow(
      {
        cui: '1587564440904',
        firstName: 'A',
        firstSurname: 'B',
        birthDate: '1990-01-01',
        sex: 'M',
        type: 'ACTIVO',
        entity: 'E-1',
      },
      { ...cat, allowedEntityIds: new Set([99]) },
    );
    expect(r.ok).toBe(false);
  });
});
