import {
  AppError,
  type IssueCertificate,
  type ListQuery,
  type SigningCertificate,
  type SigningRequest,
  type SigningRequestState,
  signingRequestMachine,
  type VerificationReport,
} from '@aporta/domain';
import { and, asc, count, desc, eq, exists, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import {
  autoSignRules,
  type SigningEventAction,
  signingCertificates,
  signingEvents,
  signingRequests,
  signingSettings,
  signingSigners,
  users,
} from '../../db/schema/index.ts';
import { getBlob, putBlob, sha256Hex } from '../../platform/blobs.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { listPage } from '../../platform/list.ts';
import {
  appendTextPages,
  badPdfError,
  inspectPdf,
  type SignatureAppearance,
  signerOf,
  signPdf,
  verifyPdfSignatures,
} from '../../platform/pades.ts';
import { formatGuatemalaDateTime } from '../../platform/pdf.ts';
import {
  decryptPrivateKey,
  encryptPrivateKey,
  exportPkcs8,
  generateKeyPair,
  issueCertificate,
  newSerial,
  summarizeCertificate,
  WrongPassphraseError,
} from '../../platform/pki.ts';
import { applyTransition, RACE_MESSAGE } from '../../platform/transitions.ts';
import { checkUpload } from '../../platform/uploads.ts';
import { notifyUsers } from '../notifications/service.ts';
import { authorities, caMaterial, crlUrl, ensureAuthority, publishCrl, sealName, sealSigner, unb64 } from './authority.ts';

export interface SigningDeps {
  config: Config;
  files: FileStore;
}

const fullName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;
const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
const YEAR = 365 * 24 * 3600 * 1000;
/** Wrong passphrases in a row before signing pauses, and for how long. */
export const MAX_PASSPHRASE_TRIES = 3;
export const PASSPHRASE_PAUSE_MS = 15 * 60 * 1000;

// ---------------------------------------------------------------- certificates

const certState = (r: { revokedAt: Date | null; notAfter: Date }): SigningCertificate['state'] =>
  r.revokedAt ? 'REVOCADO' : r.notAfter.getTime() < Date.now() ? 'VENCIDO' : 'VIGENTE';

export async function listCertificates(ctx: RequestContext, q: ListQuery & { state?: SigningCertificate['state'] }) {
  const where: SQL[] = [];
  if (q.q) where.push(sql`(${fullName} ilike ${`%${q.q}%`} or ${users.email} ilike ${`%${q.q}%`})`);
  if (q.state === 'REVOCADO') where.push(sql`${signingCertificates.revokedAt} is not null`);
  if (q.state === 'VENCIDO')
    where.push(sql`${signingCertificates.revokedAt} is null and ${signingCertificates.notAfter} < now()`);
  if (q.state === 'VIGENTE')
    where.push(sql`${signingCertificates.revokedAt} is null and ${signingCertificates.notAfter} >= now()`);
  const cond = where.length ? and(...where) : undefined;
  // Pages by key (listPage), newest first.
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: signingCertificates.id },
    defaultSort: '-id',
    rows: (c) =>
      ctx.db
        .select({ c: signingCertificates, name: fullName, email: users.email })
        .from(signingCertificates)
        .innerJoin(users, eq(users.id, signingCertificates.userId))
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.c.id,
    count: () =>
      ctx.db
        .select({ id: signingCertificates.id })
        .from(signingCertificates)
        .innerJoin(users, eq(users.id, signingCertificates.userId))
        .where(cond),
  });
  return { ...page, items: page.items.map((r) => certDto(r.c, r.name, r.email)) };
}

function certDto(c: typeof signingCertificates.$inferSelect, name: string, email: string): SigningCertificate {
  return {
    id: c.id,
    userId: c.userId,
    userName: name,
    userEmail: email,
    position: c.position,
    serial: c.serial,
    subject: summarizeCertificate(unb64(c.certificate)).subject,
    notBefore: c.notBefore.toISOString(),
    notAfter: c.notAfter.toISOString(),
    state: certState(c),
    revokedAt: c.revokedAt?.toISOString() ?? null,
    revokeReason: c.revokeReason,
  };
}

