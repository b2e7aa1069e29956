/**
 * Survival checks: the notarised act's upload, registering a check (which reactivates a pension suspended
 * for a missing one), filing the act in Documentos, a pension's checks, and the due / overdue / done lists.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AppError,
  addDays,
  detail,
  laterDate,
  type Message,
  msg,
  nextSurvivalDue,
  pensionMachine,
  type SurvivalCheck,
  type SurvivalListQuery,
  type survivalCheckInputSchema,
  survivalMethodLabels,
  survivalStatus,
  survivalWindow,
} from '@aporta/domain';
import { and, count, desc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { pensionReviews, pensionSuspensions, pensions, storedFiles, survivalChecks } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { pageOf } from '../../platform/list.ts';
import { applyTransition } from '../../platform/transitions.ts';
import type { AcceptedType, UploadedFile } from '../../platform/uploads.ts';
import { fileDocument } from '../documents/filing.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { lookupRenap } from '../renap/service.ts';
import { settingsAt } from '../settings/service.ts';
import { flagOwedMonths } from './owed-months.ts';
import { loadPension, pensionQuery, today, toPension } from './service.ts';

/** Largest notarised act accepted (bytes). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** What a notarised act may be (detected from its bytes by platform/uploads.ts), and its stored ending. */
export const ATTACHMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const satisfies readonly AcceptedType[];
const attachmentExtension: Record<(typeof ATTACHMENT_TYPES)[number], string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
};

/**
 * Stores an uploaded notarised act (platform/files.ts) and registers it as a stored file of the
 * uploader, kept without expiry; a check links it by id. The documents library (issue 16) can adopt
 * these rows later. Callers: supervivencia CREATE.
 */
export async function storeAttachment(
  ctx: RequestContext,
  files: FileStore,
  input: UploadedFile,
): Promise<{ id: number; filename: string; size: number }> {
  const ext = attachmentExtension[input.contentType as (typeof ATTACHMENT_TYPES)[number]];
  if (!ext) throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('pensions.attachmentType'));
  const key = `survival/${today().slice(0, 7)}/${randomBytes(12).toString('hex')}.${ext}`;
  const { size } = await files.put(key, Readable.from([Buffer.from(input.bytes)]), { contentType: input.contentType });
  // The name was cleaned where the upload was read (platform/uploads.ts).
  const filename = input.filename;
  const [row] = await ctx.db
    .insert(storedFiles)
    .values({ key, filename, contentType: input.contentType, size, userId: ctx.user.id, expiresAt: null })
    .returning({ id: storedFiles.id });
  await ctx.audit({ action: 'UPLOAD', entityType: 'survival_attachment', entityId: row.id, after: { filename, size } });
  return { id: row.id, filename, size };
}

type CheckData = z.output<typeof survivalCheckInputSchema>;

/**
 * Registers a survival check. Refuses a date in the future or before the pension started, a pension
 * ended or with an open death review, an attachment that is not the user's unused upload, and a RENAP
 * confirmation RENAP does not give. A check covers the due birthday (presented from one window before
 * it); a pension suspended for a missing check is reactivated and its unpaid months flagged.
 * Callers: supervivencia CREATE.
 */
