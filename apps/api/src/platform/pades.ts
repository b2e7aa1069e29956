import { createHash, createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { AppError, msg } from '@aporta/domain';
import {
  CryptoKeySigner,
  HttpTimestampAuthority,
  measureText,
  P12Signer,
  PDF,
  PdfArray,
  PdfDict,
  PdfName,
  PdfNumber,
  PdfStream,
  type Signer,
  StandardFonts,
  TimestampError,
} from '@libpdf/core';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sha256Hex } from './blobs.ts';
import { parseCertificate, summarizeCertificate } from './pki.ts';

/**
 * PAdES signatures (`ETSI.CAdES.detached`) added to a PDF as an incremental update: the bytes before
 * stay exactly as they were, so earlier signatures stay valid. Signing uses @libpdf/core; reading the
 * signatures back (the verification page) uses pkijs.
 */

export class BadPdfError extends Error {
  constructor(readonly reason: 'damaged' | 'encrypted') {
    super(reason === 'encrypted' ? 'encrypted pdf' : 'damaged pdf');
    this.name = 'BadPdfError';
  }
}

/** The Spanish answer to a PDF that `inspectPdf` refused, naming the file; other errors pass through. */
export function badPdfError(err: unknown, filename: string): never {
  if (err instanceof BadPdfError) {
    throw new AppError(
      'VALIDATION',
      err.reason === 'encrypted'
        ? msg('platform.pdfEncryptedNamed', { file: filename })
        : msg('platform.pdfInvalidNamed', { file: filename }),
    );
  }
  throw err;
}

/** Opens a PDF, refusing an encrypted or damaged one; answers its page count. */
export async function inspectPdf(bytes: Uint8Array): Promise<{ pages: number }> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch (err) {
    if (/encrypt|password/i.test(String((err as Error)?.message))) throw new BadPdfError('encrypted');
    throw new BadPdfError('damaged');
  }
  if (pdf.isEncrypted) throw new BadPdfError('encrypted');
  let pages = 0;
  try {
    pages = pdf.getPageCount();
  } catch {
    throw new BadPdfError('damaged');
  }
  if (pages < 1) throw new BadPdfError('damaged');
  return { pages };
}

export interface SigningIdentity {
  key: CryptoKey;
  certificate: Uint8Array;
  /** [issuing CA, …, root] */
  chain: Uint8Array[];
}

export const signerOf = (id: SigningIdentity): Signer =>
  new CryptoKeySigner(id.key, id.certificate, 'RSA', 'RSASSA-PKCS1-v1_5', id.chain);

/** A PKCS#12 (the institution's seal uploaded from outside): its signer, or null when the password does not open it. */
export async function signerFromP12(p12: Uint8Array, password: string): Promise<Signer | null> {
  try {
    return await P12Signer.create(p12, password);
  } catch {
    return null;
  }
}

export interface SignPdfOptions {
  reason?: string;
  location?: string;
  contactInfo?: string;
  fieldName?: string;
  /** RFC 3161 server: the signature gets a trusted time (PAdES B-T). */
  timestampUrl?: string | null;
  signingTime?: Date;
  /** A visible signature: a box on the last page with these lines (and an image); none when omitted. */
  appearance?: SignatureAppearance;
}

export interface SignatureAppearance {
  /** The box's lines, top to bottom; the first is printed small, the second (the name) bold. */
  lines: string[];
  /** A PNG or JPEG printed at the left of the box (a stamp or handwritten signature). */
  image?: Uint8Array | null;
}

/** The size of a visible signature's box and where the boxes go on the last page (bottom up, three a row). */
export const APPEARANCE_BOX = { width: 174, height: 58, margin: 30, gap: 6, perRow: 3 } as const;

/** Text for a Type 1 font in WinAnsiEncoding: Latin-1 bytes (Spanish letters included), others as "?", escaped. */
function winAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch === '…' ? 0x85 : ch === '·' ? 0xb7 : (ch.codePointAt(0) ?? 63);
    const c = code < 32 || code > 255 ? 63 : code;
    out +=
      c === 0x28 || c === 0x29 || c === 0x5c
        ? `\\${String.fromCharCode(c)}`
        : c > 126
          ? `\\${c.toString(8).padStart(3, '0')}`
          : String.fromCharCode(c);
  }
  return out;
}

/** The line cut with "…" to fit `width` points. */
function fit(text: string, font: 'Helvetica' | 'Helvetica-Bold', size: number, width: number): string {
  if (measureText(text, font, size) <= width) return text;
  let t = text;
  while (t.length > 1 && measureText(`${t}…`, font, size) > width) t = t.slice(0, -1);
  return `${t.trimEnd()}…`;
}

