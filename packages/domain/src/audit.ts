import { z } from 'zod';
import { dateSchema, idTextSchema, intTextSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import { text } from './messages.ts';

/** One row of the audit log as the API answers it. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.number().int().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const isoDate = dateSchema.optional();

/** Filters of the audit views: who, what kind of record, which record, what action, when. */
export const auditQuerySchema = listQuerySchema.extend({
  actorId: idTextSchema.optional(),
  actor: z.string().trim().max(200).optional(),
  entityType: z.string().trim().max(60).optional(),
  entityId: z.string().trim().max(60).optional(),
  action: z.string().trim().max(40).optional(),
  from: isoDate,
  to: isoDate,
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** The export of an audit view: the list's filters plus the file format. */
export const auditExportQuerySchema = exportQueryOf(auditQuerySchema);

/** Distinct entity types and actions present in a view, for its filter selects. */
export const auditFacetsSchema = z.object({ entityTypes: z.array(z.string()), actions: z.array(z.string()) });
export type AuditFacets = z.infer<typeof auditFacetsSchema>;

/** Entity type of the planilla audit view: the planillas module writes its changes with this type. */
export const PLANILLA_ENTITY_TYPE = 'planilla';

/** Field-by-field difference between two audited states, for the before/after view. */
export function auditDiff(before: unknown, after: unknown): { field: string; before: unknown; after: unknown }[] {
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) => ({ field: k, before: b[k] ?? null, after: a[k] ?? null }));
}

/** One change of one record as its history shows it: who, when, what, and each field before → after. */
export const recordHistoryEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  changes: z.array(z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
});
export type RecordHistoryEntry = z.infer<typeof recordHistoryEntrySchema>;

/** Path of the per-record history: the record's entity type as the audit log writes it, and its id. */
export const recordHistoryParamsSchema = z.object({
  entityType: z.string().regex(/^[a-z][a-z0-9_-]{0,59}$/, { error: text('accounts.auditEntityTypeInvalid') }),
  entityId: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/, { error: text('accounts.auditEntityIdInvalid') }),
});

/** Page of a record's history (newest first). */
export const recordHistoryQuerySchema = z.object({
  page: intTextSchema({ min: 1 }).default(1),
  pageSize: intTextSchema({ min: 1, max: 100 }).default(20),
});
export type RecordHistoryQuery = z.infer<typeof recordHistoryQuerySchema>;

/** A field value as text for a history line ('' stays '', none is null). */
const historyText = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The changes of one audit row as history lines (what auditDiff finds, as text). */
export const historyChanges = (before: unknown, after: unknown): RecordHistoryEntry['changes'] =>
  auditDiff(before, after).map((d) => ({ field: d.field, before: historyText(d.before), after: historyText(d.after) }));

export const auditEntryListSchema = z.array(auditEntrySchema);

/**
 * The first break verification found in the audit log's hash chain: a row changed (its content or hash),
 * rows deleted (`missing` of them after `afterId`; `id` the last one, when the next row names it), a row
 * inserted out of band, or the chain's head itself changed or deleted (HEAD).
 */
export const auditChainBreakSchema = z.object({
  kind: z.enum(['CHANGED', 'DELETED', 'INSERTED', 'HEAD']),
  id: z.number().int().nullable(),
  seq: z.number().int().nullable(),
  missing: z.number().int(),
  afterId: z.number().int().nullable(),
});
export type AuditChainBreak = z.infer<typeof auditChainBreakSchema>;

/** The audit log's hash chain, verified: intact up to a row, or its first break; rows not sealed yet. */
export const auditChainStatusSchema = z.object({
  intact: z.boolean(),
  /** Rows of the chain checked. */
  sealedRows: z.number().int(),
  /** The last row found intact (before the break, if any). */
  intactThroughId: z.number().int().nullable(),
  /** The hash of the chain's head: kept outside the database, it shows later that nothing was rewritten. */
  headHash: z.string(),
  /** Rows written and not chained yet (the seconds before sealing). */
  pendingRows: z.number().int(),
  checkedAt: z.string(),
  broken: auditChainBreakSchema.nullable(),
});
export type AuditChainStatus = z.infer<typeof auditChainStatusSchema>;