export async function registerSurvivalCheck(
  ctx: RequestContext,
  input: { pensionId: number; data: CheckData; adapter: RenapAdapter },
): Promise<SurvivalCheck> {
  const { data } = input;
  const p = await loadPension(ctx.db, input.pensionId, ctx.inScope(pensions.entityId));
  const now = today();
  const fail = (path: string, m: Message): never => {
    throw new AppError('VALIDATION', m, [{ path, ...detail(m) }]);
  };
  if (p.state === 'FINALIZADA') throw new AppError('CONFLICT', msg('pensions.noSurvival'));
  if (data.checkDate < p.startDate) fail('checkDate', msg('pensions.checkBeforeStart'));
  const [review] = await ctx.db
    .select({ id: pensionReviews.id })
    .from(pensionReviews)
    .where(and(eq(pensionReviews.pensionId, p.id), eq(pensionReviews.state, 'ABIERTA')));
  if (review) {
    throw new AppError('CONFLICT', msg('pensions.openDeathReview'));
  }
  const s = (await settingsAt(ctx.db, data.checkDate)).values;
  const due = p.survivalDue ?? nextSurvivalDue(p.birthDate, p.startDate);
  const opens = addDays(due, -s['survival.windowDaysAfterBirthday']);
  if (data.checkDate < opens) {
    fail('checkDate', msg('pensions.checkTooEarly', { due, opens }));
  }
  if (data.attachmentFileId) {
    const [f] = await ctx.db.select().from(storedFiles).where(eq(storedFiles.id, data.attachmentFileId));
    const [used] = await ctx.db
      .select({ id: survivalChecks.id })
      .from(survivalChecks)
      .where(eq(survivalChecks.attachmentFileId, data.attachmentFileId));
    if (!f || f.userId !== ctx.user.id || !f.key.startsWith('survival/') || used) {
      fail('attachmentFileId', msg('pensions.attachmentUnavailable'));
    }
  }
  if (data.method === 'RENAP') {
    const outcome = await lookupRenap({
      db: ctx.db,
      adapter: input.adapter,
      actor: ctx.actor,
      cui: p.cui,
      purpose: 'supervivencia',
    });
    if (outcome.result !== 'ENCONTRADO') fail('method', outcome.warning ?? msg('pensions.renapNotConfirmed'));
    if (outcome.person?.deathDate) fail('method', msg('pensions.renapDeathNoSurvival', { date: outcome.person.deathDate }));
  }
  const nextDue = nextSurvivalDue(p.birthDate, laterDate(data.checkDate, due));
  const id = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    let reactivated = false;
    if (p.state === 'SUSPENDIDA') {
      const [open] = await db
        .select()
        .from(pensionSuspensions)
        .where(and(eq(pensionSuspensions.pensionId, p.id), isNull(pensionSuspensions.toDate)));
      if (open?.reason === 'SUPERVIVENCIA') {
        await applyTransition(ctx, {
          tx: db,
          machine: pensionMachine,
          table: pensions,
          id: p.id,
          to: 'ACTIVA',
          comment: `Supervivencia presentada el ${data.checkDate} (${survivalMethodLabels[data.method].toLowerCase()}).`,
          entityId: pensions.entityId,
        });
        await db.update(pensionSuspensions).set({ toDate: now }).where(eq(pensionSuspensions.id, open.id));
        await flagOwedMonths(db, p.id, open.id, open.fromDate, now);
        reactivated = true;
      }
    }
    await db
      .update(pensions)
      .set({ survivalDue: nextDue, lastCheckDate: data.checkDate, updatedAt: new Date() })
      .where(eq(pensions.id, p.id));
    const [row] = await db
      .insert(survivalChecks)
      .values({
        pensionId: p.id,
        checkDate: data.checkDate,
        method: data.method,
        coversDue: due,
        attachmentFileId: data.attachmentFileId ?? null,
        notes: data.notes ?? null,
        reactivated,
        createdBy: ctx.actor.id,
        createdByEmail: ctx.actor.email,
      })
      .returning({ id: survivalChecks.id });
    await ctx.audit(
      {
        action: 'SURVIVAL_CHECK',
        entityType: 'pension',
        entityId: p.id,
        before: { survivalDue: due, state: p.state },
        after: { checkDate: data.checkDate, method: data.method, survivalDue: nextDue, reactivated },
        scopeEntityId: p.entityId,
      },
      db,
    );
    return row.id;
  });
  const [check] = await checksQuery(ctx.db).where(eq(survivalChecks.id, id));
  return toCheck(check);
}

const checksQuery = (db: Db) =>
  db
    .select({ c: survivalChecks, cui: pensions.cui, fullName: pensions.fullName, attachmentName: storedFiles.filename })
    .from(survivalChecks)
    .innerJoin(pensions, eq(pensions.id, survivalChecks.pensionId))
    .leftJoin(storedFiles, eq(storedFiles.id, survivalChecks.attachmentFileId));

const toCheck = (r: Awaited<ReturnType<ReturnType<typeof checksQuery>['execute']>>[number]): SurvivalCheck => ({
  id: r.c.id,
  pensionId: r.c.pensionId,
  cui: r.cui,
  fullName: r.fullName,
  checkDate: r.c.checkDate,
  method: r.c.method,
  coversDue: r.c.coversDue,
  attachmentFileId: r.c.attachmentFileId,
  attachmentName: r.attachmentName,
  notes: r.c.notes,
  reactivated: r.c.reactivated,
  createdAt: r.c.createdAt.toISOString(),
  createdBy: r.c.createdByEmail,
});

/**
 * Files a check's notarised act (when it has one) into Documentos, in the pension's entity folder
 * "Supervivencias" (the institution's when the pension has no entity). Callers: supervivencia CREATE.
 */
export async function fileSurvivalAct(ctx: RequestContext, files: FileStore, check: SurvivalCheck) {
  if (!check.attachmentFileId) return null;
  const [r] = await ctx.db
    .select({ key: storedFiles.key, filename: storedFiles.filename, entityId: pensions.entityId })
    .from(survivalChecks)
    .innerJoin(pensions, eq(pensions.id, survivalChecks.pensionId))
    .innerJoin(storedFiles, eq(storedFiles.id, survivalChecks.attachmentFileId))
    .where(eq(survivalChecks.id, check.id));
  if (!r) return null;
  const { body } = await files.get(r.key);
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return fileDocument(ctx, files, {
    folder: ['Supervivencias'],
    entityId: r.entityId,
    title: `Acta de supervivencia · ${check.fullName} · ${check.checkDate}`,
    docType: 'ACTA',
    sourceType: 'survival_check',
    sourceId: check.id,
    file: { bytes: new Uint8Array(Buffer.concat(chunks)), filename: r.filename },
  });
}

/**
 * Registers a check (registerSurvivalCheck) and files its notarised act in the pension's entity folder in
 * Documentos. The check stands when the filing fails: that failure is logged, the check answered.
 * Callers: supervivencia CREATE.
 */
