import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { blobs } from '../db/schema/index.ts';
import type { FileStore } from './files.ts';

/**
 * Content-addressed storage on top of the file store (platform/files.ts): a file is kept once under
 * `blobs/ab/cd/<sha256>`, whatever its name, and registered in `blobs`. Writing the same bytes again
 * costs nothing; a record names its content by hash, so content is never overwritten.
 */

/** Largest upload the library and the signing flow accept (bytes). */
export const MAX_BLOB_BYTES = 20 * 1024 * 1024;

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export const blobKey = (sha256: string) => `blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;

/** Stores `bytes` (once) and registers the blob; answers its hash. */
export async function putBlob(db: Db, files: FileStore, bytes: Uint8Array, contentType: string): Promise<string> {
  const sha256 = sha256Hex(bytes);
  const [known] = await db.select({ sha256: blobs.sha256 }).from(blobs).where(eq(blobs.sha256, sha256));
  if (known) return sha256;
  await files.put(blobKey(sha256), Readable.from([Buffer.from(bytes)]), { contentType });
  await db.insert(blobs).values({ sha256, size: bytes.length, contentType }).onConflictDoNothing();
  return sha256;
}

/** The bytes of a stored blob, checked against their hash (a damaged file is refused, not served). */
export async function getBlob(files: FileStore, sha256: string): Promise<Buffer> {
  const { body } = await files.get(blobKey(sha256));
  const bytes = await buffer(body);
  if (sha256Hex(bytes) !== sha256) throw new Error(`stored blob ${sha256} is damaged`);
  return bytes;
}
