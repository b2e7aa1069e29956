import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Maker-checker (docs/decisions.md, "Maker-checker reads the record's audit trail"): the makers of a
 * record are everyone who created, changed or submitted it — its lines included — as its audit trail
 * tells (the rows of `entityType` for the record whose action is one of `actions`), plus the people
 * its own columns name (`columns`: created by, submitted by, requested by). A `notByMaker` transition
 * is refused to every one of them (`applyTransition` with `makers`, `availableTransitions` with
 * `makerIds`). Review steps (take, comment, observe) are not making: they are left out of `actions`.
 */
export interface MakerSpec {
  /** The audit trail's entity type of the record (`planilla`). */
  entityType: string;
  /** The audit actions that make or change the record or its lines (`CREATE`, `PLANILLA_LINE_UPDATE`…). */
  actions: readonly string[];
}

/** The makers of the row being transitioned, as an `int[]` SQL expression over it (for `applyTransition`). */
export function makersSql(spec: MakerSpec, id: AnyColumn, columns: readonly AnyColumn[] = []): SQL {
  const cols = columns.length
    ? sql` union select x from unnest(array[${sql.join(
        columns.map((c) => sql`${c}`),
        sql`, `,
      )}]::int[]) x where x is not null`
    : sql``;
  return sql`array(select a.actor_id from audit_log a
     where a.entity_type = ${spec.entityType} and a.entity_id = ${id}::text and a.actor_id is not null
       and a.action in (${sql.join(
         spec.actions.map((x) => sql`${x}`),
         sql`, `,
       )})${cols})`;
}

/** The makers of each of `ids` from the audit trail (for a list's `availableTransitions`); one query. */
export async function makersOf(db: Db, spec: MakerSpec, ids: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!ids.length) return out;
  const result = await db.execute(sql`
    select a.entity_id as id, array_agg(distinct a.actor_id) as makers from audit_log a
     where a.entity_type = ${spec.entityType} and a.actor_id is not null
       and a.entity_id in (${sql.join(
         ids.map((id) => sql`${String(id)}`),
         sql`, `,
       )})
       and a.action in (${sql.join(
         spec.actions.map((x) => sql`${x}`),
         sql`, `,
       )})
     group by a.entity_id`);
  for (const r of (result as unknown as { rows: { id: string; makers: (number | string)[] }[] }).rows) {
    out.set(Number(r.id), r.makers.map(Number));
  }
  return out;
}

/** The makers of a record: its trail's and its columns' (`extra`), without nulls or repeats. */
export const withColumns = (fromTrail: readonly number[] | undefined, ...extra: (number | null | undefined)[]): number[] => [
  ...new Set([...(fromTrail ?? []), ...extra.filter((x): x is number => x != null)]),
];
