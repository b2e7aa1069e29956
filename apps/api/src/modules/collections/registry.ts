import { type CollectionDefinition, type CollectionName, collectionDefinitions, collectionNames } from '@aporta/domain';
import { type AnyColumn, getTableName, is, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../db/schema/index.ts';
import {
  budgetLines,
  classifications,
  contributorTypes,
  delegates,
  departments,
  entityAssignments,
  entityRegions,
  municipalEntities,
  municipalities,
  paymentAgreementStatuses,
  planillaStatuses,
  regionDelegates,
  regions,
  users,
} from '../../db/schema/index.ts';
import { isMoneyColumn } from './values.ts';

/**
 * The collection registry: one declaration per catalogue binding the shared definition (fields, input
 * schema — packages/domain/src/catalogs.ts) to its Drizzle table. The generic service, routes and the
 * web's generic screens work from this alone; adding a catalogue is adding one entry here and one in
 * the domain definitions.
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

const bind = (
  name: CollectionName,
  table: Collection['table'],
  display: SQL,
  extra: Partial<Pick<Collection, 'entityColumn' | 'uniqueTogether'>> = {},
): Collection => {
  const def = collectionDefinitions[name] as CollectionDefinition;
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

export const registry: Record<CollectionName, Collection> = {
  regions: bind('regions', regions, sql`${regions.name}`),
  departments: bind('departments', departments, sql`${departments.name}`),
  municipalities: bind(
    'municipalities',
    municipalities,
    sql`${municipalities.name} || ' (' || (select ${departments.name} from ${departments} where ${departments.id} = ${municipalities.departmentId}) || ')'`,
  ),
  classifications: bind('classifications', classifications, sql`${classifications.name}`),
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
  'contributor-catalogs': bind('contributor-catalogs', contributorTypes, sql`${contributorTypes.name}`),
  'planilla-statuses': bind('planilla-statuses', planillaStatuses, sql`${planillaStatuses.label}`),
  'payment-agreement-statuses': bind(
    'payment-agreement-statuses',
    paymentAgreementStatuses,
    sql`${paymentAgreementStatuses.label}`,
  ),
};

export const lookups: Record<string, Lookup> = {
  users: {
    table: users,
    display: sql`coalesce(nullif(${fullName}, ''), ${users.email}) || ' <' || ${users.email} || '>'`,
    searchable: [users.email, users.firstName, users.lastName],
  },
};

export const allCollections = (): Collection[] => collectionNames.map((n) => registry[n]);

/** The table (collection or lookup) a reference field points to, with its display expression. */
export function referenceTarget(collection: string): { table: Collection['table']; display: SQL; searchable: AnyColumn[] } {
  if (collection in registry) {
    const c = registry[collection as CollectionName];
    const searchable = c.def.fields.filter((f) => f.searchable && f.type === 'text').map((f) => c.columns[f.name]);
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
const tableLabels: Record<string, string> = { institutions: 'Instituciones' };

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
        const target = getTableName(ref.foreignTable);
        const list = referrersCache.get(target) ?? [];
        list.push({ table: t, column: ref.columns[0], label: labelOf.get(name) ?? tableLabels[name] ?? name.replace(/_/g, ' ') });
        referrersCache.set(target, list);
      }
    }
  }
  return referrersCache.get(getTableName(table)) ?? [];
}
