import { AppError, detail, msg } from '@aporta/domain';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import {
  type SigningEventAction,
  signingCertificates,
  signingEvents,
  signingRequests,
  signingSigners,
} from '../../db/schema/index.ts';
import { getBlob, putBlob } from '../../platform/blobs.ts';
import type { RequestContext } from '../../platform/context.ts';
import { appendTextPages, signerOf, signPdf } from '../../platform/pades.ts';
import { formatGuatemalaDateTime } from '../../platform/pdf.ts';
import { decryptPrivateKey, WrongPassphraseError } from '../../platform/pki.ts';
import { notifyUsers } from '../notifications/service.ts';
import { caMaterial, sealSigner, unb64 } from './authority.ts';
import type { SigningDeps } from './deps.ts';
import { getSigningRequest, involvedRequest } from './lists.ts';
import { notifyWaitingSigner } from './mail-events.ts';
import { event, moveRequest, moveSigner } from './requests.ts';

/** Another signature or a rejection got there first. */
const RACE = msg('signing.changedWhileSigning');

import { appearanceMaker, appearanceReason, sealAppearance, timestampUrlOf } from './settings.ts';

/**
 * A signer's turn: signing with their passphrase (PAdES, an incremental update; the last signature appends
 * the audit trail sealed by the institution and completes the request) or rejecting with a reason.
 */

/** Wrong passphrases in a row before signing pauses, and for how long. */
export const MAX_PASSPHRASE_TRIES = 3;
export const PASSPHRASE_PAUSE_MS = 15 * 60 * 1000;

async function turnOf(ctx: RequestContext, id: number) {
  const req = await involvedRequest(ctx, id);
  const [me] = await ctx.db
    .select()
    .from(signingSigners)
    .where(and(eq(signingSigners.requestId, id), eq(signingSigners.userId, ctx.user.id)));
  if (!me) throw new AppError('FORBIDDEN', msg('signing.notASigner'));
  if (req.state !== 'PENDIENTE') {
    throw new AppError('CONFLICT', req.state === 'BORRADOR' ? msg('signing.notSentYet') : msg('signing.noLongerPending'));
  }
  if (me.state === 'FIRMADO') throw new AppError('CONFLICT', msg('signing.alreadySigned'));
  if (me.state === 'RECHAZADO') throw new AppError('CONFLICT', msg('signing.alreadyRejected'));
  if (me.state === 'ESPERA') throw new AppError('CONFLICT', msg('signing.notYourTurn'));
  return { req, me };
}

