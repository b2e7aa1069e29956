import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collectionDefinitions,
  collectionNames,
  dcrudMenuGroup,
  formatNit,
  isValidCuiForDelegate,
  isValidNit,
  nitCheckDigit,
  updateInputOf,
} from './catalogs.ts';
import { isResource } from './permissions.ts';

describe('NIT check digit', () => {
  it('accepts the valid examples of DOMAIN.md', () => {
    for (const nit of ['576937-K', '7108-0', '3952550-3', '576937k', ' 3952550 3 ']) expect(isValidNit(nit), nit).toBe(true);
  });
  it('refuses a wrong check digit, letters in the body and empty input', () => {
    for (const nit of ['8977112-0', '576937-1', 'A108-0', '', '-', 'K', '1234567890123-4'])
      expect(isValidNit(nit), nit).toBe(false);
  });
  it('computes K for a remainder of 10', () => {
    expect(nitCheckDigit('576937')).toBe('K');
    expect(nitCheckDigit('7108')).toBe('0');
  });
  it('formats with a dash before the check digit', () => {
    expect(formatNit('576937k')).toBe('576937-K');
  });

  const body = fc.stringMatching(/^[0-9]{1,12}$/);
  it('property: body + its check digit is always valid', () => {
    fc.assert(fc.property(body, (b) => isValidNit(`${b}-${nitCheckDigit(b)}`)));
  });
  it('property: every other check digit is invalid', () => {
    fc.assert(
      fc.property(body, fc.constantFrom(...'0123456789K'.split('')), (b, d) => {
        fc.pre(d !== nitCheckDigit(b));
        return !isValidNit(`${b}-${d}`);
      }),
    );
  });
  // Weights 2…10 are invertible modulo 11, so any single-digit error in a body of up to 9 digits is caught
  // (the 10th digit from the right has weight 11 ≡ 0 and is not protected, a property of the rule itself).
  it('property: changing one digit of a body of up to 9 digits changes the check digit', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,9}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (b, pos, delta) => {
        const i = pos % b.length;
        const changed = b.slice(0, i) + String((Number(b[i]) + delta) % 10) + b.slice(i + 1);
        return nitCheckDigit(changed) !== nitCheckDigit(b);
      }),
    );
  });
});

describe('delegate CUI', () => {
  it('accepts the valid examples and refuses the invalid ones of DOMAIN.md', () => {
    expect(isValidCuiForDelegate('1587564440904')).toBe(true);
    expect(isValidCuiForDelegate('1580 35224 0101')).toBe(true);
    expect(isValidCuiForDelegate('1680352240101')).toBe(false);
    expect(isValidCuiForDelegate('12345678')).toBe(false);
  });
  it('refuses department 23 and municipality 00', () => {
    expect(isValidCuiForDelegate('1587564442301')).toBe(false);
    expect(isValidCuiForDelegate('1587564440100')).toBe(false);
  });
});

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
