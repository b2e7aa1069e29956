import { createHash, createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * X.509 for Aporta's own certification authority: key pairs, certificates (root, issuing CA, personal
 * signing, seal), CRLs, and private keys encrypted at rest (PKCS#8 with a passphrase). Built on pkijs
 * over Node's WebCrypto; nothing here knows about the database.
 */

const crypto = webcrypto as unknown as Crypto;
pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto }));

export const RSA_ALGORITHM = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
} as const;

const OID = {
  commonName: '2.5.4.3',
  country: '2.5.4.6',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  title: '2.5.4.12',
  serialNumber: '2.5.4.5',
  email: '1.2.840.113549.1.9.1',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  crlNumber: '2.5.29.20',
  crlDistributionPoints: '2.5.29.31',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  documentSigning: '1.3.6.1.4.1.311.10.3.12',
} as const;

export interface NameParts {
  commonName: string;
  organization?: string;
  organizationalUnit?: string;
  title?: string;
  serialNumber?: string;
  email?: string;
  country?: string;
}

export type CertificateKind = 'root' | 'ca' | 'signing';

export async function generateKeyPair(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(RSA_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

export async function exportPkcs8(key: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.exportKey('pkcs8', key));
}

export async function importPkcs8(der: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', toArrayBuffer(der), { name: RSA_ALGORITHM.name, hash: RSA_ALGORITHM.hash }, false, [
    'sign',
  ]);
}

export class WrongPassphraseError extends Error {
  constructor() {
    super('wrong passphrase');
    this.name = 'WrongPassphraseError';
  }
}

/** A private key as PEM "ENCRYPTED PRIVATE KEY" (PKCS#8, PBES2 with AES-256-CBC): what is stored, never the key itself. */
export function encryptPrivateKey(pkcs8: Uint8Array, passphrase: string): string {
  const key = createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
  return key.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase }) as string;
}

/** The key behind an encrypted PEM; `WrongPassphraseError` when the passphrase does not open it. */
export async function decryptPrivateKey(pem: string, passphrase: string): Promise<CryptoKey> {
  let der: Buffer;
  try {
    der = createPrivateKey({ key: pem, format: 'pem', passphrase }).export({ format: 'der', type: 'pkcs8' }) as Buffer;
  } catch {
    throw new WrongPassphraseError();
  }
  return importPkcs8(new Uint8Array(der));
}

/** A positive serial number of 16 random bytes, as lowercase hex (how certificates and CRL entries name it). */
export function newSerial(): string {
  const b = randomBytes(16);
  b[0] = (b[0] & 0x7f) | 0x10;
  return b.toString('hex');
}

function hexToBuffer(hex: string): ArrayBuffer {
  const b = Buffer.from(hex, 'hex');
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

function toArrayBuffer(u: Uint8Array): ArrayBuffer {
  return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
}

/** A name with one attribute per RDN (pkijs would put them all in one multi-valued RDN). */
function buildName(name: NameParts): pkijs.RelativeDistinguishedNames {
  const rdns: asn1js.Set[] = [];
  const add = (type: string, value: string | undefined, printable = false) => {
    if (!value) return;
    const tv = new pkijs.AttributeTypeAndValue({
      type,
      value: printable ? new asn1js.PrintableString({ value }) : new asn1js.Utf8String({ value }),
    });
    rdns.push(new asn1js.Set({ value: [tv.toSchema()] }));
  };
  add(OID.country, name.country, true);
  add(OID.organization, name.organization);
  add(OID.organizationalUnit, name.organizationalUnit);
  add(OID.title, name.title);
  add(OID.serialNumber, name.serialNumber, true);
  add(OID.commonName, name.commonName);
  if (name.email) {
    const tv = new pkijs.AttributeTypeAndValue({ type: OID.email, value: new asn1js.IA5String({ value: name.email }) });
    rdns.push(new asn1js.Set({ value: [tv.toSchema()] }));
  }
  return pkijs.RelativeDistinguishedNames.fromBER(new asn1js.Sequence({ value: rdns }).toBER(false));
}

const time = (d: Date) => new pkijs.Time({ type: d.getUTCFullYear() >= 2050 ? 1 : 0, value: d });

async function keyIdentifier(publicKey: CryptoKey): Promise<ArrayBuffer> {
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', publicKey));
  const info = pkijs.PublicKeyInfo.fromBER(toArrayBuffer(spki));
  return crypto.subtle.digest('SHA-1', toArrayBuffer(info.subjectPublicKey.valueBlock.valueHexView));
}

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(toArrayBuffer(der));
}

