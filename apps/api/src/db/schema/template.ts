import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { money } from '../columns.ts';
import { users } from './platform.ts';

/**
 * The template's sample-data areas (issue 18): one table per collection of packages/domain/src/template.ts
 * (property names = field names), the per-user cart and the chat.
 */

const stamps = () => ({
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
const day = () => date({ mode: 'string' });

export const tplLeads = pgTable('tpl_leads', {
  id: serial().primaryKey(),
  img: text(),
  name: text().notNull(),
  phone: text(),
  score: integer().notNull(),
  location: text().notNull(),
  date: day().notNull(),
  ...stamps(),
});

export const tplDeals = pgTable('tpl_deals', {
  id: serial().primaryKey(),
  img: text(),
  title: text().notNull(),
  subtitle: text(),
  price: money(),
  ...stamps(),
});

export const tplTasks = pgTable('tpl_tasks', {
  id: serial().primaryKey(),
  title: text().notNull(),
  content: text(),
  date: day().notNull(),
  ...stamps(),
});

export const tplSalesOrders = pgTable('tpl_sales_orders', {
  id: serial().primaryKey(),
  date: day().notNull(),
  orderId: text().notNull().unique(),
  shop: text().notNull(),
  customer: text().notNull(),
  product: text().notNull(),
  amount: money(),
  status: text().notNull(),
  rating: doublePrecision().notNull(),
  ...stamps(),
});

export const tplProducts = pgTable('tpl_products', {
  id: serial().primaryKey(),
  img: text(),
  title: text().notNull(),
  category: text().notNull(),
  stock: integer().notNull(),
  price: money(),
  discount: integer().notNull(),
  orders: integer().notNull(),
  ratings: doublePrecision().notNull(),
  publish: day().notNull(),
  tag: text(),
  mrp: money(),
  ...stamps(),
});

export const tplSellers = pgTable('tpl_sellers', {
  id: serial().primaryKey(),
  img: text(),
  name: text().notNull(),
  seller: text().notNull(),
  email: text(),
  phone: text(),
  stock: integer().notNull(),
  revenue: money(),
  ...stamps(),
});

export const tplShopOrders = pgTable('tpl_shop_orders', {
  id: serial().primaryKey(),
  orderDate: day().notNull(),
  deliveryDate: day(),
  product: text().notNull(),
  customer: text().notNull(),
  shop: text().notNull(),
  payMethod: text().notNull(),
  price: money(),
  ratings: doublePrecision().notNull(),
  deliveryStatus: text().notNull(),
  ...stamps(),
});

export const tplCustomers = pgTable('tpl_customers', {
  id: serial().primaryKey(),
  img: text(),
  name: text().notNull(),
  email: text(),
  phone: text(),
  createDate: day().notNull(),
  status: text().notNull(),
  ...stamps(),
});

export const tplInvoices = pgTable('tpl_invoices', {
  id: serial().primaryKey(),
  invoiceNo: text().notNull().unique(),
  customer: text().notNull(),
  email: text(),
  createDate: day().notNull(),
  dueDate: day().notNull(),
  invoiceAmount: money(),
  status: text().notNull(),
  ...stamps(),
});

export const tplCourseCategories = pgTable('tpl_course_categories', {
  id: serial().primaryKey(),
  name: text().notNull().unique(),
  color: text().notNull(),
  ...stamps(),
});

export const tplInstructors = pgTable('tpl_instructors', {
  id: serial().primaryKey(),
  img: text(),
  name: text().notNull(),
  designation: text().notNull(),
  totalCourse: integer().notNull(),
  email: text(),
  experience: integer().notNull(),
  students: integer().notNull(),
  contact: text(),
  rating: doublePrecision().notNull(),
  status: text().notNull(),
  ...stamps(),
});

export const tplCourses = pgTable(
  'tpl_courses',
  {
    id: serial().primaryKey(),
    img: text(),
    name: text().notNull(),
    categoryId: integer()
      .notNull()
      .references(() => tplCourseCategories.id),
    instructorId: integer().references(() => tplInstructors.id),
    lessons: integer().notNull(),
    duration: text().notNull(),
    students: integer().notNull(),
    fees: money(),
    rating: doublePrecision().notNull(),
    level: text().notNull(),
    status: text().notNull(),
    ...stamps(),
  },
  (t) => [index('tpl_courses_category_idx').on(t.categoryId), index('tpl_courses_instructor_idx').on(t.instructorId)],
);

export const tplSubscriptions = pgTable('tpl_subscriptions', {
  id: serial().primaryKey(),
  img: text(),
  title: text().notNull(),
  type: text().notNull(),
  price: money(),
  duration: text().notNull(),
  status: text().notNull(),
  dueDate: day(),
  ...stamps(),
});

export const tplAgents = pgTable('tpl_agents', {
  id: serial().primaryKey(),
  img: text(),
  name: text().notNull(),
  joiningDate: day().notNull(),
  property: integer().notNull(),
  location: text().notNull(),
  email: text(),
  contact: text(),
  status: text().notNull(),
  ...stamps(),
});

export const tplAgencies = pgTable('tpl_agencies', {
  id: serial().primaryKey(),
  img: text(),
  name: text().notNull(),
  since: integer().notNull(),
  location: text().notNull(),
  property: integer().notNull(),
  employee: integer().notNull(),
  email: text(),
  contact: text(),
  ...stamps(),
});

export const tplProperties = pgTable(
  'tpl_properties',
  {
    id: serial().primaryKey(),
    img: text(),
    title: text().notNull(),
    type: text().notNull(),
    location: text().notNull(),
    city: text().notNull(),
    bedroom: integer().notNull(),
    bathroom: integer().notNull(),
    area: integer().notNull(),
    rating: doublePrecision().notNull(),
    price: money(),
    starred: boolean().notNull().default(false),
    agentId: integer().references(() => tplAgents.id),
    requirement: text().notNull(),
    ...stamps(),
  },
  (t) => [index('tpl_properties_agent_idx').on(t.agentId)],
);

export const tplPropertyFeedback = pgTable('tpl_property_feedback', {
  id: serial().primaryKey(),
  img: text(),
  name: text().notNull(),
  content: text().notNull(),
  time: day().notNull(),
  ...stamps(),
});

export const tplTransactions = pgTable('tpl_transactions', {
  id: serial().primaryKey(),
  transactionId: text().notNull().unique(),
  date: day().notNull(),
  details: text().notNull(),
  type: text().notNull(),
  amount: money(),
  status: text().notNull(),
  ...stamps(),
});

export const tplSupportTickets = pgTable('tpl_support_tickets', {
  id: serial().primaryKey(),
  ticketTitle: text().notNull(),
  clientName: text().notNull(),
  assignedTo: integer().references(() => users.id, { onDelete: 'set null' }),
  createDate: day().notNull(),
  dueDate: day(),
  priority: text().notNull(),
  status: text().notNull(),
  ...stamps(),
});

export const tplCalls = pgTable('tpl_calls', {
  id: serial().primaryKey(),
  name: text().notNull(),
  date: day().notNull(),
  time: text().notNull(),
  kind: text().notNull(),
  ...stamps(),
});

export const tplBrowserStats = pgTable('tpl_browser_stats', {
  id: serial().primaryKey(),
  img: text(),
  browser: text().notNull().unique(),
  click: integer().notNull(),
  rate: doublePrecision().notNull(),
  ...stamps(),
});

export const tplTopPages = pgTable('tpl_top_pages', {
  id: serial().primaryKey(),
  activePage: text().notNull().unique(),
  active: integer().notNull(),
  users: integer().notNull(),
  ...stamps(),
});

/** The demo cart of the topbar: one row per user and product; quantity at least 1. */
export const tplCartItems = pgTable(
  'tpl_cart_items',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => tplProducts.id, { onDelete: 'cascade' }),
    qty: integer().notNull(),
    addedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);

// ─── Chat ─────────────────────────────────────────────────────────────────────────────────────────

/** A channel (named, members invited) or a direct conversation between two users (`directKey` "a:b"). */
export const chatConversations = pgTable('chat_conversations', {
  id: serial().primaryKey(),
  kind: text({ enum: ['channel', 'direct'] }).notNull(),
  name: text(),
  directKey: text().unique(),
  createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const chatMembers = pgTable(
  'chat_members',
  {
    conversationId: integer()
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The last message this member has seen: unread = later messages of others. */
    lastReadId: bigint({ mode: 'number' }).notNull().default(0),
    joinedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] }), index('chat_members_user_idx').on(t.userId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    conversationId: integer()
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    senderId: integer().references(() => users.id, { onDelete: 'set null' }),
    body: text().notNull(),
    /** An attachment: content in the documents storage (platform/blobs.ts), by hash. */
    fileSha256: text(),
    fileName: text(),
    fileSize: integer(),
    fileType: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_messages_conversation_idx').on(t.conversationId, t.id),
    index('chat_messages_files_idx').on(t.conversationId).where(sql`${t.fileSha256} is not null`),
  ],
);

export const chatBookmarks = pgTable(
  'chat_bookmarks',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageId: bigint({ mode: 'number' })
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.messageId] })],
);

/** Presence a user chose (online, away, offline) and when they were last seen. */
export const chatPresence = pgTable('chat_presence', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  status: text({ enum: ['online', 'away', 'offline'] }).notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
