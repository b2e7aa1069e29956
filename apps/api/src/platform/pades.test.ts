import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDF } from '@libpdf/core';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from '../test/pdfs.ts';
import { hasPdfsig, type NssDb, pdfsigMissing, trustedNssDb } from '../test/pdfsig.ts';
import { hasPoppler, pdfPages } from '../test/poppler.ts';
import { startTsa } from '../test/tsa.ts';
import { findSignatures, type SigningIdentity, signerOf, signPdf, verifyPdfSignatures } from './pades.ts';
import { generateKeyPair, issueCertificate, newSerial, toPem } from './pki.ts';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

/**
 * PAdES signing at the platform level, checked from outside with pdfsig (poppler) and pdftoppm: the
 * visible appearance, incremental updates that keep earlier signatures valid.
 */

let root: Uint8Array;
let ca: Uint8Array;
let caKey: CryptoKey;
let nss: NssDb | null = null;

async function identity(commonName: string, purpose: 'documents' | 'timestamping' = 'documents'): Promise<SigningIdentity> {
  const keys = await generateKeyPair();
  const certificate = await issueCertificate({
    subject: { commonName, organization: 'Aporta', country: 'GT' },
    publicKey: keys.publicKey,
    issuer: { der: ca, key: caKey },
    serial: newSerial(),
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    kind: 'signing',
    purpose,
    // NSS (pdfsig) reports "Unknown issue with Certificate" for our end-entity certificates without a CRL distribution point.
    crlUrl: 'http://127.0.0.1:9/api/pki/crl',
  });
  return { key: keys.privateKey, certificate, chain: [ca, root] };
}

beforeAll(async () => {
  const rootKeys = await generateKeyPair();
  const now = Date.now();
  root = await issueCertificate({
    subject: { commonName: 'Raíz de prueba', organization: 'Aporta', country: 'GT' },
    publicKey: rootKeys.publicKey,
    selfKey: rootKeys.privateKey,
    serial: newSerial(),
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 365 * 86_400_000),
    kind: 'root',
  });
  const caKeys = await generateKeyPair();
  ca = await issueCertificate({
    subject: { commonName: 'CA de prueba', organization: 'Aporta', country: 'GT' },
    publicKey: caKeys.publicKey,
    issuer: { der: root, key: rootKeys.privateKey },
    serial: newSerial(),
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 365 * 86_400_000),
    kind: 'ca',
  });
  caKey = caKeys.privateKey;
  if (hasPdfsig) nss = trustedNssDb(root, [ca]);
}, 60_000);

afterAll(() => nss?.close());

