import type { ShellTheme } from '@aporta/domain';
import {
  type CSSVariablesResolver,
  createTheme,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  type MantineTheme,
  type MantineThemeComponent,
  type MantineThemeOverride,
  parseThemeColor,
  rem,
  type VariantColorsResolver,
} from '@mantine/core';
import i18n from 'i18next';

/* ——— Contrast (WCAG 2.x) ——— */

const channel = (c: number) => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const luminanceOf = (hex: string) => {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((x) => x + x).join('') : h;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16));
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};
export const contrastRatio = (a: string, b: string): number => {
  const [x, y] = [luminanceOf(a), luminanceOf(b)].sort((m, n) => n - m);
  return (x + 0.05) / (y + 0.05);
};
const AA = 4.5;

/** Backgrounds outline text sits on: cards, page, striped and hovered rows, per scheme. */
export const outlineBackgrounds = (t: Pick<MantineTheme, 'colors' | 'white'>) => ({
  light: [t.white, t.colors.gray[0], t.colors.gray[1]],
  dark: [t.colors.dark[5], t.colors.dark[6], t.colors.dark[7], t.colors.dark[8]],
});

/**
 * The shade an outline badge or button of `colors` shows in a scheme: the asked shade if its text
 * reaches AA (4.5:1) on every background of that scheme, else the nearest darker (light scheme) or
 * lighter (dark scheme) shade that does; null when none does (then plain black or white).
 */
export function outlineShade(
  colors: MantineColorsTuple,
  shade: number,
  scheme: 'light' | 'dark',
  backgrounds: string[],
): number | null {
  const order =
    scheme === 'light'
      ? [...Array(10).keys()].filter((i) => i >= shade)
      : [...Array(10).keys()].filter((i) => i <= shade).reverse();
  return order.find((i) => backgrounds.every((bg) => contrastRatio(colors[i], bg) >= AA)) ?? null;
}

/**
 * Outline variants (badges, buttons) read their colour from --aporta-outline-{color}[-{shade}], which
 * cssVariablesResolver sets per scheme: a dark-mode outline "blue.9" shows a light enough blue.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const base = defaultVariantColorsResolver(input);
  if (input.variant !== 'outline') return base;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || !input.theme.colors[parsed.color]) return base;
  const v = `var(--aporta-outline-${parsed.shade === undefined ? parsed.color : `${parsed.color}-${parsed.shade}`})`;
  return { ...base, color: v, border: `${rem(1)} solid ${v}` };
};

/** Outline colour variables of every colour and shade, for one scheme. */
function outlineVariables(t: MantineTheme, scheme: 'light' | 'dark'): Record<string, string> {
  const backgrounds = outlineBackgrounds(t)[scheme];
  const fallback = scheme === 'light' ? t.black : t.white;
  const primary = typeof t.primaryShade === 'number' ? t.primaryShade : t.primaryShade[scheme];
  const unshaded = scheme === 'light' ? primary : Math.max(primary - 4, 0); // Mantine's own outline shade
  const out: Record<string, string> = {};
  for (const [name, colors] of Object.entries(t.colors)) {
    for (let shade = 0; shade < 10; shade++) {
      const s = outlineShade(colors, shade, scheme, backgrounds);
      out[`--aporta-outline-${name}-${shade}`] = s === null ? fallback : colors[s];
    }
    const s = outlineShade(colors, unshaded, scheme, backgrounds);
    out[`--aporta-outline-${name}`] = s === null ? fallback : colors[s];
  }
  return out;
}

/*
 * Badges show their whole word: Mantine cuts the label with an ellipsis when a table column or a
 * group is narrow ("APR…"); here the badge keeps its full width and the column grows instead.
 */
// A plain object rather than Badge.extend(): the sign-in page loads this theme and has no badge to ship.
/*
 * Every clearable input's "×" button gets a name in the user's language (axe: button-name): Mantine
 * renders it unnamed. A function, so it reads the language at render; a field's own label wins.
 */
const clearButton = { defaultProps: () => ({ clearButtonProps: { 'aria-label': i18n.t('common.clearInput') } }) };
/*
 * A light Alert's title in the text colour: Mantine writes it in the colour's shade 9 on a tint of the
 * theme's primary shade, under AA for some colours (teal 9 on a teal 8 tint: 4.43:1). Its icon and border
 * keep the colour. A filled Alert keeps Mantine's own.
 */
const alert = {
  styles: (_t: MantineTheme, props: { variant?: string }) =>
    !props.variant || props.variant === 'light' ? { title: { color: 'var(--mantine-color-text)' } } : {},
};
const components = {
  Alert: alert,
  Select: clearButton,
  MultiSelect: clearButton,
  Autocomplete: clearButton,
  TagsInput: clearButton,
  FileInput: clearButton,
  DateInput: clearButton,
  DatePickerInput: clearButton,
  Badge: {
    styles: {
      root: { overflow: 'visible', flexShrink: 0, minWidth: 'max-content', maxWidth: 'none' },
      label: { overflow: 'visible', textOverflow: 'clip' },
    },
  } satisfies MantineThemeComponent,
};

