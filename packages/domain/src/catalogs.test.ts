import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  catalogField,
  catalogMenuGroups,
  catalogScreens,
  collectionDefinitions,
  collectionNames,
  dcrudMenuGroup,
  defineCollection,
  fieldMetaOf,
  moneyField,
  moneyFieldSchema,
  updateInputOf,
} from './catalogs.ts';
import { nitSchema } from './fields.ts';
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
    expect(bad.error?.issues[0]).toMatchObject({ path: ['nit'], message: 'El dígito verificador del NIT no es válido.' });
    // The shared NIT schema (fields.ts): one stored form, without dash or leading zeros, as contributors.
    const ok = ent.parse({ code: 'x1', name: 'E', classificationId: 1, municipalityId: 1, nit: '0576937-k', email: '' });
    expect(ok).toMatchObject({ code: 'X1', nit: '576937K', email: null, isActive: true });
    expect(ent.parse({ code: 'X1', name: 'E', classificationId: 1, municipalityId: 1, nit: '' }).nit).toBeNull();
    expect(updateInputOf('regions').safeParse({ name: 'Norte' }).success).toBe(true);
    expect(updateInputOf('planilla-statuses').safeParse({ code: 'X' }).success).toBe(false);
  });
  it('gives each catalogue its own resource and one place in a menu group (issue 26)', () => {
    for (const n of collectionNames) expect(collectionDefinitions[n].resource, n).toBeUndefined();
    for (const g of catalogMenuGroups) {
      const positions = catalogScreens.filter((s) => s.group === g).map((s) => s.position);
      expect(new Set(positions).size, g).toBe(positions.length);
    }
    expect(catalogScreens.find((s) => s.name === 'municipal-entities')).toMatchObject({
      id: 'municipalEntities',
      link: '/administrative/municipal-entities',
    });
    expect(catalogScreens.find((s) => s.name === 'contributor-catalogs')?.link).toBe('/contributors/catalogs');
  });
  it('declares the banks catalogue: code in capitals and unique, name, active by default', () => {
    const banks = collectionDefinitions.banks;
    expect(banks.fields.map((f) => [f.name, f.type, f.required, f.unique])).toEqual([
      ['code', 'text', true, true],
      ['name', 'text', true, false],
      ['isActive', 'boolean', false, false],
    ]);
    expect(banks.input.parse({ code: 'banrural', name: 'Banco de Desarrollo Rural, S. A.' })).toEqual({
      code: 'BANRURAL',
      name: 'Banco de Desarrollo Rural, S. A.',
      isActive: true,
    });
    expect(banks.input.safeParse({ code: 'G&T', name: 'Banco G&T Continental, S. A.' }).success).toBe(false);
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

describe('field metadata derived from the zod schema (issue 10)', () => {
  it('derives name, label key, type, required, options and defaults from the annotated schema', () => {
    const color = catalogField(z.enum(['red', 'blue']), { label: 'Color' });
    expect(fieldMetaOf('things', 'color', color)).toEqual({
      name: 'color',
      label: 'Color',
      labelKey: 'catalogs.fields.things.color',
      type: 'enum',
      options: ['red', 'blue'],
      required: true,
      unique: false,
      searchable: false,
      inList: true,
      filterable: true,
      readOnly: false,
    });
    const flag = catalogField(z.boolean().default(true), { label: 'Activo' });
    expect(fieldMetaOf('things', 'isActive', flag)).toMatchObject({ type: 'boolean', required: false, filterable: true });
    const order = catalogField(z.number().int(), { label: 'Orden', filterable: false });
    expect(fieldMetaOf('things', 'sortOrder', order)).toMatchObject({ type: 'number', required: true, filterable: false });
    const nit = catalogField(nitSchema.nullable().optional(), { label: 'NIT', type: 'nit', maxLength: 15 });
    expect(fieldMetaOf('things', 'nit', nit)).toMatchObject({ type: 'nit', required: false, maxLength: 15 });
    expect(fieldMetaOf('things', 'amount', moneyField('Monto'))).toMatchObject({ type: 'money', required: false });
  });

  it('annotates a copy, so one schema shared by two fields keeps each label', () => {
    const shared = z.boolean().default(true);
    const a = catalogField(shared, { label: 'Activa' });
    const b = catalogField(shared, { label: 'Activo' });
    expect([fieldMetaOf('x', 'a', a).label, fieldMetaOf('x', 'b', b).label]).toEqual(['Activa', 'Activo']);
    expect(() => fieldMetaOf('x', 'c', shared)).toThrow(/no está declarado con catalogField/);
    expect(() => fieldMetaOf('x', 'd', catalogField(z.string(), { label: 'Texto' }))).toThrow(/necesita un tipo/);
  });

  it('derives the input schema from the same declaration, without read-only fields', () => {
    const def = defineCollection({
      name: 'things',
      label: 'Cosas',
      displayField: 'name',
      defaultSort: 'name',
      shape: {
        code: catalogField(z.enum(['A', 'B']), { label: 'Código', readOnly: true }),
        name: catalogField(z.string().min(1), { label: 'Nombre', type: 'text', maxLength: 10 }),
      },
    });
    expect(def.fields.map((f) => [f.name, f.readOnly])).toEqual([
      ['code', true],
      ['name', false],
    ]);
    expect(Object.keys(def.input.shape)).toEqual(['name']);
    expect(def.input.safeParse({ name: 'x', code: 'A' }).success).toBe(false);
  });

  it('keeps the metadata every catalogue screen relies on', () => {
    const ent = collectionDefinitions['municipal-entities'].fields;
    expect(ent.map((f) => f.name)).toEqual([
      'code',
      'name',
      'nit',
      'classificationId',
      'municipalityId',
      'address',
      'phone',
      'email',
      'noticeEmails',
      'bankAccount',
      'isActive',
    ]);
    expect(ent.find((f) => f.name === 'municipalityId')).toMatchObject({
      type: 'reference',
      required: true,
      filterable: true,
      reference: { collection: 'municipalities', displayField: 'name' },
    });
    expect(ent.find((f) => f.name === 'address')).toMatchObject({ type: 'text', required: false, inList: false, maxLength: 300 });
    expect(collectionDefinitions.departments.fields.find((f) => f.name === 'regionId')).toMatchObject({ required: false });
    expect(collectionDefinitions['planilla-statuses'].fields[0]).toMatchObject({
      name: 'code',
      type: 'enum',
      readOnly: true,
      required: true,
      options: ['BORRADOR', 'ENVIANDO', 'ENVIADA', 'EN_REVISION', 'APROBADA', 'OBSERVADA', 'RECHAZADA', 'PAGADA', 'ANULADA'],
    });
    expect(collectionDefinitions['budget-lines'].fields.find((f) => f.name === 'isSubjectToContribution')).toMatchObject({
      type: 'boolean',
      required: true,
    });
  });
});
