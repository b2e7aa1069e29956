import { AppError, type ListQuery, msg, type SigningRequest } from '@aporta/domain';
import { and, asc, count, desc, eq, exists, inArray, or, type SQL, sql } from 'drizzle-orm';
import { signingEvents, signingRequests, signingSigners, users } from '../../db/schema/index.ts';
import { getBlob } from '../../platform/blobs.ts';
import type { RequestContext } from '../../platform/context.ts';
import { listPage } from '../../platform/list.ts';
import { fullName, type SigningDeps } from './deps.ts';

/**
 * What the signing flow shows: the requests a user takes part in (lists, counts, one with its events, the
 * spec's lists) and their current bytes. A request is reached only by its sender and its signers.
 */

/** Requests the caller takes part in: sent by them, or they are (or were) a signer. */
export const involved = (userId: number) =>
  or(
    eq(signingRequests.createdBy, userId),
    exists(
      sql`(select 1 from ${signingSigners} where ${signingSigners.requestId} = ${signingRequests.id} and ${signingSigners.userId} = ${userId} and ${signingSigners.state} <> 'ESPERA')`,
    ),
  );

export async function involvedRequest(ctx: RequestContext, id: number) {
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
  if (!req) throw new AppError('NOT_FOUND', msg('signing.requestNotFound'));
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

/**
 * The name a request's current bytes download as: the uploaded name, marked `-firmado` once every signer
 * signed, `-firma-parcial` while it carries some signatures but not all (a draft or an unsigned one keeps
 * its name). Spanish on purpose, like the documents themselves.
 */
export function signedFilename(
  filename: string,
  req: Pick<typeof signingRequests.$inferSelect, 'state' | 'currentSha256' | 'originalSha256'>,
): string {
  const suffix = req.state === 'FIRMADO' ? '-firmado' : req.currentSha256 !== req.originalSha256 ? '-firma-parcial' : '';
  if (!suffix) return filename;
  const base = filename.replace(/\.pdf$/i, '') || 'documento';
  return `${base}${suffix}.pdf`;
}

/** The current bytes of a request the caller takes part in (preview, download), named for what they hold. */
export async function requestPdf(ctx: RequestContext, deps: SigningDeps, id: number) {
  const req = await involvedRequest(ctx, id);
  const bytes = await getBlob(deps.files, req.currentSha256);
  return { bytes, filename: signedFilename(req.filename, req), sha256: req.currentSha256 };
}
