import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { pkiAuthorities } from '../../db/schema/index.ts';
import { signPdf } from '../../platform/pades.ts';
import { cloneDatabase, createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { multipartBody, samplePdf } from '../../test/pdfs.ts';
import { hasPdfsig, pdfsigMissing, trustedNssDb } from '../../test/pdfsig.ts';
import { caMaterial, ensureAuthority, sealSigner } from './authority.ts';

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the authority at first start', () => {
  it('two starts at once (separate connections, one data folder) create one root, one CA, one seal and one master key', async () => {
    const { database, drop } = await cloneDatabase();
    try {
      const dataDir = tempDir('aporta-authority-');
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
      // On PostgreSQL the pool gives each call its own connection: the two transactions really overlap
      // (each spends a while generating keys before it writes).
      await Promise.all([ensureAuthority(database.db, config), ensureAuthority(database.db, config)]);
      await ensureAuthority(database.db, config);
      const rows = await database.db.select({ kind: pkiAuthorities.kind }).from(pkiAuthorities);
      expect(rows.map((r) => r.kind).sort()).toEqual(['CA', 'ROOT', 'SEAL']);
      // One key file, nothing left behind, and it opens the stored keys.
      expect(readdirSync(dataDir)).toEqual(['signing-master.key']);
      const material = await caMaterial(database.db, config);
      expect(material.caKey.type).toBe('private');
      expect(await sealSigner(database.db, config)).toBeTruthy();
    } finally {
      await drop();
    }
  }, 120_000);
});

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** An external authority (not ours) and a seal certificate it issued, as PEM files and a PKCS#12. */
function externalSeal(password: string) {
  const dir = tempDir('aporta-p12-');
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '30',
    '-subj',
    '/CN=Autoridad Externa de Prueba/O=Externa/C=GT',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  // Like any real issuer's, the certificate names where its CRL is: pdfsig reports a signing certificate
  // without any revocation source as "Unknown issue", never as trusted.
  writeFileSync(
    join(dir, 'seal.ext'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=emailProtection\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\ncrlDistributionPoints=URI:http://127.0.0.1:9/externa.crl\n',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'seal.key',
    '-out',
    'seal.csr',
    '-subj',
    '/CN=Sello Externo de Prueba/O=Aporta/C=GT',
  );
  run(
    'x509',
    '-req',
    '-in',
    'seal.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'seal.pem',
    '-days',
    '30',
    '-extfile',
    'seal.ext',
  );
  run(
    'pkcs12',
    '-export',
    '-inkey',
    'seal.key',
    '-in',
    'seal.pem',
    '-certfile',
    'ca.pem',
    '-out',
    'seal.p12',
    '-passout',
    `pass:${password}`,
  );
  const pemDer = (file: string) =>
    new Uint8Array(Buffer.from(readFileSync(join(dir, file), 'utf8').replace(/-----[^-]+-----|\s/g, ''), 'base64'));
  return { p12: new Uint8Array(readFileSync(join(dir, 'seal.p12'))), root: pemDer('ca.pem') };
}

describe.runIf(hasOpenssl)('an external PKCS#12 as the institution seal', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser({ system: true });
  }, 60_000);
  afterAll(() => t?.close());

  const uploadSeal = (file: Uint8Array, password: string, token = admin.token) => {
    const body = multipartBody({ password }, { name: 'sello.p12', bytes: file, type: 'application/x-pkcs12' });
    return t.request({ method: 'POST', url: '/api/signing/seal', token, payload: body.payload, headers: body.headers });
  };

  it('replaces the seal, is kept encrypted, and seals PDFs that a validator trusting that authority accepts', async () => {
    const password = 'clave-del-sello-1';
    const ext = externalSeal(password);

    // A wrong password is refused naming the field; the CA-issued seal stays.
    const wrong = await uploadSeal(ext.p12, 'otra-clave');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details).toEqual([expect.objectContaining({ path: 'password' })]);
    const [before] = await t.app.db.select().from(pkiAuthorities).where(eq(pkiAuthorities.kind, 'SEAL'));
    expect(before.subject).toMatch(/Sello institucional/);
    // Who may not administer signing may not replace it.
    const clerk = await t.createUser({ grants: [{ resource: 'signature-admin', action: 'READ', scope: 'ALL' }] });
    expect((await uploadSeal(ext.p12, password, clerk.token)).statusCode).toBe(403);

    const done = await uploadSeal(ext.p12, password);
    expect(done.statusCode).toBe(200);
    expect(JSON.stringify(done.json().authorities)).toMatch(/Sello Externo de Prueba/);
    // Stored encrypted under the master key: neither the password nor the PKCS#12 bytes are in the row.
    const seals = await t.app.db.select().from(pkiAuthorities).where(eq(pkiAuthorities.kind, 'SEAL')).orderBy(pkiAuthorities.id);
    // The CA-issued seal is kept (inactive) for what it sealed before; the uploaded one is the active one.
    expect(seals.map((r) => [r.isActive, /Externo/.test(r.subject)])).toEqual([
      [false, false],
      [true, true],
    ]);
    const row = seals[1];
    expect(row.encryptedKey).not.toContain(password);
    expect(row.encryptedKey).not.toContain(Buffer.from(ext.p12).toString('base64').slice(0, 40));

    // What automatic sealing uses is now the uploaded identity.
    const signer = await sealSigner(t.app.db, t.app.config);
    const sealed = await signPdf(await samplePdf('Recibo sellado con el sello externo'), signer, { reason: 'Sello' });
    if (!hasPdfsig) return console.warn(pdfsigMissing);
    const nss = trustedNssDb(ext.root);
    try {
      const out = nss.pdfsig(sealed);
      expect(out).toContain('Signer Certificate Common Name: Sello Externo de Prueba');
      expect(out).toContain('Signature Validation: Signature is Valid.');
      expect(out).toContain('Certificate Validation: Certificate is Trusted.');
    } finally {
      nss.close();
    }
  }, 120_000);
});
