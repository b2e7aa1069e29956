import { z } from 'zod';
import { intTextSchema } from './fields.ts';
import { text } from './messages.ts';

/** Largest page a list answers; a bigger request is capped to it rather than refused. */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 25;

/** A list's page cursor: the id of the row the page starts after or ends before (keyset), or `@offset` (a ranked list). */
export const cursorSchema = z.string().regex(/^@?\d{1,12}$/, { error: text('platform.cursorInvalid') });

/**
 * The query every list accepts: `pageSize` (capped at MAX_PAGE_SIZE), `sort` as `field` or `-field`
 * (descending), a free-text `q`, and where the page is: `after` or `before` a cursor the previous answer
 * gave (`next`, `prev`; pages by key, so page 500 costs what page 1 costs), or `page` (by position, for
 * old clients; deep pages cost more). Modules `.extend()` it with their own filters.
 */
export const listQuerySchema = z.object({
  page: intTextSchema({ min: 1 }).default(1),
  after: cursorSchema.optional(),
  before: cursorSchema.optional(),
  pageSize: intTextSchema({ min: 1 })
    .default(DEFAULT_PAGE_SIZE)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
  sort: z
    .string()
    .regex(/^-?[a-zA-Z][a-zA-Z0-9_]*$/)
    .optional(),
  q: z.string().trim().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const exportFormatSchema = z.enum(['xlsx', 'csv']);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/**
 * The query of a list's export: the list's filters and sort without its paging (page, pageSize, after,
 * before), plus the file format (xlsx by default). One definition for every list that exports.
 */
export function exportQueryOf<S extends z.core.$ZodShape>(list: z.ZodObject<S>) {
  const { page: _page, pageSize: _pageSize, after: _after, before: _before, ...filters } = list.shape;
  return z.object({ ...filters, format: exportFormatSchema.default('xlsx') });
}

/**
 * How a list's `total` was obtained (docs/decisions.md, issue 11): `exact`; `atLeast` — the count stopped
 * at COUNT_CAP ("más de 10 000"); `estimate` — the planner's estimate of an unfiltered large table
 * ("≈ 1 000 000").
 */
export const totalKindSchema = z.enum(['exact', 'atLeast', 'estimate']);
export type TotalKind = z.infer<typeof totalKindSchema>;
/** A filtered count stops here: beyond it the list says "más de 10 000". */
export const COUNT_CAP = 10_000;

/**
 * Answer of every list. `next`/`prev`: the cursors of the following and preceding pages (null at either
 * end), sent back as `after`/`before`.
 */
export const listResponse = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    totalKind: totalKindSchema.optional(),
    next: z.string().nullable().optional(),
    prev: z.string().nullable().optional(),
  });

/** The answer of a list of `T` (what `listResponse(itemSchema)` validates), for clients that hold the item type. */
export type ListResponse<T> = z.infer<ReturnType<typeof listResponse<z.ZodType<T>>>>;

/** The body of a 204 answer: nothing. */
export const noContentSchema = z.null();
