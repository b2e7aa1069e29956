import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { type Cents, formatAmount, formatMoney } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { generatedDocuments, institutions } from '../db/schema/index.ts';
import type { RequestContext } from './context.ts';

/**
 * The one way a report leaves Aporta as a document. Every report describes itself as a
 * ReportDefinition (title, the filters used, tables); this module lays it out the same way for every
 * module — the institution on every page, title, filters, generated at/by, "Página x de y" and a
 * verification code — and registers the document (code, SHA-256 of its bytes) so a printed or
 * forwarded copy can be checked on the public verification page (/verificar?codigo=…, what the QR
 * opens) or by machines at GET /api/documents/verify/:code.
 *
 * Two layouts: a `report` (a list: the filters it was made with head it) and a `document` (a receipt,
 * a contract, a letter, a certificate: its own data under the title, no filters, money as `Q 1,234.50`,
 * and signature blocks kept whole on one page with their lines).
 */

const require = createRequire(import.meta.url);

export interface PdfMake {
  setUrlAccessPolicy(cb: (url: string) => boolean): void;
  setLocalAccessPolicy(cb: (path: string) => boolean): void;
  addFonts(fonts: unknown): void;
  createPdf(doc: unknown): { getBuffer(): Promise<Buffer> };
}

let instance: PdfMake | null = null;

/**
 * pdfmake with Roboto embedded (TrueType: every Spanish letter — á, é, ñ, ¿, ¡ — renders and extracts
 * as text) and no network or file access beyond those four font files: documents are built from our
 * own data, never from a URL or a path someone typed.
 */
export function pdfmake(): PdfMake {
  if (!instance) {
    instance = require('pdfmake') as PdfMake;
    const roboto = require('pdfmake/fonts/Roboto.js') as { Roboto: Record<string, string> };
    instance.addFonts(roboto);
    const allowed = new Set(Object.values(roboto.Roboto));
    instance.setUrlAccessPolicy(() => false);
    instance.setLocalAccessPolicy((path) => allowed.has(path));
  }
  return instance;
}

/** Text, a count, or money in integer cents (printed `1,234.56`, a number with two decimals in a spreadsheet). */
export type ReportCell = string | number | { cents: Cents };

export interface ReportTable {
  /** A heading above the table, when a report has several. */
  caption?: string;
  headers: string[];
  rows: ReportCell[][];
  /** A bold last row (totals). */
  totals?: ReportCell[];
  /** Column indexes aligned right (numbers, amounts). */
  numeric?: number[];
  /** Column widths; default: the first column takes the rest, the others fit their content. */
  widths?: (number | '*' | 'auto')[];
}

/** Running text (a letter, a notice): an optional heading and paragraphs, optionally on a new page. */
export interface ReportSection {
  heading?: string;
  paragraphs: string[];
  pageBreakBefore?: boolean;
  /** A QR code printed under the heading (a payment reference a bank app reads), with its caption. */
  qr?: { value: string; caption: string };
  /** Paragraphs printed bold (a receipt's total and its amount in words). */
  emphasis?: boolean;
  /** The signature lines closing this section (a letter's), kept together on one page. */
  signatures?: SignatureBlock;
}

export interface ReportFilter {
  label: string;
  value: string;
}

/** One signature line: the line, then who signs under it (`Por la institución`), optionally a name. */
export interface SignatureLine {
  caption: string;
  name?: string;
}

/** The signatures of a document: a heading (`Firmas`) and its lines, never split across pages. */
export interface SignatureBlock {
  heading?: string;
  lines: SignatureLine[];
  /** A seal box beside the lines (`Sello`), as a receipt carries. */
  seal?: string;
}

export interface ReportDefinition {
  /** What produced it, kept in the register (`contributor-report-general`). */
  kind: string;
  title: string;
  /** The filters the user applied, in Spanish (label: value); printed as given. */
  filters: ReportFilter[];
  /** Printed instead of the filters when there are none. */
  noFilters?: string;
  tables: ReportTable[];
  /** Text after the tables (letters: one section per addressee, each on its own page). */
  sections?: ReportSection[];
  orientation?: 'portrait' | 'landscape';
  /** `report` (default): a list headed by its filters. `document`: a receipt, contract, letter or certificate. */
  layout?: 'report' | 'document';
  /** A document's own data under its title (`Recibido de`, `Orden`, `Período`), label: value. */
  fields?: ReportFilter[];
  /** A document's signature and seal lines, after everything else, kept together on one page. */
  signatures?: SignatureBlock;
}

