import { describe, expect, it } from 'vitest';
import { collectionDefinitions, collectionNames, dcrudMenuGroup, moneyFieldSchema, updateInputOf } from './catalogs.ts';
import { isResource } from './permissions.ts';

describe('collection definitions', () => {
  it('names every collection after a permission resource', () => {
    for (const n of collectionNames) expect(isResource(n), n).toBe(true);
  });
  it('declares every input key as a field, and every writable field in the input', () => {
    for (const n of collectionNames) {
      const def = collectionDefinitions[n];
      const keys = Object.keys(def.input.shape);
      const writable = def.fields.filter((fl) => !fl.readOnly).map((fl) => fl.name);
      expect(keys.sort(), n).toEqual(writable.sort());
    }
  });
  it('refuses unknown fields and a bad NIT, and keeps updates partial', () => {
    const ent = collectionDefinitions['municipal-entities'].input;
    expect(ent.safeParse({ code: 'X1', name: 'E', classificationId: 1, municipalityId: 1, extra: 1 }).success).toBe(false);
    const bad = ent.safeParse({ code: 'X1', name: 'E', classificationId: 1, municipalityId: 1, nit: '8977112-0' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('NIT: el dígito verificador no es válido.');
    const ok = ent.parse({ code: 'x1', name: 'E', classificationId: 1, municipalityId: 1, nit: '576937k', email: '' });
    expect(ok).toMatchObject({ code: 'X1', nit: '576937-K', email: null, isActive: true });
    expect(updateInputOf('regions').safeParse({ name: 'Norte' }).success).toBe(true);
    expect(updateInputOf('planilla-statuses').safeParse({ code: 'X' }).success).toBe(false);
  });
  it('builds the dynamic menu group from readable names, ignoring unknown ones', () => {
    expect(dcrudMenuGroup([])).toBeNull();
    const g = dcrudMenuGroup(['regions', 'nope']);
    expect(g?.subItems?.map((s) => [s.name, s.link])).toEqual([['regions', '/dcrud/regions']]);
  });
});

describe('a catalogue money field (issue 10)', () => {
  const schema = moneyFieldSchema('Monto máximo');
  it('reads what people type into exact decimal text, empty as null', () => {
    expect(schema.parse('Q 1,234.5')).toBe('1234.50');
    expect(schema.parse('999,999,999,999.99')).toBe('999999999999.99');
    expect(schema.parse('')).toBeNull();
    expect(schema.parse(null)).toBeNull();
  });
  it('refuses the ambiguous forms naming the field', () => {
    expect(schema.safeParse('1.234,50').error?.issues[0].message).toMatch(/^Monto máximo: El monto "1\.234,50" usa coma decimal/);
    expect(schema.safeParse('-5').error?.issues[0].message).toMatch(/^Monto máximo: El monto no puede ser negativo/);
  });
});
