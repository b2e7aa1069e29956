import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { budgetLines, municipalEntities } from './catalogs.ts';
import { importBatches } from './imports.ts';
import { users } from './platform.ts';
import { municipalities } from './territory.ts';

const ts = () => timestamp({ withTimezone: true });

/** Contributor catalogue: activo, voluntario, pensionado… (edited through the generic catalogue CRUD). */
export const contributorTypes = pgTable('contributor_types', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  sortOrder: smallint().notNull().default(0),
  isActive: boolean().notNull().default(true),
  createdAt: ts().notNull().defaultNow(),
  updatedAt: ts().notNull().defaultNow(),
});

export const contributors = pgTable(
  'contributors',
  {
    id: serial().primaryKey(),
    cui: text().notNull(),
    nit: text(),
    firstName: text().notNull(),
    secondName: text(),
    thirdName: text(),
    firstSurname: text().notNull(),
    secondSurname: text(),
    marriedSurname: text(),
    /** Names and surnames in one upper-case, accent-free text: what the trigram search runs on. */
    searchName: text().notNull().default(''),
    /** The words of `searchName`: matched exactly (GIN) after each typed word is corrected against `name_words`. */
    searchWords: text().array().notNull().generatedAlwaysAs(sql`string_to_array(search_name, ' ')`),
    birthDate: date({ mode: 'string' }).notNull(),
    sex: text({ enum: ['M', 'F'] }).notNull(),
    maritalStatus: text(),
    address: text(),
    municipalityId: integer().references(() => municipalities.id),
    phone: text(),
    email: text(),
    typeId: integer()
      .notNull()
      .references(() => contributorTypes.id),
    state: text({ enum: ['ACTIVO', 'INACTIVO', 'FALLECIDO'] })
      .notNull()
      .default('ACTIVO'),
    entityId: integer().references(() => municipalEntities.id),
    budgetLineCode: text().references(() => budgetLines.code),
    hireDate: date({ mode: 'string' }),
    salary: numeric({ precision: 14, scale: 2 }),
    cuiState: text({ enum: ['PENDIENTE', 'APROBADO', 'RECHAZADO'] })
      .notNull()
      .default('PENDIENTE'),
    renapCheckedAt: ts(),
    renapResult: text(),
    /** The import batch that created the contributor (bulk upload). */
    importId: uuid().references(() => importBatches.id),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contributors_cui_key').on(t.cui),
    index('contributors_entity_idx').on(t.entityId),
    index('contributors_municipality_idx').on(t.municipalityId),
    index('contributors_type_state_idx').on(t.typeId, t.state),
    index('contributors_search_words_idx').using('gin', t.searchWords),
    // text_pattern_ops: a NIT fragment is found by prefix (`like '5769%'`) through the index, and = still uses it.
    index('contributors_nit_idx').on(t.nit.op('text_pattern_ops')),
    // Keyset paging: every sortable column with the id as tiebreak, so page 500 costs what page 1 costs.
    index('contributors_cui_state_id_idx').on(t.cuiState, t.id),
    index('contributors_updated_id_idx').on(t.updatedAt, t.id),
    index('contributors_created_id_idx').on(t.createdAt, t.id),
    index('contributors_search_name_id_idx').on(t.searchName, t.id),
    index('contributors_first_surname_id_idx').on(t.firstSurname, t.id),
    index('contributors_birth_date_id_idx').on(t.birthDate, t.id),
    index('contributors_state_id_idx').on(t.state, t.id),
  ],
);

/**
 * The distinct words of contributors' names (upper case, no accents): a small table a typed word is
 * corrected against with trigram similarity before the contributors are matched exactly. Filled by
 * statement triggers on contributors (migration 0021); a word nobody uses any more stays, harmlessly.
 */
export const nameWords = pgTable('name_words', {
  word: text().primaryKey(),
});

/** Maker-checker: a new contributor or a CUI change waits for a second person's decision. */
export const cuiApprovalRequests = pgTable(
  'cui_approval_requests',
  {
    id: serial().primaryKey(),
    contributorId: integer()
      .notNull()
      .references(() => contributors.id),
    kind: text({ enum: ['ALTA', 'CAMBIO'] }).notNull(),
    currentCui: text(),
    proposedCui: text().notNull(),
    state: text({ enum: ['PENDIENTE', 'APROBADO', 'RECHAZADO'] })
      .notNull()
      .default('PENDIENTE'),
    requestedBy: integer().references(() => users.id),
    requestedAt: ts().notNull().defaultNow(),
    decidedBy: integer().references(() => users.id),
    decidedAt: ts(),
    reason: text(),
  },
  (t) => [
    index('cui_approval_requests_state_idx').on(t.state, t.requestedAt),
    index('cui_approval_requests_contributor_idx').on(t.contributorId),
    // At most one open request per contributor.
    uniqueIndex('cui_approval_requests_one_open').on(t.contributorId).where(sql`state = 'PENDIENTE'`),
  ],
);

/** The offline RENAP registry: synthetic people in demo data, or a copy loaded by the institution. */
export const renapPeople = pgTable('renap_people', {
  cui: text().primaryKey(),
  firstName: text().notNull(),
  secondName: text(),
  thirdName: text(),
  firstSurname: text().notNull(),
  secondSurname: text(),
  marriedSurname: text(),
  birthDate: date({ mode: 'string' }).notNull(),
  sex: text().notNull(),
  deathDate: date({ mode: 'string' }),
});

/** Every RENAP lookup: who, when, which CUI, through which adapter, and what came back. */
export const renapLookups = pgTable(
  'renap_lookups',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: ts().notNull().defaultNow(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    userEmail: text(),
    cui: text().notNull(),
    source: text({ enum: ['offline', 'http'] }).notNull(),
    result: text({ enum: ['ENCONTRADO', 'NO_ENCONTRADO', 'TIEMPO_AGOTADO', 'NO_DISPONIBLE'] }).notNull(),
    durationMs: integer().notNull().default(0),
    purpose: text(),
  },
  (t) => [index('renap_lookups_at_idx').on(t.at), index('renap_lookups_cui_idx').on(t.cui)],
);
