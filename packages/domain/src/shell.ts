import { z } from 'zod';
import { idSchema, intTextSchema } from './fields.ts';
import {
  LAYOUTS,
  type LayoutSettings,
  MODES,
  POSITIONS,
  PRELOADERS,
  SIDEBAR_COLORS,
  SIDEBAR_IMAGES,
  SIDEBAR_SIZES,
  SIDEBAR_VIEWS,
  THEMES,
  TOPBARS,
  WIDTHS,
} from './layout-settings.ts';
import { text } from './messages.ts';

// The layout settings' values, defaults and rules live in layout-settings.ts, free of zod, so the web
// app's first paint (the sign-in page's theme) reads them without the schema library; the schemas the
// API validates with are built here from the same value lists.
export * from './layout-settings.ts';

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
}) satisfies z.ZodType<LayoutSettings>;
/** The settings as received: like the output, but "auto" mode is accepted and becomes light. */
export const layoutSettingsSchema = layoutSettingsOutputSchema.extend({ mode: modeSchema });

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
  z.object({
    ids: z
      .array(idSchema)
      .min(1, { error: text('platform.notificationIdsRequired') })
      .max(500),
  }),
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
    .regex(/^\/(?!\/)/, { error: text('platform.notificationLinkInvalid') })
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
export const workQueueSchema = z.object({
  id: z.string(),
  title: z.string(),
  link: z.string(),
  count: z.number().int(),
  /** A check that should read zero (money a job left unapplied): shown as an alert when it does not. */
  alert: z.boolean().optional(),
});
export type WorkQueue = z.infer<typeof workQueueSchema>;
export const workQueueListSchema = z.object({ items: z.array(workQueueSchema) });
export type WorkQueueList = z.infer<typeof workQueueListSchema>;
