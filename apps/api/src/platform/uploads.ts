import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { AppError, detail, msg } from '@aporta/domain';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MAX_BLOB_BYTES } from './blobs.ts';

/**
 * The one place where an uploaded file is judged (issue 25), for every upload route:
 * - its name is cleaned (`cleanFileName`): no control or bidirectional-override characters, no path, no
 *   `..`, a bounded length — the name a user sees and downloads is the cleaned one;
 * - its type is read from its bytes (`detectType`), never from the browser's claim nor from the name; a
 *   name whose ending says another accepted type is refused as a file that lies about itself;
 * - a PDF that the route keeps is refused when it carries active content (`pdfActiveContent`) or is
 *   encrypted (its content cannot be checked).
 * Spreadsheet imports (platform/imports) stream the file to disk and read it with the same detectors
 * (`zipEntryNames`, `cfbStreamNames`, `textEncoding`).
 */

/** Types the document routes accept, detected from the bytes (the name and the browser's claim are not trusted). */
export const ACCEPTED_TYPES = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'text/plain': 'texto',
  'application/x-pkcs12': 'PKCS#12',
} as const;
export type AcceptedType = keyof typeof ACCEPTED_TYPES;

/** What the library, the chat, the forms and the legal file take (PKCS#12 only by the seal). */
export const DOCUMENT_TYPES: readonly AcceptedType[] = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
];

/** The name endings of each type; the first is the one added to a name that has none of them. */
const EXTENSIONS: Record<AcceptedType, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'text/plain': ['txt'],
  'application/x-pkcs12': ['p12', 'pfx'],
};

/** Longest file name kept (characters; and at most 240 bytes in UTF-8, what every file system takes). */
export const MAX_FILE_NAME = 150;

// --------------------------------------------------------------------------------------------- names

// C0 and C1 controls and DEL; the characters Windows forbids in a name; path separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f<>:"|?*\\/]/g;
// Bidirectional controls (LRE…RLO, LRI…PDI, LRM, RLM, ALM) and invisible format characters (zero-width
// spaces and joiners, BOM, soft hyphen, word joiner…): they make «fdp.exe» read as «exe.pdf».
const INVISIBLE_CHARS = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * The name of an uploaded file as it is stored, shown and downloaded: unsafe characters and path
 * separators become `_`, bidirectional and invisible characters are removed, runs of dots become one, no
 * leading dots or trailing dots and spaces, at most MAX_FILE_NAME characters (the ending kept); `fallback`
 * when nothing is left.
 */
export function cleanFileName(name: string | undefined | null, fallback = 'archivo'): string {
  // A lone surrogate (not text) becomes U+FFFD, as String.prototype.toWellFormed does.
  let s = (name ?? '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .normalize('NFC');
  s = s.replace(INVISIBLE_CHARS, '').replace(UNSAFE_CHARS, '_').replace(/\s+/g, ' ');
  s = s
    .replace(/\.{2,}/g, '.')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  if (!s.replace(/[_\s.]/g, '')) return fallback;
  const chars = [...s];
  const fits = (t: string) => [...t].length <= MAX_FILE_NAME && Buffer.byteLength(t) <= 240;
  if (fits(s)) return s;
  const dot = s.lastIndexOf('.');
  const ext = dot > 0 && s.length - dot <= 10 ? s.slice(dot) : '';
  const stem = [...s.slice(0, s.length - ext.length)];
  let keep = Math.min(stem.length, MAX_FILE_NAME - [...ext].length);
  while (keep > 1 && !fits(stem.slice(0, keep).join('').trimEnd() + ext)) keep -= 1;
  return stem.slice(0, keep).join('').trimEnd() + ext || chars.slice(0, MAX_FILE_NAME).join('');
}

const extensionOf = (name: string) => /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]?.toLowerCase() ?? '';

// --------------------------------------------------------------------------------------------- content

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

/**
 * The names of the entries of a zip, read from its central directory (no decompression); null when the
 * bytes are not a whole zip. Bounded by the directory's own count and the buffer.
 */
