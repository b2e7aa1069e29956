import { centsToDecimal, decimalToCents, type FieldMeta } from '@aporta/domain';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * How a field's value travels between the JSON of the API and its column. Only `money` differs:
 * decimal text `"1234.50"` in JSON (and in the audit trail), bigint cents in the `money` column type.
 */
export function recordValue(f: FieldMeta, v: unknown): unknown {
  if (v == null) return null;
  if (v instanceof Date) return v.toISOString();
  if (f.type === 'money') return centsToDecimal(typeof v === 'bigint' ? v : decimalToCents(String(v)));
  return v;
}

/** A validated input or filter value (money as decimal text) as its column takes it. */
export function columnValue(f: FieldMeta, v: unknown): unknown {
  if (f.type === 'money' && v != null) return decimalToCents(String(v));
  return v;
}

/** Input data (field name → validated value) as the table's columns take it. */
export function columnValues(fields: readonly FieldMeta[], data: Record<string, unknown>): Record<string, unknown> {
  const byName = new Map(fields.map((f) => [f.name, f]));
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, byName.has(k) ? columnValue(byName.get(k)!, v) : v]));
}

/**
 * A money field must sit on the `money` column type (db/columns.ts): a plain numeric column would hand
 * the driver bigint cents where it expects quetzales. Checked when the registry is built.
 */
export function isMoneyColumn(col: AnyPgColumn): boolean {
  return col.columnType === 'PgCustomColumn' && col.getSQLType() === 'numeric(14, 2)';
}
