import { z } from 'zod';
import { intTextSchema } from './fields.ts';

/** Largest page a list answers; a bigger request is capped to it rather than refused. */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 25;

/**
 * The query every list accepts: `page`, `pageSize` (capped at MAX_PAGE_SIZE), `sort` as `field` or
 * `-field` (descending) and a free-text `q`. Modules `.extend()` it with their own filters.
 */
export const listQuerySchema = z.object({
  page: intTextSchema({ min: 1 }).default(1),
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

/** Answer of every list. */
export const listResponse = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() });

/** The answer of a list of `T` (what `listResponse(itemSchema)` validates), for clients that hold the item type. */
export type ListResponse<T> = z.infer<ReturnType<typeof listResponse<z.ZodType<T>>>>;

/** The body of a 204 answer: nothing. */
export const noContentSchema = z.null();
