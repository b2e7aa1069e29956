import {
  AppError,
  type Cart,
  type CollectionRecord,
  cartOf,
  centsToDecimal,
  decimalToCents,
  type ErrorDetail,
  isTemplateSlice,
  msg,
  type SliceMethod,
  sliceDeleteIdSchema,
  sliceDeleteIdsSchema,
  type TemplateSlice,
  type TemplateSliceName,
  templateCollectionDefinitions,
  templateSlices,
} from '@aporta/domain';
import { and, asc, count, eq, sql, sum } from 'drizzle-orm';
import type { z } from 'zod';
import {
  tplCartItems,
  tplCourses,
  tplCustomers,
  tplDeals,
  tplInstructors,
  tplInvoices,
  tplLeads,
  tplProducts,
  tplProperties,
  tplSalesOrders,
  tplShopOrders,
  tplSubscriptions,
  tplSupportTickets,
  tplTasks,
  tplTransactions,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { allRecords, getRecord } from '../collections/service.ts';
import { createRecord, deleteRecords, updateRecord } from '../collections/writes.ts';

/**
 * The spec's data calls (§7) on the real database: `/app/{collection}` names a slice of the template
 * (packages/domain/src/template.ts `templateSlices`), answered from the collection behind it through the
 * catalogue engine, so validation, audit and the delete checks are the engine's.
 */

/** The slice called `name` offering `method`: 'No Data Found' (401, spec §8) for an unknown one. */
export function sliceOf(name: string, method: SliceMethod): TemplateSlice & { name: TemplateSliceName } {
  if (!isTemplateSlice(name)) throw new AppError('NO_DATA_FOUND');
  const slice = templateSlices[name] as TemplateSlice;
  if (!slice.methods.includes(method)) {
    throw new AppError('METHOD_NOT_ALLOWED', msg('settings.sliceMethodNotAllowed', { name, methods: slice.methods.join(', ') }));
  }
  return { ...slice, name };
}

/** GET /app/{collection}: the whole (small) list, newest first unless the slice says otherwise. */
export async function readSlice(ctx: RequestContext, slice: TemplateSlice): Promise<CollectionRecord[]> {
  if (slice.collection === 'chat') throw new Error('chat slices are answered by the chat module');
  return allRecords(ctx, { name: slice.collection, filter: slice.filter, sort: slice.sort ?? '-id', limit: slice.limit });
}

/** POST: adds the record and answers it (the list then shows it first). */
export async function addToSlice(ctx: RequestContext, slice: TemplateSlice, body: Record<string, unknown>) {
  return createRecord(ctx, { name: slice.collection, data: body });
}

/**
 * PUT: replaces the record with the body's id — every field as on a create; an optional field left out
 * is emptied, as a replacement does.
 */
export async function replaceInSlice(ctx: RequestContext, slice: TemplateSlice, body: Record<string, unknown> & { id: number }) {
  const { id, ...data } = body;
  const def = templateCollectionDefinitions[slice.collection as keyof typeof templateCollectionDefinitions];
  for (const f of def.fields) if (!f.readOnly && !f.required && !(f.name in data) && f.type !== 'boolean') data[f.name] = null;
  return updateRecord(ctx, { name: slice.collection, id, data });
}

/**
 * DELETE: the body carries the ids (a list; one id for seller, courseGrid and customerList). Without
 * data: 'Unauthorised' (401, spec §8). All the records are deleted or none. Answers the body.
 */
export async function deleteFromSlice(ctx: RequestContext, slice: TemplateSlice, body: unknown): Promise<number[] | number> {
  if (body === undefined || body === null || body === '') throw new AppError('UNAUTHORISED');
  const single = slice.deleteBy === 'id';
  const parsed = (single ? sliceDeleteIdSchema : sliceDeleteIdsSchema).safeParse(body);
  if (!parsed.success) throw new AppError('VALIDATION', parsed.error.issues[0]?.message, issuesOf(parsed.error));
  const ids = single ? [parsed.data as number] : (parsed.data as number[]);
  await deleteRecords(ctx, { name: slice.collection, ids });
  return parsed.data;
}

const issuesOf = (error: z.ZodError): ErrorDetail[] =>
  error.issues.map((i) => ({ path: ['cuerpo', ...i.path.map(String)].join('.'), message: i.message }));

// ─── Cart ─────────────────────────────────────────────────────────────────────────────────────────

/** The user's own cart, with its exact totals (domain `cartOf`). */
export async function getCart(ctx: RequestContext): Promise<Cart> {
  const rows = await ctx.db
    .select({
      productId: tplCartItems.productId,
      qty: tplCartItems.qty,
      title: tplProducts.title,
      category: tplProducts.category,
      img: tplProducts.img,
      price: tplProducts.price,
    })
    .from(tplCartItems)
    .innerJoin(tplProducts, eq(tplProducts.id, tplCartItems.productId))
    .where(eq(tplCartItems.userId, ctx.user.id))
    .orderBy(asc(tplCartItems.addedAt), asc(tplCartItems.productId));
  return cartOf(rows.map((r) => ({ ...r, price: r.price ?? 0n })));
}

/** Puts a product in the user's cart with that quantity (at least 1, validated by the route). */
export async function setCartItem(ctx: RequestContext, { productId, qty }: { productId: number; qty: number }): Promise<Cart> {
  await getRecord(ctx, { name: 'products', id: productId });
  await ctx.db
    .insert(tplCartItems)
    .values({ userId: ctx.user.id, productId, qty })
    .onConflictDoUpdate({ target: [tplCartItems.userId, tplCartItems.productId], set: { qty } });
  return getCart(ctx);
}

/** Takes a product out of the user's cart (404 when it is not in it). */
export async function removeCartItem(ctx: RequestContext, { productId }: { productId: number }): Promise<Cart> {
  const removed = await ctx.db
    .delete(tplCartItems)
    .where(and(eq(tplCartItems.userId, ctx.user.id), eq(tplCartItems.productId, productId)))
    .returning({ productId: tplCartItems.productId });
  if (removed.length === 0) throw new AppError('NOT_FOUND', msg('settings.productNotInCart', { productId }));
  return getCart(ctx);
}

// ─── Dashboards ───────────────────────────────────────────────────────────────────────────────────

/** A SQL sum of a money column (decimal text, or null over no rows) as cents. */
const toCents = (v: unknown): bigint => decimalToCents(String(v ?? '0'));
const money = (v: unknown) => centsToDecimal(toCents(v));

const countBy = async (
  ctx: RequestContext,
  table: typeof tplShopOrders | typeof tplInvoices | typeof tplSupportTickets,
  column: unknown,
) =>
  Object.fromEntries(
    (
      (await ctx.db
        .select({ key: sql<string>`${column}`, n: count() })
        .from(table as never)
        .groupBy(sql`${column}`)) as { key: string; n: number }[]
    ).map((r) => [r.key, Number(r.n)]),
  );

/**
 * The figures of the template's dashboards, computed from the tables (never stored): CRM, e-commerce,
 * learning, real estate, invoices, tickets and earnings. Amounts as exact decimal text.
 */
export async function dashboardSummary(ctx: RequestContext) {
  const { db } = ctx;
  const one = async <T>(q: Promise<T[]>) => (await q)[0];
  const [leads, deals, tasks] = await Promise.all([
    one(db.select({ n: count(), avgScore: sql<string>`coalesce(round(avg(${tplLeads.score}), 2), 0)` }).from(tplLeads)),
    one(db.select({ n: count(), total: sum(tplDeals.price) }).from(tplDeals)),
    one(db.select({ n: count() }).from(tplTasks)),
  ]);
  const sales = await one(db.select({ n: count(), total: sum(tplSalesOrders.amount) }).from(tplSalesOrders));
  const orders = await one(db.select({ n: count(), total: sum(tplShopOrders.price) }).from(tplShopOrders));
  const customers = await one(db.select({ n: count() }).from(tplCustomers));
  const products = await one(db.select({ n: count(), stock: sum(tplProducts.stock) }).from(tplProducts));
  const courses = await one(db.select({ n: count(), students: sum(tplCourses.students) }).from(tplCourses));
  const instructors = await one(db.select({ n: count() }).from(tplInstructors));
  const subscriptions = await one(
    db
      .select({ n: count(), total: sum(tplSubscriptions.price) })
      .from(tplSubscriptions)
      .where(eq(tplSubscriptions.status, 'Active')),
  );
  const properties = await one(
    db
      .select({
        n: count(),
        sale: sql<number>`count(*) filter (where ${tplProperties.requirement} = 'Sale')`,
        rent: sql<number>`count(*) filter (where ${tplProperties.requirement} = 'Rent')`,
      })
      .from(tplProperties),
  );
  const invoiceTotals = await db
    .select({ status: tplInvoices.status, n: count(), total: sum(tplInvoices.invoiceAmount) })
    .from(tplInvoices)
    .groupBy(tplInvoices.status);
  const tx = await db
    .select({ type: tplTransactions.type, status: tplTransactions.status, n: count(), total: sum(tplTransactions.amount) })
    .from(tplTransactions)
    .groupBy(tplTransactions.type, tplTransactions.status);
  const txTotal = (type: string, status?: string) =>
    tx.filter((r) => r.type === type && (!status || r.status === status)).reduce((s, r) => s + toCents(r.total), 0n);
  // Sparklines: the last 7 days with orders, amounts per day.
  const daily = await db
    .select({ day: tplShopOrders.orderDate, total: sum(tplShopOrders.price) })
    .from(tplShopOrders)
    .groupBy(tplShopOrders.orderDate)
    .orderBy(asc(tplShopOrders.orderDate));
  return {
    crm: {
      leads: Number(leads.n),
      averageScore: String(leads.avgScore),
      deals: Number(deals.n),
      dealsValue: money(deals.total),
      tasks: Number(tasks.n),
    },
    ecommerce: {
      sales: Number(sales.n),
      salesTotal: money(sales.total),
      orders: Number(orders.n),
      ordersTotal: money(orders.total),
      customers: Number(customers.n),
      products: Number(products.n),
      stock: Number(products.stock ?? 0),
      ordersByStatus: await countBy(ctx, tplShopOrders, tplShopOrders.deliveryStatus),
      dailyOrders: daily.slice(-7).map((d) => ({ day: d.day, total: money(d.total) })),
    },
    learning: {
      courses: Number(courses.n),
      students: Number(courses.students ?? 0),
      instructors: Number(instructors.n),
      activeSubscriptions: Number(subscriptions.n),
      subscriptionsValue: money(subscriptions.total),
    },
    realEstate: { properties: Number(properties.n), forSale: Number(properties.sale), forRent: Number(properties.rent) },
    invoices: invoiceTotals.map((r) => ({ status: r.status, count: Number(r.n), amount: money(r.total) })),
    tickets: await countBy(ctx, tplSupportTickets, tplSupportTickets.status),
    earnings: {
      credits: centsToDecimal(txTotal('Credit', 'Successful')),
      debits: centsToDecimal(txTotal('Debit', 'Successful')),
      pending: centsToDecimal(txTotal('Credit', 'Pending') + txTotal('Debit', 'Pending')),
      balance: centsToDecimal(txTotal('Credit', 'Successful') - txTotal('Debit', 'Successful')),
    },
  };
}
export type DashboardSummary = Awaited<ReturnType<typeof dashboardSummary>>;
