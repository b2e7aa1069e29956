import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AppError,
  addDays,
  formatCui,
  formatDay,
  laterDate,
  nextSurvivalDue,
  pensionMachine,
  pensionTypeLabels,
  periodEnd,
  periodOf,
  periodStart,
  type SurvivalCheck,
  type SurvivalListQuery,
  type survivalCheckInputSchema,
  survivalMethodLabels,
  survivalStatus,
  survivalWindow,
  suspendIfDueBefore,
} from '@aporta/domain';
import { and, count, desc, eq, gt, gte, isNull, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  pensionReviews,
  pensionSuspensions,
  pensions,
  renapLookups,
  storedFiles,
  survivalChecks,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { pageOf } from '../../platform/list.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { applyTransition, applyTransitionWhere } from '../../platform/transitions.ts';
import type { AcceptedType, UploadedFile } from '../../platform/uploads.ts';
import { findUserIdsWithPermission } from '../auth/service.ts';
import { fileDocument } from '../documents/filing.ts';
import { notifyUsers } from '../notifications/service.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { lookupRenap } from '../renap/service.ts';
import { settingsAt } from '../settings/service.ts';
import { flagOwedMonths, getPension, loadPension, pensionQuery, today, toPension } from './service.ts';

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
  if (!ext) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'El acta debe ser PDF, JPG o PNG.');
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
  const fail = (path: string, msg: string): never => {
    throw new AppError('VALIDATION', msg, [{ path, message: msg }]);
  };
  if (p.state === 'FINALIZADA') throw new AppError('CONFLICT', 'La pensión está finalizada: no lleva supervivencia.');
  if (data.checkDate < p.startDate) fail('checkDate', 'La fecha de la supervivencia es anterior al inicio de la pensión.');
  const [review] = await ctx.db
    .select({ id: pensionReviews.id })
    .from(pensionReviews)
    .where(and(eq(pensionReviews.pensionId, p.id), eq(pensionReviews.state, 'ABIERTA')));
  if (review) {
    throw new AppError(
      'CONFLICT',
      'RENAP registra el fallecimiento del pensionado: resuelva primero la revisión abierta antes de registrar la supervivencia.',
    );
  }
  const s = (await settingsAt(ctx.db, data.checkDate)).values;
  const due = p.survivalDue ?? nextSurvivalDue(p.birthDate, p.startDate);
  const opens = addDays(due, -s['survival.windowDaysAfterBirthday']);
  if (data.checkDate < opens) {
    fail('checkDate', `Aún no corresponde: la supervivencia del cumpleaños ${due} se presenta desde ${opens}.`);
  }
  if (data.attachmentFileId) {
    const [f] = await ctx.db.select().from(storedFiles).where(eq(storedFiles.id, data.attachmentFileId));
    const [used] = await ctx.db
      .select({ id: survivalChecks.id })
      .from(survivalChecks)
      .where(eq(survivalChecks.attachmentFileId, data.attachmentFileId));
    if (!f || f.userId !== ctx.user.id || !f.key.startsWith('survival/') || used) {
      fail('attachmentFileId', 'El archivo adjunto no existe o ya se usó; vuelva a adjuntar el acta.');
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
    if (outcome.result !== 'ENCONTRADO') fail('method', outcome.warning ?? 'RENAP no confirmó al pensionado.');
    if (outcome.person?.deathDate)
      fail('method', `RENAP registra el fallecimiento el ${outcome.person.deathDate}: no confirma la supervivencia.`);
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
  if (!r) throw new AppError('NOT_FOUND', 'La supervivencia no existe, no tiene acta adjunta o no está dentro de su alcance.');
  return r;
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

// ─── Letters ────────────────────────────────────────────────────────────────────────────────────────

/** The letter to one pensioner whose check is due: a page of the letters PDF. */
function letterSection(p: ReturnType<typeof toPension>, w: { due: string; windowEnd: string; graceEnd: string }, first: boolean) {
  const d = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
  return {
    pageBreakBefore: !first,
    heading: `Señor(a) ${p.fullName}`,
    paragraphs: [
      `CUI: ${formatCui(p.cui)} · Pensión de ${pensionTypeLabels[p.type].toLowerCase()} · Resolución ${p.resolutionNumber}`,
      `Le recordamos que su constancia anual de supervivencia corresponde a su cumpleaños del ${d(w.due)}. Puede presentarla en persona en nuestras oficinas, mediante acta notarial o con la confirmación de RENAP, a más tardar el ${d(w.windowEnd)}.`,
      `Si no la presenta antes del ${d(w.graceEnd)}, su pensión se suspenderá. Al presentarla se reactivará y los meses suspendidos se pagarán en la siguiente planilla.`,
      'Atentamente,',
      'Sección de Clases Pasivas',
    ],
  };
}

/** The letters report for `rows` (one page each). */
export async function lettersReport(db: Db, rows: ReturnType<typeof toPension>[], asOf: string): Promise<ReportDefinition> {
  const s = (await settingsAt(db, asOf)).values;
  return {
    kind: 'survival-letters',
    title: rows.length === 1 ? 'Aviso de supervivencia' : 'Avisos de supervivencia',
    filters: [
      { label: 'Fecha', value: asOf },
      { label: 'Pensionados', value: String(rows.length) },
    ],
    tables: [],
    sections: rows.map((p, i) => letterSection(p, survivalWindow(p.survivalDue as string, s), i === 0)),
  };
}

/** The letter of one pension. Callers: supervivencia EXPORT. */
export async function oneLetter(ctx: RequestContext, pensionId: number) {
  const p = await loadPension(ctx.db, pensionId, ctx.inScope(pensions.entityId));
  if (p.state === 'FINALIZADA' || !p.survivalDue)
    throw new AppError('CONFLICT', 'La pensión está finalizada: no lleva supervivencia.');
  return lettersReport(ctx.db, [p], today());
}

/** Pensions to write to on `asOf`: active ones whose due birthday falls in that month. */
export async function pensionsToWrite(ctx: RequestContext, input: { asOf: string; entityId?: number }) {
  const month = periodOf(input.asOf);
  const rows = await pensionQuery(ctx.db)
    .where(
      and(
        ctx.inScope(pensions.entityId),
        eq(pensions.state, 'ACTIVA'),
        gte(pensions.survivalDue, periodStart(month)),
        lte(pensions.survivalDue, periodEnd(month)),
        input.entityId ? eq(pensions.entityId, input.entityId) : undefined,
      ),
    )
    .orderBy(pensions.survivalDue, pensions.id)
    .limit(5000);
  return rows.map(toPension);
}

// ─── The daily suspension ───────────────────────────────────────────────────────────────────────────

/**
 * Suspends every active pension whose survival check is overdue beyond grace on `asOf` (settings of
 * that day): one set-based transition (history and audit included), then one suspension row per
 * pension dated the day after its grace ended, then a notification to the holders of supervivencia
 * READ. Idempotent: run twice, the second finds nothing. Callers: the daily job.
 */
export async function suspendOverdue(ctx: RequestContext, asOf: string) {
  const s = (await settingsAt(ctx.db, asOf)).values;
  const cutoff = suspendIfDueBefore(asOf, s);
  const days = s['survival.windowDaysAfterBirthday'] + s['survival.graceDays'] + 1;
  const moved = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const rows = await applyTransitionWhere(ctx, {
      tx: db,
      machine: pensionMachine,
      table: pensions,
      from: 'ACTIVA',
      to: 'SUSPENDIDA',
      where: sql`${pensions.survivalDue} < ${cutoff}`,
      comment: `Supervivencia no presentada dentro del plazo y la gracia (al ${asOf}).`,
      entityId: pensions.entityId,
      set: sql`"updated_at" = now()`,
    });
    if (rows.length) {
      await db.execute(sql`
        insert into ${pensionSuspensions} (pension_id, reason, from_date, comment)
        select p.id, 'SUPERVIVENCIA', least(p.survival_due + ${days}::int, ${asOf}::date), ${`Suspendida por el proceso diario del ${asOf}.`}
          from ${pensions} p where p.id = any(${`{${rows.map((r) => r.id).join(',')}}`}::int[])`);
      // Whoever handles survival checks hears of it, in the same transaction. No count or names: a
      // holder's grant may be limited to some entities, and the overdue list they open is scoped.
      await notifyUsers({
        db,
        userIds: await findUserIdsWithPermission(db, 'supervivencia', 'APPROVE'),
        type: 'warning',
        title: `Pensiones suspendidas por supervivencia no presentada (proceso del ${formatDay(asOf)})`,
        body: 'El proceso diario suspendió las pensiones cuya supervivencia venció con su plazo de gracia. Al presentarla, la pensión se reactiva y los meses suspendidos quedan marcados para pago.',
        link: '/contributors/supervivencia?tab=overdue',
      });
    }
    return rows;
  });
  return { asOf, cutoff, suspended: moved.length };
}