export async function signRequest(
  ctx: RequestContext,
  deps: SigningDeps,
  id: number,
  input: { passphrase: string; sha256: string },
) {
  const { req, me } = await turnOf(ctx, id);
  if (input.sha256 !== req.currentSha256) {
    throw new AppError('CONFLICT', msg('signing.changedSinceReview'));
  }
  const [cert] = await ctx.db
    .select()
    .from(signingCertificates)
    .where(and(eq(signingCertificates.userId, ctx.user.id)))
    .orderBy(desc(signingCertificates.id))
    .limit(1);
  if (!cert) throw new AppError('CONFLICT', msg('signing.noCertificate'));
  if (cert.revokedAt) throw new AppError('CONFLICT', msg('signing.ownCertificateRevoked'));
  if (cert.notAfter.getTime() < Date.now()) throw new AppError('CONFLICT', msg('signing.ownCertificateExpired'));
  if (cert.lockedUntil && cert.lockedUntil.getTime() > Date.now()) {
    const minutes = Math.ceil((cert.lockedUntil.getTime() - Date.now()) / 60_000);
    throw new AppError('RATE_LIMITED', msg('signing.signingPaused', { minutes }));
  }
  let key: CryptoKey;
  try {
    key = await decryptPrivateKey(cert.encryptedKey, input.passphrase);
  } catch (err) {
    if (!(err instanceof WrongPassphraseError)) throw err;
    const tries = cert.failedAttempts + 1;
    const locked = tries >= MAX_PASSPHRASE_TRIES;
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(signingCertificates)
        .set({ failedAttempts: locked ? 0 : tries, lockedUntil: locked ? new Date(Date.now() + PASSPHRASE_PAUSE_MS) : null })
        .where(eq(signingCertificates.id, cert.id));
      await event(tx, ctx, id, 'CLAVE_INCORRECTA', { detail: `Intento ${tries} de ${MAX_PASSPHRASE_TRIES}` });
    });
    // Said once: the field's detail is the message itself (a toast lists a detail only when it says more).
    const wrong = locked
      ? msg('signing.passphraseWrongPaused', { tries: MAX_PASSPHRASE_TRIES, minutes: PASSPHRASE_PAUSE_MS / 60_000 })
      : msg('signing.passphraseWrongAttempt', { attempt: tries, tries: MAX_PASSPHRASE_TRIES });
    throw new AppError('VALIDATION', wrong, [{ path: 'passphrase', ...detail(wrong) }]);
  }
  const { ca, root } = await caMaterial(ctx.db, deps.config);
  const before = await getBlob(deps.files, req.currentSha256);
  const name = `${ctx.user.firstName ?? ''} ${ctx.user.lastName ?? ''}`.trim() || ctx.user.email;
  const signed = await signPdf(
    new Uint8Array(before),
    signerOf({ key, certificate: unb64(cert.certificate), chain: [ca, root] }),
    {
      reason: await appearanceReason(ctx.db, { name, position: cert.position }, 'Firmado por'),
      location: 'Guatemala',
      fieldName: `Firma_${me.position}_${ctx.user.id}`,
      timestampUrl: await timestampUrlOf(ctx.db),
      appearance: (await appearanceMaker(ctx.db, deps.files))({ name, position: cert.position }),
    },
  );
  const after = await putBlob(ctx.db, deps.files, signed, 'application/pdf');
  // The last signature completes the document: the audit trail is appended as a final page and the whole
  // is sealed by the institution, so each personal signature stays valid over its own revision and the
  // seal covers the trail too.
  const [later] = await ctx.db
    .select({ n: count() })
    .from(signingSigners)
    .where(and(eq(signingSigners.requestId, id), sql`${signingSigners.position} > ${me.position}`));
  const completion = later.n === 0 ? await completionCopy(ctx, deps, req, signed, after) : null;
  const final = completion?.sha256 ?? after;
  await ctx.db.transaction(async (tx) => {
    // The document must still be the one signed: a concurrent signature or rejection wins, this one is refused.
    const moved = await tx
      .update(signingRequests)
      .set({ currentSha256: final })
      .where(
        and(
          eq(signingRequests.id, id),
          eq(signingRequests.state, 'PENDIENTE'),
          eq(signingRequests.currentSha256, req.currentSha256),
        ),
      )
      .returning({ id: signingRequests.id });
    if (!moved.length) throw new AppError('CONFLICT', RACE);
    await moveSigner(tx, id, me.position, 'PENDIENTE', 'FIRMADO', RACE, { actedAt: new Date(), certificateId: cert.id });
    await tx.update(signingCertificates).set({ failedAttempts: 0, lockedUntil: null }).where(eq(signingCertificates.id, cert.id));
    await event(tx, ctx, id, 'FIRMADO', { hashBefore: req.currentSha256, hashAfter: after });
    if (completion)
      await event(tx, ctx, id, 'CONSTANCIA', {
        hashBefore: after,
        hashAfter: completion.sha256,
        detail: 'Constancia de firmas anexada y sellada por la institución',
      });
    const next = await moveSigner(tx, id, me.position + 1, 'ESPERA', 'PENDIENTE', RACE);
    if (next) {
      await notifyWaitingSigner(tx, { requestId: id, userId: next.userId, title: req.title, senderId: req.createdBy });
    } else {
      await moveRequest(tx, ctx, id, 'PENDIENTE', 'FIRMADO', RACE, {
        set: () => ({ completedAt: new Date() }),
      });
      const everyone = await tx.select({ u: signingSigners.userId }).from(signingSigners).where(eq(signingSigners.requestId, id));
      await notifyUsers({
        db: tx,
        userIds: [req.createdBy, ...everyone.map((e) => e.u)],
        type: 'success',
        title: 'Documento firmado por todos',
        body: `«${req.title}» tiene todas sus firmas.`,
        link: '/firmaDoc/signed',
      });
    }
    await ctx.audit(
      {
        action: 'UPDATE',
        entityType: 'signing_request',
        entityId: id,
        before: { sha256: req.currentSha256 },
        after: { signedBy: ctx.user.id, sha256: final },
      },
      tx,
    );
  });
  return getSigningRequest(ctx, id);
}

