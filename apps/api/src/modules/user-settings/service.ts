import { type LayoutSettings, parseLayoutSettings } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userSettings } from '../../db/schema/index.ts';

/** The user's layout settings; nothing stored, or a corrupt or unknown value, reads as the default. */
export async function getLayoutSettings(opts: { db: Db; userId: number }): Promise<LayoutSettings> {
  const [row] = await opts.db.select().from(userSettings).where(eq(userSettings.userId, opts.userId));
  return parseLayoutSettings(row?.layout);
}

/** Stores the user's layout settings (already validated by the route) and answers what is stored. */
export async function saveLayoutSettings(opts: { db: Db; userId: number; data: LayoutSettings }): Promise<LayoutSettings> {
  const layout = parseLayoutSettings(opts.data);
  await opts.db
    .insert(userSettings)
    .values({ userId: opts.userId, layout })
    .onConflictDoUpdate({ target: userSettings.userId, set: { layout, updatedAt: new Date() } });
  return layout;
}
