import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Reads generated PDFs from outside, with poppler-utils (pdftotext, pdfinfo): what a reader's tools
 * see, not what our code meant to write. Tests that need it skip, saying why, when it is missing.
 */
export const hasPoppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export const popplerMissing =
  'poppler-utils no está instalado (apt-get install -y poppler-utils): se omite la lectura externa del PDF';

function withFile<T>(pdf: Buffer, f: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'aporta-pdf-'));
  try {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, pdf);
    return f(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each page, in reading order (pdftotext -layout; pages split at form feeds). */
export const pdfPages = (pdf: Buffer): string[] =>
  withFile(pdf, (path) => execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }))
    .split('\f')
    .filter((p) => p.trim() !== '');

/** pdfinfo's fields (Title, Pages, Page size…). */
export const pdfInfo = (pdf: Buffer): Record<string, string> =>
  Object.fromEntries(
    withFile(pdf, (path) => execFileSync('pdfinfo', ['-enc', 'UTF-8', path], { encoding: 'utf8' }))
      .split('\n')
      .map((l) => /^([^:]+):\s*(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => [m[1], m[2].trim()]),
  );