/** A small PNG (a blue square with a white cross), built by hand: zlib via node. */
async function tinyPng(): Promise<Uint8Array> {
  const { deflateSync, crc32 } = await import('node:zlib');
  const size = 24;
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    raw[y * (1 + size * 3)] = 0;
    for (let x = 0; x < size; x++) {
      const o = y * (1 + size * 3) + 1 + x * 3;
      const cross = Math.abs(x - y) < 2 || Math.abs(x + y - size) < 2;
      raw[o] = cross ? 255 : 20;
      raw[o + 1] = cross ? 255 : 60;
      raw[o + 2] = cross ? 255 : 160;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** The last page rendered to PNG by pdftoppm, for a person to look at (kept under the OS temp folder). */
function render(pdf: Uint8Array, name: string): string | null {
  try {
    const dir = mkdtempSync(join(tmpdir(), 'aporta-render-'));
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, pdf);
    execFileSync('pdftoppm', ['-png', '-r', '110', '-singlefile', path, join(tmpdir(), name)]);
    rmSync(dir, { recursive: true, force: true });
    return join(tmpdir(), `${name}.png`);
  } catch {
    return null;
  }
}

describe('visible signatures', () => {
  it(`two visible signatures, one after the other: each a widget with a box on the last page; pdfsig reports both valid, the first over its own revision${hasPdfsig ? '' : ` (${pdfsigMissing})`}`, async () => {
    const original = new Uint8Array(await samplePdf('Resolución con firmas visibles'));
    const ana = await identity('Ana Pérez Ñúñez');
    const luis = await identity('Luis García');
    const once = await signPdf(original, signerOf(ana), {
      reason: 'Firmado por Ana',
      fieldName: 'Firma_1',
      appearance: {
        lines: ['Firmado digitalmente por', 'Ana Pérez Ñúñez', 'Jefa de Planillas', '23/11/2026 16:20'],
        image: await tinyPng(),
      },
    });
    const twice = await signPdf(once, signerOf(luis), {
      reason: 'Firmado por Luis',
      fieldName: 'Firma_2',
      appearance: {
        lines: [
          'Firmado digitalmente por',
          'Luis García',
          'Gerente de una unidad con un nombre muy largo que no cabe',
          '23/11/2026 16:25',
        ],
      },
    });
    // Incremental: each file starts with the bytes of the one before.
    expect(Buffer.from(twice.subarray(0, once.length)).equals(Buffer.from(once))).toBe(true);
    expect(Buffer.from(once.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);

    // Each signature's widget has a box of non-zero size on the last page, an appearance stream, and is among the page's annotations.
    const pdf = await PDF.load(twice);
    const page = pdf.getPage(pdf.getPageCount() - 1);
    const registry = pdf.context.registry;
    const resolve = registry.resolve.bind(registry);
    const annots = page?.dict.getArray('Annots', resolve);
    const widgets = (pdf.getForm()?.getSignatureFields() ?? []).map((f) => f.getDict());
    expect(widgets).toHaveLength(2);
    const rects = widgets.map((d) =>
      d
        .getArray('Rect', resolve)
        ?.toArray()
        .map((n) => Number((n as { value: number }).value)),
    );
    for (const [i, d] of widgets.entries()) {
      const [x1, y1, x2, y2] = rects[i] ?? [];
      expect(x2 - x1).toBeGreaterThan(100);
      expect(y2 - y1).toBeGreaterThan(40);
      expect(d.getDict('AP', resolve)?.get('N')).toBeTruthy();
      const ref = registry.getRef(d);
      expect(
        annots?.toArray().some((a) => String(a) === String(ref)),
        `widget ${i + 1} in /Annots`,
      ).toBe(true);
    }
    // Side by side, not on top of each other.
    expect(rects[1]?.[0]).toBeGreaterThanOrEqual(rects[0]?.[2] ?? 0);

    // Our own verification: both intact, the first not "modified after" (only a later signature follows it).
    const reports = await verifyPdfSignatures(twice, { roots: [root], intermediates: [ca] });
    expect(reports.map((r) => [r.intact, r.modifiedAfter, r.chainTrusted])).toEqual([
      [true, false, true],
      [true, false, true],
    ]);
    expect(findSignatures(twice)).toHaveLength(2);

    if (hasPoppler) {
      // The text of the appearance is on the page as a reader extracts it (the widget is rendered).
      const text = pdfPages(Buffer.from(twice)).join('\n');
      expect(text).toContain('Resolución con firmas visibles');
      const png = render(twice, 'aporta-firmas-visibles');
      if (png) {
        console.info(`the signed page rendered by pdftoppm: ${png}`);
        expect(readFileSync(png).length).toBeGreaterThan(1000);
      }
    }
    if (!nss) return;
    const out = nss.pdfsig(twice);
    console.info(`pdfsig of two visible signatures:\n${out}`);
    expect(out.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(out.match(/Certificate Validation: Certificate is Trusted\./g)).toHaveLength(2);
    expect(out.split('Signature #2')[0]).toMatch(/not total document signed/i);
    expect(out.split('Signature #2')[1]).toMatch(/Total document signed/);
    // The first alone, as it was when signed: the whole document.
    expect(nss.pdfsig(once)).toMatch(/Total document signed/);
  });
});

describe('timestamps (PAdES B-T)', () => {
  it(`a signature made with a timestamp server carries its RFC 3161 token over the signature; a server that fails leaves nothing signed${hasPdfsig ? '' : ` (${pdfsigMissing})`}`, async () => {
    const tsaId = await identity('Autoridad de sellado de tiempo de prueba', 'timestamping');
    const tsa = await startTsa({ certificate: tsaId.certificate, key: tsaId.key, chain: tsaId.chain });
    try {
      const original = new Uint8Array(await samplePdf('Acuerdo con sello de tiempo'));
      const ana = await identity('Ana Pérez');
      const before = Date.now();
      const signed = await signPdf(original, signerOf(ana), {
        reason: 'Firmado por Ana',
        timestampUrl: tsa.url,
        appearance: { lines: ['Firmado digitalmente por', 'Ana Pérez'] },
      });
      expect(tsa.served).toBe(1);
      const [report] = await verifyPdfSignatures(signed, { roots: [root], intermediates: [ca] });
      expect(report).toMatchObject({ intact: true, chainTrusted: true, modifiedAfter: false });
      expect(report.timestamp).toMatchObject({ authority: 'Autoridad de sellado de tiempo de prueba', matches: true });
      const stamped = Date.parse(report.timestamp?.time ?? '');
      expect(stamped).toBeGreaterThanOrEqual(before - 1000);
      expect(stamped).toBeLessThanOrEqual(Date.now() + 1000);
      // Without a server: no token.
      const plain = await signPdf(original, signerOf(ana), { reason: 'Sin sello de tiempo' });
      expect((await verifyPdfSignatures(plain, { roots: [root], intermediates: [ca] }))[0].timestamp).toBeNull();

      // The server fails: a clear Spanish error, and nothing is produced (the caller keeps its bytes).
      tsa.down = true;
      await expect(signPdf(original, signerOf(ana), { timestampUrl: tsa.url })).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/servidor de sellado de tiempo no respondió/),
      });
      await expect(signPdf(original, signerOf(ana), { timestampUrl: 'http://127.0.0.1:9/tsr' })).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });

      // A validator that is not ours: OpenSSL's RFC 3161 verifier checks the token (TSA signature, chain
      // to the trusted root, critical timeStamping usage) against the digest of the signature value.
      // pdfsig 22.12 does not read timestamp tokens (it prints only the claimed "Signing Time").
      if (hasOpenssl) {
        const cms = findSignatures(signed)[0].cms;
        const sd = new pkijs.SignedData({
          schema: new pkijs.ContentInfo({ schema: asn1js.fromBER(cms.slice().buffer).result }).content,
        });
        const si = sd.signerInfos[0];
        const token = si.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14')?.values[0];
        expect(token).toBeTruthy();
        const dir = mkdtempSync(join(tmpdir(), 'aporta-ts-'));
        try {
          writeFileSync(join(dir, 'token.der'), Buffer.from(token?.toBER(false) ?? new ArrayBuffer(0)));
          writeFileSync(join(dir, 'chain.pem'), `${toPem(ca, 'CERTIFICATE')}${toPem(root, 'CERTIFICATE')}`);
          const digest = createHash('sha256').update(si.signature.valueBlock.valueHexView).digest('hex');
          const text = execFileSync(
            'openssl',
            ['ts', '-reply', '-token_in', '-in', join(dir, 'token.der'), '-token_out', '-text'],
            {
              encoding: 'utf8',
            },
          );
          console.info(`openssl ts -reply -text of the token:\n${text}`);
          expect(text).toMatch(/Time stamp: /);
          const verified = execFileSync(
            'openssl',
            ['ts', '-verify', '-digest', digest, '-token_in', '-in', join(dir, 'token.der'), '-CAfile', join(dir, 'chain.pem')],
            { encoding: 'utf8' },
          );
          expect(verified).toMatch(/Verification: OK/);
          // The same token does not stamp another digest.
          const other = spawnSync(
            'openssl',
            [
              'ts',
              '-verify',
              '-digest',
              '00'.repeat(32),
              '-token_in',
              '-in',
              join(dir, 'token.der'),
              '-CAfile',
              join(dir, 'chain.pem'),
            ],
            { encoding: 'utf8' },
          );
          expect(`${other.stdout}${other.stderr}`).toMatch(/Verification: FAILED/);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }

      if (!nss) return;
      const out = nss.pdfsig(signed);
      console.info(`pdfsig of a signature with a timestamp:\n${out}`);
      expect(out).toMatch(/Signature Validation: Signature is Valid\./);
      expect(out).toMatch(/Certificate Validation: Certificate is Trusted\./);
      expect(out).toMatch(/Total document signed/);
    } finally {
      await tsa.close();
    }
  });
});
