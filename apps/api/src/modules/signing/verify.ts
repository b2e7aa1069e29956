import type { VerificationReport } from '@aporta/domain';
import { inArray } from 'drizzle-orm';
import { signingCertificates } from '../../db/schema/index.ts';
import { sha256Hex } from '../../platform/blobs.ts';
import type { RequestContext } from '../../platform/context.ts';
import { badPdfError, inspectPdf, verifyPdfSignatures } from '../../platform/pades.ts';
import { checkUpload } from '../../platform/uploads.ts';
import type { SigningDeps } from './deps.ts';

/** Verification of an uploaded PDF's signatures: signer, chain, time, later changes, revocation. */

export async function verifyUpload(
  ctx: RequestContext,
  deps: SigningDeps,
  file: { bytes: Uint8Array; filename: string },
): Promise<VerificationReport> {
  checkUpload(file.bytes, file.filename, ['application/pdf']);
  await inspectPdf(file.bytes).catch((e) => badPdfError(e, file.filename));
  const trust = await (await import('./authority.ts')).trustMaterial(ctx.db, deps.config);
  const reports = await verifyPdfSignatures(file.bytes, trust);
  const serials = reports.map((r) => r.serial).filter(Boolean);
  const revoked = serials.length
    ? await ctx.db
        .select({ serial: signingCertificates.serial, at: signingCertificates.revokedAt })
        .from(signingCertificates)
        .where(inArray(signingCertificates.serial, serials))
    : [];
  return {
    filename: file.filename,
    sha256: sha256Hex(file.bytes),
    signatures: reports.map((r) => {
      const rev = revoked.find((x) => x.serial === r.serial)?.at ?? null;
      return { ...r, revoked: !!rev && r.chainTrusted, revokedAt: r.chainTrusted ? (rev?.toISOString() ?? null) : null };
    }),
  };
}