export async function recordSurvivalCheck(
  ctx: RequestContext,
  files: FileStore,
  log: Pick<FastifyBaseLogger, 'error'>,
  input: { pensionId: number; data: CheckData; adapter: RenapAdapter },
): Promise<SurvivalCheck> {
  const check = await registerSurvivalCheck(ctx, input);
  await fileSurvivalAct(ctx, files, check).catch((err) =>
    log.error({ err }, 'the survival act could not be filed in Documentos'),
  );
  return check;
}

/** A pension's checks, newest first. Callers: passive-classes READ / supervivencia READ. */
export async function checksOfPension(ctx: RequestContext, pensionId: number) {
  await loadPension(ctx.db, pensionId, ctx.inScope(pensions.entityId));
  const rows = await checksQuery(ctx.db).where(eq(survivalChecks.pensionId, pensionId)).orderBy(desc(survivalChecks.checkDate));
  return { items: rows.map(toCheck), total: rows.length };
}

/** The attachment of a check (the notarised act), within scope. Callers: supervivencia READ. */
export async function checkAttachment(ctx: RequestContext, checkId: number) {
  const [r] = await ctx.db
    .select({ key: storedFiles.key, filename: storedFiles.filename, contentType: storedFiles.contentType })
    .from(survivalChecks)
    .innerJoin(pensions, eq(pensions.id, survivalChecks.pensionId))
    .innerJoin(storedFiles, eq(storedFiles.id, survivalChecks.attachmentFileId))
    .where(and(eq(survivalChecks.id, checkId), ctx.inScope(pensions.entityId)));
  if (!r) throw new AppError('NOT_FOUND', msg('pensions.checkAttachmentNotFound'));
  return r;
}

/** The notarised act of a check as a download (its contents from the file store), within scope. Callers: supervivencia READ. */
export async function checkAttachmentFile(ctx: RequestContext, files: FileStore, checkId: number) {
  const f = await checkAttachment(ctx, checkId);
  const { body, size } = await files.get(f.key);
  return { body, contentType: f.contentType, size, filename: f.filename };
}

/**
 * The survival lists on `asOf`: `due` — active pensions whose due birthday has come and whose window
 * is open; `overdue` — past the window (in grace or to suspend) and still not presented, suspended
 * ones included; `done` — checks registered, newest first. Callers: supervivencia READ.
 */
export async function survivalLists(ctx: RequestContext, query: SurvivalListQuery) {
  const asOf = query.asOf ?? today();
  const s = (await settingsAt(ctx.db, asOf)).values;
  const { limit, offset } = pageOf(query);
  const scope = ctx.inScope(pensions.entityId);
  const text = query.q?.trim();
  const q = text
    ? /^[\d\s-]+$/.test(text)
      ? sql`${pensions.cui} like ${`${text.replace(/[\s-]/g, '')}%`}`
      : sql`upper(${pensions.fullName}) like upper(${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})`
    : undefined;
  const entity = query.entityId ? eq(pensions.entityId, query.entityId) : undefined;
  if (query.kind === 'done') {
    const where = and(scope, q, entity);
    const [rows, [{ total }]] = await Promise.all([
      checksQuery(ctx.db)
        .where(where)
        .orderBy(desc(survivalChecks.checkDate), desc(survivalChecks.id))
        .limit(limit)
        .offset(offset),
      ctx.db
        .select({ total: count() })
        .from(survivalChecks)
        .innerJoin(pensions, eq(pensions.id, survivalChecks.pensionId))
        .where(where),
    ]);
    return { kind: 'done' as const, asOf, checks: { items: rows.map(toCheck), total }, pensions: null };
  }
  const windowStart = addDays(asOf, -s['survival.windowDaysAfterBirthday']);
  const cond =
    query.kind === 'due'
      ? and(eq(pensions.state, 'ACTIVA'), lte(pensions.survivalDue, asOf), gte(pensions.survivalDue, windowStart))
      : and(
          sql`${pensions.state} <> 'FINALIZADA'`,
          sql`${pensions.survivalDue} < ${windowStart}`,
          // A pension suspended for another reason (death record, manual) is not "overdue".
          sql`(${pensions.state} = 'ACTIVA' or exists (select 1 from ${pensionSuspensions} where ${pensionSuspensions.pensionId} = ${pensions.id} and ${pensionSuspensions.toDate} is null and ${pensionSuspensions.reason} = 'SUPERVIVENCIA'))`,
        );
  const where = and(scope, cond, q, entity);
  const [rows, [{ total }]] = await Promise.all([
    pensionQuery(ctx.db).where(where).orderBy(pensions.survivalDue, pensions.id).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(pensions).where(where),
  ]);
  return {
    kind: query.kind,
    asOf,
    checks: null,
    pensions: {
      items: rows.map((r) => {
        const p = toPension(r);
        const w = survivalWindow(p.survivalDue as string, s);
        return { ...p, windowEnd: w.windowEnd, graceEnd: w.graceEnd, status: survivalStatus(w.due, asOf, s) };
      }),
      total,
    },
  };
}
