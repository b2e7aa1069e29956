import {
  AppError,
  type ArrearsNotice,
  type ArrearsNoticeListQuery,
  centsToDecimal,
  decimalToCents,
  msg,
  type NoticeCampaign,
  type NoticeCampaignListQuery,
  noticeMailStateOf,
} from '@aporta/domain';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { arrearsNoticeCampaigns, arrearsNotices, mailOutbox, municipalEntities, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { listPage, type Page } from '../../platform/list.ts';

/**
 * Reading arrears notice campaigns and their notices (issue 29), within the caller's scope: a campaign is
 * seen by whoever reaches at least one of its entities, and its counts and amount are those of the
 * entities they reach; each notice's mail state is its outbox row's (queued, sent, failed).
 */

const c = arrearsNoticeCampaigns;
const n = arrearsNotices;

/** The campaign has a notice within the caller's scope. */
const campaignInScope = (ctx: RequestContext): SQL | undefined => {
  const scope = ctx.inScope(sql`sn.entity_id`);
  return scope ? sql`exists (select 1 from arrears_notices sn where sn.campaign_id = ${c.id} and ${scope})` : undefined;
};

function selectCampaigns(db: Db) {
  return db.select({ c, createdBy: users.email }).from(c).innerJoin(users, eq(users.id, c.createdBy));
}
type CampaignRow = Awaited<ReturnType<ReturnType<typeof selectCampaigns>['where']>>[number];

type Counts = Pick<NoticeCampaign, 'counts' | 'amount'>;

/** Counts and amount of the campaigns' notices within the caller's scope, one grouped statement. */
async function countsOf(ctx: RequestContext, ids: number[]) {
  const out = new Map<number, Counts>();
  if (!ids.length) return out;
  const scope = ctx.inScope(sql`n.entity_id`);
  const rows = rowsOf<{
    campaign_id: number;
    entities: number;
    notified: number;
    without_address: number;
    without_debt: number;
    already: number;
    not_sent: number;
    pending: number;
    amount: string;
  }>(
    await ctx.db.execute(sql`
      select n.campaign_id, count(*)::int as entities,
        count(*) filter (where n.outcome = 'NOTIFICADA')::int as notified,
        count(*) filter (where n.outcome = 'SIN_DIRECCION')::int as without_address,
        count(*) filter (where n.outcome = 'SIN_DEUDA')::int as without_debt,
        count(*) filter (where n.outcome = 'YA_NOTIFICADA')::int as already,
        count(*) filter (where n.outcome = 'NO_ENVIADA')::int as not_sent,
        count(*) filter (where n.outcome = 'PENDIENTE')::int as pending,
        coalesce(sum(n.amount) filter (where n.outcome in ('NOTIFICADA', 'SIN_DIRECCION')), 0)::text as amount
      from arrears_notices n
      where n.campaign_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) ${scope ? sql`and ${scope}` : sql``}
      group by n.campaign_id`),
  );
  for (const r of rows) {
    out.set(Number(r.campaign_id), {
      counts: {
        entities: Number(r.entities),
        notified: Number(r.notified),
        withoutAddress: Number(r.without_address),
        withoutDebt: Number(r.without_debt),
        alreadyNotified: Number(r.already),
        notSent: Number(r.not_sent),
        pending: Number(r.pending),
      },
      amount: centsToDecimal(decimalToCents(r.amount)),
    });
  }
  return out;
}

const noCounts: Counts = {
  counts: { entities: 0, notified: 0, withoutAddress: 0, withoutDebt: 0, alreadyNotified: 0, notSent: 0, pending: 0 },
  amount: '0.00',
};

function toCampaign(r: CampaignRow, counts: Map<number, Counts>): NoticeCampaign {
  return {
    id: r.c.id,
    asOf: r.c.asOf,
    issuedOn: r.c.issuedOn,
    minTotal: r.c.minTotal == null ? null : centsToDecimal(r.c.minTotal),
    state: r.c.state,
    failure: r.c.failure,
    jobId: r.c.jobId,
    createdBy: r.createdBy,
    createdAt: r.c.createdAt.toISOString(),
    finishedAt: r.c.finishedAt?.toISOString() ?? null,
    ...(counts.get(r.c.id) ?? noCounts),
  };
}

export async function findCampaigns(ctx: RequestContext, q: NoticeCampaignListQuery): Promise<Page<NoticeCampaign>> {
  const cond = and(campaignInScope(ctx), q.state ? eq(c.state, q.state) : undefined);
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: c.id, asOf: c.asOf },
    defaultSort: '-id',
    rows: (x) =>
      selectCampaigns(ctx.db)
        .where(and(cond, x.where))
        .orderBy(...x.order)
        .limit(x.limit)
        .offset(x.offset),
    idOf: (r) => r.c.id,
    count: () => ctx.db.select({ id: c.id }).from(c).where(cond),
  });
  const counts = await countsOf(
    ctx,
    page.items.map((r) => r.c.id),
  );
  return { ...page, items: page.items.map((r) => toCampaign(r, counts)) };
}

