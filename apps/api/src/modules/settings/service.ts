import {
  AppError,
  type CancelSettingInput,
  detail,
  guatemalaToday,
  INITIAL_SETTINGS_FROM,
  isCalendarDate,
  type Message,
  msg,
  type ScheduleSettingInput,
  type SettingHistory,
  type SettingKey,
  type SettingsAt,
  type SettingsOverview,
  type SettingValueEntry,
  settingDefinitions,
  settingKeys,
  settingValueSchema,
} from '@aporta/domain';
import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { settingValues, users } from '../../db/schema/index.ts';
import { systemActor, writeAudit } from '../../platform/audit.ts';
import type { RequestContext } from '../../platform/context.ts';

/** The audit trail's entity type of a setting; the entity id is the setting's key. */
const ENTITY = 'setting';

/** A stored value that no longer passes its key's schema: a configuration fault, never a user's input. */
function readValue(key: SettingKey, value: unknown): unknown {
  const r = settingValueSchema(key).safeParse(value);
  if (!r.success) throw new Error(`El parámetro ${key} tiene guardado un valor no válido: ${r.error.issues[0]?.message}`);
  return r.data;
}

/**
 * The typed settings in force on `date` (YYYY-MM-DD): for every key the live value with the latest
 * effective date not after it, validated by its schema, plus that date (what a calculation records
 * through `settingsUsed`). Any service may call it; it reads no user data.
 *
 * A date before the first value in force (the initial values take effect on INITIAL_SETTINGS_FROM, and
 * nothing may be scheduled before them) is a 400 naming the date, and `field` (the body or query field
 * it came from, when the caller knows it): a planilla of 1950 or a pension starting in 1990 asks for rates
 * the institution never had, which is the user's input, not a fault of the server.
 */
export async function settingsAt(db: Db, date: string, field?: string): Promise<SettingsAt> {
  if (!isCalendarDate(date)) throw notInForce(field, msg('settings.notInForceInvalidDate', { date: date.slice(0, 20) }));
  const rows = await db
    .selectDistinctOn([settingValues.key], {
      key: settingValues.key,
      value: settingValues.value,
      effectiveFrom: settingValues.effectiveFrom,
    })
    .from(settingValues)
    .where(and(isNull(settingValues.cancelledAt), lte(settingValues.effectiveFrom, date)))
    .orderBy(settingValues.key, desc(settingValues.effectiveFrom));
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const values: Record<string, unknown> = {};
  const effectiveFrom: Record<string, string> = {};
  for (const key of settingKeys) {
    const row = byKey.get(key);
    if (!row) {
      const first = await firstDayInForce(db);
      if (first && date < first) {
        throw notInForce(field, msg('settings.notInForceBefore', { date, first }));
      }
      throw new Error(`El parámetro ${key} no tiene valor en vigor el ${date}.`);
    }
    values[key] = readValue(key, row.value);
    effectiveFrom[key] = row.effectiveFrom;
  }
  return { asOf: date, values: values as SettingsAt['values'], effectiveFrom: effectiveFrom as SettingsAt['effectiveFrom'] };
}

/** The first day on which every key has a value in force (null when a key has none at all). */
async function firstDayInForce(db: Db): Promise<string | null> {
  const rows = await db
    .select({ key: settingValues.key, first: sql<string>`min(${settingValues.effectiveFrom})::text` })
    .from(settingValues)
    .where(isNull(settingValues.cancelledAt))
    .groupBy(settingValues.key);
  if (settingKeys.some((k) => !rows.some((r) => r.key === k))) return null;
  // ISO days sort as text: the latest of the keys' first days.
  return (
    rows
      .map((r) => r.first)
      .sort()
      .at(-1) ?? INITIAL_SETTINGS_FROM
  );
}

const notInForce = (field: string | undefined, message: Message) =>
  new AppError('VALIDATION', message, field ? [{ path: field, ...detail(message) }] : undefined);

/**
 * Installs the initial value (DOMAIN.md) of every key that has none yet, effective from 2000-01-01, so
 * a setting added to the catalogue later is seeded at the next start and nothing an administrator
 * scheduled is touched. Audited as the system's.
 */