export interface IssueOptions {
  subject: NameParts;
  publicKey: CryptoKey;
  /** The issuer's certificate and key; omitted for a self-signed root (signed with `selfKey`). */
  issuer?: { der: Uint8Array; key: CryptoKey };
  selfKey?: CryptoKey;
  serial: string;
  notBefore: Date;
  notAfter: Date;
  kind: CertificateKind;
  /** Where the issuer publishes its CRL (CRL distribution point). */
  crlUrl?: string;
  /** A signing certificate's use: documents (default) or a time-stamping authority's tokens (RFC 3161, critical). */
  purpose?: 'documents' | 'timestamping';
}

/** Issues a certificate (DER). Root and CA certificates may sign certificates and CRLs; a signing certificate signs documents. */
export async function issueCertificate(opts: IssueOptions): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ valueHex: hexToBuffer(opts.serial) });
  cert.subject = buildName(opts.subject);
  let signingKey: CryptoKey;
  let issuerKeyId: ArrayBuffer;
  if (opts.issuer) {
    const issuer = parseCertificate(opts.issuer.der);
    cert.issuer = issuer.subject;
    signingKey = opts.issuer.key;
    issuerKeyId = await crypto.subtle.digest(
      'SHA-1',
      toArrayBuffer(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
    );
  } else {
    if (!opts.selfKey) throw new Error('a self-signed certificate needs its own private key');
    cert.issuer = buildName(opts.subject);
    signingKey = opts.selfKey;
    issuerKeyId = await keyIdentifier(opts.publicKey);
  }
  cert.notBefore = time(opts.notBefore);
  cert.notAfter = time(opts.notAfter);
  await cert.subjectPublicKeyInfo.importKey(opts.publicKey, pkijs.getCrypto(true));

  const isCa = opts.kind !== 'signing';
  const extensions: pkijs.Extension[] = [];
  const basic = new pkijs.BasicConstraints(isCa ? { cA: true, ...(opts.kind === 'ca' ? { pathLenConstraint: 0 } : {}) } : {});
  extensions.push(
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: basic.toSchema().toBER(false),
      parsedValue: basic,
    }),
  );
  // keyUsage bits: digitalSignature(0) nonRepudiation(1) keyCertSign(5) cRLSign(6)
  const usage = isCa ? 0x06 : 0xc0;
  const bits = new asn1js.BitString({ valueHex: new Uint8Array([usage]).buffer, unusedBits: isCa ? 1 : 6 });
  extensions.push(new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: bits.toBER(false) }));
  const ski = new asn1js.OctetString({ valueHex: await keyIdentifier(opts.publicKey) });
  extensions.push(new pkijs.Extension({ extnID: OID.subjectKeyIdentifier, extnValue: ski.toBER(false) }));
  const aki = new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: issuerKeyId }) });
  extensions.push(new pkijs.Extension({ extnID: OID.authorityKeyIdentifier, extnValue: aki.toSchema().toBER(false) }));
  if (!isCa) {
    const tsa = opts.purpose === 'timestamping';
    const eku = new pkijs.ExtKeyUsage({ keyPurposes: tsa ? [OID.timeStamping] : [OID.emailProtection, OID.documentSigning] });
    extensions.push(new pkijs.Extension({ extnID: OID.extKeyUsage, critical: tsa, extnValue: eku.toSchema().toBER(false) }));
  }
  if (opts.crlUrl) {
    const points = new pkijs.CRLDistributionPoints({
      distributionPoints: [
        new pkijs.DistributionPoint({ distributionPoint: [new pkijs.GeneralName({ type: 6, value: opts.crlUrl })] }),
      ],
    });
    extensions.push(new pkijs.Extension({ extnID: OID.crlDistributionPoints, extnValue: points.toSchema().toBER(false) }));
  }
  cert.extensions = extensions;
  await cert.sign(signingKey, 'SHA-256');
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

