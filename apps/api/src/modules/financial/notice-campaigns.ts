import {
  AppError,
  centsToDecimal,
  decimalToCents,
  formatDay,
  guatemalaToday,
  msg,
  type NoticeCampaignCreate,
  noticeAddressesOf,
  text,
} from '@aporta/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { arrearsNoticeCampaigns, arrearsNotices, jobs, municipalEntities } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { contextFromRequest, defineJob, enqueueJob, type JobRun } from '../../platform/jobs.ts';
import { enqueueMail } from '../../platform/mail.ts';
import { generateReportPdf, verificationPagePath } from '../../platform/pdf.ts';
import { fileDocument } from '../documents/filing.ts';
import { assertSettingsCover } from '../settings/history.ts';
import { debtByOrder, noticeLetter, noticeNumber, paymentTerms } from './notice-letter.ts';
import { getCampaign } from './notices.ts';
import { arrearsRanking } from './reports.ts';

/**
 * Arrears notice campaigns (issue 29): started from the arrears ranking (entities chosen, or every one
 * owing at least an amount on the day), one notice row per entity written with the campaign and its job
 * in one transaction; the job then computes each entity's debt as of the day (the ranking's definition),
 * lays out its letter, files it in Documentos (the entity's folder «Avisos de mora») and queues the mail
 * to the entity's notice addresses — or records why not. One notice per entity and day: a second
 * campaign the same day records the entity as already notified (docs/decisions.md).
 */

/** Serialises the starts of campaigns (a transaction-level advisory lock): two at once cannot both notify an entity. */
const CAMPAIGN_LOCK = 0x41564953; // "AVIS"

type Payload = { campaignId: number; ip?: string | null; origin: string | null; institution: string };

/**
 * Starts a campaign: checks each chosen entity is within the caller's scope (404 naming the first that
 * is not), or takes the ranking's entities owing at least `minTotal` on the day; records the campaign,
 * one notice per entity (already notified today: recorded so, without a letter) and queues its job.
 */
