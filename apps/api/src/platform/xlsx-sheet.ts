/**
 * The one xlsx sheet layout of exports (header row in bold, widths, money columns `#,##0.00`) over ExcelJS's
 * streaming writer. Used by the worker thread (`xlsx-worker.ts`) for exports of several batches, and on the
 * main thread for an export that fits in one batch (see `writeExport` in export.ts).
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';

export interface XlsxSheet {
  sheetName: string;
  columns: { header: string; width: number; money: boolean }[];
}
export type XlsxCell = string | number | boolean | Date | null;

/** Opens a workbook streamed into `stream`; `close` writes the rest and ends `stream`. */
export function openXlsxSheet(
  stream: Writable,
  sheet: XlsxSheet,
): { add: (rows: XlsxCell[][]) => void; close: () => Promise<void> } {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheet.sheetName);
  ws.columns = sheet.columns.map((c) => ({
    header: c.header,
    width: c.width,
    ...(c.money ? { style: { numFmt: '#,##0.00' } } : {}),
  }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  return {
    add: (rows) => {
      for (const row of rows) ws.addRow(row).commit();
    },
    close: async () => {
      ws.commit();
      await wb.commit();
    },
  };
}