const isPng = (b: Uint8Array) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8;

/**
 * Prepares a visible signature on `pdf` before @libpdf/core signs it: an unsigned signature field
 * named `fieldName`, and a hook on the library's incremental save that — after the library made the
 * field its widget with an empty rectangle (its only model) — gives the widget a rectangle on the last
 * page, an appearance stream (/AP /N: a form XObject drawing the box, the lines and the image) and a
 * place in the page's /Annots. All of it goes into the same incremental update as the signature, so
 * the signature covers its own appearance and earlier signatures stay valid (adding a signed field's
 * widget is a change PDF allows after a signature).
 */
function prepareAppearance(pdf: PDF, fieldName: string, appearance: SignatureAppearance): void {
  const form = pdf.getOrCreateForm();
  const page = pdf.getPage(pdf.getPageCount() - 1);
  if (!page) return;
  const registry = pdf.context.registry;
  const resolve = registry.resolve.bind(registry);
  // The boxes already on that page (earlier visible signatures) take the first places.
  const existing = form.getSignatureFields().filter((f) => {
    const d = f.getDict();
    const p = d.get('P');
    const r = d.getArray('Rect', resolve)?.toArray() ?? [];
    const n = (i: number) => (r[i] instanceof PdfNumber ? (r[i] as PdfNumber).value : 0);
    return String(p) === String(page.ref) && r.length === 4 && n(2) - n(0) > 0;
  }).length;
  const field = form.createSignatureField(fieldName);
  const box = page.getMediaBox();
  const { width: w, height: h, margin, gap, perRow } = APPEARANCE_BOX;
  const col = existing % perRow;
  const row = Math.floor(existing / perRow);
  const x = box.x + margin + col * (w + gap);
  const y = box.y + margin + row * (h + gap);

  const resources = PdfDict.of({
    Font: PdfDict.of({
      F1: PdfDict.of({
        Type: PdfName.of('Font'),
        Subtype: PdfName.of('Type1'),
        BaseFont: PdfName.of('Helvetica'),
        Encoding: PdfName.of('WinAnsiEncoding'),
      }),
      F2: PdfDict.of({
        Type: PdfName.of('Font'),
        Subtype: PdfName.of('Type1'),
        BaseFont: PdfName.of('Helvetica-Bold'),
        Encoding: PdfName.of('WinAnsiEncoding'),
      }),
    }),
  });
  const ops: string[] = [
    `q 0.94 0.96 1 rg 0 0 ${w} ${h} re f Q`,
    `q 0.13 0.35 0.7 RG 0.8 w 0.4 0.4 ${w - 0.8} ${h - 0.8} re S Q`,
  ];
  let textX = 6;
  const image = appearance.image;
  if (image && (isPng(image) || isJpeg(image))) {
    try {
      const img = pdf.embedImage(image);
      const side = h - 8;
      const scale = Math.min(side / img.width, side / img.height);
      const iw = img.width * scale;
      const ih = img.height * scale;
      resources.set('XObject', PdfDict.of({ Im1: img.ref }));
      ops.push(
        `q ${iw.toFixed(2)} 0 0 ${ih.toFixed(2)} ${(4 + (side - iw) / 2).toFixed(2)} ${(4 + (side - ih) / 2).toFixed(2)} cm /Im1 Do Q`,
      );
      textX = side + 10;
    } catch {
      // An image the library cannot read leaves the box with text only.
    }
  }
  const room = w - textX - 5;
  const lines = appearance.lines.slice(0, 5);
  const sizes = lines.map((_, i) => (i === 0 ? 6.5 : i === 1 ? 8.5 : 7));
  const fonts = lines.map((_, i) => (i === 1 ? 'Helvetica-Bold' : 'Helvetica') as 'Helvetica' | 'Helvetica-Bold');
  const lead = 10;
  let ty = h - 5 - sizes[0];
  ops.push('BT 0.1 0.12 0.2 rg');
  lines.forEach((line, i) => {
    ops.push(
      `/${fonts[i] === 'Helvetica-Bold' ? 'F2' : 'F1'} ${sizes[i]} Tf 1 0 0 1 ${textX} ${ty.toFixed(2)} Tm (${winAnsi(fit(line, fonts[i], sizes[i], room))}) Tj`,
    );
    ty -= lead;
  });
  ops.push('ET');
  const stream = new PdfStream(
    PdfDict.of({
      Type: PdfName.of('XObject'),
      Subtype: PdfName.of('Form'),
      BBox: PdfArray.of(PdfNumber.of(0), PdfNumber.of(0), PdfNumber.of(w), PdfNumber.of(h)),
      Resources: resources,
    }),
    new TextEncoder().encode(ops.join('\n')),
  );
  const apRef = pdf.register(stream);
  const dict = field.getDict();
  const save = pdf.save.bind(pdf);
  let done = false;
  // The library's sign() saves once to lay out the signature (then reloads and saves again): the widget
  // is finished right before that first save, after the library set its empty rectangle.
  pdf.save = (async (options?: Parameters<PDF['save']>[0]) => {
    if (!done) {
      done = true;
      dict.set('Rect', PdfArray.of(PdfNumber.of(x), PdfNumber.of(y), PdfNumber.of(x + w), PdfNumber.of(y + h)));
      dict.set('P', page.ref);
      dict.set('AP', PdfDict.of({ N: apRef }));
      const ref = registry.getRef(dict);
      if (ref) {
        const annots = page.dict.getArray('Annots', resolve);
        if (annots) annots.push(ref);
        else page.dict.set('Annots', PdfArray.of(ref));
      }
    }
    return save(options);
  }) as PDF['save'];
}

