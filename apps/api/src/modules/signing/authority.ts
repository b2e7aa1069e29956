import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { pkiAuthorities, signingCertificates, signingSettings } from '../../db/schema/index.ts';
import { type SigningIdentity, signerFromP12, signerOf } from '../../platform/pades.ts';
import {
  createCrl,
  exportPkcs8,
  generateKeyPair,
  importPkcs8,
  issueCertificate,
  newSerial,
  summarizeCertificate,
} from '../../platform/pki.ts';

/**
 * The institution's certification authority: created on first start (root, issuing CA and the seal),
 * keys encrypted at rest with the master key, and the CRL it publishes.
 */

const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
export const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/** The 32-byte key that encrypts the authority's keys: from SIGNING_MASTER_KEY, else DATA_DIR/signing-master.key (generated once). */
export function masterKey(config: Pick<Config, 'dataDir' | 'SIGNING_MASTER_KEY'>): Buffer {
  if (config.SIGNING_MASTER_KEY) return createHash('sha256').update(config.SIGNING_MASTER_KEY).digest();
  const path = join(config.dataDir, 'signing-master.key');
  if (!existsSync(path)) {
    // Two processes sharing DATA_DIR may start together: each writes a whole key to a file of its own and
    // links it into place; link() fails if the file is there already, so the first key stays and every
    // process reads that one (never a half-written file, never a second key).
    mkdirSync(config.dataDir, { recursive: true });
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(tmp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  return createHash('sha256').update(readFileSync(path, 'utf8').trim()).digest();
}

/** AES-256-GCM under the master key: iv.tag.ciphertext, base64. */
export function seal(master: Buffer, data: Uint8Array): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', master, iv);
  const body = Buffer.concat([c.update(data), c.final()]);
  return [iv, c.getAuthTag(), body].map((b) => b.toString('base64')).join('.');
}

export function unseal(master: Buffer, boxed: string): Uint8Array {
  const [iv, tag, body] = boxed.split('.').map((s) => Buffer.from(s, 'base64'));
  const d = createDecipheriv('aes-256-gcm', master, iv);
  d.setAuthTag(tag);
  return new Uint8Array(Buffer.concat([d.update(body), d.final()]));
}

const YEAR = 365 * 24 * 3600 * 1000;
/** The advisory lock under which the authority is created once (any fixed number: "APORTA" in ASCII). */
const AUTHORITY_LOCK = 71_815_111_615_041;
const ORG = 'Aporta';

export function crlUrl(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  const base = config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`;
  return `${base.replace(/\/+$/, '')}/api/pki/crl`;
}

async function authorityRow(db: Db, kind: 'ROOT' | 'CA' | 'SEAL') {
  const [row] = await db
    .select()
    .from(pkiAuthorities)
    .where(and(eq(pkiAuthorities.kind, kind), eq(pkiAuthorities.isActive, true)))
    .orderBy(asc(pkiAuthorities.id))
    .limit(1);
  return row ?? null;
}

/** Creates the root, the issuing CA and the seal when they do not exist yet (first start). Idempotent. */
export async function ensureAuthority(db: Db, config: Config, institution = 'Aporta'): Promise<void> {
  if (await authorityRow(db, 'CA')) return;
  const master = masterKey(config);
  const now = Date.now();
  const notBefore = new Date(now - 3600_000);
  const rootKeys = await generateKeyPair();
  const rootSerial = newSerial();
  const root = await issueCertificate({
    subject: { commonName: `${institution} - Autoridad Raíz`, organization: ORG, country: 'GT' },
    publicKey: rootKeys.publicKey,
    selfKey: rootKeys.privateKey,
    serial: rootSerial,
    notBefore,
    notAfter: new Date(now + 20 * YEAR),
    kind: 'root',
  });
  const caKeys = await generateKeyPair();
  const caSerial = newSerial();
  const ca = await issueCertificate({
    subject: { commonName: `${institution} - Autoridad Emisora`, organization: ORG, country: 'GT' },
    publicKey: caKeys.publicKey,
    issuer: { der: root, key: rootKeys.privateKey },
    serial: caSerial,
    notBefore,
    notAfter: new Date(now + 10 * YEAR),
    kind: 'ca',
  });
  const sealKeys = await generateKeyPair();
  const sealSerial = newSerial();
  const sealCert = await issueCertificate({
    subject: { commonName: `${institution} - Sello institucional`, organization: ORG, country: 'GT' },
    publicKey: sealKeys.publicKey,
    issuer: { der: ca, key: caKeys.privateKey },
    serial: sealSerial,
    notBefore,
    notAfter: new Date(now + 5 * YEAR),
    kind: 'signing',
    crlUrl: crlUrl(config),
  });
  const row = async (kind: 'ROOT' | 'CA' | 'SEAL', der: Uint8Array, key: CryptoKey, serial: string, chain: Uint8Array[]) => {
    const s = summarizeCertificate(der);
    return {
      kind,
      certificate: b64(der),
      chain: chain.map(b64),
      encryptedKey: seal(master, new TextEncoder().encode(JSON.stringify({ pkcs8: b64(await exportPkcs8(key)) }))),
      serial,
      subject: s.subject,
      notAfter: s.notAfter,
    };
  };
  await db.transaction(async (tx) => {
    // Another process may be creating it at this moment (two API processes starting together on one
    // PostgreSQL): a lock held until commit makes the second wait, then see the first one's rows.
    await tx.execute(sql`select pg_advisory_xact_lock(${AUTHORITY_LOCK}::bigint)`);
    const [exists] = await tx
      .select({ id: pkiAuthorities.id })
      .from(pkiAuthorities)
      .where(eq(pkiAuthorities.kind, 'CA'))
      .limit(1);
    if (exists) return;
    await tx
      .insert(pkiAuthorities)
      .values([
        await row('ROOT', root, rootKeys.privateKey, rootSerial, []),
        await row('CA', ca, caKeys.privateKey, caSerial, [root]),
        await row('SEAL', sealCert, sealKeys.privateKey, sealSerial, [ca, root]),
      ]);
    await tx.insert(signingSettings).values({ id: 1 }).onConflictDoNothing();
  });
  await publishCrl(db, config);
}

export interface CaMaterial {
  root: Uint8Array;
  ca: Uint8Array;
  caKey: CryptoKey;
}

async function keyOf(master: Buffer, encryptedKey: string): Promise<CryptoKey> {
  const { pkcs8 } = JSON.parse(new TextDecoder().decode(unseal(master, encryptedKey))) as { pkcs8: string };
  return importPkcs8(unb64(pkcs8));
}

export async function caMaterial(db: Db, config: Config): Promise<CaMaterial> {
  await ensureAuthority(db, config);
  const root = await authorityRow(db, 'ROOT');
  const ca = await authorityRow(db, 'CA');
  if (!root || !ca) throw new Error('certification authority missing');
  return { root: unb64(root.certificate), ca: unb64(ca.certificate), caKey: await keyOf(masterKey(config), ca.encryptedKey) };
}

/** The trust anchors and intermediates the verification page uses. */
export async function trustMaterial(db: Db, config: Config): Promise<{ roots: Uint8Array[]; intermediates: Uint8Array[] }> {
  await ensureAuthority(db, config);
  const rows = await db.select().from(pkiAuthorities).where(eq(pkiAuthorities.isActive, true));
  return {
    roots: rows.filter((r) => r.kind === 'ROOT').map((r) => unb64(r.certificate)),
    intermediates: rows.filter((r) => r.kind === 'CA').map((r) => unb64(r.certificate)),
  };
}

/** The seal's signer: the CA-issued one, or the uploaded PKCS#12 when there is one. */
export async function sealSigner(db: Db, config: Config) {
  await ensureAuthority(db, config);
  const row = await authorityRow(db, 'SEAL');
  if (!row) throw new Error('seal missing');
  const master = masterKey(config);
  const secret = JSON.parse(new TextDecoder().decode(unseal(master, row.encryptedKey))) as {
    pkcs8?: string;
    p12?: string;
    password?: string;
  };
  if (secret.p12) {
    const signer = await signerFromP12(unb64(secret.p12), secret.password ?? '');
    if (!signer) throw new Error('stored seal PKCS#12 does not open');
    return signer;
  }
  const identity: SigningIdentity = {
    key: await importPkcs8(unb64(secret.pkcs8 ?? '')),
    certificate: unb64(row.certificate),
    chain: row.chain.map(unb64),
  };
  return signerOf(identity);
}

/** The name the seal signs with (its certificate's common name), printed in its visible signature. */
export async function sealName(db: Db, config: Config): Promise<string> {
  await ensureAuthority(db, config);
  const row = await authorityRow(db, 'SEAL');
  return row ? summarizeCertificate(unb64(row.certificate)).commonName : 'Sello institucional';
}

/** Replaces the seal with an uploaded PKCS#12 (kept encrypted with the master key). */
export async function replaceSeal(
  db: Db,
  config: Config,
  p12: Uint8Array,
  password: string,
): Promise<{ subject: string } | null> {
  const signer = await signerFromP12(p12, password);
  if (!signer) return null;
  const s = summarizeCertificate(signer.certificate);
  const master = masterKey(config);
  await db.transaction(async (tx) => {
    await tx.update(pkiAuthorities).set({ isActive: false }).where(eq(pkiAuthorities.kind, 'SEAL'));
    await tx.insert(pkiAuthorities).values({
      kind: 'SEAL',
      certificate: b64(signer.certificate),
      chain: (signer.certificateChain ?? []).map(b64),
      encryptedKey: seal(master, new TextEncoder().encode(JSON.stringify({ p12: b64(p12), password }))),
      serial: s.serial,
      subject: s.subject,
      notAfter: s.notAfter,
    });
  });
  return { subject: s.subject };
}

/** Re-issues the CRL with every revoked personal certificate and stores it (GET /api/pki/crl serves it). */
export async function publishCrl(db: Db, config: Config): Promise<Uint8Array> {
  const { ca, caKey } = await caMaterial(db, config);
  const revoked = await db
    .select({ serial: signingCertificates.serial, revokedAt: signingCertificates.revokedAt })
    .from(signingCertificates)
    .where(isNotNull(signingCertificates.revokedAt));
  const [settings] = await db.select({ n: signingSettings.crlNumber }).from(signingSettings).where(eq(signingSettings.id, 1));
  const number = (settings?.n ?? 0) + 1;
  const now = Date.now();
  const der = await createCrl({
    issuerDer: ca,
    issuerKey: caKey,
    entries: revoked.map((r) => ({ serial: r.serial, revokedAt: r.revokedAt as Date })),
    thisUpdate: new Date(now - 60_000),
    nextUpdate: new Date(now + 7 * 24 * 3600_000),
    number,
  });
  await db
    .insert(signingSettings)
    .values({ id: 1, crl: b64(der), crlNumber: number })
    .onConflictDoUpdate({ target: signingSettings.id, set: { crl: b64(der), crlNumber: number, updatedAt: new Date() } });
  return der;
}

export async function currentCrl(db: Db, config: Config): Promise<Uint8Array> {
  await ensureAuthority(db, config);
  const [row] = await db.select({ crl: signingSettings.crl }).from(signingSettings).where(eq(signingSettings.id, 1));
  return row?.crl ? unb64(row.crl) : publishCrl(db, config);
}

export async function authorities(db: Db, config: Config) {
  await ensureAuthority(db, config);
  const rows = await db.select().from(pkiAuthorities).where(eq(pkiAuthorities.isActive, true)).orderBy(asc(pkiAuthorities.id));
  return rows.map((r) => ({
    kind: r.kind,
    subject: r.subject,
    serial: r.serial,
    notAfter: r.notAfter.toISOString(),
    fingerprint: summarizeCertificate(unb64(r.certificate)).fingerprint,
  }));
}