const signedEvent: SigningEventAction = 'FIRMADO';
const eventLabels: Record<string, string> = {
  CREADO: 'Cargado',
  ENVIADO: 'Enviado a firma',
  VISTO: 'Visto',
  FIRMADO: 'Firmado',
  RECHAZADO: 'Rechazado',
  CLAVE_INCORRECTA: 'Frase de paso incorrecta',
};

/**
 * The completed document: the signed bytes with the audit trail (every event up to this last signature:
 * who, when, from where, the hash before and after) appended as a page, sealed with the institution's seal.
 */
async function completionCopy(
  ctx: RequestContext,
  deps: SigningDeps,
  req: typeof signingRequests.$inferSelect,
  signed: Uint8Array,
  signedSha256: string,
) {
  const events = await ctx.db
    .select()
    .from(signingEvents)
    .where(eq(signingEvents.requestId, req.id))
    .orderBy(asc(signingEvents.id));
  const name = `${ctx.user.firstName ?? ''} ${ctx.user.lastName ?? ''}`.trim() || ctx.user.email;
  const rows = [
    ...events.map((e) => ({ ...e, at: e.at })),
    {
      action: signedEvent,
      userName: name,
      ip: ctx.actor.ip ?? null,
      hashBefore: req.currentSha256,
      hashAfter: signedSha256,
      detail: null,
      at: new Date(),
    },
  ];
  // As a clerk reads time: dd/mm/aaaa hh:mm in Guatemala (the page says so once, not in UTC).
  const stamp = (d: Date) => formatGuatemalaDateTime(d);
  const lines = [
    `Documento: ${req.title} (${req.filename})`,
    `SHA-256 del original: ${req.originalSha256}`,
    `SHA-256 con todas las firmas: ${signedSha256}`,
    'Fechas y horas en hora de Guatemala.',
    '',
    ...rows.flatMap((e) => [
      `${stamp(e.at)} · ${eventLabels[e.action] ?? e.action} · ${e.userName}${e.ip ? ` · IP ${e.ip}` : ''}${e.detail ? ` · ${e.detail}` : ''}`,
      ...(e.hashBefore || e.hashAfter ? [`    antes ${e.hashBefore ?? '—'}`, `    después ${e.hashAfter ?? '—'}`] : []),
    ]),
    '',
    'Esta constancia se anexó tras la última firma; cada firma sigue cubriendo el documento tal como se firmó,',
    'y el sello de la institución cubre el documento completo con esta constancia.',
  ];
  const withTrail = await appendTextPages(signed, 'Constancia de firmas', lines);
  const sealed = await signPdf(withTrail, await sealSigner(ctx.db, deps.config), {
    reason: 'Constancia de firmas · sello de la institución',
    location: 'Guatemala',
    fieldName: `Constancia_${req.id}`,
    timestampUrl: await timestampUrlOf(ctx.db),
    appearance: await sealAppearance(ctx.db, deps),
  });
  return { bytes: sealed, sha256: await putBlob(ctx.db, deps.files, sealed, 'application/pdf') };
}

export async function rejectRequest(ctx: RequestContext, id: number, reason: string) {
  const { req, me } = await turnOf(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await moveRequest(tx, ctx, id, 'PENDIENTE', 'RECHAZADO', msg('signing.noLongerPending'), {
      comment: reason,
      set: () => ({ completedAt: new Date() }),
    });
    await moveSigner(tx, id, me.position, 'PENDIENTE', 'RECHAZADO', RACE, { actedAt: new Date(), reason });
    await event(tx, ctx, id, 'RECHAZADO', { hashBefore: req.currentSha256, detail: reason });
    await notifyUsers({
      db: tx,
      userIds: [req.createdBy],
      type: 'warning',
      title: 'Documento rechazado',
      body: `«${req.title}» fue rechazado: ${reason}`.slice(0, 2000),
      link: '/firmaDoc/rechazados',
    });
    await ctx.audit(
      { action: 'UPDATE', entityType: 'signing_request', entityId: id, after: { rejectedBy: ctx.user.id, reason } },
      tx,
    );
  });
  return getSigningRequest(ctx, id);
}
