import { describe, expect, it } from 'vitest';
import {
  checkImportHeaders,
  compareWithRenap,
  contributorFullName,
  contributorInputSchema,
  contributorUpdateSchema,
  type ImportCatalogues,
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
    expect(byPath.birthDate).toBe('La fecha no existe o está fuera del rango 01/01/1900 a 31/12/2100.');
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
        hireDate: '18/06/2020',
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
      expect(cols.FECHA_NACIMIENTO).toMatch(/^Fecha de nacimiento no válida: "31\/02\/1990" \(esa fecha no existe/);
      expect(cols.TIPO).toMatch(/no existe/);
      expect(cols.SALARIO).toMatch(/^Salario: El monto "mil" no es un número/);
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

describe('amounts and dates of a bulk-upload row (issue 9)', () => {
  const cat: ImportCatalogues = {
    municipalities: new Map(),
    types: new Map([['ACTIVO', 1]]),
    entities: new Map(),
    budgetLines: new Set(),
  };
  const row = (over: Record<string, string>) =>
    validateImportRow(
      {
        cui: '1587564440904',
        firstName: 'Ana',
        firstSurname: 'López',
        birthDate: '01/05/1990',
        sex: 'F',
        type: 'ACTIVO',
        ...over,
      },
      cat,
    );
  const errorOf = (over: Record<string, string>, column: string) => {
    const r = row(over);
    return r.ok ? null : (r.errors.find((e) => e.column === column)?.message ?? null);
  };

  it('stores what Guatemalans type as exact cents and refuses the ambiguous salaries, naming the field and value', () => {
    for (const [typed, stored] of [
      ['1,234.50', '1234.50'],
      ['1234.5', '1234.50'],
      ['1234', '1234.00'],
      ['Q 1,234.50', '1234.50'],
      ['Q1234.50', '1234.50'],
    ]) {
      const r = row({ salary: typed });
      expect(r.ok && r.data.salary, typed).toBe(stored);
    }
    expect(errorOf({ salary: '1.234,50' }, 'SALARIO')).toMatch(/^Salario: El monto "1\.234,50" usa coma decimal/);
    expect(errorOf({ salary: '12,34' }, 'SALARIO')).toMatch(/^Salario: El monto "12,34" usa coma decimal/);
    expect(errorOf({ salary: '1.234' }, 'SALARIO')).toMatch(/^Salario: El monto "1\.234" es ambiguo/);
    expect(errorOf({ salary: '12.345' }, 'SALARIO')).toMatch(/^Salario: El monto "12\.345" es ambiguo/);
    expect(errorOf({ salary: '1,234.567' }, 'SALARIO')).toMatch(/^Salario: El monto "1,234\.567" tiene más de dos decimales/);
    expect(errorOf({ salary: '1,23,4' }, 'SALARIO')).toMatch(/coma de miles mal colocada/);
    expect(errorOf({ salary: '-100' }, 'SALARIO')).toMatch(/no puede ser negativo/);
  });

  it('refuses a bare year or serial in either date column; accepts dd/mm/aaaa and ISO', () => {
    expect(errorOf({ birthDate: '1980' }, 'FECHA_NACIMIENTO')).toBe(
      'Fecha de nacimiento no válida: "1980" (escriba dd/mm/aaaa).',
    );
    expect(errorOf({ birthDate: '29221' }, 'FECHA_NACIMIENTO')).toMatch(/^Fecha de nacimiento no válida/);
    expect(errorOf({ hireDate: '2015' }, 'FECHA_INGRESO')).toBe('Fecha de ingreso no válida: "2015" (escriba dd/mm/aaaa).');
    expect(errorOf({ hireDate: '44000' }, 'FECHA_INGRESO')).toMatch(/^Fecha de ingreso no válida/);
    const ok = row({ birthDate: '1/5/1990', hireDate: '2015-01-31' });
    expect(ok.ok && [ok.data.birthDate, ok.data.hireDate]).toEqual(['1990-05-01', '2015-01-31']);
  });

  it('stores one NIT form whatever zeros precede the body', () => {
    for (const nit of ['576937-K', '0576937-K', '000576937-k', '576937K']) {
      const r = row({ nit });
      expect(r.ok && r.data.nit, nit).toBe('576937K');
    }
  });
});

describe('amounts in the API body (issue 9)', () => {
  it('salary as text or JSON number: exact cents, ambiguous forms refused naming the field', () => {
    const parse = (salary: unknown) => contributorInputSchema.safeParse({ ...base, salary });
    expect(parse('1,234.50').data?.salary).toBe('1234.50');
    expect(parse(1234.5).data?.salary).toBe('1234.50');
    for (const bad of ['1.234,50', '12,34', '1.234', '1,23,4', '12.345', 1234.567, '1 234.50']) {
      const r = parse(bad);
      expect(r.success, String(bad)).toBe(false);
      expect(r.error?.issues[0]).toMatchObject({ path: ['salary'], message: expect.stringMatching(/^Salario: El monto/) });
    }
  });

  it('NIT in create and update bodies: one stored form', () => {
    expect(contributorInputSchema.parse({ ...base, nit: '000576937-K' }).nit).toBe('576937K');
    expect(contributorUpdateSchema.parse({ nit: '0576937-k', ...base }).nit).toBe('576937K');
  });
});
