import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toPem } from '../platform/pki.ts';

/**
 * Checks signed PDFs with a validator that is not ours: Debian's `pdfsig` (poppler-utils), against a
 * temporary NSS database where only the institution's root is trusted (certutil/crlutil from
 * libnss3-tools), optionally with the published CRL imported.
 */
const has = (cmd: string, arg: string) => {
  try {
    execFileSync(cmd, [arg], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // certutil -H exits 1 but exists.
    return (err as { code?: string }).code !== 'ENOENT';
  }
};
export const hasPdfsig = has('pdfsig', '-v') && has('certutil', '-H') && has('crlutil', '-H');
export const pdfsigMissing =
  'pdfsig o certutil no están instalados (apt-get install -y poppler-utils libnss3-tools): se omite la validación externa';

export interface NssDb {
  dir: string;
  importCrl(der: Uint8Array): void;
  pdfsig(pdf: Uint8Array): string;
  close(): void;
}

export function trustedNssDb(root: Uint8Array, intermediates: Uint8Array[] = []): NssDb {
  const dir = mkdtempSync(join(tmpdir(), 'aporta-nss-'));
  const db = `sql:${dir}`;
  execFileSync('certutil', ['-N', '-d', db, '--empty-password']);
  writeFileSync(join(dir, 'root.pem'), toPem(root, 'CERTIFICATE'));
  execFileSync('certutil', ['-A', '-d', db, '-n', 'aporta-raiz', '-t', 'CT,C,C', '-i', join(dir, 'root.pem')]);
  intermediates.forEach((c, i) => {
    writeFileSync(join(dir, `ca${i}.pem`), toPem(c, 'CERTIFICATE'));
    execFileSync('certutil', ['-A', '-d', db, '-n', `aporta-ca-${i}`, '-t', ',,', '-i', join(dir, `ca${i}.pem`)]);
  });
  return {
    dir,
    importCrl(der) {
      writeFileSync(join(dir, 'ca.crl'), der);
      execFileSync('crlutil', ['-I', '-d', db, '-i', join(dir, 'ca.crl'), '-B']);
    },
    pdfsig(pdf) {
      const path = join(dir, `doc-${Date.now()}.pdf`);
      writeFileSync(path, pdf);
      // -no-ocsp: no network; revocation comes from the CRL imported into the database.
      const r = spawnSync('pdfsig', ['-nssdir', db, '-no-ocsp', path], { encoding: 'utf8' });
      rmSync(path, { force: true });
      return `${r.stdout}${r.stderr}`;
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