// ─── RENAP deaths ───────────────────────────────────────────────────────────────────────────────────

/**
 * Acts on a death record of a pensioner: an active pension is suspended at once from the death date
 * (FALLECIMIENTO), and a review is opened (one per pension). A pension already suspended keeps its
 * suspension and gets the review. Returns whether a review was opened.
 */
export async function actOnDeath(
  ctx: RequestContext,
  tx: Db,
  p: { id: number; state: string; entityId: number | null },
  deathDate: string,
) {
  const [open] = await tx
    .select({ id: pensionReviews.id })
    .from(pensionReviews)
    .where(and(eq(pensionReviews.pensionId, p.id), eq(pensionReviews.state, 'ABIERTA')));
  if (open) return false;
  // The state as it is now, locked: the sweep read it earlier, and the daily suspension (or a person) may
  // have suspended or ended the pension since.
  const [now] = await tx.select({ state: pensions.state }).from(pensions).where(eq(pensions.id, p.id)).for('update');
  if (!now || now.state === 'FINALIZADA') return false;
  if (now.state === 'ACTIVA') {
    await applyTransition(ctx, {
      tx,
      machine: pensionMachine,
      table: pensions,
      id: p.id,
      to: 'SUSPENDIDA',
      comment: `RENAP registra el fallecimiento el ${deathDate}.`,
      entityId: pensions.entityId,
      set: () => ({ updatedAt: new Date() }),
    });
    await tx.insert(pensionSuspensions).values({
      pensionId: p.id,
      reason: 'FALLECIMIENTO',
      fromDate: deathDate,
      comment: 'Fallecimiento registrado en RENAP.',
    });
  }
  await tx.insert(pensionReviews).values({ pensionId: p.id, deathDate });
  await ctx.audit(
    { action: 'DEATH_REVIEW_OPEN', entityType: 'pension', entityId: p.id, after: { deathDate }, scopeEntityId: p.entityId },
    tx,
  );
  return true;
}

