import { z } from 'zod';

/** What the public verification of a generated document answers: only what the paper itself shows, plus its hash. */
export const documentVerificationSchema = z.object({
  /** As printed: XXXX-XXXX-XXXX-XXXX. */
  code: z.string(),
  title: z.string(),
  generatedAt: z.string(),
  pages: z.number().int(),
  /** SHA-256 of the PDF's bytes, hex: a digital copy with another hash was altered. */
  sha256: z.string(),
});
export type DocumentVerification = z.infer<typeof documentVerificationSchema>;