export async function startCampaign(
  ctx: RequestContext,
  input: NoticeCampaignCreate,
  env: { origin: string | null; institution: string },
) {
  const today = guatemalaToday();
  const asOf = input.asOf ?? today;
  if (input.asOf) await assertSettingsCover(ctx.db, asOf, { path: 'asOf', label: 'La fecha de la deuda' });
  let entityIds: number[];
  if (input.entityIds) {
    entityIds = [...new Set(input.entityIds)];
    const found = await ctx.db
      .select({ id: municipalEntities.id })
      .from(municipalEntities)
      .where(and(inArray(municipalEntities.id, entityIds), ctx.inScope(municipalEntities.id)));
    const inScope = new Set(found.map((f) => f.id));
    const missing = entityIds.find((id) => !inScope.has(id));
    if (missing !== undefined) throw new AppError('NOT_FOUND', msg('financial.campaignEntityNotFound', { id: missing }));
  } else {
    const min = decimalToCents(input.minTotal ?? '0');
    const ranking = await arrearsRanking(ctx, { asOf });
    entityIds = ranking.items
      .filter((r) => decimalToCents(r.total) >= min)
      .slice(0, 500)
      .map((r) => r.entityId);
    if (!entityIds.length) throw new AppError('CONFLICT', msg('financial.campaignNoEntities', { amount: min, date: asOf }));
  }
  const { campaignId, jobId } = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CAMPAIGN_LOCK}::int4, 0)`);
    const prior = new Map(
      (
        await tx
          .select({ id: arrearsNotices.id, entityId: arrearsNotices.entityId })
          .from(arrearsNotices)
          .where(
            and(
              inArray(arrearsNotices.entityId, entityIds),
              eq(arrearsNotices.issuedOn, today),
              inArray(arrearsNotices.outcome, ['PENDIENTE', 'NOTIFICADA', 'SIN_DIRECCION']),
            ),
          )
      ).map((p) => [p.entityId, p.id]),
    );
    if (prior.size === entityIds.length)
      throw new AppError('CONFLICT', msg('financial.campaignAllAlreadyNotified', { date: today }));
    const [c] = await tx
      .insert(arrearsNoticeCampaigns)
      .values({
        asOf,
        issuedOn: today,
        minTotal: input.minTotal === undefined ? null : decimalToCents(input.minTotal),
        createdBy: ctx.actor.id ?? ctx.user.id,
      })
      .returning({ id: arrearsNoticeCampaigns.id });
    await tx.insert(arrearsNotices).values(
      entityIds.map((entityId) => ({
        campaignId: c.id,
        entityId,
        asOf,
        issuedOn: today,
        outcome: prior.has(entityId) ? ('YA_NOTIFICADA' as const) : ('PENDIENTE' as const),
        priorNoticeId: prior.get(entityId) ?? null,
      })),
    );
    const job = await enqueueJob(
      ctx,
      noticeCampaignJob,
      { campaignId: c.id, ip: ctx.actor.ip ?? null, origin: env.origin, institution: env.institution },
      { tx },
    );
    await tx.update(arrearsNoticeCampaigns).set({ jobId: job.id }).where(eq(arrearsNoticeCampaigns.id, c.id));
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'arrears-notice-campaign',
        entityId: c.id,
        after: {
          fecha: asOf,
          entidades: entityIds.length,
          yaNotificadas: prior.size,
          ...(input.minTotal ? { deudaMinima: input.minTotal } : {}),
        },
        scopeEntityId: entityIds.length === 1 ? entityIds[0] : null,
      },
      tx,
    );
    return { campaignId: c.id, jobId: job.id };
  });
  return { campaign: await getCampaign(ctx, { id: campaignId }), jobId };
}

type NoticeRow = typeof arrearsNotices.$inferSelect;

/**
 * One entity of the campaign: its debt on the day; nothing owed → SIN_DEUDA; otherwise its letter filed
 * in Documentos (a retry files a new version of the same document: the source is the notice) and, in one
 * transaction, the mail queued to its addresses (the letter attached), the notice's outcome and its audit row.
 */
async function notifyEntity(ctx: RequestContext, files: FileStore, n: NoticeRow, env: Payload) {
  const debt = await debtByOrder(ctx.db, n.entityId, n.asOf);
  const pending = and(eq(arrearsNotices.id, n.id), eq(arrearsNotices.outcome, 'PENDIENTE'));
  if (debt.total <= 0n) {
    await ctx.db
      .update(arrearsNotices)
      .set({ outcome: 'SIN_DEUDA', amount: 0n, orders: 0, notifiedAt: new Date() })
      .where(pending);
    return 'SIN_DEUDA' as const;
  }
  const [e] = await ctx.db.select().from(municipalEntities).where(eq(municipalEntities.id, n.entityId));
  const report = noticeLetter({
    entity: { name: e.name, code: e.code, address: e.address },
    asOf: n.asOf,
    issuedOn: n.issuedOn,
    noticeId: n.id,
    debt,
    terms: await paymentTerms(ctx.db, n.issuedOn),
  });
  const origin = env.origin;
  const { pdf } = await generateReportPdf(ctx, report, {
    fallbackInstitution: env.institution,
    verifyUrl: origin ? (code) => `${origin}${verificationPagePath(code)}` : undefined,
  });
  const filename = `aviso-mora-${e.code}-${n.asOf}.pdf`;
  const doc = await fileDocument(ctx, files, {
    folder: ['Avisos de mora'],
    entityId: e.id,
    title: `Aviso de mora ${noticeNumber(n.id)} · deuda al ${formatDay(n.asOf)}`,
    docType: 'OFICIO',
    sourceType: 'arrears_notice',
    sourceId: n.id,
    file: { bytes: new Uint8Array(pdf), filename },
    note: `Campaña de avisos de mora ${n.campaignId}`,
  });
  const addresses = noticeAddressesOf(e);
  const current = doc.versions[0];
  return ctx.db.transaction(async (tx) => {
    const outboxId = addresses.length
      ? await enqueueMail(tx, {
          event: 'arrears.notice',
          to: addresses,
          params: { entity: e.name, amount: debt.total, asOf: n.asOf },
          attachments: [{ kind: 'blob', sha256: current.sha256, filename: current.filename, contentType: 'application/pdf' }],
          dedupeKey: `arrears.notice:${n.id}`,
        })
      : null;
    const outcome = addresses.length ? ('NOTIFICADA' as const) : ('SIN_DIRECCION' as const);
    const [updated] = await tx
      .update(arrearsNotices)
      .set({
        outcome,
        amount: debt.total,
        orders: debt.lines.length,
        documentId: doc.id,
        outboxId,
        addresses,
        notifiedAt: new Date(),
      })
      .where(pending)
      .returning({ id: arrearsNotices.id });
    if (!updated) return 'SKIPPED' as const;
    await ctx.audit(
      {
        action: 'ARREARS_NOTICE',
        entityType: 'arrears-notice',
        entityId: n.id,
        after: {
          campana: n.campaignId,
          fecha: n.asOf,
          monto: centsToDecimal(debt.total),
          documento: doc.id,
          correo: outboxId,
          direcciones: addresses.join(', ') || 'sin dirección',
        },
        scopeEntityId: e.id,
      },
      tx,
    );
    return outcome;
  });
}

/** Leaves the campaign's notices not reached NO_ENVIADA and the campaign ended (`state`), with the reason. */
async function endCampaign(db: Db, campaignId: number, state: 'TERMINADA' | 'FALLIDA', failure: string | null) {
  await db.transaction(async (tx) => {
    await tx
      .update(arrearsNotices)
      .set({ outcome: 'NO_ENVIADA' })
      .where(and(eq(arrearsNotices.campaignId, campaignId), eq(arrearsNotices.outcome, 'PENDIENTE')));
    await tx
      .update(arrearsNoticeCampaigns)
      .set({ state, failure, finishedAt: new Date() })
      .where(and(eq(arrearsNoticeCampaigns.id, campaignId), eq(arrearsNoticeCampaigns.state, 'EN_CURSO')));
  });
}

async function runCampaign(job: JobRun<Payload>) {
  const ctx = contextFromRequest(job);
  const { campaignId } = job.payload;
  const all = await ctx.db
    .select({ n: arrearsNotices, entityName: municipalEntities.name })
    .from(arrearsNotices)
    .innerJoin(municipalEntities, eq(municipalEntities.id, arrearsNotices.entityId))
    .where(eq(arrearsNotices.campaignId, campaignId))
    .orderBy(arrearsNotices.id);
  const total = all.length;
  let done = all.filter((r) => r.n.outcome !== 'PENDIENTE').length;
  // Only within the scope the starter holds now (the job's permission is checked again at start).
  const scope = ctx.inScope(arrearsNotices.entityId);
  const reachable = new Set(
    (
      await ctx.db
        .select({ id: arrearsNotices.id })
        .from(arrearsNotices)
        .where(and(eq(arrearsNotices.campaignId, campaignId), eq(arrearsNotices.outcome, 'PENDIENTE'), scope))
    ).map((r) => r.id),
  );
  const tally = { notified: 0, withoutAddress: 0, withoutDebt: 0 };
  for (const { n, entityName } of all) {
    if (n.outcome !== 'PENDIENTE' || !reachable.has(n.id)) continue;
    await job.progress({ done, total, phase: `Aviso a ${entityName}` });
    const outcome = await notifyEntity(ctx, job.files, n, job.payload);
    if (outcome === 'NOTIFICADA') tally.notified += 1;
    else if (outcome === 'SIN_DIRECCION') tally.withoutAddress += 1;
    else if (outcome === 'SIN_DEUDA') tally.withoutDebt += 1;
    done += 1;
  }
  await endCampaign(ctx.db, campaignId, 'TERMINADA', null);
  await job.progress({ done: total, total, phase: 'Listo' });
  return { campaignId, ...tally };
}

export const noticeCampaignJob = defineJob<Payload>({
  kind: 'financial.arrears-notices',
  title: 'Campaña de avisos de mora',
  permission: { resource: 'financial-module', action: 'CREATE' },
  maxAttempts: 3,
  run: runCampaign,
  async onFailedForGood(db, job) {
    const reason =
      job.state === 'CANCELLED' ? text('financial.campaignCancelled') : (job.error ?? text('financial.campaignFailed'));
    await endCampaign(db, job.payload.campaignId, 'FALLIDA', reason);
  },
  async recover(db) {
    const stalled = await db
      .select({ id: arrearsNoticeCampaigns.id })
      .from(arrearsNoticeCampaigns)
      .leftJoin(jobs, eq(jobs.id, arrearsNoticeCampaigns.jobId))
      .where(
        and(eq(arrearsNoticeCampaigns.state, 'EN_CURSO'), sql`(${jobs.id} is null or ${jobs.state} in ('FAILED', 'CANCELLED'))`),
      );
    for (const c of stalled) await endCampaign(db, c.id, 'FALLIDA', text('financial.campaignFailed'));
    return stalled.length;
  },
});
