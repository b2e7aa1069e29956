import { z } from 'zod';
import { renapResultSchema } from './contributors.ts';
import { dateSchema } from './fields.ts';
import { listQuerySchema } from './list.ts';
import { text } from './messages.ts';

/** One row of the RENAP lookup log: who asked about which CUI, when, and what the registry answered. */
export const renapLookupLogSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  userEmail: z.string().nullable(),
  cui: z.string(),
  source: z.string(),
  result: renapResultSchema,
  durationMs: z.number().int(),
  purpose: z.string().nullable(),
});
export type RenapLookupLog = z.infer<typeof renapLookupLogSchema>;

/** Filters of the lookup log: an exact CUI (13 digits) and a day range. */
export const renapLookupQuerySchema = listQuerySchema.extend({
  cui: z
    .string()
    .regex(/^\d{13}$/, { error: text('contributors.cuiThirteenDigits') })
    .optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
});
export type RenapLookupQuery = z.infer<typeof renapLookupQuerySchema>;
