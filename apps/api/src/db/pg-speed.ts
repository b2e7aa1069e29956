import { createRequire } from 'node:module';
import pg from 'pg';

/**
 * Two costs node-postgres pays on every query that Aporta's queries do not need, measured with a CPU
 * profile of the server under the exact-CUI lookup bench (bench/lists-scale.mjs --server-prof):
 *
 * - For every result it builds an empty row object keyed by the column names (a null-prototype object,
 *   then spread into a plain one), even when rows come as arrays, where that object is never used. Drizzle
 *   reads every result as arrays, and a prepared statement's row description arrives on every execution:
 *   9 % of the server's CPU for a 32-column lookup. Array results now keep only what they use (the fields
 *   and their parsers); object results go through the library's own code.
 * - It copies each query's config with its property descriptors (`Object.defineProperties`), 4 % of the
 *   CPU. A plain object (what Drizzle and our code pass) is copied by spreading it, which gives the same
 *   own enumerable fields; anything else goes through the library's own code.
 *
 * Both keep the library's behaviour (tested in pg-speed.test.ts against the original functions) and are
 * applied once, when a PostgreSQL database is opened.
 */
type Parser = (value: string) => unknown;
interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}
interface ResultInternals {
  rowAsArray: boolean;
  fields: FieldDescription[];
  _parsers: Parser[] | undefined;
  _types?: { getTypeParser: (oid: number, format: string) => Parser };
  addFields(fields: FieldDescription[]): void;
}
type Normalize = (config: unknown, values?: unknown, callback?: unknown) => Record<string, unknown>;

const require = createRequire(import.meta.url);
const resultProto = (pg as unknown as { Result: { prototype: ResultInternals } }).Result.prototype;
const utils = require('pg/lib/utils') as { normalizeQueryConfig: Normalize };

/** The library's own functions, kept for what the fast paths leave to them (and for the tests). */
export const originalAddFields = resultProto.addFields;
export const originalNormalizeQueryConfig = utils.normalizeQueryConfig;

function addFields(this: ResultInternals, fieldDescriptions: FieldDescription[]): void {
  if (!this.rowAsArray) {
    originalAddFields.call(this, fieldDescriptions);
    return;
  }
  this.fields = fieldDescriptions;
  const types = this._types ?? pg.types;
  const parsers = new Array<Parser>(fieldDescriptions.length);
  for (let i = 0; i < fieldDescriptions.length; i++) {
    const d = fieldDescriptions[i];
    parsers[i] = types.getTypeParser(d.dataTypeID, (d.format || 'text') as 'text') as Parser;
  }
  this._parsers = parsers;
}

const normalizeQueryConfig: Normalize = (config, values, callback) => {
  if (typeof config !== 'object' || config === null || Object.getPrototypeOf(config) !== Object.prototype) {
    return originalNormalizeQueryConfig(config, values, callback);
  }
  const copy: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  if (values) {
    if (typeof values === 'function') copy.callback = values;
    else copy.values = values;
  }
  if (callback) copy.callback = callback;
  return copy;
};

let applied = false;

export function speedUpPg(): void {
  if (applied) return;
  applied = true;
  resultProto.addFields = addFields;
  utils.normalizeQueryConfig = normalizeQueryConfig;
}