/** One campaign, if the caller reaches one of its entities (404 otherwise). */
export async function getCampaign(ctx: RequestContext, input: { id: number }): Promise<NoticeCampaign> {
  const [r] = await selectCampaigns(ctx.db).where(and(eq(c.id, input.id), campaignInScope(ctx)));
  if (!r) throw new AppError('NOT_FOUND', msg('financial.campaignNotFound'));
  return toCampaign(r, await countsOf(ctx, [r.c.id]));
}

function selectNotices(db: Db) {
  return db
    .select({ n, entityName: municipalEntities.name, entityCode: municipalEntities.code, mail: mailOutbox.state })
    .from(n)
    .innerJoin(municipalEntities, eq(municipalEntities.id, n.entityId))
    .leftJoin(mailOutbox, eq(mailOutbox.id, n.outboxId));
}
type NoticeRow = Awaited<ReturnType<ReturnType<typeof selectNotices>['where']>>[number];

const toNotice = (r: NoticeRow): ArrearsNotice => ({
  id: r.n.id,
  campaignId: r.n.campaignId,
  entityId: r.n.entityId,
  entityName: r.entityName,
  entityCode: r.entityCode,
  asOf: r.n.asOf,
  issuedOn: r.n.issuedOn,
  outcome: r.n.outcome,
  amount: r.n.amount == null ? null : centsToDecimal(r.n.amount),
  orders: r.n.orders,
  documentId: r.n.documentId,
  outboxId: r.n.outboxId,
  addresses: r.n.addresses,
  mailState: noticeMailStateOf(r.mail),
  notifiedAt: r.n.notifiedAt?.toISOString() ?? null,
});

/** Notices within the caller's scope: of a campaign, of an entity, by outcome; search by entity name or code. */
export async function findNotices(ctx: RequestContext, q: ArrearsNoticeListQuery): Promise<Page<ArrearsNotice>> {
  const search = q.q?.trim();
  const cond = and(
    ctx.inScope(n.entityId),
    q.campaignId ? eq(n.campaignId, q.campaignId) : undefined,
    q.entityId ? eq(n.entityId, q.entityId) : undefined,
    q.outcome ? eq(n.outcome, q.outcome) : undefined,
    search
      ? sql`(${municipalEntities.name} ilike ${`%${search}%`} or ${municipalEntities.code} ilike ${`%${search}%`})`
      : undefined,
  );
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: n.id, asOf: n.asOf },
    defaultSort: '-id',
    rows: (x) =>
      selectNotices(ctx.db)
        .where(and(cond, x.where))
        .orderBy(...x.order)
        .limit(x.limit)
        .offset(x.offset),
    idOf: (r) => r.n.id,
    count: () =>
      ctx.db.select({ id: n.id }).from(n).innerJoin(municipalEntities, eq(municipalEntities.id, n.entityId)).where(cond),
  });
  return { ...page, items: page.items.map(toNotice) };
}

/**
 * The notices an entity was sent (letters filed: NOTIFICADA and SIN_DIRECCION), newest first: what a
 * legal case cites as the prior notice. The caller has checked the entity is within its own scope.
 */
export async function noticesOfEntity(db: Db, entityId: number): Promise<ArrearsNotice[]> {
  const rows = await selectNotices(db)
    .where(and(eq(n.entityId, entityId), inArray(n.outcome, ['NOTIFICADA', 'SIN_DIRECCION'])))
    .orderBy(sql`${n.id} desc`)
    .limit(50);
  return rows.map(toNotice);
}