/**
 * Appends a page of text (title and lines, wrapped, more pages when needed) as an incremental update:
 * the answer starts with exactly the given bytes, so every signature already in them stays valid (it
 * then covers the document up to its own revision). Helvetica: Spanish accents are in its encoding.
 */
export async function appendTextPages(bytes: Uint8Array, title: string, lines: string[]): Promise<Uint8Array> {
  const pdf = await PDF.load(bytes);
  const width = 595;
  const height = 842;
  const wrap = (line: string, max = 95) => {
    const out: string[] = [];
    let rest = line;
    while (rest.length > max) {
      const cut = rest.lastIndexOf(' ', max) > 40 ? rest.lastIndexOf(' ', max) : max;
      out.push(rest.slice(0, cut));
      rest = `    ${rest.slice(cut).trimStart()}`;
    }
    out.push(rest);
    return out;
  };
  const rows = lines.flatMap((l) => wrap(l));
  let page = pdf.addPage({ width, height });
  page.drawText(title, { x: 50, y: height - 60, size: 14, font: StandardFonts.HelveticaBold });
  let y = height - 90;
  for (const row of rows) {
    if (y < 50) {
      page = pdf.addPage({ width, height });
      y = height - 60;
    }
    page.drawText(row, { x: 50, y, size: 9, font: StandardFonts.Helvetica });
    y -= 13;
  }
  return pdf.save({ incremental: true });
}

/** Adds one signature as an incremental update; the answer starts with exactly the given bytes. */
export async function signPdf(bytes: Uint8Array, signer: Signer, opts: SignPdfOptions = {}): Promise<Uint8Array> {
  const pdf = await PDF.load(bytes);
  if (opts.appearance) {
    const fieldName = opts.fieldName ?? `Firma_${Date.now().toString(36)}`;
    prepareAppearance(pdf, fieldName, opts.appearance);
    opts = { ...opts, fieldName };
  }
  const result = await pdf
    .sign({
      signer,
      subFilter: 'ETSI.CAdES.detached',
      reason: opts.reason,
      location: opts.location,
      contactInfo: opts.contactInfo,
      fieldName: opts.fieldName,
      signingTime: opts.signingTime,
      ...(opts.timestampUrl
        ? { level: 'B-T' as const, timestampAuthority: new HttpTimestampAuthority(opts.timestampUrl, { timeout: 15_000 }) }
        : {}),
    })
    .catch((err: unknown) => {
      // The configured timestamp server failed: nothing was stored, the caller's document is untouched.
      if (err instanceof TimestampError)
        throw new AppError('SERVICE_UNAVAILABLE', msg('platform.timestampFailed', { reason: err.message }));
      throw err;
    });
  const out = result.bytes;
  if (out.length <= bytes.length || !Buffer.from(out.buffer, out.byteOffset, bytes.length).equals(Buffer.from(bytes))) {
    throw new Error('signing did not produce an incremental update');
  }
  return out;
}

export interface FoundSignature {
  byteRange: [number, number, number, number];
  cms: Uint8Array;
  /** The bytes the signature covers. */
  signed: Uint8Array;
  reason: string | null;
  name: string | null;
}

