import { AppError, msg } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { generatedDocuments } from '../../db/schema/index.ts';
import { formatVerificationCode, normalizeVerificationCode } from '../../platform/pdf.ts';

/**
 * What a verification code proves about a document Aporta generated: its title, when, how many pages,
 * and the SHA-256 of its bytes (a digital copy whose hash differs was altered). Public: whoever holds
 * the paper may check it; nothing beyond what the paper itself prints is told (no author, no filters
 * beyond the title), and codes carry 80 random bits, so they cannot be guessed.
 */
export async function verifyDocument(db: Db, input: { code: string }) {
  const code = normalizeVerificationCode(input.code);
  const unknown = new AppError('NOT_FOUND', msg('signing.verificationCodeUnknown'));
  if (!code) throw unknown;
  const [doc] = await db
    .select({
      code: generatedDocuments.code,
      title: generatedDocuments.title,
      generatedAt: generatedDocuments.generatedAt,
      pages: generatedDocuments.pages,
      sha256: generatedDocuments.sha256,
    })
    .from(generatedDocuments)
    .where(eq(generatedDocuments.code, code));
  if (!doc) throw unknown;
  return { ...doc, code: formatVerificationCode(doc.code), generatedAt: doc.generatedAt.toISOString() };
}