/**
 * Checks every open pension (active or suspended) against RENAP in chunks, logging each lookup; a
 * death record suspends and opens a review. The offline registry answers a chunk in one query.
 * Callers: the RENAP job (supervivencia APPROVE).
 */
export async function renapSweep(
  ctx: RequestContext,
  adapter: RenapAdapter,
  progress: (done: number, total: number) => Promise<void>,
  chunk = 2000,
) {
  const scope = ctx.inScope(pensions.entityId);
  const open = and(scope, sql`${pensions.state} <> 'FINALIZADA'`);
  const [{ total }] = await ctx.db.select({ total: count() }).from(pensions).where(open);
  let done = 0;
  let deaths = 0;
  let reviews = 0;
  let lastId = 0;
  await progress(0, total);
  for (;;) {
    const rows = await ctx.db
      .select({ id: pensions.id, cui: pensions.cui, state: pensions.state, entityId: pensions.entityId })
      .from(pensions)
      .where(and(open, gt(pensions.id, lastId)))
      .orderBy(pensions.id)
      .limit(chunk);
    if (!rows.length) break;
    lastId = rows[rows.length - 1].id;
    const started = Date.now();
    const found = await lookupMany(adapter, [...new Set(rows.map((r) => r.cui))]);
    const ms = Math.round((Date.now() - started) / Math.max(1, rows.length));
    await ctx.db.insert(renapLookups).values(
      rows.map((r) => ({
        userId: ctx.actor.id,
        userEmail: ctx.actor.email,
        cui: r.cui,
        source: adapter.source,
        result: found.has(r.cui) ? ('ENCONTRADO' as const) : ('NO_ENCONTRADO' as const),
        durationMs: ms,
        purpose: 'verificación periódica de pensionados',
      })),
    );
    const dead = rows.filter((r) => found.get(r.cui)?.deathDate);
    for (const r of dead) {
      deaths += 1;
      const opened = await ctx.db.transaction((tx) =>
        actOnDeath(ctx, tx as unknown as Db, r, found.get(r.cui)?.deathDate as string),
      );
      if (opened) reviews += 1;
    }
    done += rows.length;
    await progress(done, Math.max(total, done));
  }
  return { checked: done, deaths, reviewsOpened: reviews };
}

