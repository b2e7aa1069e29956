import { AppError, detail, type IssueCertificate, type ListQuery, msg, type SigningCertificate } from '@aporta/domain';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { signingCertificates, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { listPage } from '../../platform/list.ts';
import { formatGuatemalaDateTime } from '../../platform/pdf.ts';
import {
  encryptPrivateKey,
  exportPkcs8,
  generateKeyPair,
  issueCertificate,
  newSerial,
  summarizeCertificate,
} from '../../platform/pki.ts';
import { notifyUsers } from '../notifications/service.ts';
import { caMaterial, crlUrl, publishCrl, unb64 } from './authority.ts';
import { fullName, type SigningDeps } from './deps.ts';

/**
 * Personal signing certificates (administradorFirma): listed, issued with a passphrase only their holder
 * knows, renewed and revoked (the CRL is published again).
 */

const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
const YEAR = 365 * 24 * 3600 * 1000;

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
  if (!user)
    throw new AppError('VALIDATION', msg('signing.userNotFound'), [
      { path: 'userId', ...detail(msg('signing.userNotFoundDetail')) },
    ]);
  if (!user.isActive)
    throw new AppError('VALIDATION', msg('signing.userInactive'), [
      { path: 'userId', ...detail(msg('signing.userInactiveDetail')) },
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
      body: `Vigente hasta el ${formatGuatemalaDateTime(notAfter)} (hora de Guatemala). Firme con la frase de paso que eligió.`,
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
  if (!r) throw new AppError('NOT_FOUND', msg('signing.certificateNotFound'));
  return r;
}

export async function renewCertificate(ctx: RequestContext, deps: SigningDeps, id: number, passphrase: string) {
  const r = await certificateById(ctx, id);
  if (r.c.revokedAt) throw new AppError('CONFLICT', msg('signing.certificateRevoked'));
  return issueUserCertificate(ctx, deps, { userId: r.c.userId, position: r.c.position, years: 2, passphrase });
}

export async function revokeCertificate(ctx: RequestContext, deps: SigningDeps, id: number, reason: string) {
  const r = await certificateById(ctx, id);
  if (r.c.revokedAt) throw new AppError('CONFLICT', msg('signing.certificateAlreadyRevoked'));
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
  if (!row) throw new AppError('CONFLICT', msg('signing.certificateAlreadyRevoked'));
  await publishCrl(ctx.db, deps.config);
  return certDto(row, r.name, r.email);
}