/*
 * The six themes of the settings panel (spec section 2): each a distinct Mantine theme — font,
 * radius, primary colour and shadows. Primary shades are chosen so white text on a filled button keeps
 * WCAG AA contrast (4.5:1) in light and dark mode; theme.test.ts checks it.
 */

const systemSans = '"Noto Sans", "Helvetica Neue", Arial, sans-serif';

export const themes: Record<ShellTheme, MantineThemeOverride> = {
  default: createTheme({
    variantColorResolver,
    components,
    primaryColor: 'blue',
    primaryShade: { light: 8, dark: 8 },
    fontFamily: `Inter, "Segoe UI", Roboto, ${systemSans}`,
    headings: { fontWeight: '700' },
    defaultRadius: 'md',
  }),
  material: createTheme({
    variantColorResolver,
    components,
    primaryColor: 'indigo',
    primaryShade: { light: 7, dark: 7 },
    fontFamily: `Roboto, "Noto Sans", ${systemSans}`,
    headings: { fontFamily: `Roboto, ${systemSans}`, fontWeight: '500' },
    defaultRadius: 'xs',
    shadows: {
      xs: '0 1px 3px rgba(0,0,0,.2), 0 1px 1px rgba(0,0,0,.14)',
      sm: '0 3px 1px -2px rgba(0,0,0,.2), 0 2px 2px rgba(0,0,0,.14), 0 1px 5px rgba(0,0,0,.12)',
      md: '0 2px 4px -1px rgba(0,0,0,.2), 0 4px 5px rgba(0,0,0,.14), 0 1px 10px rgba(0,0,0,.12)',
      lg: '0 5px 5px -3px rgba(0,0,0,.2), 0 8px 10px 1px rgba(0,0,0,.14), 0 3px 14px 2px rgba(0,0,0,.12)',
      xl: '0 8px 10px -5px rgba(0,0,0,.2), 0 16px 24px 2px rgba(0,0,0,.14), 0 6px 30px 5px rgba(0,0,0,.12)',
    },
  }),
  creative: createTheme({
    variantColorResolver,
    components,
    primaryColor: 'grape',
    primaryShade: { light: 7, dark: 7 },
    fontFamily: `"Trebuchet MS", "Lucida Grande", "DejaVu Sans", ${systemSans}`,
    headings: { fontFamily: `Georgia, "DejaVu Serif", serif`, fontWeight: '700' },
    defaultRadius: 'xl',
    shadows: {
      xs: '0 1px 4px rgba(156, 54, 181, .12)',
      sm: '0 4px 12px rgba(156, 54, 181, .14)',
      md: '0 8px 20px rgba(156, 54, 181, .16)',
      lg: '0 12px 30px rgba(156, 54, 181, .18)',
      xl: '0 20px 44px rgba(156, 54, 181, .2)',
    },
  }),
  minimal: createTheme({
    variantColorResolver,
    components,
    primaryColor: 'gray',
    primaryShade: { light: 8, dark: 7 },
    fontFamily: `"Helvetica Neue", Helvetica, Arial, ${systemSans}`,
    headings: { fontWeight: '500' },
    defaultRadius: 0,
    shadows: { xs: 'none', sm: 'none', md: 'none', lg: 'none', xl: 'none' },
  }),
  modern: createTheme({
    variantColorResolver,
    components,
    primaryColor: 'teal',
    primaryShade: { light: 9, dark: 9 },
    fontFamily: `"Segoe UI Variable", "Avenir Next", Montserrat, "DejaVu Sans", ${systemSans}`,
    headings: { fontWeight: '800' },
    defaultRadius: 'lg',
    shadows: {
      xs: '0 2px 6px rgba(15, 23, 42, .06)',
      sm: '0 6px 16px rgba(15, 23, 42, .08)',
      md: '0 12px 28px rgba(15, 23, 42, .1)',
      lg: '0 18px 40px rgba(15, 23, 42, .12)',
      xl: '0 28px 60px rgba(15, 23, 42, .14)',
    },
  }),
  interaction: createTheme({
    variantColorResolver,
    components,
    primaryColor: 'cyan',
    primaryShade: { light: 9, dark: 9 },
    fontFamily: `Verdana, Tahoma, "DejaVu Sans", ${systemSans}`,
    headings: { fontWeight: '700' },
    defaultRadius: 'sm',
    shadows: {
      xs: '0 0 0 1px rgba(11, 114, 133, .15)',
      sm: '0 0 0 1px rgba(11, 114, 133, .18), 0 2px 6px rgba(11, 114, 133, .12)',
      md: '0 0 0 1px rgba(11, 114, 133, .2), 0 6px 14px rgba(11, 114, 133, .14)',
      lg: '0 0 0 1px rgba(11, 114, 133, .2), 0 10px 24px rgba(11, 114, 133, .16)',
      xl: '0 0 0 1px rgba(11, 114, 133, .22), 0 16px 36px rgba(11, 114, 133, .18)',
    },
  }),
};

/** The theme of the sign-in page and of the first paint before settings are known. */
export const theme = themes.default;

/** Darker dimmed text and error red in light mode, for AA contrast on white. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[9],
    ...outlineVariables(t, 'light'),
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    ...outlineVariables(t, 'dark'),
  },
});