export interface CrlEntry {
  serial: string;
  revokedAt: Date;
}

/** A CRL (DER) signed by the issuer, listing revoked serials. */
export async function createCrl(opts: {
  issuerDer: Uint8Array;
  issuerKey: CryptoKey;
  entries: CrlEntry[];
  thisUpdate: Date;
  nextUpdate: Date;
  number: number;
}): Promise<Uint8Array> {
  const issuer = parseCertificate(opts.issuerDer);
  const crl = new pkijs.CertificateRevocationList();
  crl.version = 1;
  crl.issuer = issuer.subject;
  crl.thisUpdate = time(opts.thisUpdate);
  crl.nextUpdate = time(opts.nextUpdate);
  if (opts.entries.length > 0) {
    crl.revokedCertificates = opts.entries.map(
      (e) =>
        new pkijs.RevokedCertificate({
          userCertificate: new asn1js.Integer({ valueHex: hexToBuffer(e.serial) }),
          revocationDate: time(e.revokedAt),
        }),
    );
  }
  const issuerKeyId = await crypto.subtle.digest(
    'SHA-1',
    toArrayBuffer(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
  );
  const aki = new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: issuerKeyId }) });
  crl.crlExtensions = new pkijs.Extensions({
    extensions: [
      new pkijs.Extension({ extnID: OID.authorityKeyIdentifier, extnValue: aki.toSchema().toBER(false) }),
      new pkijs.Extension({ extnID: OID.crlNumber, extnValue: new asn1js.Integer({ value: opts.number }).toBER(false) }),
    ],
  });
  await crl.sign(opts.issuerKey, 'SHA-256');
  return new Uint8Array(crl.toSchema(true).toBER(false));
}

const NAME_LABELS: Record<string, string> = {
  [OID.commonName]: 'CN',
  [OID.organization]: 'O',
  [OID.organizationalUnit]: 'OU',
  [OID.title]: 'T',
  [OID.country]: 'C',
  [OID.serialNumber]: 'SN',
  [OID.email]: 'E',
};

export function nameToString(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((tv) => `${NAME_LABELS[tv.type] ?? tv.type}=${(tv.value.valueBlock as { value?: string }).value ?? ''}`)
    .reverse()
    .join(', ');
}

export function commonNameOf(name: pkijs.RelativeDistinguishedNames): string {
  const cn = name.typesAndValues.find((tv) => tv.type === OID.commonName);
  return (cn?.value.valueBlock as { value?: string } | undefined)?.value ?? nameToString(name);
}

export interface CertificateSummary {
  subject: string;
  commonName: string;
  issuer: string;
  serial: string;
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 of the DER, hex. */
  fingerprint: string;
}

export function summarizeCertificate(der: Uint8Array): CertificateSummary {
  const c = parseCertificate(der);
  return {
    subject: nameToString(c.subject),
    commonName: commonNameOf(c.subject),
    issuer: nameToString(c.issuer),
    serial: Buffer.from(c.serialNumber.valueBlock.valueHexView)
      .toString('hex')
      .replace(/^00(?=[89a-f])/, ''),
    notBefore: c.notBefore.value,
    notAfter: c.notAfter.value,
    fingerprint: createHash('sha256').update(der).digest('hex'),
  };
}

export const toPem = (der: Uint8Array, label: 'CERTIFICATE' | 'X509 CRL') =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
