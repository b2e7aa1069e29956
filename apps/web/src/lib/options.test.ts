import { describe, expect, it } from 'vitest';
import { entityOptions } from './options.ts';

describe('entityOptions', () => {
  it('labels each entity with its name and code and values it by id; none while loading', () => {
    expect(entityOptions([{ id: 7, name: 'Municipalidad de Mixco', code: '0108' }])).toEqual([
      { value: '7', label: 'Municipalidad de Mixco (0108)' },
    ]);
    expect(entityOptions(undefined)).toEqual([]);
  });
});