export async function seedSettings(db: Db): Promise<void> {
  const present = new Set((await db.selectDistinct({ key: settingValues.key }).from(settingValues)).map((r) => r.key));
  for (const key of settingKeys) {
    if (present.has(key)) continue;
    const value = settingDefinitions[key].initial;
    const [row] = await db
      .insert(settingValues)
      .values({ key, value, effectiveFrom: INITIAL_SETTINGS_FROM, reason: 'Valor inicial del sistema' })
      .returning({ id: settingValues.id });
    await writeAudit(db, systemActor, {
      action: 'SETTING_SCHEDULE',
      entityType: ENTITY,
      entityId: key,
      after: { id: row.id, value, effectiveFrom: INITIAL_SETTINGS_FROM },
    });
  }
}

const creator = alias(users, 'creator');
const canceller = alias(users, 'canceller');
/** A user's name as the history shows it, or the e-mail when the name is empty. */
const whoOf = (u: typeof creator | typeof canceller) =>
  sql<string | null>`coalesce(nullif(trim(${u.firstName} || ' ' || ${u.lastName}), ''), ${u.email})`;

async function entries(db: Db, key?: SettingKey): Promise<(SettingValueEntry & { key: string })[]> {
  const rows = await db
    .select({
      id: settingValues.id,
      key: settingValues.key,
      value: settingValues.value,
      effectiveFrom: settingValues.effectiveFrom,
      reason: settingValues.reason,
      retroactive: settingValues.retroactive,
      createdAt: settingValues.createdAt,
      createdBy: whoOf(creator),
      cancelledAt: settingValues.cancelledAt,
      cancelledBy: whoOf(canceller),
      cancelReason: settingValues.cancelReason,
    })
    .from(settingValues)
    .leftJoin(creator, eq(creator.id, settingValues.createdBy))
    .leftJoin(canceller, eq(canceller.id, settingValues.cancelledBy))
    .where(key ? eq(settingValues.key, key) : undefined)
    .orderBy(desc(settingValues.effectiveFrom), desc(settingValues.id));
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    cancelledAt: r.cancelledAt ? r.cancelledAt.toISOString() : null,
  }));
}

/** Every setting with its value in force today and the next scheduled one. Needs settings READ. */
export async function listSettings(ctx: RequestContext): Promise<SettingsOverview> {
  const today = guatemalaToday();
  const all = await entries(ctx.db);
  const items = settingKeys.map((key) => {
    const d = settingDefinitions[key];
    const live = all.filter((e) => e.key === key && e.cancelledAt === null);
    // `all` is newest first: the first live value not after today rules; the last one after it is next.
    const current = live.find((e) => e.effectiveFrom <= today);
    const next = live.filter((e) => e.effectiveFrom > today).at(-1) ?? null;
    if (!current) throw new Error(`El parámetro ${key} no tiene valor en vigor hoy.`);
    const strip = ({ key: _key, ...e }: SettingValueEntry & { key: string }) => e;
    return {
      key,
      topic: d.topic,
      kind: d.kind,
      unit: d.unit,
      label: d.label,
      description: d.description,
      current: strip(current),
      next: next ? strip(next) : null,
    };
  });
  return { today, items };
}

/** Every value a setting has had or will have, cancelled ones included, newest first. Needs settings READ. */
export async function settingHistory(ctx: RequestContext, input: { key: SettingKey }): Promise<SettingHistory> {
  const items = (await entries(ctx.db, input.key)).map(({ key: _key, ...e }) => e);
  return { key: input.key, today: guatemalaToday(), items };
}

/**
 * Schedules a new value of `key` from a date, with a reason; audited in the same transaction. The date
 * must be after today (Guatemala) unless the change is asked for as retroactive. Needs settings UPDATE.
 */
