import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { AppError } from '@aporta/domain';
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

/** Types accepted, detected from the bytes (the name and the browser's claim are not trusted). */
export const ACCEPTED_TYPES = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'text/plain': 'texto',
} as const;
export type AcceptedType = keyof typeof ACCEPTED_TYPES;

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export const blobKey = (sha256: string) => `blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;

/** The type of `bytes` from its first bytes; `filename` only tells an .xlsx from a .docx (both zips). */
export function detectType(bytes: Uint8Array, filename = ''): AcceptedType | null {
  const head = Buffer.from(bytes.subarray(0, 8));
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    if (/\.xlsx$/i.test(filename)) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    if (/\.docx$/i.test(filename)) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    return null;
  }
  if (/\.txt$/i.test(filename) && !bytes.subarray(0, 4096).includes(0)) return 'text/plain';
  return null;
}

/**
 * Checks size and type; answers the type. `only` narrows the accepted types (the signing flow: PDF).
 * Messages name the file.
 */
export function checkUpload(bytes: Uint8Array, filename: string, only?: AcceptedType[]): AcceptedType {
  if (bytes.length === 0) throw new AppError('VALIDATION', `El archivo «${filename}» está vacío.`);
  if (bytes.length > MAX_BLOB_BYTES) {
    throw new AppError('VALIDATION', `El archivo «${filename}» supera el tamaño máximo de ${MAX_BLOB_BYTES / 1024 / 1024} MB.`);
  }
  const type = detectType(bytes, filename);
  const allowed = only ?? (Object.keys(ACCEPTED_TYPES) as AcceptedType[]);
  if (!type || !allowed.includes(type)) {
    const names = allowed.map((t) => ACCEPTED_TYPES[t]).join(', ');
    throw new AppError('VALIDATION', `El archivo «${filename}» no es de un tipo aceptado (${names}).`);
  }
  return type;
}

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
