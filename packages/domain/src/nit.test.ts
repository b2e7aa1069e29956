import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNit, isValidNit, nitCheckCharacter, normalizeNit } from './nit.ts';

describe('NIT: one stored form (issue 9)', () => {
  it('576937-K, 0576937-K and 000576937-K are the same NIT', () => {
    for (const typed of ['576937-K', '0576937-K', '000576937-K', '576937k', ' 0576937 - k ', '0.576.937-K']) {
      expect(normalizeNit(typed), typed).toBe('576937K');
      expect(formatNit(typed), typed).toBe('576937-K');
      expect(isValidNit(typed), typed).toBe(true);
    }
    expect(normalizeNit('0-0')).toBe('00');
    expect(normalizeNit('abc')).toBe('ABC');
  });

  it('property: leading zeros never change the normal form or the validity', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9][0-9]{0,9}$/), fc.nat(5), (body, zeros) => {
        const nit = `${body}-${nitCheckCharacter(body)}`;
        const padded = `${'0'.repeat(zeros)}${nit}`;
        expect(normalizeNit(padded)).toBe(normalizeNit(nit));
        expect(isValidNit(padded)).toBe(true);
        expect(normalizeNit(normalizeNit(padded))).toBe(normalizeNit(padded));
      }),
    );
  });
});