/** Issues a personal signing certificate; the user's earlier valid one is superseded (revoked). */
export async function issueUserCertificate(
  ctx: RequestContext,
  deps: SigningDeps,
  input: IssueCertificate,
): Promise<SigningCertificate> {
  const [user] = await ctx.db
    .select({ id: users.id, name: fullName, email: users.email, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, input.userId));
  if (!user) throw new AppError('VALIDATION', 'Usuario: no existe.', [{ path: 'userId', message: 'El usuario no existe.' }]);
  if (!user.isActive)
    throw new AppError('VALIDATION', 'Usuario: la cuenta no está activa.', [
      { path: 'userId', message: 'La cuenta no está activa.' },
    ]);
  const { ca, caKey } = await caMaterial(ctx.db, deps.config);
  const keys = await generateKeyPair();
  const serial = newSerial();
  const now = Date.now();
  const notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + input.years * YEAR);
  const der = await issueCertificate({
    subject: {
      commonName: user.name || user.email,
      organization: 'Aporta',
      title: input.position || undefined,
      email: user.email,
    },
    publicKey: keys.publicKey,
    issuer: { der: ca, key: caKey },
    serial,
    notBefore,
    notAfter,
    kind: 'signing',
    crlUrl: crlUrl(deps.config),
  });
  const encryptedKey = encryptPrivateKey(await exportPkcs8(keys.privateKey), input.passphrase);
  const row = await ctx.db.transaction(async (tx) => {
    const superseded = await tx
      .update(signingCertificates)
      .set({ revokedAt: new Date(), revokeReason: 'Reemplazado por un certificado nuevo' })
      .where(and(eq(signingCertificates.userId, user.id), isNull(signingCertificates.revokedAt)))
      .returning({ id: signingCertificates.id });
    const [created] = await tx
      .insert(signingCertificates)
      .values({
        userId: user.id,
        serial,
        certificate: b64(der),
        encryptedKey,
        position: input.position,
        notBefore,
        notAfter,
        issuedBy: ctx.user.id,
      })
      .returning();
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'signing_certificate',
        entityId: created.id,
        after: { userId: user.id, serial, superseded: superseded.map((s) => s.id) },
      },
      tx,
    );
    await notifyUsers({
      db: tx,
      userIds: [user.id],
      type: 'success',
      title: 'Se le emitió un certificado de firma',
      body: `Vigente hasta ${notAfter.toISOString().slice(0, 10)}. Firme con la frase de paso que eligió.`,
      link: '/firmaDoc/pendientes',
    });
    return { created, superseded: superseded.length };
  });
  if (row.superseded) await publishCrl(ctx.db, deps.config);
  return certDto(row.created, user.name, user.email);
}

async function certificateById(ctx: RequestContext, id: number) {
  const [r] = await ctx.db
    .select({ c: signingCertificates, name: fullName, email: users.email })
    .from(signingCertificates)
    .innerJoin(users, eq(users.id, signingCertificates.userId))
    .where(eq(signingCertificates.id, id));
  if (!r) throw new AppError('NOT_FOUND', 'El certificado no existe.');
  return r;
}

export async function renewCertificate(ctx: RequestContext, deps: SigningDeps, id: number, passphrase: string) {
  const r = await certificateById(ctx, id);
  if (r.c.revokedAt) throw new AppError('CONFLICT', 'El certificado está revocado: emita uno nuevo.');
  return issueUserCertificate(ctx, deps, { userId: r.c.userId, position: r.c.position, years: 2, passphrase });
}

