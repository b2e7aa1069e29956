import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { parseCertificate } from '../platform/pki.ts';

/**
 * A minimal RFC 3161 time-stamping authority for tests: answers a TimeStampReq over HTTP with a
 * TimeStampResp whose token is a CMS SignedData over a TSTInfo (the request's message imprint and
 * nonce, the current time), signed with a test TSA certificate (extended key usage timeStamping) and
 * carrying the ESS signing-certificate-v2 attribute, built with pkijs like the rest of our CMS.
 */

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  policy: '1.3.6.1.4.1.99999.3161.1',
} as const;

const ab = (u: Uint8Array) => u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;

export async function timestampResponse(
  reqDer: Uint8Array,
  tsa: { certificate: Uint8Array; key: CryptoKey; chain: Uint8Array[] },
  serial: number,
  now = new Date(),
): Promise<Uint8Array> {
  const req = pkijs.TimeStampReq.fromBER(ab(reqDer));
  const tst = new pkijs.TSTInfo({
    version: 1,
    policy: OID.policy,
    messageImprint: req.messageImprint,
    serialNumber: new asn1js.Integer({ value: serial }),
    genTime: now,
    ...(req.nonce ? { nonce: req.nonce } : {}),
  });
  const tstDer = new Uint8Array(tst.toSchema().toBER(false));
  const cert = parseCertificate(tsa.certificate);
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.OctetString({ valueHex: ab(createHash('sha256').update(tsa.certificate).digest()) })],
      }),
    ],
  });
  const signingCertificateV2 = new asn1js.Sequence({ value: [essCertIdV2] });
  const signedData = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID.tstInfo,
      eContent: new asn1js.OctetString({ valueHex: ab(tstDer) }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })] }),
            new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: now })] }),
            new pkijs.Attribute({
              type: OID.messageDigest,
              values: [new asn1js.OctetString({ valueHex: ab(createHash('sha256').update(tstDer).digest()) })],
            }),
            new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2] }),
          ],
        }),
      }),
    ],
    certificates: [cert, ...tsa.chain.map(parseCertificate)],
  });
  await signedData.sign(tsa.key, 0, 'SHA-256');
  const token = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  const resp = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: token,
  });
  return new Uint8Array(resp.toSchema().toBER(false));
}

export interface TestTsa {
  url: string;
  /** Requests answered so far. */
  served: number;
  close(): Promise<void>;
}

/** Starts the authority on 127.0.0.1 (a free port); `down` makes it answer 503 (a server that fails). */
export async function startTsa(tsa: {
  certificate: Uint8Array;
  key: CryptoKey;
  chain: Uint8Array[];
}): Promise<TestTsa & { down: boolean }> {
  const state = { served: 0, down: false };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      if (state.down || request.method !== 'POST' || request.headers['content-type'] !== 'application/timestamp-query') {
        response.writeHead(state.down ? 503 : 400).end();
        return;
      }
      state.served += 1;
      timestampResponse(new Uint8Array(Buffer.concat(chunks)), tsa, state.served).then(
        (der) => response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.from(der)),
        () => response.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsr`,
    get served() {
      return state.served;
    },
    get down() {
      return state.down;
    },
    set down(v: boolean) {
      state.down = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