export function zipEntryNames(bytes: Uint8Array): string[] | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const from = Math.max(0, buf.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = buf.length - 22; i >= from; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let off = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (off + 46 > buf.length || buf.readUInt32LE(off) !== 0x02014b50) return names.length ? names : null;
    const nameLength = buf.readUInt16LE(off + 28);
    const extra = buf.readUInt16LE(off + 30);
    const comment = buf.readUInt16LE(off + 32);
    names.push(buf.toString('utf8', off + 46, Math.min(buf.length, off + 46 + nameLength)).replace(/^\//, ''));
    off += 46 + nameLength + extra + comment;
  }
  return names;
}

/**
 * The stream and storage names of an OLE compound file (CFB: old .xls and .doc, and an encrypted
 * xlsx/docx, whose package sits in an `EncryptedPackage` stream next to its `EncryptionInfo`): the
 * directory's sectors followed through the FAT. Null when the bytes are not a compound file.
 */
export function cfbStreamNames(bytes: Uint8Array): string[] | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!startsWith(buf, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) || buf.length < 512) return null;
  const shift = buf.readUInt16LE(30);
  if (shift !== 9 && shift !== 12) return null;
  const size = 1 << shift;
  const sectors = Math.floor((buf.length - size) / size) + 1;
  const sectorAt = (s: number) => size + s * size;
  // The FAT: its sectors are listed in the header (109) and then in DIFAT sectors.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) {
    const s = buf.readUInt32LE(76 + i * 4);
    if (s < 0xfffffffa) fatSectors.push(s);
  }
  let difat = buf.readUInt32LE(68);
  for (let guard = 0; difat < 0xfffffffa && guard < sectors; guard++) {
    const at = sectorAt(difat);
    if (at + size > buf.length) break;
    for (let i = 0; i < size / 4 - 1; i++) {
      const s = buf.readUInt32LE(at + i * 4);
      if (s < 0xfffffffa) fatSectors.push(s);
    }
    difat = buf.readUInt32LE(at + size - 4);
  }
  const next = (s: number) => {
    const fat = fatSectors[Math.floor((s * 4) / size)];
    const at = fat === undefined ? -1 : sectorAt(fat) + ((s * 4) % size);
    return at >= 0 && at + 4 <= buf.length ? buf.readUInt32LE(at) : 0xfffffffe;
  };
  const names: string[] = [];
  let dir = buf.readUInt32LE(48);
  for (let guard = 0; dir < 0xfffffffa && guard < sectors; guard++) {
    const at = sectorAt(dir);
    if (at + size > buf.length) break;
    for (let e = 0; e < size / 128; e++) {
      const entry = at + e * 128;
      const length = buf.readUInt16LE(entry + 64);
      const type = buf[entry + 66];
      if (type === 0 || length < 2 || length > 64) continue;
      names.push(buf.toString('utf16le', entry, entry + length - 2));
    }
    dir = next(dir);
  }
  return names;
}

/** What a compound file holds, for a message that tells the truth about it. */
export function cfbKind(names: readonly string[]): 'encrypted' | 'xls' | 'doc' | 'other' {
  if (names.includes('EncryptionInfo') || names.includes('EncryptedPackage')) return 'encrypted';
  if (names.includes('Workbook') || names.includes('Book')) return 'xls';
  if (names.includes('WordDocument')) return 'doc';
  return 'other';
}

/**
 * How a text file is encoded, from its first bytes: UTF-16 (little or big endian, with or without BOM:
 * every other byte NUL), UTF-8 (with or without BOM) or Windows-1252; null when it is not text
 * (NUL bytes, or control characters other than tab, line breaks and form feed).
 */