export interface GeneratedDocument {
  pdf: Buffer;
  /** The verification code as printed: XXXX-XXXX-XXXX-XXXX. */
  code: string;
  sha256: string;
  pages: number;
  generatedAt: Date;
}

// Crockford's base 32: no I, L, O or U, so a code read aloud or retyped from paper is unambiguous.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 16;

/** A fresh verification code: 80 random bits, 16 characters — far beyond guessing, even on a public route. */
export function newVerificationCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/**
 * The public web page that verifies a printed code in one step (the web's /verificar: opened from the
 * QR, it shows the result without a second click). Machines keep GET /api/documents/verify/:code.
 */
export const verificationPagePath = (code: string) => `/verificar?codigo=${encodeURIComponent(code)}`;

/** Groups of four, as printed. */
export const formatVerificationCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

/**
 * A code as someone typed it (any case, with or without dashes or spaces, O for 0, I or L for 1) in
 * its stored form; null when it cannot be one.
 */
export function normalizeVerificationCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== CODE_LENGTH) return null;
  for (const ch of code) if (!ALPHABET.includes(ch)) return null;
  return code;
}

const guatemala = new Intl.DateTimeFormat('es-GT', {
  timeZone: 'America/Guatemala',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** dd/mm/aaaa HH:mm in Guatemala's time, whatever the server's time zone. */
export function formatGuatemalaDateTime(d: Date): string {
  const p = Object.fromEntries(guatemala.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/**
 * The institution's name for document headers: the INSTITUCION row of the institutions catalogue
 * (what administrators edit on screen), else `fallback` (the installation's APP_TITLE).
 */
export async function institutionName(db: Db, fallback: string): Promise<string> {
  const [i] = await db
    .select({ name: institutions.name })
    .from(institutions)
    .where(eq(institutions.kind, 'INSTITUCION'))
    .orderBy(institutions.id)
    .limit(1);
  return i?.name ?? fallback;
}

/** Who generated a document, as printed: name and e-mail. */
export const generatedByOf = (ctx: RequestContext) => {
  const name = `${ctx.user.firstName} ${ctx.user.lastName}`.trim();
  return name ? `${name} (${ctx.user.email})` : ctx.user.email;
};

/** The filters line, shared by the PDF and the spreadsheet of a report. */
export const filtersText = (r: Pick<ReportDefinition, 'filters' | 'noFilters'>) =>
  r.filters.length ? r.filters.map((f) => `${f.label}: ${f.value}`).join('; ') : (r.noFilters ?? 'Ninguno');

/** A cell as printed: counts grouped; money `1,234.50` in a report (its column says `(Q)`), `Q 1,234.50` in a document. */
const formatCell = (v: ReportCell, layout: 'report' | 'document' = 'report') =>
  typeof v === 'number'
    ? v.toLocaleString('en-US')
    : typeof v === 'string'
      ? v
      : layout === 'document'
        ? formatMoney(v.cents)
        : formatAmount(v.cents);

/**
 * A signature block as pdfmake content: heading, then the lines side by side (two per row), each a rule
 * with its caption under it, and the seal box when given — one unbreakable stack, so the heading and
 * its captions never land on another page than their lines.
 */
export function signatureContent(block: SignatureBlock) {
  const line = (l: SignatureLine) => ({
    stack: [
      { text: ' ', margin: [0, 28, 0, 0] },
      { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 200, y2: 0, lineWidth: 0.8 }] },
      { text: l.caption, fontSize: 9, margin: [0, 3, 0, 0] },
      ...(l.name ? [{ text: l.name, fontSize: 9, bold: true }] : []),
    ],
  });
  const seal = (caption: string) => ({
    stack: [
      { text: ' ', margin: [0, 4, 0, 0] },
      {
        table: { widths: [110], heights: [60], body: [[{ text: caption, fontSize: 8, color: '#777777', alignment: 'center' }]] },
      },
    ],
  });
  const cells: unknown[] = [...block.lines.map(line), ...(block.seal ? [seal(block.seal)] : [])];
  const rows: unknown[] = [];
  for (let i = 0; i < cells.length; i += 2) rows.push({ columns: cells.slice(i, i + 2), columnGap: 24, margin: [0, 0, 0, 8] });
  return {
    unbreakable: true,
    stack: [...(block.heading ? [{ text: block.heading, bold: true, fontSize: 12, margin: [0, 12, 0, 0] }] : []), ...rows],
    margin: [0, 8, 0, 0],
  };
}

/**
 * A step every generated PDF goes through before it is registered (automatic sealing: the signing
 * module seals the kinds its rules name). Answers the finished bytes, or null to leave them as they are.
 * The platform knows no module: a module registers its finisher when its routes load.
 */
export type PdfFinisher = (ctx: RequestContext, kind: string, pdf: Buffer) => Promise<Buffer | null>;
let finisher: PdfFinisher | null = null;
export function registerPdfFinisher(f: PdfFinisher | null): void {
  finisher = f;
}

/**
 * `pdf` through the registered finisher: the finished bytes, or null when nothing applies. Generated
 * reports pass their report kind; the documents library passes `documento:<TIPO>` when it files a PDF.
 */
export async function finishPdf(ctx: RequestContext, kind: string, pdf: Buffer): Promise<Buffer | null> {
  return finisher ? finisher(ctx, kind, pdf) : null;
}

/** Whether these very bytes (by SHA-256) are a PDF this application generated and registered. */
export async function isGeneratedPdf(db: Db, sha256: string): Promise<boolean> {
  const [row] = await db
    .select({ id: generatedDocuments.id })
    .from(generatedDocuments)
    .where(eq(generatedDocuments.sha256, sha256))
    .limit(1);
  return !!row;
}

/**
 * Lays out `report` as a PDF and registers it. Callers: any report export, with the context of the
 * user who asked for it (printed as its author). `verifyUrl` is where a reader checks the code (the
 * route builds it from the request's origin); `institution` overrides the catalogue's name.
 */
export async function generateReportPdf(
  ctx: RequestContext,
  report: ReportDefinition,
  opts: { fallbackInstitution: string; verifyUrl?: (code: string) => string; now?: Date },
): Promise<GeneratedDocument> {
  const generatedAt = opts.now ?? new Date();
  const institution = await institutionName(ctx.db, opts.fallbackInstitution);
  const code = newVerificationCode();
  const printed = formatVerificationCode(code);
  const by = generatedByOf(ctx);
  const verifyUrl = opts.verifyUrl?.(printed);
  let pages = 0;
  const layout = report.layout ?? 'report';
  const isReport = layout === 'report';

  // A list says what it was made with; a document (receipt, contract, letter) states its own data.
  const facts: [string, string][] = [
    ...(isReport ? [['Filtros', filtersText(report)] as [string, string]] : []),
    ...(report.fields ?? []).map((f): [string, string] => [f.label, f.value]),
    [isReport ? 'Generado el' : 'Emitido el', `${formatGuatemalaDateTime(generatedAt)} (hora de Guatemala)`],
    [isReport ? 'Generado por' : 'Emitido por', by],
    ['Código de verificación', printed],
  ];
  const factsBlock = {
    table: {
      widths: ['auto', '*'],
      body: facts.map(([k, v]) => [
        { text: `${k}:`, bold: true, color: '#444444' },
        { text: v, color: '#222222' },
      ]),
    },
    layout: 'noBorders',
    fontSize: 8.5,
  };
  const tables = report.tables.flatMap((t, n) => {
    const numeric = new Set(t.numeric ?? []);
    const cell = (v: ReportCell, i: number, opts2: { bold?: boolean; fill?: string } = {}) => ({
      text: formatCell(v, layout),
      alignment: numeric.has(i) || typeof v !== 'string' ? 'right' : 'left',
      bold: opts2.bold ?? false,
      fillColor: opts2.fill,
    });
    return [
      ...(t.caption ? [{ text: t.caption, bold: true, fontSize: 11, margin: [0, n ? 14 : 0, 0, 4] }] : []),
      {
        table: {
          // The header row repeats at the top of every page the table spans.
          headerRows: 1,
          dontBreakRows: true,
          widths: t.widths ?? t.headers.map((_, i) => (i === 0 ? '*' : 'auto')),
          body: [
            t.headers.map((h, i) => cell(h, i, { bold: true, fill: '#E8EEF4' })),
            ...t.rows.map((row) => row.map((v, i) => cell(v, i))),
            ...(t.totals ? [t.totals.map((v, i) => cell(v, i, { bold: true, fill: '#F3F5F7' }))] : []),
          ],
        },
        layout: 'lightHorizontalLines',
        margin: [0, 0, 0, 8],
      },
    ];
  });

  const doc = {
    pageSize: 'LETTER',
    pageOrientation: report.orientation ?? 'portrait',
    pageMargins: [40, 64, 40, 52],
    info: {
      title: report.title,
      author: by,
      subject: institution,
      creator: 'Aporta',
      producer: 'Aporta',
      creationDate: generatedAt,
    },
    defaultStyle: { font: 'Roboto', fontSize: 9 },
    header: (page: number, count: number) => {
      // pdfmake knows the page count only while laying out headers and footers: keep it for the register.
      pages = Math.max(pages, count);
      return {
        margin: [40, 24, 40, 0],
        columns: [
          { text: institution, bold: true, fontSize: 11 },
          { text: page > 1 ? report.title : '', alignment: 'right', fontSize: 8, color: '#555555' },
        ],
      };
    },
    footer: (page: number, count: number) => ({
      margin: [40, 16, 40, 0],
      columns: [
        { text: `Verificación: ${printed}`, fontSize: 7.5, color: '#555555' },
        { text: `Página ${page} de ${count}`, alignment: 'right', fontSize: 8 },
      ],
    }),
    content: [
      {
        columns: [
          [{ text: report.title, fontSize: 15, bold: true, margin: [0, 0, 0, 6] }, factsBlock],
          ...(verifyUrl
            ? [
                {
                  width: 92,
                  stack: [
                    { qr: verifyUrl, fit: 72, alignment: 'right' },
                    {
                      text: 'Escanee el código QR para verificar este documento',
                      fontSize: 6.5,
                      alignment: 'right',
                      margin: [0, 2, 0, 0],
                    },
                  ],
                },
              ]
            : []),
        ],
        columnGap: 12,
        margin: [0, 0, 0, 12],
      },
      ...tables,
      ...(report.sections ?? []).flatMap((sec) => [
        ...(sec.heading
          ? [
              {
                text: sec.heading,
                bold: true,
                fontSize: 12,
                margin: [0, 8, 0, 6],
                pageBreak: sec.pageBreakBefore ? 'before' : undefined,
              },
            ]
          : []),
        ...(sec.qr
          ? [
              { qr: sec.qr.value, fit: 110, margin: [0, 0, 0, 4] },
              { text: sec.qr.caption, fontSize: 8, color: '#333333', margin: [0, 0, 0, 8] },
            ]
          : []),
        ...sec.paragraphs.map((p, i) => ({
          text: p,
          fontSize: 10,
          bold: sec.emphasis ?? false,
          margin: [0, 0, 0, 8],
          pageBreak: !sec.heading && i === 0 && sec.pageBreakBefore ? 'before' : undefined,
        })),
        ...(sec.signatures ? [signatureContent(sec.signatures)] : []),
      ]),
      ...(report.signatures ? [signatureContent(report.signatures)] : []),
      ...(verifyUrl
        ? [{ text: `Verificación en línea: ${verifyUrl}`, fontSize: 7, color: '#555555', margin: [0, 8, 0, 0] }]
        : []),
    ],
  };
  const laidOut = await pdfmake().createPdf(doc).getBuffer();
  const pdf = (await finishPdf(ctx, report.kind, laidOut)) ?? laidOut;
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  await ctx.db.insert(generatedDocuments).values({
    code,
    sha256,
    kind: report.kind,
    title: report.title,
    filters: report.filters,
    pages,
    bytes: pdf.length,
    generatedBy: ctx.actor.id,
    generatedByEmail: ctx.user.email,
    generatedByName: `${ctx.user.firstName} ${ctx.user.lastName}`.trim(),
    generatedAt,
  });
  return { pdf, code: printed, sha256, pages, generatedAt };
}
