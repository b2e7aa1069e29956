import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { RequestContext } from './context.ts';
import { assertHeavyRoute } from './load.ts';
import { type GeneratedDocument, generateReportPdf, type ReportDefinition, verificationPagePath } from './pdf.ts';
import { generateReportXlsx } from './report-xlsx.ts';
import { cleanFileName } from './uploads.ts';

/**
 * How a route answers with a file instead of JSON: a generated report (PDF with its verification code,
 * or the same report as xlsx) or a stored file (an attachment, a library document, a job's output).
 * Every download is `cache-control: no-store` — what a user may read is scoped to them.
 */

export const PDF_TYPE = 'application/pdf';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface Download {
  body: Buffer | Uint8Array | Readable;
  contentType: string;
  /** The plain name (a user's included): cleaned and encoded here (`contentDisposition`). */
  filename: string;
  /**
   * `inline` lets the browser show it (a preview); `attachment` (default) saves it. Only a PDF the
   * application generated is ever inline: a stored upload is always an attachment (issue 25).
   */
  disposition?: 'attachment' | 'inline';
  size?: number;
  /** More headers of this download (its verification code, its digest). */
  headers?: Record<string, string>;
}

/** Sends `d` as the route's answer: its type, length when known, disposition and name, never cached. */
export function sendDownload(reply: FastifyReply, d: Download) {
  reply.header('content-type', d.contentType);
  if (d.size != null) reply.header('content-length', String(d.size));
  reply.header('cache-control', 'no-store');
  reply.header('content-disposition', contentDisposition(d.disposition ?? 'attachment', d.filename));
  for (const [k, v] of Object.entries(d.headers ?? {})) reply.header(k, v);
  return reply.send(d.body as never);
}

/**
 * `attachment; filename="…"; filename*=UTF-8''…`: the name cleaned as an upload's (no control, bidi or path
 * characters), as ASCII in `filename` (anything else `_`) and whole in `filename*` (RFC 6266 / 5987).
 */
export function contentDisposition(disposition: 'attachment' | 'inline', name: string): string {
  const clean = cleanFileName(name, 'descarga');
  const ascii = clean.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The part of a request a report download needs: who asks, and the origin its verification link names
 * (`server.config.PUBLIC_URL` when the installation names it, else the request's own origin).
 */
export interface ReportRequest {
  ctx: RequestContext;
  protocol: string;
  host: string;
  server?: { config?: Pick<Config, 'PUBLIC_URL'> };
}

/**
 * The origin printed on a document for its readers (QR and verification links): the installation's
 * `PUBLIC_URL` when set (what staff and citizens reach from outside, whatever Host a proxy or an internal
 * client sent), else the request's own protocol and Host. Without a trailing slash.
 */
export function publicOriginOf(request: Pick<ReportRequest, 'protocol' | 'host' | 'server'>): string {
  const configured = request.server?.config?.PUBLIC_URL?.trim().replace(/\/+$/, '');
  return configured || `${request.protocol}://${request.host}`;
}

/**
 * Where a reader checks a verification code printed on a PDF generated for `request` (what its QR
 * opens): the public verification page of the installation's public origin (`publicOriginOf`), which
 * verifies the code on arrival.
 */
export const verifyUrlFor =
  (request: Pick<ReportRequest, 'protocol' | 'host' | 'server'>) =>
  (code: string): string =>
    `${publicOriginOf(request)}${verificationPagePath(code)}`;

/** `report` as a registered PDF whose verification link points at this server (`fallbackInstitution`: the institution's name when the catalogue has none). */
export function reportPdfFor(
  request: ReportRequest,
  report: ReportDefinition,
  fallbackInstitution: string,
): Promise<GeneratedDocument> {
  return generateReportPdf(request.ctx, report, { fallbackInstitution, verifyUrl: verifyUrlFor(request) });
}

/** Sends a generated PDF as `<name>.pdf` with its `x-verification-code` (and any `headers` more). */
export function sendPdf(reply: FastifyReply, doc: GeneratedDocument, name: string, headers?: Record<string, string>) {
  assertHeavyRoute(reply);
  return sendDownload(reply, {
    body: doc.pdf,
    contentType: PDF_TYPE,
    filename: `${name}.pdf`,
    headers: { 'x-verification-code': doc.code, ...headers },
  });
}

/**
 * A report's download in the format asked: the registered PDF (with its verification code) or the
 * same definition as a spreadsheet. Callers: every "PDF or xlsx of a report" route, each declaring
 * `config.heavy` (the per-user limit of platform/load.ts).
 */
export async function sendReport(
  request: ReportRequest,
  reply: FastifyReply,
  report: ReportDefinition,
  opts: { name: string; format?: 'pdf' | 'xlsx'; fallbackInstitution: string; headers?: Record<string, string> },
) {
  assertHeavyRoute(reply);
  if (opts.format === 'xlsx') {
    const xlsx = await generateReportXlsx(request.ctx, report, { fallbackInstitution: opts.fallbackInstitution });
    return sendDownload(reply, { body: xlsx, contentType: XLSX_TYPE, filename: `${opts.name}.xlsx`, headers: opts.headers });
  }
  return sendPdf(reply, await reportPdfFor(request, report, opts.fallbackInstitution), opts.name, opts.headers);
}
