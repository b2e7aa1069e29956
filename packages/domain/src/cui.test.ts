import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cuiCheckDigit, cuiProblem, formatCui, isValidCui, makeCui, normalizeCui } from './cui.ts';
import { formatNit, isValidNit, nitCheckCharacter, nitProblem } from './nit.ts';
import { municipalityCodes } from './territory-codes.ts';

const csv = readFileSync(new URL('../../../apps/api/src/seed/gt-divisiones.csv', import.meta.url), 'utf8');
const csvCodes = csv
  .trim()
  .split(/\r?\n/)
  .slice(1)
  .map((l) => l.split(',')[2].trim());

describe('territory codes', () => {
  it('are generated from gt-divisiones.csv (run scripts/gen-territory-codes.mjs when it changes)', () => {
    expect([...municipalityCodes]).toEqual(csvCodes);
    expect(new Set(municipalityCodes.map((c) => c.slice(0, 2))).size).toBe(22);
  });
});

describe('CUI', () => {
  it('accepts the DOMAIN.md valid vectors', () => {
    expect(cuiProblem('1587564440904')).toBeNull();
    expect(cuiProblem('1580352240101')).toBeNull();
  });

  it('rejects the DOMAIN.md invalid vectors with the reason', () => {
    expect(cuiProblem('1680352240101')).toBe('CHECK_DIGIT');
    expect(cuiProblem('12345678')).toBe('LENGTH');
  });

  it('accepts spaces on input and formats NNNN NNNNN NNNN', () => {
    expect(isValidCui('1587 56444 0904')).toBe(true);
    expect(normalizeCui(' 1587 56444 0904 ')).toBe('1587564440904');
    expect(formatCui('1587564440904')).toBe('1587 56444 0904');
    expect(formatCui('123')).toBe('123');
  });

  it('rejects letters, an unknown department and a municipality outside its department', () => {
    expect(cuiProblem('15875644A0904')).toBe('FORMAT');
    expect(cuiProblem('')).toBe('EMPTY');
    const body = '15875644';
    const check = cuiCheckDigit(body);
    expect(cuiProblem(`${body}${check}2301`)).toBe('DEPARTMENT');
    expect(cuiProblem(`${body}${check}0000`)).toBe('DEPARTMENT');
    // Guatemala (01) has 17 municipalities in the territory data: 0118 does not exist.
    expect(cuiProblem(`${body}${check}0118`)).toBe('MUNICIPALITY');
    expect(cuiProblem(`${body}${check}0117`)).toBeNull();
  });

  it('validates against a municipality set the caller passes', () => {
    expect(cuiProblem('1587564440904', new Set(['0101']))).toBe('DEPARTMENT');
    expect(cuiProblem('1587564440904', new Set(['0904']))).toBeNull();
  });

  const validCui = fc
    .tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom(...municipalityCodes))
    .map(([serial, mun]) => makeCui(serial, mun));

  it('passes every generated valid CUI', () => {
    fc.assert(fc.property(validCui, (cui) => isValidCui(cui) && isValidCui(formatCui(cui))));
  });

  it('fails every single-digit change in positions 1–9', () => {
    fc.assert(
      fc.property(validCui, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 9 }), (cui, pos, delta) => {
        const digit = (Number(cui[pos]) + delta) % 10;
        const changed = `${cui.slice(0, pos)}${digit}${cui.slice(pos + 1)}`;
        return cuiProblem(changed) === 'CHECK_DIGIT';
      }),
    );
  });
});

describe('NIT', () => {
  it('accepts the DOMAIN.md valid vectors', () => {
    for (const nit of ['576937-K', '7108-0', '3952550-3', '576937k']) expect(isValidNit(nit)).toBe(true);
  });

  it('rejects the DOMAIN.md invalid vector and malformed input', () => {
    expect(nitProblem('8977112-0')).toBe('CHECK_DIGIT');
    expect(nitProblem('ABC')).toBe('FORMAT');
    expect(nitProblem('')).toBe('EMPTY');
  });

  it('formats with a dash and computes K for a remainder of 10', () => {
    expect(formatNit('576937k')).toBe('576937-K');
    expect(nitCheckCharacter('576937')).toBe('K');
  });

  it('passes every body with its computed check character, and fails any other character', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{0,9}$/), fc.constantFrom(...'0123456789K'), (body, other) => {
        const check = nitCheckCharacter(body);
        return isValidNit(`${body}-${check}`) && (other === check || !isValidNit(`${body}${other}`));
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
        return nitCheckCharacter(changed) !== nitCheckCharacter(b);
      }),
    );
  });
});
