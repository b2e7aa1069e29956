import { centsToDecimal } from '@aporta/domain';
import ExcelJS from 'exceljs';
import type { RequestContext } from './context.ts';
import {
  filtersText,
  formatGuatemalaDateTime,
  generatedByOf,
  institutionName,
  type ReportCell,
  type ReportDefinition,
} from './pdf.ts';

// Amounts go to the spreadsheet as numbers so they can be summed: the exact decimal text read as a
// double shows the same cents for every numeric(14,2) amount (at most 14 significant digits).
const toCell = (v: ReportCell) => (typeof v === 'object' ? Number(centsToDecimal(v.cents)) : v);
const styleAmounts = (row: ExcelJS.Row, cells: ReportCell[]) =>
  cells.forEach((v, i) => {
    if (typeof v === 'object') row.getCell(i + 1).numFmt = '#,##0.00';
  });

/**
 * The same ReportDefinition as a spreadsheet: the PDF's header lines (institution, title, generated
 * at/by, filters) above each table, so both formats of a report say the same thing. Spreadsheets are
 * for working with the numbers, not for proving what was issued: they are not registered.
 */
export async function generateReportXlsx(
  ctx: RequestContext,
  report: ReportDefinition,
  opts: { fallbackInstitution: string; now?: Date },
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Reporte');
  ws.addRow([await institutionName(ctx.db, opts.fallbackInstitution)]).font = { bold: true, size: 12 };
  ws.addRow([report.title]).font = { bold: true, size: 14 };
  ws.addRow([`Generado el ${formatGuatemalaDateTime(opts.now ?? new Date())} por ${generatedByOf(ctx)}`]);
  ws.addRow([`Filtros: ${filtersText(report)}`]);
  let widest = 0;
  for (const t of report.tables) {
    ws.addRow([]);
    if (t.caption) ws.addRow([t.caption]).font = { bold: true };
    ws.addRow(t.headers).font = { bold: true };
    for (const row of t.rows) styleAmounts(ws.addRow(row.map(toCell)), row);
    if (t.totals) {
      const totals = ws.addRow(t.totals.map(toCell));
      totals.font = { bold: true };
      styleAmounts(totals, t.totals);
    }
    widest = Math.max(widest, t.headers.length);
  }
  for (let i = 1; i <= widest; i++) ws.getColumn(i).width = i === 1 ? 34 : 16;
  return Buffer.from(await wb.xlsx.writeBuffer());
}
