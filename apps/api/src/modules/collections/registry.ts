import {
  type CollectionDefinition,
  type CollectionName,
  collectionDefinitions,
  collectionNames,
  collectionTableOf,
  type Resource,
  type TemplateCollectionName,
  templateCollectionDefinitions,
  templateCollectionNames,
} from '@aporta/domain';
import { type AnyColumn, getTableColumns, getTableName, is, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, getTableConfig, PgColumn, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../db/schema/index.ts';
import {
  budgetLines,
  delegates,
  departments,
  entityAssignments,
  entityRegions,
  municipalEntities,
  municipalities,
  regionDelegates,
  regions,
  tplAgencies,
  tplAgents,
  tplBrowserStats,
  tplCalls,
  tplCourseCategories,
  tplCourses,
  tplCustomers,
  tplDeals,
  tplInstructors,
  tplInvoices,
  tplLeads,
  tplProducts,
  tplProperties,
  tplPropertyFeedback,
  tplSalesOrders,
  tplSellers,
  tplShopOrders,
  tplSubscriptions,
  tplSupportTickets,
  tplTasks,
  tplTopPages,
  tplTransactions,
  users,
} from '../../db/schema/index.ts';
import { isMoneyColumn } from './values.ts';

/**
 * The collection registry: each catalogue's shared definition (fields, input schema —
 * packages/domain/src/catalogs.ts) bound to its Drizzle table. The generic service, routes and the web's
 * generic screens work from this alone. A catalogue is bound by itself (its table found by name in the
 * schema, its rows named by its display field); only one whose display needs other tables, or whose rows
 * belong to an entity, is bound here by hand.
 */
export interface Collection {
  def: CollectionDefinition;
  table: PgTable & { id: AnyPgColumn };
  /** Field name → column. */
  columns: Record<string, AnyPgColumn>;
  /** SQL naming a row when it is listed or referenced (evaluated in a query FROM this table). */
  display: SQL;
  /** The municipal entity a row belongs to: the data scope applies through it. */
  entityColumn?: AnyPgColumn;
  /** Groups of fields unique together (besides the single unique fields of the metadata). */
  uniqueTogether?: string[][];
}

/** Reference targets that are not catalogues themselves (users for delegates). */
export interface Lookup {
  table: PgTable & { id: AnyPgColumn };
  display: SQL;
  searchable: AnyColumn[];
}

const fullName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

/** Every collection the engine serves: the administrative catalogues and the template's (issue 18). */
export type EngineCollectionName = CollectionName | TemplateCollectionName;
const definitions: Record<EngineCollectionName, CollectionDefinition> = {
  ...collectionDefinitions,
  ...templateCollectionDefinitions,
};

/** The permission resource guarding a collection's routes: its own name unless it declares another. */
export const resourceOf = (def: CollectionDefinition): Resource => (def.resource ?? def.name) as Resource;

const bind = (
  name: EngineCollectionName,
  table: Collection['table'],
  display: SQL,
  extra: Partial<Pick<Collection, 'entityColumn' | 'uniqueTogether'>> = {},
): Collection => {
  const def = definitions[name];
  if (name in collectionDefinitions && getTableName(table) !== collectionTableOf(def)) {
    throw new Error(`La colección ${name} declara la tabla ${collectionTableOf(def)}, pero se enlaza con ${getTableName(table)}`);
  }
  if (name in collectionDefinitions && !!def.scopedByEntity !== !!extra.entityColumn) {
    throw new Error(`La colección ${name}: scopedByEntity y la columna de su entidad deben declararse juntas`);
  }
  const byKey = table as unknown as Record<string, AnyPgColumn>;
  const columns = Object.fromEntries(
    def.fields.map((f) => {
      const col = byKey[f.name];
      if (!col) throw new Error(`La colección ${name} declara el campo ${f.name}, que su tabla no tiene`);
      if (f.type === 'money' && !isMoneyColumn(col)) {
        throw new Error(`La colección ${name}: el campo de dinero ${f.name} debe usar la columna money (db/columns.ts)`);
      }
      return [f.name, col];
    }),
  );
  return { def, table, columns, display, ...extra };
};

const userDisplay = sql<string>`(select coalesce(nullif(${fullName}, ''), ${users.email}) from ${users} where ${users.id} = ${delegates.userId})`;

/** Every table of the Drizzle schema with an `id` column, by SQL name: where a catalogue's table is found. */
const tablesByName = new Map(
  Object.values(schema).flatMap((t): [string, Collection['table']][] =>
    is(t, PgTable) && hasId(t) ? [[getTableName(t), t]] : [],
  ),
);
function hasId(t: PgTable): t is Collection['table'] {
  return is(getTableColumns(t).id, PgColumn);
}

/** A catalogue bound by itself: its table by name, its rows named by its display field. */
const bindByDefinition = (name: CollectionName): Collection => {
  const def = collectionDefinitions[name];
  const table = tablesByName.get(collectionTableOf(def));
  if (!table) throw new Error(`La colección ${name}: el esquema no tiene la tabla ${collectionTableOf(def)}`);
  const display = getTableColumns(table)[def.displayField];
  if (!display) throw new Error(`La colección ${name}: su tabla no tiene la columna ${def.displayField} que la nombra`);
  return bind(name, table, sql`${display}`);
};

/** The catalogues bound by hand: a display built from other tables, a row that belongs to an entity. */
const boundByHand: Partial<Record<CollectionName, Collection>> = {
  municipalities: bind(
    'municipalities',
    municipalities,
    sql`${municipalities.name} || ' (' || (select ${departments.name} from ${departments} where ${departments.id} = ${municipalities.departmentId}) || ')'`,
  ),
  'municipal-entities': bind('municipal-entities', municipalEntities, sql`${municipalEntities.name}`, {
    entityColumn: municipalEntities.id,
  }),
  'entity-regions': bind(
    'entity-regions',
    entityRegions,
    sql`(select ${municipalEntities.name} from ${municipalEntities} where ${municipalEntities.id} = ${entityRegions.entityId}) || ' — ' || (select ${regions.name} from ${regions} where ${regions.id} = ${entityRegions.regionId})`,
    { entityColumn: entityRegions.entityId, uniqueTogether: [['entityId', 'regionId']] },
  ),
  delegates: bind('delegates', delegates, userDisplay),
  'region-delegates': bind(
    'region-delegates',
    regionDelegates,
    sql`(select ${regions.name} from ${regions} where ${regions.id} = ${regionDelegates.regionId}) || ' — ' || (select ${userDisplay} from ${delegates} where ${delegates.id} = ${regionDelegates.delegateId})`,
    { uniqueTogether: [['regionId', 'delegateId']] },
  ),
  'entity-assignment': bind(
    'entity-assignment',
    entityAssignments,
    sql`(select ${municipalEntities.name} from ${municipalEntities} where ${municipalEntities.id} = ${entityAssignments.entityId}) || ' — ' || (select ${userDisplay} from ${delegates} where ${delegates.id} = ${entityAssignments.delegateId})`,
    { entityColumn: entityAssignments.entityId, uniqueTogether: [['entityId', 'delegateId']] },
  ),
  'budget-lines': bind('budget-lines', budgetLines, sql`${budgetLines.code} || ' ' || ${budgetLines.name}`),
};

const catalogRegistry = Object.fromEntries(collectionNames.map((n) => [n, boundByHand[n] ?? bindByDefinition(n)])) as Record<
  CollectionName,
  Collection
>;

const templateRegistry: Record<TemplateCollectionName, Collection> = {
  leads: bind('leads', tplLeads, sql`${tplLeads.name}`),
  deals: bind('deals', tplDeals, sql`${tplDeals.title}`),
  'crm-tasks': bind('crm-tasks', tplTasks, sql`${tplTasks.title}`),
  'sales-orders': bind('sales-orders', tplSalesOrders, sql`${tplSalesOrders.orderId}`),
  products: bind('products', tplProducts, sql`${tplProducts.title}`),
  sellers: bind('sellers', tplSellers, sql`${tplSellers.name}`),
  'shop-orders': bind('shop-orders', tplShopOrders, sql`'#' || ${tplShopOrders.id} || ' ' || ${tplShopOrders.product}`),
  customers: bind('customers', tplCustomers, sql`${tplCustomers.name}`),
  invoices: bind('invoices', tplInvoices, sql`${tplInvoices.invoiceNo}`),
  'course-categories': bind('course-categories', tplCourseCategories, sql`${tplCourseCategories.name}`),
  instructors: bind('instructors', tplInstructors, sql`${tplInstructors.name}`),
  courses: bind('courses', tplCourses, sql`${tplCourses.name}`),
  subscriptions: bind('subscriptions', tplSubscriptions, sql`${tplSubscriptions.title}`),
  agents: bind('agents', tplAgents, sql`${tplAgents.name}`),
  agencies: bind('agencies', tplAgencies, sql`${tplAgencies.name}`),
  properties: bind('properties', tplProperties, sql`${tplProperties.title}`),
  'property-feedback': bind('property-feedback', tplPropertyFeedback, sql`${tplPropertyFeedback.name}`),
  transactions: bind('transactions', tplTransactions, sql`${tplTransactions.transactionId}`),
  'support-tickets': bind('support-tickets', tplSupportTickets, sql`${tplSupportTickets.ticketTitle}`),
  calls: bind('calls', tplCalls, sql`${tplCalls.name}`),
  'browser-stats': bind('browser-stats', tplBrowserStats, sql`${tplBrowserStats.browser}`),
  'top-pages': bind('top-pages', tplTopPages, sql`${tplTopPages.activePage}`),
};

export const registry: Record<EngineCollectionName, Collection> = { ...catalogRegistry, ...templateRegistry };
export const engineCollectionNames: EngineCollectionName[] = [...collectionNames, ...templateCollectionNames];
export const isEngineCollection = (name: string): name is EngineCollectionName => Object.hasOwn(registry, name);

export const lookups: Record<string, Lookup> = {
  users: {
    table: users,
    display: sql`coalesce(nullif(${fullName}, ''), ${users.email}) || ' <' || ${users.email} || '>'`,
    searchable: [users.email, users.firstName, users.lastName],
  },
};

export const allCollections = (): Collection[] => engineCollectionNames.map((n) => registry[n]);

/** The table (collection or lookup) a reference field points to, with its display expression. */
export function referenceTarget(collection: string): { table: Collection['table']; display: SQL; searchable: AnyColumn[] } {
  if (isEngineCollection(collection)) {
    const c = registry[collection];
    const searchable = c.def.fields
      .filter((f) => f.searchable && (f.type === 'text' || f.type === 'nit'))
      .map((f) => c.columns[f.name]);
    return { table: c.table, display: c.display, searchable };
  }
  const l = lookups[collection];
  if (!l) throw new Error(`Referencia a una colección desconocida: ${collection}`);
  return l;
}

/** A table that points at another through a foreign key, as the delete check needs it. */
export interface Referrer {
  table: PgTable;
  column: AnyPgColumn;
  label: string;
}

/** Spanish names of tables outside the registry that reference catalogues. */
const tableLabels: Record<string, string> = { institutions: 'Instituciones', bank_files: 'Archivos bancarios' };

let referrersCache: Map<string, Referrer[]> | null = null;

/**
 * Every foreign key of the whole schema pointing at each table, found from the Drizzle declarations,
 * so tables added by later modules (contributors, planillas…) are covered without listing them here.
 */
export function referrersOf(table: PgTable): Referrer[] {
  if (!referrersCache) {
    referrersCache = new Map();
    const labelOf = new Map(allCollections().map((c) => [getTableName(c.table), c.def.label]));
    for (const t of Object.values(schema)) {
      if (!is(t, PgTable)) continue;
      const name = getTableName(t);
      for (const fk of getTableConfig(t).foreignKeys) {
        const ref = fk.reference();
        if (ref.columns.length !== 1) continue;
        // A row that goes with the target (cascade) or lets go of it (set null) never blocks its delete.
        if (fk.onDelete === 'cascade' || fk.onDelete === 'set null') continue;
        const target = getTableName(ref.foreignTable);
        const list = referrersCache.get(target) ?? [];
        list.push({ table: t, column: ref.columns[0], label: labelOf.get(name) ?? tableLabels[name] ?? name.replace(/_/g, ' ') });
        referrersCache.set(target, list);
      }
    }
  }
  return referrersCache.get(getTableName(table)) ?? [];
}
