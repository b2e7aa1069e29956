import { AppError, detail, formatDay, guatemalaToday, msg } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { signingSettings } from '../../db/schema/index.ts';
import { getBlob, putBlob } from '../../platform/blobs.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import type { SignatureAppearance } from '../../platform/pades.ts';
import { formatGuatemalaDateTime } from '../../platform/pdf.ts';
import { checkUpload } from '../../platform/uploads.ts';
import { authorities, ensureAuthority, replaceSeal, sealName } from './authority.ts';
import type { SigningDeps } from './deps.ts';

/**
 * The signing settings (appearance of visible signatures, its image, the timestamp server) and what a
 * signature reads from them: its reason, its visible box, the institution's seal box.
 */

export async function readSettings(db: Db, config: Config) {
  await ensureAuthority(db, config);
  const [s] = await db.select().from(signingSettings).where(eq(signingSettings.id, 1));
  return {
    showName: s?.showName ?? true,
    showPosition: s?.showPosition ?? true,
    showDate: s?.showDate ?? true,
    hasImage: !!s?.imageSha256,
    timestampUrl: s?.timestampUrl ?? null,
    crlNumber: s?.crlNumber ?? 0,
    authorities: await authorities(db, config),
  };
}

export async function updateSettings(
  ctx: RequestContext,
  deps: SigningDeps,
  input: { showName: boolean; showPosition: boolean; showDate: boolean; timestampUrl: string | null },
) {
  await ensureAuthority(ctx.db, deps.config);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(signingSettings)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(signingSettings.id, 1));
    await ctx.audit({ action: 'UPDATE', entityType: 'signing_settings', entityId: 1, after: input }, tx);
  });
  return readSettings(ctx.db, deps.config);
}

/**
 * Replaces the institution's seal with an external PKCS#12 (its password opens it), audited; a file that
 * is no PKCS#12, or a password that does not open it, is refused naming the password.
 */
export async function replaceInstitutionSeal(ctx: RequestContext, deps: SigningDeps, file: Uint8Array, password: string) {
  const done = await replaceSeal(ctx.db, deps.config, file, password);
  if (!done)
    throw new AppError('VALIDATION', msg('signing.sealInvalid'), [
      { path: 'password', ...detail(msg('signing.sealPasswordDetail')) },
    ]);
  await ctx.audit({ action: 'UPDATE', entityType: 'signing_seal', entityId: null, after: done });
  return readSettings(ctx.db, deps.config);
}

/** The text of a signature's reason: what the appearance settings ask to show (name, position, date). */
export async function appearanceReason(db: Db, who: { name: string; position: string }, action: string): Promise<string> {
  const [s] = await db.select().from(signingSettings).where(eq(signingSettings.id, 1));
  const parts = [action];
  if (s?.showName ?? true) parts.push(who.name);
  if ((s?.showPosition ?? true) && who.position) parts.push(who.position);
  if (s?.showDate ?? true) parts.push(formatDay(guatemalaToday()));
  return parts.join(' · ');
}

/** Largest signature image accepted (bytes): a stamp or a scanned handwritten signature. */
export const SIGNATURE_IMAGE_MAX_BYTES = 512 * 1024;

/** Sets (or, with null, removes) the image printed in every visible signature. */
export async function updateSignatureImage(
  ctx: RequestContext,
  deps: SigningDeps,
  file: { bytes: Uint8Array; filename: string } | null,
) {
  await ensureAuthority(ctx.db, deps.config);
  let sha256: string | null = null;
  if (file) {
    const type = checkUpload(file.bytes, file.filename, ['image/png', 'image/jpeg']);
    if (file.bytes.length > SIGNATURE_IMAGE_MAX_BYTES)
      throw new AppError(
        'VALIDATION',
        msg('signing.imageTooLarge', { filename: file.filename, max: SIGNATURE_IMAGE_MAX_BYTES / 1024 }),
        [{ path: 'file', ...detail(msg('signing.imageTooLargeDetail', { max: SIGNATURE_IMAGE_MAX_BYTES / 1024 })) }],
      );
    // The library must be able to draw it (a PNG or JPEG it cannot read would leave boxes without it).
    const { PDF } = await import('@libpdf/core');
    try {
      PDF.create().embedImage(file.bytes);
    } catch {
      throw new AppError('VALIDATION', msg('signing.imageDamaged', { filename: file.filename }), [
        { path: 'file', ...detail(msg('signing.imageDamagedDetail')) },
      ]);
    }
    sha256 = await putBlob(ctx.db, deps.files, file.bytes, type);
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(signingSettings).set({ imageSha256: sha256, updatedAt: new Date() }).where(eq(signingSettings.id, 1));
    await ctx.audit({ action: 'UPDATE', entityType: 'signing_settings', entityId: 1, after: { imageSha256: sha256 } }, tx);
  });
  return readSettings(ctx.db, deps.config);
}

/**
 * How visible signatures look, per the appearance settings: a maker of the box's lines (who signs or
 * seals, their position, the date in Guatemala's time) with the configured image. Read once, used for
 * as many signatures as needed (a batch).
 */
export async function appearanceMaker(db: Db, files: FileStore) {
  const [s] = await db.select().from(signingSettings).where(eq(signingSettings.id, 1));
  const image = s?.imageSha256 ? new Uint8Array(await getBlob(files, s.imageSha256)) : null;
  return (who: { name: string; position?: string | null; seal?: boolean }, at = new Date()): SignatureAppearance => {
    const lines = [who.seal ? 'Sellado digitalmente por' : 'Firmado digitalmente por'];
    if (s?.showName ?? true) lines.push(who.name);
    if ((s?.showPosition ?? true) && who.position) lines.push(who.position);
    if (s?.showDate ?? true) lines.push(`${formatGuatemalaDateTime(at)} (Guatemala)`);
    return { lines, image };
  };
}

/** The visible seal of the institution: its seal certificate's name. */
export async function sealAppearance(db: Db, deps: SigningDeps, at = new Date()) {
  const make = await appearanceMaker(db, deps.files);
  return make({ name: await sealName(db, deps.config), seal: true }, at);
}

export async function timestampUrlOf(db: Db): Promise<string | null> {
  const [s] = await db.select({ u: signingSettings.timestampUrl }).from(signingSettings).where(eq(signingSettings.id, 1));
  return s?.u ?? null;
}
