import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { municipalEntities } from './catalogs.ts';
import { users } from './platform.ts';
import { documents } from './signing.ts';

const ts = () => timestamp({ withTimezone: true });
const versionState = () =>
  text({ enum: ['BORRADOR', 'PUBLICADA', 'RETIRADA'] })
    .notNull()
    .default('BORRADOR');

/**
 * Workflow and forms (issue 17). A form has versions; each version keeps its JSON Schema and UI schema
 * (and the builder's fields when it came from the builder), and a request keeps the version it was
 * filled with. A flow has versions too; publishing a version moves the open requests of the flow onto
 * it (refused while one sits in a state the version removes).
 */
export const wfForms = pgTable('wf_forms', {
  id: serial().primaryKey(),
  title: text().notNull(),
  description: text().notNull().default(''),
  createdBy: integer().references(() => users.id),
  createdAt: ts().notNull().defaultNow(),
  updatedAt: ts().notNull().defaultNow(),
});

export const wfFormVersions = pgTable(
  'wf_form_versions',
  {
    id: serial().primaryKey(),
    formId: integer()
      .notNull()
      .references(() => wfForms.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    state: versionState(),
    fields: jsonb(),
    schema: jsonb().notNull(),
    uiSchema: jsonb().notNull(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    publishedAt: ts(),
  },
  (t) => [unique('wf_form_versions_key').on(t.formId, t.version)],
);

export const wfFlows = pgTable('wf_flows', {
  id: serial().primaryKey(),
  title: text().notNull(),
  description: text().notNull().default(''),
  formId: integer()
    .notNull()
    .references(() => wfForms.id),
  createdBy: integer().references(() => users.id),
  createdAt: ts().notNull().defaultNow(),
  updatedAt: ts().notNull().defaultNow(),
});

export const wfFlowVersions = pgTable(
  'wf_flow_versions',
  {
    id: serial().primaryKey(),
    flowId: integer()
      .notNull()
      .references(() => wfFlows.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    state: versionState(),
    definition: jsonb().notNull(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    publishedAt: ts(),
  },
  (t) => [unique('wf_flow_versions_key').on(t.flowId, t.version)],
);

/** A request (SIG item): a form's data moving through a flow. `entity_id` is its data scope. */
export const sigRequests = pgTable(
  'sig_requests',
  {
    id: serial().primaryKey(),
    number: text().notNull().unique(),
    flowId: integer()
      .notNull()
      .references(() => wfFlows.id),
    flowVersionId: integer()
      .notNull()
      .references(() => wfFlowVersions.id),
    formVersionId: integer()
      .notNull()
      .references(() => wfFormVersions.id),
    state: text().notNull(),
    data: jsonb().notNull(),
    entityId: integer().references(() => municipalEntities.id),
    requesterId: integer().references(() => users.id),
    summary: text().notNull().default(''),
    stateSince: ts().notNull().defaultNow(),
    dueAt: ts(),
    closedAt: ts(),
    /** What a final action produced (a pension): label and in-app link. */
    resultLabel: text(),
    resultLink: text(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('sig_requests_flow_state_idx').on(t.flowId, t.state),
    index('sig_requests_entity_idx').on(t.entityId),
    index('sig_requests_created_idx').on(t.createdAt, t.id),
    index('sig_requests_due_idx').on(t.dueAt).where(sql`closed_at is null`),
  ],
);

/** Comments and attachments of a request's timeline (its transitions are in state_transitions). */
export const sigRequestEvents = pgTable(
  'sig_request_events',
  {
    id: serial().primaryKey(),
    requestId: integer()
      .notNull()
      .references(() => sigRequests.id, { onDelete: 'cascade' }),
    kind: text({ enum: ['COMMENT', 'ATTACHMENT', 'ACTION'] }).notNull(),
    comment: text(),
    documentId: integer().references(() => documents.id),
    actorId: integer().references(() => users.id),
    actorEmail: text(),
    at: ts().notNull().defaultNow(),
  },
  (t) => [index('sig_request_events_request_idx').on(t.requestId, t.at)],
);