/** Every signature of a PDF, found by its /ByteRange, in file order. */
export function findSignatures(bytes: Uint8Array): FoundSignature[] {
  const text = Buffer.from(bytes).toString('latin1');
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  const out: FoundSignature[] = [];
  const seen = new Set<string>();
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const br = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as [number, number, number, number];
    const key = br.join(',');
    if (seen.has(key)) continue;
    if (br[0] !== 0 || br[1] >= br[2] || br[2] + br[3] > bytes.length) continue;
    const hex = text.slice(br[1], br[2]).replace(/^</, '').replace(/>$/, '').replace(/\s+/g, '');
    if (!/^[0-9a-fA-F]*$/.test(hex)) continue;
    seen.add(key);
    // The placeholder is zero-padded; the DER reader stops at the end of the structure.
    const cms = new Uint8Array(Buffer.from(hex, 'hex'));
    const signed = new Uint8Array(br[1] + br[3]);
    signed.set(bytes.subarray(0, br[1]), 0);
    signed.set(bytes.subarray(br[2], br[2] + br[3]), br[1]);
    // The signature dictionary around this /ByteRange: the nearest "obj" before and "endobj" after.
    const start = text.lastIndexOf(' obj', m.index);
    const end = text.indexOf('endobj', m.index);
    const dict = text.slice(Math.max(0, start), end > 0 ? end : m.index + 2000).replace(text.slice(br[1], br[2]), '');
    const str = (k: string) => {
      const s = new RegExp(`/${k}\\s*\\(((?:\\\\.|[^\\\\)])*)\\)`).exec(dict);
      return s ? pdfString(s[1]) : null;
    };
    out.push({ byteRange: br, cms, signed, reason: str('Reason'), name: str('Name') });
  }
  return out;
}

/** A PDF literal string: escapes undone; UTF-16BE with its BOM, else PDFDocEncoding read as Latin-1. */
function pdfString(raw: string): string {
  const un = raw.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, e: string) =>
    /^[0-7]/.test(e) ? String.fromCharCode(Number.parseInt(e, 8)) : ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' }[e] ?? e),
  );
  if (un.startsWith('\u00fe\u00ff')) return Buffer.from(un.slice(2), 'latin1').swap16().toString('utf16le');
  return un;
}

export interface SignatureReport {
  index: number;
  signer: string;
  subject: string;
  issuer: string;
  serial: string;
  signingTime: string | null;
  reason: string | null;
  /** The CMS signature matches the bytes it covers. */
  intact: boolean;
  /** The signature covers the whole file (nothing added after it). */
  coversWholeDocument: boolean;
  /** Something was added after it that is not a later signature (content changed after signing). */
  modifiedAfter: boolean;
  /** The signer's certificate chains to one of the trusted roots. */
  chainTrusted: boolean;
  chain: string[];
  notAfter: string;
  /**
   * The RFC 3161 timestamp token in the signature (PAdES B-T): the time the authority certifies, its
   * name, and whether the token's imprint is the digest of this signature's value (it stamps this one).
   */
  timestamp: { time: string; authority: string; matches: boolean } | null;
}

const OID_TIMESTAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';

