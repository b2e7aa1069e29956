import type { ShellTheme } from '@aporta/domain';
import { type CSSVariablesResolver, createTheme, type MantineThemeOverride } from '@mantine/core';

/*
 * The six themes of the settings panel (spec section 2): each a distinct Mantine theme — font,
 * radius, primary colour and shadows. Primary shades are chosen so white text on a filled button keeps
 * WCAG AA contrast (4.5:1) in light and dark mode; theme.test.ts checks it.
 */

const systemSans = '"Noto Sans", "Helvetica Neue", Arial, sans-serif';

export const themes: Record<ShellTheme, MantineThemeOverride> = {
  default: createTheme({
    primaryColor: 'blue',
    primaryShade: { light: 8, dark: 8 },
    fontFamily: `Inter, "Segoe UI", Roboto, ${systemSans}`,
    headings: { fontWeight: '700' },
    defaultRadius: 'md',
  }),
  material: createTheme({
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
    primaryColor: 'gray',
    primaryShade: { light: 8, dark: 7 },
    fontFamily: `"Helvetica Neue", Helvetica, Arial, ${systemSans}`,
    headings: { fontWeight: '500' },
    defaultRadius: 0,
    shadows: { xs: 'none', sm: 'none', md: 'none', lg: 'none', xl: 'none' },
  }),
  modern: createTheme({
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
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
  },
});
