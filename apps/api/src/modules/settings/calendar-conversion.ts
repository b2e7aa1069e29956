import { businessCalendarSchema, calendarFromLegacy, legacyBusinessCalendarSchema } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { settingValues } from '../../db/schema/index.ts';
import { systemActor, writeAudit } from '../../platform/audit.ts';

const KEY = 'calendar.holidays';

/**
 * Converts every stored value of `calendar.holidays` still in the shape it had before issue 25 (fixed
 * days with 30 June, Holy Week typed per year, half days) to the current one (`calendarFromLegacy`:
 * Holy Week and 30 June computed, 15 August as the local holiday, other days of one year as
 * extraordinary days). Every row is converted, cancelled and superseded ones too, so the history screen
 * and `settingsAt` read one shape for every date; each conversion is audited as the system's
 * (`SETTING_CONVERT`, the old value in `before`), so what was stored stays known. A format change is the
 * one update a setting row takes besides its cancellation. Runs at every start with the seed; a value
 * already converted is left alone.
 */
export async function convertLegacyCalendars(db: Db): Promise<number> {
  const rows = await db
    .select({ id: settingValues.id, value: settingValues.value, effectiveFrom: settingValues.effectiveFrom })
    .from(settingValues)
    .where(eq(settingValues.key, KEY))
    .orderBy(settingValues.id);
  let converted = 0;
  for (const row of rows) {
    if (businessCalendarSchema.safeParse(row.value).success) continue;
    const old = legacyBusinessCalendarSchema.safeParse(row.value);
    // Neither shape: settingsAt will name the fault when it reads it; the seed does not guess.
    if (!old.success) continue;
    const value = calendarFromLegacy(old.data);
    await db.update(settingValues).set({ value }).where(eq(settingValues.id, row.id));
    await writeAudit(db, systemActor, {
      action: 'SETTING_CONVERT',
      entityType: 'setting',
      entityId: KEY,
      before: { id: row.id, value: row.value, effectiveFrom: row.effectiveFrom },
      after: { id: row.id, value, effectiveFrom: row.effectiveFrom },
    });
    converted += 1;
  }
  return converted;
}