export async function scheduleSetting(
  ctx: RequestContext,
  input: { key: SettingKey; data: ScheduleSettingInput & { retroactive: boolean } },
): Promise<SettingValueEntry> {
  const { key, data } = input;
  const parsed = settingValueSchema(key).safeParse(data.value);
  if (!parsed.success) {
    throw new AppError(
      'VALIDATION',
      parsed.error.issues[0]?.message,
      parsed.error.issues.map((i) => ({ path: ['value', ...i.path].join('.'), message: i.message })),
    );
  }
  const today = guatemalaToday();
  const retroactive = data.effectiveFrom <= today;
  if (data.effectiveFrom <= INITIAL_SETTINGS_FROM) {
    throw new AppError('VALIDATION', undefined, [
      {
        path: 'effectiveFrom',
        ...detail(msg('settings.effectiveFromAfterInitial', { initial: INITIAL_SETTINGS_FROM })),
      },
    ]);
  }
  if (retroactive && !data.retroactive) {
    throw new AppError('VALIDATION', undefined, [
      {
        path: 'effectiveFrom',
        ...detail(msg('settings.effectiveFromAfterToday', { today })),
      },
    ]);
  }
  return ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [same] = await db
      .select({ id: settingValues.id })
      .from(settingValues)
      .where(
        and(eq(settingValues.key, key), eq(settingValues.effectiveFrom, data.effectiveFrom), isNull(settingValues.cancelledAt)),
      )
      .limit(1);
    if (same) {
      throw new AppError(
        'DUPLICATE',
        msg('settings.valueAlreadyScheduled', { setting: settingDefinitions[key].label, from: data.effectiveFrom }),
        [{ path: 'effectiveFrom', ...detail(msg('settings.effectiveFromTaken')) }],
      );
    }
    const [before] = await db
      .select({ value: settingValues.value })
      .from(settingValues)
      .where(
        and(eq(settingValues.key, key), lte(settingValues.effectiveFrom, data.effectiveFrom), isNull(settingValues.cancelledAt)),
      )
      .orderBy(desc(settingValues.effectiveFrom))
      .limit(1);
    if (before && JSON.stringify(readValue(key, before.value)) === JSON.stringify(parsed.data)) {
      throw new AppError('VALIDATION', undefined, [
        { path: 'value', ...detail(msg('settings.sameValueInForce', { setting: settingDefinitions[key].label })) },
      ]);
    }
    const [row] = await db
      .insert(settingValues)
      .values({
        key,
        value: parsed.data,
        effectiveFrom: data.effectiveFrom,
        reason: data.reason,
        retroactive,
        createdBy: ctx.user.id,
      })
      .returning({ id: settingValues.id });
    await ctx.audit(
      {
        action: 'SETTING_SCHEDULE',
        entityType: ENTITY,
        entityId: key,
        after: { id: row.id, value: parsed.data, effectiveFrom: data.effectiveFrom, reason: data.reason, retroactive },
      },
      db,
    );
    const [entry] = (await entries(db, key)).filter((e) => e.id === row.id);
    const { key: _key, ...out } = entry;
    return out;
  });
}

/**
 * Cancels a scheduled value that is not in force yet (effective after today), with a reason; the row
 * stays in the history. A value already in force is never cancelled: schedule a new one. Needs settings
 * UPDATE.
 */
export async function cancelSetting(
  ctx: RequestContext,
  input: { key: SettingKey; id: number; data: CancelSettingInput },
): Promise<SettingValueEntry> {
  const { key, id, data } = input;
  const today = guatemalaToday();
  return ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [row] = await db
      .select()
      .from(settingValues)
      .where(and(eq(settingValues.id, id), eq(settingValues.key, key)))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND', msg('settings.valueNotFound', { setting: settingDefinitions[key].label }));
    if (row.cancelledAt) throw new AppError('CONFLICT', msg('settings.valueAlreadyCancelled'));
    if (row.effectiveFrom <= today) {
      throw new AppError('CONFLICT', msg('settings.valueInForce', { from: row.effectiveFrom }));
    }
    await db
      .update(settingValues)
      .set({ cancelledAt: new Date(), cancelledBy: ctx.user.id, cancelReason: data.reason })
      .where(eq(settingValues.id, id));
    await ctx.audit(
      {
        action: 'SETTING_CANCEL',
        entityType: ENTITY,
        entityId: key,
        before: { id, value: row.value, effectiveFrom: row.effectiveFrom, reason: row.reason },
        after: { id, cancelled: true, cancelReason: data.reason },
      },
      db,
    );
    const [entry] = (await entries(db, key)).filter((e) => e.id === id);
    const { key: _key, ...out } = entry;
    return out;
  });
}
