import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseTypedDate } from './dates.ts';

describe('typed dates (dd/mm/aaaa)', () => {
  it('reads day first, with / - or . and optional leading zeros, or ISO', () => {
    expect(parseTypedDate('01/05/1990')).toBe('1990-05-01');
    expect(parseTypedDate('1/5/1990')).toBe('1990-05-01');
    expect(parseTypedDate('31-12-2024')).toBe('2024-12-31');
    expect(parseTypedDate(' 29.02.2024 ')).toBe('2024-02-29');
    expect(parseTypedDate('1990-05-01')).toBe('1990-05-01');
  });

  it('never reads month first nor guesses: impossible or partial dates are refused', () => {
    // 05/13/1990 would be 13 May for a US browser; here month 13 does not exist.
    for (const bad of [
      '05/13/1990',
      '31/02/2024',
      '29/02/2023',
      '00/00/0000',
      '1980',
      '12/1980',
      '01/01/1899',
      '01/01/2101',
      'abc',
      '',
    ])
      expect(parseTypedDate(bad), bad).toBeNull();
  });

  it('shows ISO dates as dd/mm/aaaa', () => {
    expect(formatIsoDate('1990-05-01')).toBe('01/05/1990');
    expect(formatIsoDate(null)).toBe('');
  });
});
