import { describe, expect, it } from 'vitest';
import { isAvailable } from './useMenu.ts';

const entry = (link: string) => ({ id: link, label: link, link });

describe('menu availability', () => {
  it('offers entries whose screen exists', () => {
    expect(isAvailable(entry('/contributors/list'))).toBe(true);
    expect(isAvailable(entry('/administrative/regions'))).toBe(true);
    expect(isAvailable(entry('/users'))).toBe(true);
  });

  it('does not let a parameter route (contributors/:id) stand in for a screen that does not exist', () => {
    expect(isAvailable(entry('/contributors/not-a-screen'))).toBe(false);
    expect(isAvailable(entry('/contributors/financial-module'))).toBe(true);
    expect(isAvailable(entry('/roles/anything'))).toBe(false);
  });

  it('serves the dynamic catalogue entries through the route that opts in', () => {
    expect(isAvailable(entry('/dcrud/regions'))).toBe(true);
  });
});
