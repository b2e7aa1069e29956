import {
  AppError,
  detail,
  findTransition,
  type Message,
  msg,
  type SignerState,
  type SigningRequest,
  type SigningRequestState,
  type SigningUploadMeta,
  signerMachine,
  signingRequestMachine,
} from '@aporta/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type SigningEventAction, signingEvents, signingRequests, signingSigners } from '../../db/schema/index.ts';
import { putBlob } from '../../platform/blobs.ts';
import type { RequestContext } from '../../platform/context.ts';
import { withPermission } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { badPdfError, inspectPdf } from '../../platform/pades.ts';
import { applyTransition, RACE_MESSAGE } from '../../platform/transitions.ts';
import { checkUpload } from '../../platform/uploads.ts';
import { documentContent, getDocument } from '../documents/library.ts';
import type { SigningDeps } from './deps.ts';
import { getSigningRequest, involvedRequest } from './lists.ts';
import { notifyWaitingSigner } from './mail-events.ts';
import { assertSigners } from './signers.ts';

/**
 * The signing flow up to the signatures: a PDF uploaded (or taken from Documentos) becomes a request to
 * signers in order, as a draft or sent at once; its events and its moves through signingRequestMachine.
 */

/** A PDF checked: type, size, no active content, opens, not encrypted; answers its pages. */
async function checkPdf(bytes: Uint8Array, filename: string) {
  checkUpload(bytes, filename, ['application/pdf']);
  return inspectPdf(bytes).catch((e) => badPdfError(e, filename));
}

/** A PDF checked (`checkPdf`) and stored; answers its hash and pages. */
export async function storePdf(db: Db, files: FileStore, bytes: Uint8Array, filename: string) {
  const { pages } = await checkPdf(bytes, filename);
  const sha256 = await putBlob(db, files, bytes, 'application/pdf');
  return { sha256, pages };
}

export async function createSigningRequest(
  ctx: RequestContext,
  deps: SigningDeps,
  input: { title: string; message: string; signers: number[]; send: boolean; file: { bytes: Uint8Array; filename: string } },
): Promise<SigningRequest> {
  // The file is judged first (whoever the signers are), then the signers, and only then is it stored.
  await checkPdf(input.file.bytes, input.file.filename);
  await assertSigners(ctx.db, input.signers);
  const { sha256 } = await storePdf(ctx.db, deps.files, input.file.bytes, input.file.filename);
  const state: SigningRequestState = input.send ? 'PENDIENTE' : 'BORRADOR';
  const id = await ctx.db.transaction(async (tx) => {
    const [req] = await tx
      .insert(signingRequests)
      .values({
        title: input.title,
        message: input.message,
        state,
        filename: input.file.filename.slice(0, 200),
        originalSha256: sha256,
        currentSha256: sha256,
        createdBy: ctx.user.id,
      })
      .returning({ id: signingRequests.id });
    await tx.insert(signingSigners).values(
      input.signers.map((userId, i) => ({
        requestId: req.id,
        position: i + 1,
        userId,
        state: (input.send && i === 0 ? 'PENDIENTE' : 'ESPERA') as 'PENDIENTE' | 'ESPERA',
      })),
    );
    await event(tx, ctx, req.id, 'CREADO', { hashAfter: sha256 });
    if (input.send) await sendTo(tx, ctx, req.id, input.signers[0], input.title, sha256);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'signing_request',
        entityId: req.id,
        after: { title: input.title, signers: input.signers, state },
      },
      tx,
    );
    return req.id;
  });
  return getSigningRequest(ctx, id);
}

/**
 * A request from the upload form: the uploaded PDF, or else the current content of a library document the
 * caller reads (their `documents` grant).
 */
export async function uploadSigningRequest(
  ctx: RequestContext,
  deps: SigningDeps,
  fields: SigningUploadMeta,
  file: { bytes: Uint8Array; filename: string } | null,
): Promise<SigningRequest> {
  let source = file;
  if (!source && fields.documentId) {
    const docs = withPermission(ctx, 'documents', 'READ');
    await getDocument(docs, fields.documentId);
    const content = await documentContent(docs, deps.files, fields.documentId);
    source = { bytes: new Uint8Array(content.bytes), filename: content.filename };
  }
  if (!source)
    throw new AppError('VALIDATION', msg('signing.fileOrDocumentRequired'), [
      { path: 'file', ...detail(msg('signing.fileRequiredDetail')) },
    ]);
  return createSigningRequest(ctx, deps, { ...fields, send: fields.send === 'true', file: source });
}

