import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { contentDisposition, PDF_TYPE, sendDownload, verifyUrlFor } from './downloads.ts';

/**
 * The one way a route answers with a file. The report routes (PDF with its verification code, or xlsx)
 * are covered by their modules' tests; here, the headers every download carries.
 */
const app = Fastify();
app.get('/inline', (_req, reply) =>
  sendDownload(reply, {
    body: Buffer.from('%PDF-1.7'),
    contentType: PDF_TYPE,
    filename: 'acta de junio.pdf',
    disposition: 'inline',
    headers: { 'x-document-sha256': 'abc' },
  }),
);
app.get('/stream', (_req, reply) =>
  sendDownload(reply, { body: Readable.from([Buffer.from('a;b\r\n')]), contentType: 'text/csv', filename: 'x.csv', size: 5 }),
);
afterAll(() => app.close());

describe('sendDownload', () => {
  it('names the file, lets a PDF be previewed when asked, never lets it be cached and adds its own headers', async () => {
    const res = await app.inject({ url: '/inline' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="acta de junio.pdf"; filename*=UTF-8''acta%20de%20junio.pdf`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-document-sha256']).toBe('abc');
    expect(res.body).toBe('%PDF-1.7');
  });

  it('saves by default and sends a stored file as a stream with its length', async () => {
    const res = await app.inject({ url: '/stream' });
    expect(res.headers['content-disposition']).toBe(`attachment; filename="x.csv"; filename*=UTF-8''x.csv`);
    expect(res.headers['content-length']).toBe('5');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toBe('a;b\r\n');
  });
});

describe('contentDisposition', () => {
  it('cleans a stored name (controls, bidi overrides, paths, quotes) and gives it whole in filename*', () => {
    expect(contentDisposition('attachment', 'Acta de José.pdf')).toBe(
      `attachment; filename="Acta de Jos_.pdf"; filename*=UTF-8''Acta%20de%20Jos%C3%A9.pdf`,
    );
    const hostile = contentDisposition('attachment', '../..\\x\u0000"; filename="y.exe\r\nSet-Cookie: a=b\u202Efdp.exe');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    expect(hostile).not.toMatch(/[\u0000-\u001f\u202a-\u202e]/);
    expect(hostile).not.toMatch(/\.\.|\/|\\/);
    expect(hostile.match(/filename="/g)).toHaveLength(1);
    expect(hostile.split('; ')).toHaveLength(3);
    expect(contentDisposition('inline', '\u0000')).toBe(`inline; filename="descarga"; filename*=UTF-8''descarga`);
  });
});

describe('verifyUrlFor', () => {
  it('points a printed code (and its QR) at the public verification page of the server that generated it', () => {
    const url = verifyUrlFor({ protocol: 'https', host: 'aporta.example' })('ABCD-EFGH');
    expect(url).toBe('https://aporta.example/verificar?codigo=ABCD-EFGH');
    // The web page, not the raw JSON route machines use.
    expect(url).not.toContain('/api/');
  });
});