export async function revokeCertificate(ctx: RequestContext, deps: SigningDeps, id: number, reason: string) {
  const r = await certificateById(ctx, id);
  if (r.c.revokedAt) throw new AppError('CONFLICT', 'El certificado ya estaba revocado.');
  const [row] = await ctx.db.transaction(async (tx) => {
    const out = await tx
      .update(signingCertificates)
      .set({ revokedAt: new Date(), revokeReason: reason })
      .where(and(eq(signingCertificates.id, id), isNull(signingCertificates.revokedAt)))
      .returning();
    await ctx.audit(
      {
        action: 'UPDATE',
        entityType: 'signing_certificate',
        entityId: id,
        before: { revokedAt: null },
        after: { revokedAt: out[0]?.revokedAt, reason },
      },
      tx,
    );
    return out;
  });
  if (!row) throw new AppError('CONFLICT', 'El certificado ya estaba revocado.');
  await publishCrl(ctx.db, deps.config);
  return certDto(row, r.name, r.email);
}

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

/** The text of a signature's reason: what the appearance settings ask to show (name, position, date). */
async function appearanceReason(db: Db, who: { name: string; position: string }, action: string): Promise<string> {
  const [s] = await db.select().from(signingSettings).where(eq(signingSettings.id, 1));
  const parts = [action];
  if (s?.showName ?? true) parts.push(who.name);
  if ((s?.showPosition ?? true) && who.position) parts.push(who.position);
  if (s?.showDate ?? true) parts.push(new Date().toISOString().slice(0, 10));
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
      throw new AppError('VALIDATION', `La imagen «${file.filename}» supera ${SIGNATURE_IMAGE_MAX_BYTES / 1024} KB.`, [
        { path: 'file', message: `Máximo ${SIGNATURE_IMAGE_MAX_BYTES / 1024} KB.` },
      ]);
    // The library must be able to draw it (a PNG or JPEG it cannot read would leave boxes without it).
    const { PDF } = await import('@libpdf/core');
    try {
      PDF.create().embedImage(file.bytes);
    } catch {
      throw new AppError('VALIDATION', `La imagen «${file.filename}» está dañada o no se puede leer.`, [
        { path: 'file', message: 'Imagen dañada.' },
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

// ---------------------------------------------------------------- signing flow

/** A PDF checked (type, size, opens, not encrypted) and stored; answers its hash and pages. */
export async function storePdf(db: Db, files: FileStore, bytes: Uint8Array, filename: string) {
  checkUpload(bytes, filename, ['application/pdf']);
  const { pages } = await inspectPdf(bytes).catch((e) => badPdfError(e, filename));
  const sha256 = await putBlob(db, files, bytes, 'application/pdf');
  return { sha256, pages };
}

export async function signerOptions(ctx: RequestContext) {
  const rows = await ctx.db
    .selectDistinct({ id: users.id, name: fullName, email: users.email })
    .from(users)
    .innerJoin(signingCertificates, eq(signingCertificates.userId, users.id))
    .where(and(eq(users.isActive, true), isNull(signingCertificates.revokedAt), sql`${signingCertificates.notAfter} > now()`))
    .orderBy(fullName);
  return { items: rows };
}

export async function createSigningRequest(
  ctx: RequestContext,
  deps: SigningDeps,
  input: { title: string; message: string; signers: number[]; send: boolean; file: { bytes: Uint8Array; filename: string } },
): Promise<SigningRequest> {
  const found = await ctx.db
    .select({ id: users.id, isActive: users.isActive })
    .from(users)
    .where(inArray(users.id, input.signers));
  for (const [i, id] of input.signers.entries()) {
    const u = found.find((f) => f.id === id);
    if (!u?.isActive) {
      throw new AppError('VALIDATION', `Firmante ${i + 1}: el usuario no existe o no está activo.`, [
        { path: `signers.${i}`, message: 'El usuario no existe o no está activo.' },
      ]);
    }
  }
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

async function sendTo(tx: Db, ctx: RequestContext, id: number, userId: number, title: string, sha256: string) {
  await event(tx, ctx, id, 'ENVIADO', { hashBefore: sha256 });
  await notifyUsers({
    db: tx,
    userIds: [userId],
    type: 'info',
    title: 'Documento pendiente de firma',
    body: `«${title}» espera su firma.`,
    link: '/firmaDoc/pendientes',
  });
}

/** Sends a draft to its first signer. */
export async function sendSigningRequest(ctx: RequestContext, id: number): Promise<SigningRequest> {
  const req = await involvedRequest(ctx, id);
  if (req.createdBy !== ctx.user.id) throw new AppError('FORBIDDEN', 'Solo quien cargó el documento puede enviarlo.');
  if (req.state !== 'BORRADOR') throw new AppError('CONFLICT', 'El documento ya fue enviado.');
  await ctx.db.transaction(async (tx) => {
    await moveRequest(tx, ctx, id, 'BORRADOR', 'PENDIENTE', 'El documento ya fue enviado.');
    const [first] = await tx
      .update(signingSigners)
      .set({ state: 'PENDIENTE' })
      .where(and(eq(signingSigners.requestId, id), eq(signingSigners.position, 1)))
      .returning();
    await sendTo(tx, ctx, id, first.userId, req.title, req.currentSha256);
  });
  return getSigningRequest(ctx, id);
}

/**
 * Moves a request through its machine (`system`: the caller has checked that the user takes part as the
 * step needs), with its history and audit rows in `tx`. A request another transaction moved first answers
 * 409 with the flow's own message (`race`), as before the machine.
 */
async function moveRequest(
  tx: Db,
  ctx: RequestContext,
  id: number,
  from: SigningRequestState,
  to: SigningRequestState,
  race: string,
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

async function event(
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

/** Requests the caller takes part in: sent by them, or they are (or were) a signer. */
const involved = (userId: number) =>
  or(
    eq(signingRequests.createdBy, userId),
    exists(
      sql`(select 1 from ${signingSigners} where ${signingSigners.requestId} = ${signingRequests.id} and ${signingSigners.userId} = ${userId} and ${signingSigners.state} <> 'ESPERA')`,
    ),
  );

async function involvedRequest(ctx: RequestContext, id: number) {
  const [req] = await ctx.db
    .select()
    .from(signingRequests)
    .where(
      and(
        eq(signingRequests.id, id),
        or(
          involved(ctx.user.id),
          exists(
            sql`(select 1 from ${signingSigners} where ${signingSigners.requestId} = ${signingRequests.id} and ${signingSigners.userId} = ${ctx.user.id})`,
          ),
        ),
      ),
    );
  if (!req) throw new AppError('NOT_FOUND', 'El documento no existe o usted no participa en él.');
  return req;
}

async function toDtos(ctx: RequestContext, rows: (typeof signingRequests.$inferSelect)[]): Promise<SigningRequest[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const signers = await ctx.db
    .select({ s: signingSigners, name: fullName })
    .from(signingSigners)
    .innerJoin(users, eq(users.id, signingSigners.userId))
    .where(inArray(signingSigners.requestId, ids))
    .orderBy(asc(signingSigners.position));
  const creators = await ctx.db
    .select({ id: users.id, name: fullName })
    .from(users)
    .where(inArray(users.id, [...new Set(rows.map((r) => r.createdBy))]));
  return rows.map((r) => {
    const mine = signers.filter((s) => s.s.requestId === r.id);
    const current = r.state === 'PENDIENTE' ? (mine.find((s) => s.s.state === 'PENDIENTE')?.s.position ?? null) : null;
    return {
      id: r.id,
      title: r.title,
      message: r.message,
      state: r.state,
      filename: r.filename,
      sha256: r.currentSha256,
      createdBy: creators.find((c) => c.id === r.createdBy)?.name ?? '',
      createdById: r.createdBy,
      createdAt: r.createdAt.toISOString(),
      completedAt: r.completedAt?.toISOString() ?? null,
      signers: mine.map((s) => ({
        position: s.s.position,
        userId: s.s.userId,
        name: s.name,
        state: s.s.state,
        actedAt: s.s.actedAt?.toISOString() ?? null,
        reason: s.s.reason,
      })),
      currentPosition: current,
      myTurn: current !== null && mine.find((s) => s.s.position === current)?.s.userId === ctx.user.id,
    };
  });
}

export async function getSigningRequest(ctx: RequestContext, id: number) {
  const req = await involvedRequest(ctx, id);
  const [dto] = await toDtos(ctx, [req]);
  return dto;
}

export async function signingRequestDetail(ctx: RequestContext, id: number) {
  const dto = await getSigningRequest(ctx, id);
  const events = await ctx.db.select().from(signingEvents).where(eq(signingEvents.requestId, id)).orderBy(asc(signingEvents.id));
  return {
    ...dto,
    events: events.map((e) => ({
      action: e.action,
      userName: e.userName,
      ip: e.ip,
      hashBefore: e.hashBefore,
      hashAfter: e.hashAfter,
      detail: e.detail,
      at: e.at.toISOString(),
    })),
  };
}

export type SigningListKind = 'pending' | 'signed' | 'rejected' | 'mine';

function listWhere(ctx: RequestContext, kind: SigningListKind, q?: string): SQL | undefined {
  const me = ctx.user.id;
  const text = q ? sql`(${signingRequests.title} ilike ${`%${q}%`} or ${signingRequests.filename} ilike ${`%${q}%`})` : undefined;
  switch (kind) {
    case 'pending':
      return and(
        eq(signingRequests.state, 'PENDIENTE'),
        exists(
          sql`(select 1 from ${signingSigners} where ${signingSigners.requestId} = ${signingRequests.id} and ${signingSigners.userId} = ${me} and ${signingSigners.state} = 'PENDIENTE')`,
        ),
        text,
      );
    case 'signed':
      return and(eq(signingRequests.state, 'FIRMADO'), involved(me), text);
    case 'rejected':
      return and(eq(signingRequests.state, 'RECHAZADO'), involved(me), text);
    case 'mine':
      return and(eq(signingRequests.createdBy, me), text);
  }
}

export async function listSigningRequests(ctx: RequestContext, kind: SigningListKind, q: ListQuery) {
  const where = listWhere(ctx, kind, q.q);
  // Pages by key (listPage): each sortable column has an index with the id.
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: signingRequests.id, title: signingRequests.title, createdAt: signingRequests.createdAt },
    defaultSort: '-id',
    rows: (c) =>
      ctx.db
        .select()
        .from(signingRequests)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: signingRequests.id }).from(signingRequests).where(where),
  });
  return { ...page, items: await toDtos(ctx, page.items) };
}

export async function pendingCount(ctx: RequestContext): Promise<{ pending: number }> {
  const [{ n }] = await ctx.db.select({ n: count() }).from(signingRequests).where(listWhere(ctx, 'pending'));
  return { pending: n };
}

/** The spec's document lists: the caller's documents in a state (borrador: their drafts and those still in course). */
export async function specDocuments(ctx: RequestContext, state: 'borrador' | 'firmado' | 'rechazado') {
  const me = ctx.user.id;
  const where =
    state === 'borrador'
      ? and(inArray(signingRequests.state, ['BORRADOR', 'PENDIENTE']), involved(me))
      : and(eq(signingRequests.state, state === 'firmado' ? 'FIRMADO' : 'RECHAZADO'), involved(me));
  const rows = await ctx.db.select().from(signingRequests).where(where).orderBy(desc(signingRequests.id)).limit(500);
  const dtos = await toDtos(ctx, rows);
  return dtos.map((d) => ({
    id: d.id,
    titulo: d.title,
    archivo: d.filename,
    estado: d.state,
    creado: d.createdAt,
    finalizado: d.completedAt,
    firmantes: d.signers.map((s) => ({ nombre: s.name, estado: s.state })),
  }));
}

/** The current bytes of a request the caller takes part in (preview, download); a "VISTO" event for a signer. */
export async function requestPdf(ctx: RequestContext, deps: SigningDeps, id: number) {
  const req = await involvedRequest(ctx, id);
  const bytes = await getBlob(deps.files, req.currentSha256);
  return { bytes, filename: req.filename, sha256: req.currentSha256 };
}

async function turnOf(ctx: RequestContext, id: number) {
  const req = await involvedRequest(ctx, id);
  const [me] = await ctx.db
    .select()
    .from(signingSigners)
    .where(and(eq(signingSigners.requestId, id), eq(signingSigners.userId, ctx.user.id)));
  if (!me) throw new AppError('FORBIDDEN', 'Usted no es firmante de este documento.');
  if (req.state !== 'PENDIENTE') {
    throw new AppError(
      'CONFLICT',
      req.state === 'BORRADOR' ? 'El documento aún no fue enviado.' : 'El documento ya no está pendiente de firma.',
    );
  }
  if (me.state === 'FIRMADO') throw new AppError('CONFLICT', 'Usted ya firmó este documento.');
  if (me.state === 'RECHAZADO') throw new AppError('CONFLICT', 'Usted ya rechazó este documento.');
  if (me.state === 'ESPERA') throw new AppError('CONFLICT', 'Aún no es su turno: firmantes anteriores no han firmado.');
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
    throw new AppError('CONFLICT', 'El documento cambió desde que lo revisó: vuelva a abrirlo antes de firmar.');
  }
  const [cert] = await ctx.db
    .select()
    .from(signingCertificates)
    .where(and(eq(signingCertificates.userId, ctx.user.id)))
    .orderBy(desc(signingCertificates.id))
    .limit(1);
  if (!cert) throw new AppError('CONFLICT', 'Usted no tiene un certificado de firma: solicítelo al administrador de firma.');
  if (cert.revokedAt)
    throw new AppError('CONFLICT', 'Su certificado de firma está revocado: solicite uno nuevo al administrador de firma.');
  if (cert.notAfter.getTime() < Date.now())
    throw new AppError('CONFLICT', 'Su certificado de firma está vencido: solicite su renovación.');
  if (cert.lockedUntil && cert.lockedUntil.getTime() > Date.now()) {
    const minutes = Math.ceil((cert.lockedUntil.getTime() - Date.now()) / 60_000);
    throw new AppError(
      'RATE_LIMITED',
      `Tres frases de paso incorrectas: la firma está en pausa. Intente de nuevo en ${minutes} min.`,
    );
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
    throw new AppError(
      'VALIDATION',
      locked
        ? `Frase de paso incorrecta. Tras ${MAX_PASSPHRASE_TRIES} intentos la firma queda en pausa ${PASSPHRASE_PAUSE_MS / 60_000} minutos.`
        : `Frase de paso incorrecta (intento ${tries} de ${MAX_PASSPHRASE_TRIES}).`,
      [{ path: 'passphrase', message: 'Frase de paso incorrecta.' }],
    );
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
    if (!moved.length) throw new AppError('CONFLICT', 'El documento cambió mientras firmaba: vuelva a abrirlo.');
    await tx
      .update(signingSigners)
      .set({ state: 'FIRMADO', actedAt: new Date(), certificateId: cert.id })
      .where(and(eq(signingSigners.requestId, id), eq(signingSigners.position, me.position)));
    await tx.update(signingCertificates).set({ failedAttempts: 0, lockedUntil: null }).where(eq(signingCertificates.id, cert.id));
    await event(tx, ctx, id, 'FIRMADO', { hashBefore: req.currentSha256, hashAfter: after });
    if (completion)
      await event(tx, ctx, id, 'CONSTANCIA', {
        hashBefore: after,
        hashAfter: completion.sha256,
        detail: 'Constancia de firmas anexada y sellada por la institución',
      });
    const [next] = await tx
      .update(signingSigners)
      .set({ state: 'PENDIENTE' })
      .where(and(eq(signingSigners.requestId, id), eq(signingSigners.position, me.position + 1)))
      .returning();
    if (next) {
      await notifyUsers({
        db: tx,
        userIds: [next.userId],
        title: 'Documento pendiente de firma',
        body: `«${req.title}» espera su firma.`,
        link: '/firmaDoc/pendientes',
      });
    } else {
      await moveRequest(tx, ctx, id, 'PENDIENTE', 'FIRMADO', 'El documento cambió mientras firmaba: vuelva a abrirlo.', {
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
  const stamp = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  const lines = [
    `Documento: ${req.title} (${req.filename})`,
    `SHA-256 del original: ${req.originalSha256}`,
    `SHA-256 con todas las firmas: ${signedSha256}`,
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
    await moveRequest(tx, ctx, id, 'PENDIENTE', 'RECHAZADO', 'El documento ya no está pendiente de firma.', {
      comment: reason,
      set: () => ({ completedAt: new Date() }),
    });
    await tx
      .update(signingSigners)
      .set({ state: 'RECHAZADO', actedAt: new Date(), reason })
      .where(and(eq(signingSigners.requestId, id), eq(signingSigners.position, me.position)));
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

// ---------------------------------------------------------------- verification

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

// ---------------------------------------------------------------- automatic signing rules

const ruleDto = (r: typeof autoSignRules.$inferSelect) => ({
  id: r.id,
  name: r.name,
  documentKind: r.documentKind,
  isActive: r.isActive,
  createdAt: r.createdAt.toISOString(),
});

export async function listRules(ctx: RequestContext) {
  const rows = await ctx.db.select().from(autoSignRules).orderBy(asc(autoSignRules.name));
  return rows.map(ruleDto);
}

export async function createRule(ctx: RequestContext, input: { name: string; documentKind: string; isActive: boolean }) {
  const [dup] = await ctx.db
    .select({ id: autoSignRules.id })
    .from(autoSignRules)
    .where(eq(autoSignRules.documentKind, input.documentKind));
  if (dup)
    throw new AppError('DUPLICATE', 'Ya existe una regla para ese tipo de documento.', [
      { path: 'documentKind', message: 'Ya tiene una regla.' },
    ]);
  const [row] = await ctx.db.transaction(async (tx) => {
    const out = await tx
      .insert(autoSignRules)
      .values({ ...input, createdBy: ctx.user.id })
      .returning();
    await ctx.audit({ action: 'CREATE', entityType: 'auto_sign_rule', entityId: out[0].id, after: input }, tx);
    return out;
  });
  return ruleDto(row);
}

export async function updateRule(ctx: RequestContext, id: number, input: { isActive: boolean }) {
  const [row] = await ctx.db.transaction(async (tx) => {
    const out = await tx.update(autoSignRules).set(input).where(eq(autoSignRules.id, id)).returning();
    if (out[0]) await ctx.audit({ action: 'UPDATE', entityType: 'auto_sign_rule', entityId: id, after: input }, tx);
    return out;
  });
  if (!row) throw new AppError('NOT_FOUND', 'La regla no existe.');
  return ruleDto(row);
}

export async function deleteRule(ctx: RequestContext, id: number) {
  const out = await ctx.db.transaction(async (tx) => {
    const rows = await tx.delete(autoSignRules).where(eq(autoSignRules.id, id)).returning();
    if (rows[0])
      await ctx.audit(
        { action: 'DELETE', entityType: 'auto_sign_rule', entityId: id, before: { documentKind: rows[0].documentKind } },
        tx,
      );
    return rows;
  });
  if (!out.length) throw new AppError('NOT_FOUND', 'La regla no existe.');
}
