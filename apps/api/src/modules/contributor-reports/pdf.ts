import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';

const require = createRequire(import.meta.url);

interface PdfMake {
  fonts: unknown;
  setUrlAccessPolicy(cb: (url: string) => boolean): void;
  setLocalAccessPolicy(cb: (path: string) => boolean): void;
  addFonts(fonts: unknown): void;
  createPdf(doc: unknown): { getBuffer(): Promise<Buffer> };
}

let instance: PdfMake | null = null;

/** pdfmake with the standard Helvetica font (no font files) and no file or network access. */
export function pdfmake(): PdfMake {
  if (!instance) {
    instance = require('pdfmake') as PdfMake;
    instance.addFonts(require('pdfmake/standard-fonts/Helvetica'));
    // Documents are built from our own data: no URL fetches, no file reads beyond the built-in PDF fonts.
    instance.setUrlAccessPolicy(() => false);
    const standard = new Set(['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique']);
    instance.setLocalAccessPolicy((path) => standard.has(path));
  }
  return instance;
}

export interface PdfTableReport {
  institution: string;
  title: string;
  generatedAt: Date;
  filters: string[];
  headers: string[];
  rows: (string | number)[][];
  totals: (string | number)[];
  /** Column indexes aligned right (numbers). */
  numeric: number[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const stamp = (d: Date) =>
  `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** A report as PDF: institution header, title, date, the filters used, and the table with its totals. */
export async function reportPdf(r: PdfTableReport): Promise<Buffer> {
  const cell = (v: string | number, i: number, bold = false) => ({
    text: typeof v === 'number' ? v.toLocaleString('en-US') : v,
    alignment: r.numeric.includes(i) ? 'right' : 'left',
    bold,
  });
  const doc = {
    pageSize: 'LETTER',
    pageOrientation: r.headers.length > 6 ? 'landscape' : 'portrait',
    pageMargins: [36, 60, 36, 48],
    defaultStyle: { font: 'Helvetica', fontSize: 9 },
    header: { text: r.institution, alignment: 'center', margin: [36, 24, 36, 0], bold: true, fontSize: 11 },
    footer: (page: number, pages: number) => ({
      text: `Página ${page} de ${pages}`,
      alignment: 'right',
      margin: [36, 12, 36, 0],
      fontSize: 8,
    }),
    content: [
      { text: r.title, fontSize: 14, bold: true, margin: [0, 0, 0, 4] },
      { text: `Generado el ${stamp(r.generatedAt)}`, fontSize: 9, margin: [0, 0, 0, 2] },
      { text: `Filtros: ${r.filters.join('; ')}`, fontSize: 9, margin: [0, 0, 0, 10] },
      {
        table: {
          headerRows: 1,
          widths: r.headers.map((_, i) => (i === 0 ? '*' : 'auto')),
          body: [
            r.headers.map((h, i) => cell(h, i, true)),
            ...r.rows.map((row) => row.map((v, i) => cell(v, i))),
            r.totals.map((v, i) => cell(v, i, true)),
          ],
        },
        layout: 'lightHorizontalLines',
      },
    ],
  };
  return pdfmake().createPdf(doc).getBuffer();
}

/** The same report as xlsx, with the same header lines (institution, title, date, filters) above the table. */
export async function reportXlsx(r: PdfTableReport): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Reporte');
  ws.addRow([r.institution]).font = { bold: true, size: 12 };
  ws.addRow([r.title]).font = { bold: true, size: 14 };
  ws.addRow([`Generado el ${stamp(r.generatedAt)}`]);
  ws.addRow([`Filtros: ${r.filters.join('; ')}`]);
  ws.addRow([]);
  ws.addRow(r.headers).font = { bold: true };
  for (const row of r.rows) ws.addRow(row);
  ws.addRow(r.totals).font = { bold: true };
  ws.columns.forEach((c, i) => {
    c.width = i === 0 ? 34 : 16;
  });
  ws.getColumn(r.headers.length).numFmt = '#,##0.00';
  return Buffer.from(await wb.xlsx.writeBuffer());
}
