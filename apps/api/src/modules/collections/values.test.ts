import type { FieldMeta } from '@aporta/domain';
import { integer, numeric, pgTable } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { money } from '../../db/columns.ts';
import { sendExport } from '../../platform/export.ts';
import { columnValue, columnValues, isMoneyColumn, recordValue } from './values.ts';

const field = (name: string, type: FieldMeta['type']): FieldMeta => ({
  name,
  label: name,
  labelKey: name,
  type,
  required: false,
  unique: false,
  searchable: false,
  inList: true,
  filterable: false,
  readOnly: false,
});

describe('the catalogue engine keeps money exact (issue 10)', () => {
  const amount = field('amount', 'money');

  it('reads the money column (bigint cents) as decimal text and writes decimal text back as cents', () => {
    expect(recordValue(amount, 99_999_999_999_999n)).toBe('999999999999.99');
    expect(recordValue(amount, -5n)).toBe('-0.05');
    expect(recordValue(amount, '1234.5')).toBe('1234.50');
    expect(recordValue(amount, null)).toBeNull();
    expect(columnValue(amount, '999999999999.99')).toBe(99_999_999_999_999n);
    expect(columnValue(amount, null)).toBeNull();
    expect(columnValues([amount, field('name', 'text')], { amount: '0.10', name: 'x' })).toEqual({ amount: 10n, name: 'x' });
  });

  it('accepts a money field only on the money column type', () => {
    const t = pgTable('t', { a: money(), b: numeric({ precision: 14, scale: 2 }), c: integer() });
    expect(isMoneyColumn(t.a)).toBe(true);
    expect(isMoneyColumn(t.b)).toBe(false);
    expect(isMoneyColumn(t.c)).toBe(false);
  });

  it('exports money exactly: the decimal text in CSV, a #,##0.00 number cell in xlsx', async () => {
    const app = Fastify();
    const rows = [{ a: '999999999999.99' }, { a: '-1234.50' }, { a: null }];
    app.get('/x', (request, reply) =>
      sendExport(reply, {
        format: (request.query as { f: 'csv' | 'xlsx' }).f,
        filename: 'x',
        columns: [{ header: 'Monto', value: (r: { a: string | null }) => r.a, money: true }],
        batches: (async function* () {
          yield rows;
        })(),
      }),
    );
    const csv = await app.inject({ url: '/x?f=csv' });
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')).toEqual(['Monto', '999999999999.99', '-1234.50', '', '']);
    const xlsx = await app.inject({ url: '/x?f=xlsx' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as never);
    const ws = wb.worksheets[0];
    expect(ws.getCell('A2').value).toBe(999999999999.99);
    expect(ws.getCell('A2').numFmt).toBe('#,##0.00');
    expect(String(ws.getCell('A2').value)).toBe('999999999999.99');
    expect(ws.getCell('A3').value).toBe(-1234.5);
    await app.close();
  });
});