/** Looks up many CUIs: in one query on the offline registry, one by one over HTTP. */
async function lookupMany(adapter: RenapAdapter, cuis: string[]) {
  const out = new Map<string, { deathDate: string | null }>();
  if (adapter.lookupMany) {
    for (const p of await adapter.lookupMany(cuis)) out.set(p.cui, p);
    return out;
  }
  for (const cui of cuis) {
    const p = await adapter.lookup(cui).catch(() => null);
    if (p) out.set(cui, p);
  }
  return out;
}

// ─── Reviews ────────────────────────────────────────────────────────────────────────────────────────

const reviewsQuery = (db: Db) =>
  db
    .select({
      r: pensionReviews,
      cui: pensions.cui,
      fullName: pensions.fullName,
      entityId: pensions.entityId,
      state: pensions.state,
    })
    .from(pensionReviews)
    .innerJoin(pensions, eq(pensions.id, pensionReviews.pensionId));

const toReview = (x: Awaited<ReturnType<ReturnType<typeof reviewsQuery>['execute']>>[number]) => ({
  id: x.r.id,
  pensionId: x.r.pensionId,
  cui: x.cui,
  fullName: x.fullName,
  deathDate: x.r.deathDate,
  state: x.r.state,
  resolution: x.r.resolution,
  openedAt: x.r.openedAt.toISOString(),
  closedAt: x.r.closedAt?.toISOString() ?? null,
});

/** Death-record reviews within scope. Callers: supervivencia READ. */
export async function findReviews(
  ctx: RequestContext,
  query: { page: number; pageSize: number; state?: 'ABIERTA' | 'CONFIRMADA' | 'DESCARTADA' },
) {
  const where = and(ctx.inScope(pensions.entityId), query.state ? eq(pensionReviews.state, query.state) : undefined);
  const { limit, offset } = pageOf(query);
  const [rows, [{ total }]] = await Promise.all([
    reviewsQuery(ctx.db).where(where).orderBy(desc(pensionReviews.openedAt), desc(pensionReviews.id)).limit(limit).offset(offset),
    ctx.db
      .select({ total: count() })
      .from(pensionReviews)
      .innerJoin(pensions, eq(pensions.id, pensionReviews.pensionId))
      .where(where),
  ]);
  return { items: rows.map(toReview), total };
}

