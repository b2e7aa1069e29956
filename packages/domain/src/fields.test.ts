import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTROL_CHARACTERS,
  cuiSchema,
  dateSchema,
  entityIdSchema,
  idSchema,
  idTextSchema,
  intTextSchema,
  isCalendarDate,
  MAX_ID,
  nitSchema,
  periodSchema,
  textSchema,
} from './fields.ts';

describe('ids', () => {
  it('reads every decimal id of the int4 range as itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_ID }), (n) => {
        expect(idTextSchema.parse(String(n))).toBe(n);
        expect(idSchema.parse(n)).toBe(n);
      }),
    );
  });

  it('refuses every other spelling of a number', () => {
    for (const bad of ['0x1', '1e0', ' 1', '1 ', '+1', '01', '0', '-1', '1.0', '2147483648', '', 'uno', '١']) {
      expect(idTextSchema.safeParse(bad).success, bad).toBe(false);
    }
    fc.assert(fc.property(fc.bigInt({ min: 2n ** 31n, max: 2n ** 80n }), (n) => !idTextSchema.safeParse(String(n)).success));
    for (const bad of [0, -1, 1.5, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY])
      expect(idSchema.safeParse(bad).success).toBe(false);
  });

  it('an entity a form picks: the same ids, and «Entidad: elija …» when none was picked or it is not an id', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: MAX_ID }), (n) => entityIdSchema.parse(n) === n));
    for (const bad of [0, null, undefined, '5', 'Mixco', -1, 1.5, 2 ** 31]) {
      const r = entityIdSchema.safeParse(bad);
      expect(r.success, String(bad)).toBe(false);
      expect(r.error?.issues[0].message).toBe('Entidad: elija una entidad de la lista.');
    }
  });

  it('bounds whole numbers typed in a query', () => {
    const page = intTextSchema({ min: 1, max: 200 });
    expect(page.parse('200')).toBe(200);
    for (const bad of ['0', '201', '1e2', '0x10', '-0', '1.5']) expect(page.safeParse(bad).success, bad).toBe(false);
    expect(intTextSchema().parse('-5')).toBe(-5);
  });
});

describe('dates', () => {
  it('accepts every real day of 1900..2100 and refuses days that do not exist', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }),
        (d) => {
          expect(dateSchema.safeParse(d.toISOString().slice(0, 10)).success).toBe(true);
        },
      ),
    );
    for (const bad of ['0000-00-00', '2026-02-29', '2026-04-31', '1899-12-31', '2101-01-01', '2026-1-01', '2026-01-01T00:00']) {
      expect(isCalendarDate(bad), bad).toBe(false);
      expect(dateSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(isCalendarDate('2024-02-29')).toBe(true);
  });

  it('a date that is not aaaa-mm-dd says so, once, not that it is out of range', () => {
    for (const bad of ['', '2026-1-01', 'ayer']) {
      expect(
        dateSchema.safeParse(bad).error?.issues.map((i) => i.message),
        bad,
      ).toEqual(['Fecha no válida (dd/mm/aaaa).']);
    }
    expect(dateSchema.safeParse('2026-02-30').error?.issues.map((i) => i.message)).toEqual([
      'La fecha no existe o está fuera del rango 01/01/1900 a 31/12/2100.',
    ]);
  });
});

describe('control characters', () => {
  it('finds C0 controls and DEL, but not tab, new lines or printable unicode', () => {
    for (let c = 0; c < 32; c++) {
      const ch = String.fromCharCode(c);
      expect(CONTROL_CHARACTERS.test(`a${ch}b`), `U+${c.toString(16)}`).toBe(!['\t', '\n', '\r'].includes(ch));
    }
    expect(CONTROL_CHARACTERS.test('\u007f')).toBe(true);
    expect(CONTROL_CHARACTERS.test('Peñate Xicará 😀 Ω')).toBe(false);
  });

  it('finds the bidirectional embeddings, overrides and isolates; the single direction marks pass', () => {
    for (const c of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      expect(CONTROL_CHARACTERS.test(`Ana\u0020${String.fromCharCode(c)}zepoL`), `U+${c.toString(16)}`).toBe(true);
    }
    for (const c of [0x200e, 0x200f, 0x061c, 0x2029, 0x2070]) {
      expect(CONTROL_CHARACTERS.test(`a${String.fromCharCode(c)}b`), `U+${c.toString(16)}`).toBe(false);
    }
    expect(textSchema({ label: 'Nombre', max: 50 }).safeParse('Ana \u202ezepóL').success).toBe(false);
    expect(CONTROL_CHARACTERS.test('محمد \u200fعلي')).toBe(false);
  });
});

describe('periods', () => {
  it('accepts AAAA-MM from 1900-01 to 2100-12 and nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        expect(periodSchema.safeParse(`${y}-${String(m).padStart(2, '0')}`).success).toBe(true);
      }),
    );
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-01', '2026/01', '2026-01-01', '1899-12', '2101-01', ' 2026-01', '']) {
      expect(periodSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(periodSchema.safeParse('2026-13').error!.issues[0].message).toBe('Período no válido (mm/aaaa).');
  });
});

describe('free text', () => {
  const name = textSchema({ label: 'Nombre', min: 1, max: 10 });
  const note = textSchema({ label: 'Observaciones', max: 50, multiline: true });

  it('trims, requires, limits and names the field in Spanish', () => {
    expect(name.parse('  Ana  ')).toBe('Ana');
    expect(name.safeParse('   ').error!.issues[0].message).toBe('Ingrese nombre.');
    expect(name.safeParse('a'.repeat(11)).error!.issues[0].message).toBe('Nombre: máximo 10 caracteres.');
    expect(name.safeParse(5).error!.issues[0].message).toBe('Nombre: escriba un texto.');
  });

  it('refuses control characters; line breaks only in multi-line text', () => {
    expect(name.safeParse('A\u0000na').error!.issues[0].message).toBe('Nombre: contiene caracteres no permitidos.');
    expect(name.safeParse('A\nna').success).toBe(false);
    expect(note.parse('línea 1\nlínea 2')).toBe('línea 1\nlínea 2');
    expect(note.safeParse('a\u007fb').success).toBe(false);
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), (text) => {
        const r = note.safeParse(text);
        if (r.success) expect(CONTROL_CHARACTERS.test(r.data)).toBe(false);
      }),
    );
  });
});

describe('CUI and NIT fields', () => {
  it('normalise what people type and refuse a wrong check digit in Spanish', () => {
    expect(cuiSchema.parse('1587 56444 0904')).toBe('1587564440904');
    expect(cuiSchema.safeParse('1680352240101').error!.issues[0].message).toBe('El dígito verificador del CUI no es válido.');
    expect(nitSchema.parse('576937-k')).toBe('576937K');
    expect(nitSchema.parse('')).toBeNull();
    expect(nitSchema.safeParse('8977112-0').success).toBe(false);
  });
});
