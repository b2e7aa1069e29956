import { AppError } from '@aporta/domain';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MAX_BLOB_BYTES } from './blobs.ts';

/** Limits for the multipart plugin of a route that takes one file and a few fields. */
export const uploadLimits = { fileSize: MAX_BLOB_BYTES, files: 1, fields: 12, parts: 13, fieldSize: 8192 };

/**
 * Reads a multipart body with one file (field "file", optional when `fileRequired` is false) and text
 * fields validated by `fields`. The file is read into memory (≤ MAX_BLOB_BYTES); over the limit → 413.
 */
export async function readUpload<S extends z.ZodType>(
  request: FastifyRequest,
  fields: S,
  opts: { fileRequired?: boolean } = {},
): Promise<{ file: { bytes: Uint8Array; filename: string } | null; fields: z.infer<S> }> {
  if (!request.isMultipart())
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Envíe el archivo como multipart/form-data en el campo "file".');
  const values: Record<string, string> = {};
  let file: { bytes: Uint8Array; filename: string } | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.file.truncated)
        throw new AppError('PAYLOAD_TOO_LARGE', `El archivo supera el máximo de ${MAX_BLOB_BYTES / 1024 / 1024} MB.`);
      file = { bytes: new Uint8Array(bytes), filename: (part.filename || 'archivo').replace(/[\\/]/g, '_') };
    } else {
      values[part.fieldname] = String(part.value ?? '');
    }
  }
  if (!file && opts.fileRequired !== false)
    throw new AppError('VALIDATION', 'No se recibió ningún archivo.', [{ path: 'file', message: 'Elija un archivo.' }]);
  const parsed = fields.safeParse(values);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new AppError('VALIDATION', details[0]?.message, details);
  }
  return { file, fields: parsed.data };
}
