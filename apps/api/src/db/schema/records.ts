import { bigserial, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * Every state change of every record that follows a state machine (packages/domain/src/state-machine.ts):
 * who moved which record, when, from what to what, and why. One table for all machines so a record's
 * history, a user's decisions or a delegate's workload are one query. Written only by
 * platform/transitions.ts, in the transaction of the change; never updated or deleted.
 */
export const stateTransitions = pgTable(
  'state_transitions',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    entityType: text().notNull(),
    entityId: integer().notNull(),
    /** The declared transition's key (CUI_APPROVE, PLANILLA_SUBMIT…). */
    transition: text().notNull(),
    fromState: text().notNull(),
    toState: text().notNull(),
    comment: text(),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** Kept beside the id so the history outlives a deleted account. */
    actorEmail: text().notNull(),
    at: ts().notNull().defaultNow(),
    /** The municipal entity the record belongs to, for scoped reads of the history; no foreign key, as in audit_log. */
    scopeEntityId: integer(),
  },
  (t) => [index('state_transitions_entity_idx').on(t.entityType, t.entityId, t.at), index('state_transitions_at_idx').on(t.at)],
);

/**
 * Every PDF the platform generated (platform/pdf.ts), by its verification code: a printed copy is
 * checked by typing the code, a digital one by comparing its SHA-256. The bytes are not kept — the
 * register proves a document was issued, it is not an archive.
 */
export const generatedDocuments = pgTable(
  'generated_documents',
  {
    id: serial().primaryKey(),
    /** 16 Crockford base-32 characters (80 random bits), stored without separators. */
    code: text().notNull().unique(),
    sha256: text().notNull(),
    /** What produced it (`contributor-report-general`…). */
    kind: text().notNull(),
    title: text().notNull(),
    /** The filters printed on it: [{ label, value }]. */
    filters: jsonb().notNull(),
    pages: integer().notNull(),
    bytes: integer().notNull(),
    generatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    generatedByEmail: text().notNull(),
    generatedByName: text().notNull(),
    generatedAt: ts().notNull(),
  },
  (t) => [
    index('generated_documents_at_idx').on(t.generatedAt),
    // A stored PDF is shown in the browser only when it is one of these (platform/pdf.ts isGeneratedPdf).
    index('generated_documents_sha256_idx').on(t.sha256),
  ],
);