async function sendTo(tx: Db, ctx: RequestContext, id: number, userId: number, title: string, sha256: string) {
  await event(tx, ctx, id, 'ENVIADO', { hashBefore: sha256 });
  await notifyWaitingSigner(tx, { requestId: id, userId, title, senderId: ctx.user.id });
}

/** Sends a draft to its first signer. */
export async function sendSigningRequest(ctx: RequestContext, id: number): Promise<SigningRequest> {
  const req = await involvedRequest(ctx, id);
  if (req.createdBy !== ctx.user.id) throw new AppError('FORBIDDEN', msg('signing.onlySenderSends'));
  if (req.state !== 'BORRADOR') throw new AppError('CONFLICT', msg('signing.alreadySent'));
  // A draft's signers were able to sign when it was saved; a role or a certificate may have changed since.
  const signers = await ctx.db
    .select({ userId: signingSigners.userId })
    .from(signingSigners)
    .where(eq(signingSigners.requestId, id))
    .orderBy(asc(signingSigners.position));
  await assertSigners(
    ctx.db,
    signers.map((s) => s.userId),
  );
  await ctx.db.transaction(async (tx) => {
    await moveRequest(tx, ctx, id, 'BORRADOR', 'PENDIENTE', msg('signing.alreadySent'));
    const first = await moveSigner(tx, id, 1, 'ESPERA', 'PENDIENTE', msg('signing.alreadySent'));
    if (first) await sendTo(tx, ctx, id, first.userId, req.title, req.currentSha256);
  });
  return getSigningRequest(ctx, id);
}

/**
 * Moves a request through its machine (`system`: the caller has checked that the user takes part as the
 * step needs), with its history and audit rows in `tx`. A request another transaction moved first answers
 * 409 with the flow's own message (`race`), as before the machine.
 */
export async function moveRequest(
  tx: Db,
  ctx: RequestContext,
  id: number,
  from: SigningRequestState,
  to: SigningRequestState,
  race: Message,
  opts: { comment?: string; set?: () => Partial<typeof signingRequests.$inferInsert> } = {},
) {
  try {
    await applyTransition(ctx, {
      tx,
      machine: signingRequestMachine,
      table: signingRequests,
      id,
      expected: from,
      to,
      comment: opts.comment,
      set: opts.set,
      system: true,
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT' && err.message === RACE_MESSAGE) throw new AppError('CONFLICT', race);
    throw err;
  }
}

/**
 * Moves one signer of request `id` (by position) from `from` to `to`, a transition `signerMachine` declares,
 * only if the signer is still in `from`; answers the moved signer, or undefined when there is no signer at
 * that position (after the last one). A signer no longer in `from` is a race: CONFLICT with `race`.
 */
export async function moveSigner(
  tx: Db,
  id: number,
  position: number,
  from: SignerState,
  to: SignerState,
  race: Message,
  set: Omit<Partial<typeof signingSigners.$inferInsert>, 'state'> = {},
) {
  if (!findTransition(signerMachine, from, to)) throw new Error(`signerMachine: no hay transición ${from} → ${to}`);
  const [moved] = await tx
    .update(signingSigners)
    .set({ ...set, state: to })
    .where(and(eq(signingSigners.requestId, id), eq(signingSigners.position, position), eq(signingSigners.state, from)))
    .returning();
  if (moved) return moved;
  const [exists] = await tx
    .select({ state: signingSigners.state })
    .from(signingSigners)
    .where(and(eq(signingSigners.requestId, id), eq(signingSigners.position, position)));
  if (exists) throw new AppError('CONFLICT', race);
  return undefined;
}

export async function event(
  tx: Db,
  ctx: RequestContext,
  requestId: number,
  what: SigningEventAction,
  extra: { hashBefore?: string; hashAfter?: string; detail?: string } = {},
) {
  const name = `${ctx.user.firstName ?? ''} ${ctx.user.lastName ?? ''}`.trim() || ctx.user.email;
  await tx
    .insert(signingEvents)
    .values({ requestId, action: what, userId: ctx.user.id, userName: name, ip: ctx.actor.ip ?? null, ...extra });
}
