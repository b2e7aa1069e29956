import { AppError, detail, msg, settingKeys } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { settingValues } from '../../db/schema/index.ts';

/**
 * The first day on which every setting has a value in force (the latest of each key's earliest live
 * value): before it, `settingsAt` has nothing to answer with, so no job or action may act as of an
 * earlier day. Null when some key has no value at all (a database not seeded).
 */
export async function settingsHistoryStart(db: Db): Promise<string | null> {
  const rows = await db
    .select({ key: settingValues.key, first: sql<string>`min(${settingValues.effectiveFrom})::text` })
    .from(settingValues)
    .where(sql`${settingValues.cancelledAt} is null`)
    .groupBy(settingValues.key);
  const firsts = new Map(rows.map((r) => [r.key, r.first]));
  let start: string | null = null;
  for (const key of settingKeys) {
    const first = firsts.get(key);
    if (!first) return null;
    if (!start || first > start) start = first;
  }
  return start;
}

/**
 * Refuses (400, naming `path`) a day before the settings' history: a job or action that computes with
 * the settings in force on `date` acts only on days the institution has settings for.
 */
export async function assertSettingsCover(db: Db, date: string, field: { path: string; label: string }): Promise<void> {
  const start = await settingsHistoryStart(db);
  if (start && date >= start) return;
  const message = start
    ? msg('settings.settingsCoverBefore', { field: field.label, start })
    : msg('settings.settingsCoverNone', { field: field.label });
  throw new AppError('VALIDATION', message, [{ path: field.path, ...detail(message) }]);
}