export function textEncoding(head: Uint8Array): 'utf-16le' | 'utf-16be' | 'utf-8' | 'windows-1252' | null {
  if (startsWith(head, [0xff, 0xfe])) return 'utf-16le';
  if (startsWith(head, [0xfe, 0xff])) return 'utf-16be';
  const sample = head.subarray(0, Math.min(head.length, 4096) & ~1);
  if (sample.length >= 2) {
    let evenNul = 0;
    let oddNul = 0;
    for (let i = 0; i < sample.length; i += 2) {
      if (sample[i] === 0) evenNul += 1;
      if (sample[i + 1] === 0) oddNul += 1;
    }
    const pairs = sample.length / 2;
    if (oddNul >= pairs * 0.4 && evenNul === 0) return 'utf-16le';
    if (evenNul >= pairs * 0.4 && oddNul === 0) return 'utf-16be';
  }
  for (const b of head) if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c)) return null;
  try {
    // A UTF-8 sequence cut at the end of the sample is not an error (stream: true).
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** A DER (or BER) SEQUENCE that spans the whole file: the shape of a PKCS#12. */
function isDerSequence(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0x30) return false;
  const first = bytes[1];
  if (first === 0x80) return true;
  if (first < 0x80) return first + 2 === bytes.length;
  const n = first & 0x7f;
  if (n > 4 || bytes.length < 2 + n) return false;
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + bytes[2 + i];
  return 2 + n + length === bytes.length;
}

/** What the bytes are, in words, for a refusal («su contenido es …»). */
export function describeContent(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 1024));
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'un PDF';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47])) return 'una imagen PNG';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'una imagen JPEG';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return 'una imagen GIF';
  if (startsWith(head, [0x4d, 0x5a])) return 'un programa';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    const names = zipEntryNames(bytes) ?? [];
    if (names.includes('xl/workbook.xml')) return 'una hoja de cálculo Excel';
    if (names.includes('word/document.xml')) return 'un documento Word';
    return 'un archivo comprimido';
  }
  const cfb = cfbStreamNames(bytes);
  if (cfb) {
    const kind = cfbKind(cfb);
    if (kind === 'encrypted') return 'un documento de Office protegido con contraseña';
    if (kind === 'xls') return 'una hoja de cálculo .xls antigua';
    if (kind === 'doc') return 'un documento .doc antiguo';
    return 'un archivo de Office antiguo';
  }
  const encoding = textEncoding(head);
  if (encoding) {
    const text = new TextDecoder(encoding)
      .decode(head)
      .replace(/^\uFEFF/, '')
      .trimStart()
      .toLowerCase();
    if (/^<(!doctype html|html|head|body|script|svg|\?xml)/.test(text) || /<script[\s>]/.test(text)) return 'HTML o XML';
    return 'texto';
  }
  return 'de un tipo desconocido';
}

/**
 * The type of `bytes`, from the bytes alone: signatures for PDF, PNG and JPEG; the zip's directory for
 * xlsx and docx; DER for PKCS#12; text (UTF-8 or Windows-1252, no NUL or control characters) only with a
 * `.txt` name, since text has no signature. Null for anything else.
 */