/**
 * Decides a death review: CONFIRMADA ends the pension on the death date (payments after it are named
 * in the resolution for recovery); DESCARTADA (RENAP was wrong) reactivates a pension suspended for
 * that death and flags its unpaid months. Callers: supervivencia APPROVE.
 */
export async function decideReview(
  ctx: RequestContext,
  input: { id: number; decision: 'CONFIRMADA' | 'DESCARTADA'; resolution: string },
) {
  const [x] = await reviewsQuery(ctx.db).where(and(eq(pensionReviews.id, input.id), ctx.inScope(pensions.entityId)));
  if (!x) throw new AppError('NOT_FOUND', 'La revisión no existe o no está dentro de su alcance.');
  if (x.r.state !== 'ABIERTA') throw new AppError('CONFLICT', 'La revisión ya fue resuelta.');
  const now = today();
  await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [closed] = await db
      .update(pensionReviews)
      .set({ state: input.decision, resolution: input.resolution, closedAt: new Date(), closedBy: ctx.actor.email })
      .where(and(eq(pensionReviews.id, input.id), eq(pensionReviews.state, 'ABIERTA')))
      .returning();
    if (!closed) throw new AppError('CONFLICT', 'La revisión ya fue resuelta.');
    const [open] = await db
      .select()
      .from(pensionSuspensions)
      .where(and(eq(pensionSuspensions.pensionId, x.r.pensionId), isNull(pensionSuspensions.toDate)));
    if (input.decision === 'CONFIRMADA' && x.state !== 'FINALIZADA') {
      await applyTransition(ctx, {
        tx: db,
        machine: pensionMachine,
        table: pensions,
        id: x.r.pensionId,
        to: 'FINALIZADA',
        comment: `Fallecimiento confirmado (${x.r.deathDate}): ${input.resolution}`,
        entityId: pensions.entityId,
        set: () => ({ endDate: x.r.deathDate, updatedAt: new Date() }),
      });
      if (open) await db.update(pensionSuspensions).set({ toDate: x.r.deathDate }).where(eq(pensionSuspensions.id, open.id));
    }
    if (input.decision === 'DESCARTADA' && x.state === 'SUSPENDIDA' && open?.reason === 'FALLECIMIENTO') {
      await applyTransition(ctx, {
        tx: db,
        machine: pensionMachine,
        table: pensions,
        id: x.r.pensionId,
        to: 'ACTIVA',
        comment: `Revisión de fallecimiento descartada: ${input.resolution}`,
        entityId: pensions.entityId,
        set: () => ({ updatedAt: new Date() }),
      });
      await db.update(pensionSuspensions).set({ toDate: now }).where(eq(pensionSuspensions.id, open.id));
      await flagOwedMonths(db, x.r.pensionId, open.id, open.fromDate, now);
    }
    await ctx.audit(
      {
        action: 'DEATH_REVIEW_DECIDE',
        entityType: 'pension',
        entityId: x.r.pensionId,
        after: { decision: input.decision, resolution: input.resolution },
        scopeEntityId: x.entityId,
      },
      db,
    );
  });
  return getPension(ctx, { id: x.r.pensionId });
}

/** A RENAP lookup of one pensioner from the pension page: a death record acts at once. Callers: supervivencia CREATE. */
export async function checkPensionerInRenap(ctx: RequestContext, input: { pensionId: number; adapter: RenapAdapter }) {
  const p = await loadPension(ctx.db, input.pensionId, ctx.inScope(pensions.entityId));
  const outcome = await lookupRenap({ db: ctx.db, adapter: input.adapter, actor: ctx.actor, cui: p.cui, purpose: 'pensionado' });
  const death = outcome.person?.deathDate ?? null;
  let reviewOpened = false;
  if (death && p.state !== 'FINALIZADA') {
    reviewOpened = await ctx.db.transaction((tx) => actOnDeath(ctx, tx as unknown as Db, p, death));
  }
  return { result: outcome.result, deathDate: death, reviewOpened, warning: outcome.warning };
}
