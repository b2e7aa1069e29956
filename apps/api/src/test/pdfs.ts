import { pdfmake } from '../platform/pdf.ts';

/** A small one-page PDF (a receipt) for tests and benches. */
export async function samplePdf(text = 'Recibo de prueba'): Promise<Buffer> {
  return pdfmake()
    .createPdf({ content: [{ text, fontSize: 14 }, 'Monto: Q 1,234.56', 'Aporta'] })
    .getBuffer();
}

/** A multipart body with one file and text fields, for app.inject. */
export function multipartBody(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array; type?: string }) {
  const boundary = `----aporta${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/pdf'}\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