/** The timestamp token among the signer's unsigned attributes: its time, authority and whether it stamps this signature. */
function readTimestamp(si: pkijs.SignerInfo): SignatureReport['timestamp'] {
  const attr = si.unsignedAttrs?.attributes.find((a) => a.type === OID_TIMESTAMP_TOKEN);
  if (!attr) return null;
  try {
    const info = new pkijs.ContentInfo({ schema: attr.values[0] });
    const sd = new pkijs.SignedData({ schema: info.content });
    const econtent = sd.encapContentInfo.eContent;
    if (!econtent) return null;
    const tst = pkijs.TSTInfo.fromBER(econtent.getValue());
    const hash = DIGESTS[tst.messageImprint.hashAlgorithm.algorithmId];
    const stamped = Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
    const matches = !!hash && stamped.equals(createHash(hash).update(si.signature.valueBlock.valueHexView).digest());
    const tsaCert = (sd.certificates ?? []).find((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
    return {
      time: tst.genTime.toISOString(),
      authority: tsaCert ? summarizeCertificate(new Uint8Array(tsaCert.toSchema().toBER(false))).commonName : '',
      matches,
    };
  } catch {
    return { time: '', authority: '', matches: false };
  }
}

const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const DIGESTS: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/**
 * The signer's signature, checked by hand: the signed attributes' message digest is the digest of the
 * covered bytes, and the signature over the attributes opens with the certificate's RSA key.
 */
async function verifySignerInfo(si: pkijs.SignerInfo, cert: pkijs.Certificate, covered: Uint8Array): Promise<boolean> {
  const hash = DIGESTS[si.digestAlgorithm.algorithmId];
  if (!hash || !si.signedAttrs) return false;
  const md = si.signedAttrs.attributes.find((a) => a.type === OID_MESSAGE_DIGEST);
  const expected = md ? Buffer.from((md.values[0] as asn1js.OctetString).valueBlock.valueHexView) : null;
  if (!expected?.equals(createHash(hash).update(covered).digest())) return false;
  const spki = Buffer.from(cert.subjectPublicKeyInfo.toSchema().toBER(false));
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const attrs = Buffer.from(si.signedAttrs.encodedValue);
  return cryptoVerify(hash, attrs, key, Buffer.from(si.signature.valueBlock.valueHexView));
}

/**
 * Checks each signature of a PDF: the CMS against the bytes it covers, the certificate chain against
 * `trustedRoots` (DER) with `intermediates`, and whether anything but later signatures follows it.
 * Revocation is the caller's (it knows its own revoked serials).
 */
export async function verifyPdfSignatures(
  bytes: Uint8Array,
  trust: { roots: Uint8Array[]; intermediates: Uint8Array[] },
): Promise<SignatureReport[]> {
  const found = findSignatures(bytes);
  const reports: SignatureReport[] = [];
  for (const [i, sig] of found.entries()) {
    let intact = false;
    let signerCert: pkijs.Certificate | null = null;
    let certs: pkijs.Certificate[] = [];
    let signingTime: Date | null = null;
    let timestamp: SignatureReport['timestamp'] = null;
    try {
      const asn = asn1js.fromBER(sig.cms.slice().buffer);
      if (asn.offset === -1) throw new Error('bad CMS');
      const info = new pkijs.ContentInfo({ schema: asn.result });
      const sd = new pkijs.SignedData({ schema: info.content });
      certs = (sd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
      const si = sd.signerInfos[0];
      const sid = si.sid;
      signerCert =
        certs.find(
          (c) =>
            sid instanceof pkijs.IssuerAndSerialNumber &&
            c.serialNumber.isEqual(sid.serialNumber) &&
            c.issuer.isEqual(sid.issuer),
        ) ??
        certs[0] ??
        null;
      const st = si.signedAttrs?.attributes.find((a) => a.type === OID_SIGNING_TIME);
      if (st) signingTime = (st.values[0] as asn1js.UTCTime).toDate();
      intact = signerCert ? await verifySignerInfo(si, signerCert, sig.signed) : false;
      timestamp = readTimestamp(si);
    } catch {
      intact = false;
    }
    let chainTrusted = false;
    const chainNames: string[] = [];
    if (signerCert) {
      try {
        const engine = new pkijs.CertificateChainValidationEngine({
          trustedCerts: trust.roots.map(parseCertificate),
          certs: [signerCert, ...trust.intermediates.map(parseCertificate), ...certs],
          checkDate: signingTime ?? new Date(),
        });
        const r = await engine.verify();
        chainTrusted = r.result === true;
        for (const c of r.certificatePath ?? [])
          chainNames.push(summarizeCertificate(new Uint8Array(c.toSchema().toBER(false))).commonName);
      } catch {
        chainTrusted = false;
      }
    }
    const end = sig.byteRange[2] + sig.byteRange[3];
    const coversWholeDocument = end === bytes.length;
    // Added after it: acceptable only when a later signature covers everything up to the end of the file.
    const laterCoverAll = found.some(
      (o) => o.byteRange[2] + o.byteRange[3] === bytes.length && o.byteRange[2] + o.byteRange[3] > end,
    );
    const summary = signerCert ? summarizeCertificate(new Uint8Array(signerCert.toSchema().toBER(false))) : null;
    reports.push({
      index: i + 1,
      signer: summary?.commonName ?? sig.name ?? 'Desconocido',
      subject: summary?.subject ?? '',
      issuer: summary?.issuer ?? '',
      serial: summary?.serial ?? '',
      signingTime: signingTime?.toISOString() ?? null,
      reason: sig.reason,
      intact,
      coversWholeDocument,
      modifiedAfter: !coversWholeDocument && !laterCoverAll,
      chainTrusted,
      chain: chainNames,
      notAfter: summary?.notAfter.toISOString() ?? '',
      timestamp,
    });
  }
  return reports;
}

export const pdfHash = sha256Hex;