export function detectType(bytes: Uint8Array, filename = ''): AcceptedType | null {
  const head = Buffer.from(bytes.subarray(0, 8));
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    const names = zipEntryNames(bytes) ?? [];
    if (names.includes('xl/workbook.xml')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    if (names.includes('word/document.xml')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    return null;
  }
  if (isDerSequence(bytes)) return 'application/x-pkcs12';
  if (extensionOf(filename) === 'txt') {
    const encoding = textEncoding(bytes.subarray(0, 64 * 1024));
    if ((encoding === 'utf-8' || encoding === 'windows-1252') && describeContent(bytes) === 'texto') return 'text/plain';
  }
  return null;
}

// --------------------------------------------------------------------------------------------- PDF

/**
 * PDF names that make a document act by itself: scripts, launching programs, embedded files, automatic
 * actions, XFA forms, active media, submitting or importing form data — and encryption, which hides the
 * rest. `/OpenAction` itself is not among them: opening at a page is harmless, and an open action that
 * runs a script or a launch names /JavaScript or /Launch, which are.
 */
const ACTIVE_NAMES: Record<string, string> = {
  JavaScript: 'JavaScript',
  JS: 'JavaScript',
  Launch: 'una orden de abrir programas (/Launch)',
  EmbeddedFile: 'archivos incrustados',
  EmbeddedFiles: 'archivos incrustados',
  AA: 'acciones automáticas (/AA)',
  XFA: 'un formulario XFA',
  RichMedia: 'contenido multimedia activo',
  ImportData: 'una importación de datos',
  SubmitForm: 'un envío de formulario',
  GoToE: 'un salto a archivos incrustados',
  Encrypt: 'cifrado',
};

/** The PDF names in `text` (latin1), `#xx` escapes decoded: /J#61vaScript is /JavaScript. */
function* pdfNames(text: string): Generator<string> {
  for (const m of text.matchAll(/\/([^\s()<>[\]{}/%]{1,64})/g)) {
    const raw = m[1];
    yield raw.includes('#')
      ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      : raw;
  }
}

const activeIn = (text: string): string | null => {
  for (const name of pdfNames(text)) if (Object.hasOwn(ACTIVE_NAMES, name)) return ACTIVE_NAMES[name];
  return null;
};

/** Most a PDF's object streams may inflate to while being checked. */
const MAX_INFLATED = 64 * 1024 * 1024;

/**
 * What makes a PDF active (see ACTIVE_NAMES), or null. How thorough (decisions.md, issue 25): the names are
 * looked for in the file's own bytes outside stream data (where every dictionary of a classic PDF is) and
 * inside its object streams (`/Type /ObjStm`, where PDF 1.5+ keeps dictionaries), inflated with zlib up to
 * MAX_INFLATED in all. An object stream with another filter, or that does not inflate, counts as active:
 * what it hides cannot be checked. Other streams (page contents, images, fonts) are not read: a reader
 * never takes a dictionary from them, and their binary data would match names by chance.
 */
export function pdfActiveContent(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const streamStart = /(?<!end)stream(?:\r\n|\n|\r)/g;
  let pos = 0;
  let inflated = 0;
  for (;;) {
    streamStart.lastIndex = pos;
    const m = streamStart.exec(text);
    const dataStart = m ? m.index + m[0].length : text.length;
    const outside = text.slice(pos, m ? m.index : text.length);
    const found = activeIn(outside);
    if (found) return found;
    if (!m) return null;
    let dataEnd = text.indexOf('endstream', dataStart);
    if (dataEnd < 0) dataEnd = text.length;
    pos = dataEnd;
    // The stream's dictionary: from its object's start to the keyword.
    const objAt = outside.lastIndexOf(' obj');
    const names = [...pdfNames(outside.slice(objAt < 0 ? Math.max(0, outside.length - 4096) : objAt))];
    if (!names.includes('ObjStm')) continue;
    const filters = names.filter((n) => n.endsWith('Decode'));
    if (filters.length > 1 || (filters.length === 1 && filters[0] !== 'FlateDecode'))
      return 'un flujo de objetos que no se puede revisar';
    let plain: Buffer;
    try {
      const data = Buffer.from(bytes.subarray(dataStart, dataEnd));
      plain = filters.length
        ? inflateSync(data, { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: MAX_INFLATED - inflated + 1 })
        : data;
    } catch {
      return 'un flujo de objetos que no se puede revisar';
    }
    inflated += plain.length;
    if (inflated > MAX_INFLATED) return 'flujos de objetos demasiado grandes para revisarlos';
    const inner = activeIn(plain.toString('latin1'));
    if (inner) return inner;
  }
}

// --------------------------------------------------------------------------------------------- checks

const typeNames = (types: readonly AcceptedType[]) => types.map((t) => ACCEPTED_TYPES[t]).join(', ');

/**
 * Checks an uploaded file's size and type (from its bytes) against `only`; answers the type. A name whose
 * ending is that of another accepted type is refused (the file lies about itself). Messages name the file.
 */
export function checkUpload(bytes: Uint8Array, filename: string, only: readonly AcceptedType[] = DOCUMENT_TYPES): AcceptedType {
  if (bytes.length === 0) throw new AppError('VALIDATION', msg('platform.fileEmptyNamed', { file: filename }));
  if (bytes.length > MAX_BLOB_BYTES) {
    throw new AppError('VALIDATION', msg('platform.fileTooLargeNamed', { file: filename, max: MAX_BLOB_BYTES / 1024 / 1024 }));
  }
  const type = detectType(bytes, filename);
  if (!type || !only.includes(type)) {
    throw new AppError(
      'VALIDATION',
      msg('platform.fileTypeNotAccepted', { file: filename, types: typeNames(only), content: describeContent(bytes) }),
      [{ path: 'file', ...detail(msg('platform.fileTypesAccepted', { types: typeNames(only) })) }],
    );
  }
  const ext = extensionOf(filename);
  const claimed = (Object.keys(EXTENSIONS) as AcceptedType[]).find((t) => EXTENSIONS[t].includes(ext));
  if (claimed && claimed !== type) {
    throw new AppError(
      'VALIDATION',
      msg('platform.fileClaimsOtherType', { file: filename, claimed: ACCEPTED_TYPES[claimed], content: describeContent(bytes) }),
      [{ path: 'file', ...detail(msg('platform.fileNameMismatch')) }],
    );
  }
  return type;
}

/** `filename` with the ending of `type` when it has none of that type's endings («acta» → «acta.pdf»). */
export function withExtension(filename: string, type: AcceptedType): string {
  if (EXTENSIONS[type].includes(extensionOf(filename))) return filename;
  return cleanFileName(`${filename}.${EXTENSIONS[type][0]}`);
}

/**
 * Refuses a PDF that a route keeps and serves again when it is active (scripts, launch actions, embedded
 * files… — see pdfActiveContent) or encrypted.
 */
export function assertPassivePdf(bytes: Uint8Array, filename: string) {
  const active = pdfActiveContent(bytes);
  if (!active) return;
  if (active === 'cifrado')
    throw new AppError('VALIDATION', msg('platform.pdfEncryptedNamed', { file: filename }), [
      { path: 'file', ...detail(msg('platform.pdfEncrypted')) },
    ]);
  throw new AppError('VALIDATION', msg('platform.pdfActive', { file: filename, content: active }), [
    { path: 'file', ...detail(msg('platform.pdfActiveDetail')) },
  ]);
}

/** Limits for the multipart plugin of a route that takes one file and a few fields. */
export const uploadLimits = { fileSize: MAX_BLOB_BYTES, files: 1, fields: 12, parts: 13, fieldSize: 8192 };

export interface UploadedFile {
  bytes: Uint8Array;
  /** Cleaned (cleanFileName), with the ending of its type. */
  filename: string;
  /** Detected from the bytes. */
  contentType: AcceptedType;
}

/**
 * Reads a multipart body with one file (field "file", optional when `fileRequired` is false) and text
 * fields validated by `fields`. The file is read into memory (≤ `maxBytes`, MAX_BLOB_BYTES by default;
 * over it → 413), its name cleaned and its type detected from its bytes and checked against `accept`.
 * A PDF is refused when active or encrypted unless `keeps` is false (a route that only reads it: the
 * signature check).
 */
export async function readUpload<S extends z.ZodType>(
  request: FastifyRequest,
  fields: S,
  opts: { fileRequired?: boolean; accept: readonly AcceptedType[]; maxBytes?: number; keeps?: boolean; fallbackName?: string },
): Promise<{ file: UploadedFile | null; fields: z.infer<S> }> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.multipartRequired'));
  const maxBytes = opts.maxBytes ?? MAX_BLOB_BYTES;
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', msg('platform.fileTooLarge', { max: maxBytes / 1024 / 1024 }));
  const values: Record<string, string> = {};
  let file: { bytes: Uint8Array; filename: string } | null = null;
  for await (const part of request.parts({ limits: { ...uploadLimits, fileSize: maxBytes } })) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer().catch((err: unknown) => {
        if ((err as { code?: string })?.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw err;
      });
      if (part.file.truncated) throw tooLarge();
      file = { bytes: new Uint8Array(bytes), filename: cleanFileName(part.filename, opts.fallbackName) };
    } else {
      values[part.fieldname] = String(part.value ?? '');
    }
  }
  if (!file && opts.fileRequired !== false)
    throw new AppError('VALIDATION', msg('platform.fileMissing'), [{ path: 'file', ...detail(msg('platform.fileChoose')) }]);
  const parsed = fields.safeParse(values);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new AppError('VALIDATION', details[0]?.message, details);
  }
  if (!file) return { file: null, fields: parsed.data };
  const contentType = checkUpload(file.bytes, file.filename, opts.accept);
  if (contentType === 'application/pdf' && opts.keeps !== false) assertPassivePdf(file.bytes, file.filename);
  return { file: { ...file, filename: withExtension(file.filename, contentType), contentType }, fields: parsed.data };
}
