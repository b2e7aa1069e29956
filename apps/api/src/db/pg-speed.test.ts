import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { originalAddFields, originalNormalizeQueryConfig, speedUpPg } from './pg-speed.ts';

speedUpPg();

// OIDs: int4 23, text 25, timestamptz 1184, numeric 1700, bool 16.
const fields = [
  { name: 'id', dataTypeID: 23 },
  { name: 'cui', dataTypeID: 25 },
  { name: 'at', dataTypeID: 1184 },
  { name: 'salary', dataTypeID: 1700 },
  { name: 'active', dataTypeID: 16, format: 'text' },
];
const raw = ['7', '1234567890101', '2026-11-24 05:00:00.123456+00', '1234.50', 't'];

type R = { addFields(f: unknown): void; parseRow(r: unknown[]): unknown; fields: unknown; _parsers: unknown[] };
const resultOf = (rowMode?: string) => new (pg as unknown as { Result: new (m?: string) => R }).Result(rowMode);

describe('pg fast paths (pg-speed.ts)', () => {
  it('array results parse every value as the library does', () => {
    const fast = resultOf('array');
    fast.addFields(fields);
    const slow = resultOf('array');
    originalAddFields.call(slow as never, fields as never);
    expect(fast.fields).toBe(fields);
    expect(fast.parseRow(raw)).toEqual(slow.parseRow(raw));
    expect(fast.parseRow(raw)).toEqual([7, '1234567890101', new Date('2026-11-24T05:00:00.123Z'), '1234.50', true]);
    expect(fast.parseRow([null, null, null, null, null])).toEqual([null, null, null, null, null]);
  });

  it('object results still go through the library (keyed rows)', () => {
    const r = resultOf();
    r.addFields(fields);
    expect(r.parseRow(raw)).toEqual({
      id: 7,
      cui: '1234567890101',
      at: new Date('2026-11-24T05:00:00.123Z'),
      salary: '1234.50',
      active: true,
    });
  });

  it('a query config is copied with the same fields, values and callback, never mutated', () => {
    const cb = () => {};
    const types = { getTypeParser: () => String };
    const cases: [unknown, unknown?, unknown?][] = [
      [{ name: 'q', text: 'select $1', values: [1], rowMode: 'array', types }],
      [{ text: 'select 1' }, [2]],
      [{ text: 'select 1' }, cb],
      [{ text: 'select 1' }, [3], cb],
      ['select 1', [4], cb],
    ];
    for (const [config, values, callback] of cases) {
      const before = typeof config === 'object' ? { ...(config as object) } : config;
      const fast = (pg as unknown as { Query: new (c: unknown, v?: unknown, cb?: unknown) => Record<string, unknown> }).Query;
      const q = new fast(config, values, callback);
      const expected = originalNormalizeQueryConfig(
        typeof config === 'object' ? { ...(config as object) } : config,
        values,
        callback,
      );
      expect({ text: q.text, values: q.values, name: q.name, rowMode: q._rowMode, callback: q.callback }).toEqual({
        text: expected.text,
        values: expected.values,
        name: expected.name,
        rowMode: expected.rowMode,
        callback: expected.callback,
      });
      expect(config).toEqual(before);
    }
  });
});
