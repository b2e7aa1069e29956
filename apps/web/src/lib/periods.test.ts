import { describe, expect, it } from 'vitest';
import { formatTypedPeriod, parseTypedPeriod } from './periods.ts';

describe('typed periods (mm/aaaa)', () => {
  it('reads month first, with / - or . and an optional leading zero, or year first (aaaa-mm)', () => {
    expect(parseTypedPeriod('10/2026')).toBe('2026-10');
    expect(parseTypedPeriod('10-2026')).toBe('2026-10');
    expect(parseTypedPeriod('2026-10')).toBe('2026-10');
    expect(parseTypedPeriod('3/2026')).toBe('2026-03');
    expect(parseTypedPeriod(' 03.2026 ')).toBe('2026-03');
    expect(parseTypedPeriod('2026/3')).toBe('2026-03');
    expect(parseTypedPeriod('01/1900')).toBe('1900-01');
    expect(parseTypedPeriod('12/2100')).toBe('2100-12');
  });

  it('refuses what is not a month rather than guessing', () => {
    for (const bad of [
      '13/2026',
      '00/2026',
      '2026-13',
      '2026-00',
      '10/26',
      '2026',
      '102026',
      '01/10/2026',
      '2026-10-01',
      '12/1899',
      '01/2101',
      '10/2026x',
      'octubre 2026',
      'abc',
      '',
    ])
      expect(parseTypedPeriod(bad), bad).toBeNull();
  });

  it('shows periods as mm/aaaa', () => {
    expect(formatTypedPeriod('2026-10')).toBe('10/2026');
    expect(formatTypedPeriod(null)).toBe('');
    expect(formatTypedPeriod('garbage')).toBe('');
  });
});
