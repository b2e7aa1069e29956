import { type LayoutSettings, parseLayoutSettings } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { userSettings } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';

/** The user's layout settings; nothing stored, or a corrupt or unknown value, reads as the default. */
export async function getLayoutSettings(ctx: RequestContext): Promise<LayoutSettings> {
  const [row] = await ctx.db.select().from(userSettings).where(eq(userSettings.userId, ctx.user.id));
  return parseLayoutSettings(row?.layout);
}

/** Stores the user's layout settings (already validated by the route) and answers what is stored. */
export async function saveLayoutSettings(ctx: RequestContext, data: LayoutSettings): Promise<LayoutSettings> {
  const layout = parseLayoutSettings(data);
  await ctx.db
    .insert(userSettings)
    .values({ userId: ctx.user.id, layout })
    .onConflictDoUpdate({ target: userSettings.userId, set: { layout, updatedAt: new Date() } });
  return layout;
}
