import { dcrudMenuGroup, type MenuItem, menuTree } from '@aporta/domain';
import { describe, expect, it } from 'vitest';
import { menuIconNames } from './menuIcons.tsx';

const iconsOf = (items: readonly MenuItem[]): string[] =>
  items.flatMap((i) => [...(i.icon ? [i.icon] : []), ...iconsOf(i.subItems ?? [])]);

describe('menu icons', () => {
  it('has an icon for every icon the menu tree and the dynamic catalogue group name', () => {
    const named = [...iconsOf(menuTree), ...iconsOf([dcrudMenuGroup(['regions'])!]), 'home'];
    expect(named.filter((n) => !menuIconNames.includes(n))).toEqual([]);
  });
});
