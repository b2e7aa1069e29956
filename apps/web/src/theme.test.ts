import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, outlineBackgrounds, themes } from './theme.ts';

describe('outline colours (badges, buttons)', () => {
  for (const [name, override] of Object.entries(themes)) {
    const theme = mergeMantineTheme(DEFAULT_THEME, override);
    const vars = cssVariablesResolver(theme);
    const backgrounds = outlineBackgrounds(theme);

    it(`${name}: every colour and shade reaches AA (4.5:1) on the backgrounds of both schemes`, () => {
      const failures: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        for (const color of Object.keys(theme.colors)) {
          for (const key of [color, ...[...Array(10).keys()].map((s) => `${color}-${s}`)]) {
            const value = vars[scheme][`--aporta-outline-${key}`];
            for (const bg of backgrounds[scheme]) {
              const ratio = contrastRatio(value, bg);
              if (!(ratio >= 4.5)) failures.push(`${scheme} ${key} ${value} on ${bg}: ${ratio.toFixed(2)}`);
            }
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it(`${name}: outline badges and buttons take their colour from those variables`, () => {
      for (const color of ['blue.9', 'teal.9', 'gray.7', 'red.9', 'violet.9', 'grape.9', undefined]) {
        const r = theme.variantColorResolver({ color: color ?? theme.primaryColor, theme, variant: 'outline' });
        const key = color ? color.replace('.', '-') : theme.primaryColor;
        expect(r.color).toBe(`var(--aporta-outline-${key})`);
        expect(r.border).toContain(`var(--aporta-outline-${key})`);
      }
      // The dark scheme shows a lighter shade than the one asked where the asked one is too dark.
      expect(vars.dark['--aporta-outline-blue-9']).not.toBe(theme.colors.blue[9]);
      expect(vars.light['--aporta-outline-blue-9']).toBe(theme.colors.blue[9]);
    });
  }

  it('lets badges show their whole word (no ellipsis)', () => {
    const styles = (themes.default.components?.Badge?.styles ?? {}) as Record<string, Record<string, string>>;
    expect(styles.root).toMatchObject({ overflow: 'visible', minWidth: 'max-content' });
    expect(styles.label).toMatchObject({ overflow: 'visible', textOverflow: 'clip' });
  });
});
