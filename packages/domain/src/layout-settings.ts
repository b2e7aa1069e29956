/**
 * Layout settings of the shell (spec sections 2 and 4). Names and values are the specification's;
 * the server stores one object per user and the web app mirrors it in localStorage for first paint.
 * No zod here: the sign-in page reads the theme and mode before any schema library is loaded
 * (bench/login-bundle.mjs); shell.ts builds the API's schemas from these same lists.
 */
export const LAYOUTS = ['vertical', 'horizontal', 'twocolumn'] as const;
export const THEMES = ['default', 'material', 'creative', 'minimal', 'modern', 'interaction'] as const;
/** `brand` is shown disabled ("Próximamente"); it is never stored. */
export const MODES = ['light', 'dark'] as const;
export const WIDTHS = ['fluid', 'boxed'] as const;
export const POSITIONS = ['fixed', 'scrollable'] as const;
export const TOPBARS = ['light', 'dark'] as const;
export const SIDEBAR_SIZES = ['lg', 'md', 'sm', 'sm-hover'] as const;
export const SIDEBAR_VIEWS = ['default', 'detached'] as const;
export const SIDEBAR_COLORS = ['light', 'dark', 'gradient', 'gradient-2', 'gradient-3', 'gradient-4'] as const;
export const SIDEBAR_IMAGES = ['none', 'img-1', 'img-2', 'img-3', 'img-4'] as const;
export const PRELOADERS = ['enable', 'disable'] as const;

/** The values each setting takes. */
export const LAYOUT_SETTING_VALUES = {
  layout: LAYOUTS,
  theme: THEMES,
  mode: MODES,
  width: WIDTHS,
  position: POSITIONS,
  topbar: TOPBARS,
  sidebarSize: SIDEBAR_SIZES,
  sidebarView: SIDEBAR_VIEWS,
  sidebarColor: SIDEBAR_COLORS,
  sidebarImage: SIDEBAR_IMAGES,
  preloader: PRELOADERS,
} as const;

export type Layout = (typeof LAYOUTS)[number];
export type ShellTheme = (typeof THEMES)[number];
export type SidebarSize = (typeof SIDEBAR_SIZES)[number];
export type LayoutSettingKey = keyof typeof LAYOUT_SETTING_VALUES;
export type LayoutSettings = { [K in LayoutSettingKey]: (typeof LAYOUT_SETTING_VALUES)[K][number] };

/** Spec section 4, "Layout defaults". */
export const DEFAULT_LAYOUT_SETTINGS: LayoutSettings = Object.freeze({
  layout: 'vertical',
  theme: 'default',
  mode: 'light',
  width: 'fluid',
  position: 'fixed',
  topbar: 'light',
  sidebarSize: 'lg',
  sidebarView: 'default',
  sidebarColor: 'dark',
  sidebarImage: 'none',
  preloader: 'disable',
});

/**
 * Reads stored settings of unknown shape: every valid field is kept, a missing, corrupt or unknown
 * value falls back to its default, and unknown fields are dropped; "auto" mode becomes light. Never throws.
 */
export function parseLayoutSettings(raw: unknown): LayoutSettings {
  const src = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const out = { ...DEFAULT_LAYOUT_SETTINGS } as Record<string, unknown>;
  for (const [key, values] of Object.entries(LAYOUT_SETTING_VALUES)) {
    const v = key === 'mode' && src[key] === 'auto' ? 'light' : src[key];
    if ((values as readonly unknown[]).includes(v)) out[key] = v;
  }
  return out as LayoutSettings;
}

/**
 * One setting changed by the user, with the rules that follow it (spec section 4): boxed width sets
 * sidebar size sm-hover and fluid sets lg; the minimal theme sets a light sidebar, any other a dark one.
 */
export function applyLayoutSetting<K extends LayoutSettingKey>(
  current: LayoutSettings,
  key: K,
  value: LayoutSettings[K],
): LayoutSettings {
  const next: LayoutSettings = { ...current, [key]: value };
  if (key === 'width') next.sidebarSize = value === 'boxed' ? 'sm-hover' : 'lg';
  if (key === 'theme') next.sidebarColor = value === 'minimal' ? 'light' : 'dark';
  return next;
}

/** Which settings the panel shows for a layout (spec section 4). */
export function visibleLayoutSettings(layout: Layout): Record<LayoutSettingKey, boolean> {
  return {
    layout: true,
    theme: true,
    mode: true,
    topbar: true,
    preloader: true,
    width: layout === 'vertical' || layout === 'horizontal',
    position: layout === 'vertical' || layout === 'horizontal',
    sidebarSize: layout === 'vertical',
    sidebarView: layout === 'vertical',
    sidebarColor: layout === 'vertical' || layout === 'twocolumn',
    sidebarImage: layout === 'vertical' || layout === 'twocolumn',
  };
}

/** Breakpoints of spec section 9. */
export const MOBILE_MAX_WIDTH = 767;
export const SMALL_MAX_WIDTH = 1024;

/**
 * The sidebar size in effect for a window width: none (the mobile menu slides in instead) at 767 px or
 * less, small up to 1024 px, and the chosen size on wider screens (lg by default).
 */
export function responsiveSidebarSize(windowWidth: number, chosen: SidebarSize): SidebarSize | null {
  if (windowWidth <= MOBILE_MAX_WIDTH) return null;
  if (windowWidth <= SMALL_MAX_WIDTH) return 'sm';
  return chosen;
}

/** Two-column falls back to vertical on narrow screens (spec section 4). */
export function effectiveLayout(windowWidth: number, layout: Layout): Layout {
  return layout === 'twocolumn' && windowWidth <= SMALL_MAX_WIDTH ? 'vertical' : layout;
}

/** Shell constants of spec section 9. */
export const SHELL_TIMINGS = {
  backToTopAfterPx: 100,
  themeSpinnerMs: 1000,
  preloaderMs: 1000,
  resizeEventAfterLayoutChangeMs: 1500,
  searchDropdownMaxHeightPx: 320,
  sidebarWidthPx: 260,
  sidebarCollapsedWidthPx: 70,
  horizontalMenuMarginPx: 100,
} as const;
