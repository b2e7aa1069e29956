import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError, type ExportFormat, type ImportColumn, msg } from '@aporta/domain';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendDownload, XLSX_TYPE } from '../downloads.ts';
import { assertHeavyRoute } from '../load.ts';
import { cleanFileName } from '../uploads.ts';

/**
 * The HTTP side every upload route shares: the one file of a multipart request (field "file") written to
 * a temporary folder within the size limit, handed to `handle` (which stages it through the pipeline),
 * and removed afterwards whatever happens. 415 when the request is not multipart, 413 beyond 20 MB. The
 * name is cleaned as every upload's (platform/uploads.ts); the content is read by the pipeline's reader.
 */
export async function receiveUpload<T>(
  request: FastifyRequest,
  handle: (file: { path: string; fileName: string }) => Promise<T>,
) {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.multipartRequired'));
  const file = await request.file();
  if (!file) throw new AppError('VALIDATION', msg('platform.fileMissing'));
  const dir = await mkdtemp(join(tmpdir(), 'aporta-import-'));
  const path = join(dir, 'upload');
  try {
    await pipeline(file.file, createWriteStream(path));
    if (file.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', msg('platform.fileTooLarge', { max: 20 }));
    return await handle({ path, fileName: cleanFileName(file.filename) });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * An import kind's template: csv (the headers, UTF-8 with BOM, `;`) or xlsx (a sheet of text-formatted
 * columns and an "Instrucciones" sheet: each column, whether it is required and what to write).
 */
export async function sendImportTemplate(
  reply: FastifyReply,
  opts: {
    format: ExportFormat;
    filename: string;
    sheetName: string;
    columns: readonly ImportColumn[];
    explain: Record<string, string>;
    footer: string;
  },
) {
  assertHeavyRoute(reply);
  if (opts.format === 'csv') {
    return sendDownload(reply, {
      body: Buffer.from(`\uFEFF${opts.columns.map((c) => c.header).join(';')}\r\n`, 'utf8'),
      contentType: 'text/csv; charset=utf-8',
      filename: `${opts.filename}.csv`,
    });
  }
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(opts.sheetName);
  ws.columns = opts.columns.map((c) => ({
    header: c.header,
    key: c.key,
    width: Math.max(14, c.header.length + 4),
    style: { numFmt: '@' },
  }));
  ws.getRow(1).font = { bold: true };
  const help = wb.addWorksheet('Instrucciones');
  help.columns = [
    { header: 'Columna', width: 22 },
    { header: 'Obligatoria', width: 12 },
    { header: 'Qué escribir', width: 90 },
  ];
  help.getRow(1).font = { bold: true };
  for (const c of opts.columns) help.addRow([c.header, c.required ? 'Sí' : 'No', opts.explain[c.header] ?? 'Texto.']);
  help.addRow([]);
  help.addRow([opts.footer]);
  const buffer = await wb.xlsx.writeBuffer();
  return sendDownload(reply, { body: Buffer.from(buffer), contentType: XLSX_TYPE, filename: `${opts.filename}.xlsx` });
}
