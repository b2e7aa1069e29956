import { z } from 'zod';
import { idSchema, intTextSchema } from './fields.ts';

/**
 * Layout settings of the shell (spec sections 2 and 4). Names and values are the specification's;
 * the server stores one object per user and the web app mirrors it in localStorage for first paint.
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

export type Layout = (typeof LAYOUTS)[number];
export type ShellTheme = (typeof THEMES)[number];
export type SidebarSize = (typeof SIDEBAR_SIZES)[number];

/** "auto" mode is accepted and resolves to light (spec section 4). */
const modeSchema = z.preprocess((v) => (v === 'auto' ? 'light' : v), z.enum(MODES));

/** The settings as stored and answered. */
export const layoutSettingsOutputSchema = z.object({
  layout: z.enum(LAYOUTS),
  theme: z.enum(THEMES),
  mode: z.enum(MODES),
  width: z.enum(WIDTHS),
  position: z.enum(POSITIONS),
  topbar: z.enum(TOPBARS),
  sidebarSize: z.enum(SIDEBAR_SIZES),
  sidebarView: z.enum(SIDEBAR_VIEWS),
  sidebarColor: z.enum(SIDEBAR_COLORS),
  sidebarImage: z.enum(SIDEBAR_IMAGES),
  preloader: z.enum(PRELOADERS),
});
/** The settings as received: like the output, but "auto" mode is accepted and becomes light. */
export const layoutSettingsSchema = layoutSettingsOutputSchema.extend({ mode: modeSchema });
export type LayoutSettings = z.infer<typeof layoutSettingsSchema>;
export type LayoutSettingKey = keyof LayoutSettings;

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
 * value falls back to its default, and unknown fields are dropped. Never throws.
 */
export function parseLayoutSettings(raw: unknown): LayoutSettings {
  const src = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const out = { ...DEFAULT_LAYOUT_SETTINGS } as Record<string, unknown>;
  for (const [key, schema] of Object.entries(layoutSettingsSchema.shape)) {
    const r = (schema as z.ZodType).safeParse(src[key]);
    if (r.success) out[key] = r.data;
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

// ——— Notifications ———

export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error'] as const;

export const notificationSchema = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = z.object({
  unread: z.enum(['true', 'false']).optional(),
  limit: intTextSchema({ min: 1, max: 200 }).default(50),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  total: z.number().int(),
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** Mark read or delete: some ids, or all of the user's notifications for `all: true`. */
export const notificationIdsSchema = z.union([
  z.object({ ids: z.array(idSchema).min(1, { error: 'Indique al menos una notificación.' }).max(500) }),
  z.object({ all: z.literal(true) }),
]);
export type NotificationIds = z.infer<typeof notificationIdsSchema>;

export const notificationActionResultSchema = z.object({ affected: z.number().int(), unread: z.number().int() });

/** What other modules pass to notify users (title and body in Spanish, the product language). */
export const newNotificationSchema = z.object({
  type: z.enum(NOTIFICATION_TYPES).default('info'),
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().max(2000).default(''),
  link: z
    .string()
    .regex(/^\/(?!\/)/, { error: 'El enlace debe ser una ruta de la aplicación.' })
    .max(500)
    .nullable()
    .default(null),
});
export type NewNotification = z.input<typeof newNotificationSchema>;

/** Public information about the installation: the title, acronym and credit the shell shows. */
/** GET /api/health: whether the service and its database answer. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['pglite', 'postgresql']),
  version: z.string(),
});
export type Health = z.infer<typeof healthSchema>;

export const appInfoSchema = z.object({
  title: z.string(),
  acronym: z.string(),
  credit: z.string(),
  version: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** A work queue of the home page: what waits for the user, counted within their scope, and where to work it. */
export const workQueueSchema = z.object({ id: z.string(), title: z.string(), link: z.string(), count: z.number().int() });
export type WorkQueue = z.infer<typeof workQueueSchema>;
export const workQueueListSchema = z.object({ items: z.array(workQueueSchema) });
