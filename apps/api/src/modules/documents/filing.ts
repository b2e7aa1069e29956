import { AppError, detail, type documentTypes, type Message, msg } from '@aporta/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contributors, documents, documentVersions, municipalEntities } from '../../db/schema/index.ts';
import { putBlob } from '../../platform/blobs.ts';
import { createContext, type RequestContext, routeScope } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { badPdfError, inspectPdf } from '../../platform/pades.ts';
import { finishPdf } from '../../platform/pdf.ts';
import { checkUpload } from '../../platform/uploads.ts';
import { ensureFolderPath, folderRow } from './folders.ts';
import { getDocument } from './library.ts';

/**
 * What stores a document of the library: an upload (a new document or a new version), its deletion, and
 * the filing of a document another module produced (`fileDocument`), each with its audit row.
 */

/**
 * A file checked (type, size; a PDF opens and is not encrypted) and stored. A PDF whose type an
 * automatic-sealing rule names (`documento:<TIPO>`) is stored sealed; a seal that fails leaves the file
 * as it came, saying why in the version's note — the upload is never lost for it.
 */
async function checkedContent(ctx: RequestContext, files: FileStore, bytes: Uint8Array, filename: string, docType: string) {
  const type = checkUpload(bytes, filename);
  let pages: number | null = null;
  let content = bytes;
  let sealNote: string | null = null;
  if (type === 'application/pdf') {
    pages = (await inspectPdf(bytes).catch((e) => badPdfError(e, filename))).pages;
    try {
      const sealed = await finishPdf(ctx, `documento:${docType}`, Buffer.from(bytes));
      if (sealed) {
        content = new Uint8Array(sealed);
        sealNote = 'sellado automáticamente';
      }
    } catch (err) {
      sealNote = `no se pudo sellar automáticamente (${err instanceof AppError ? err.message : 'error al firmar'})`;
    }
  }
  const sha256 = await putBlob(ctx.db, files, content, type);
  return { sha256, type, pages, size: content.length, sealNote };
}

const withSeal = (note: string, sealNote: string | null) => (sealNote ? `${note} · ${sealNote}` : note);

export interface NewDocumentInput {
  folderId: number;
  title: string;
  docType: string;
  aboutEntityId?: number;
  contributorId?: number;
  /** The contributor by CUI (the form sends it); resolved within the caller's scope. */
  contributorCui?: string;
  sourceType?: string;
  sourceId?: number;
  file: { bytes: Uint8Array; filename: string };
  note?: string;
}

/**
 * Stores a new document in a folder the caller reaches. Also the service other modules call to attach
 * a file to one of their records (`sourceType`/`sourceId`: planilla PDFs, notarised survival acts).
 */
export async function addDocument(ctx: RequestContext, files: FileStore, input: NewDocumentInput) {
  const folder = await folderRow(ctx, input.folderId);
  const about = await concerns(ctx, input);
  const content = await checkedContent(ctx, files, input.file.bytes, input.file.filename, input.docType);
  const id = await ctx.db.transaction(async (tx) => {
    const [doc] = await tx
      .insert(documents)
      .values({
        folderId: folder.id,
        title: input.title,
        docType: input.docType,
        entityId: folder.entityId,
        aboutEntityId: about.aboutEntityId,
        contributorId: about.contributorId,
        sourceType: input.sourceType,
        sourceId: input.sourceId,
        createdBy: ctx.user.id,
      })
      .returning({ id: documents.id });
    await tx.insert(documentVersions).values({
      documentId: doc.id,
      version: 1,
      sha256: content.sha256,
      filename: input.file.filename.slice(0, 200),
      contentType: content.type,
      size: content.size,
      pages: content.pages,
      note: withSeal(input.note ?? 'Carga', content.sealNote),
      createdBy: ctx.user.id,
    });
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'document',
        entityId: doc.id,
        after: { title: input.title, sha256: content.sha256 },
        scopeEntityId: folder.entityId,
      },
      tx,
    );
    return doc.id;
  });
  return getDocument(ctx, id);
}

/**
 * The entity and contributor a new document concerns, checked: the entity within the caller's scope, the
 * contributor (by id or CUI) an existing one whose entity is within it. Named fields on refusal.
 */
async function concerns(ctx: RequestContext, input: NewDocumentInput) {
  let aboutEntityId = input.aboutEntityId;
  const entityFound =
    aboutEntityId === undefined ||
    (
      await ctx.db
        .select({ id: municipalEntities.id })
        .from(municipalEntities)
        .where(and(eq(municipalEntities.id, aboutEntityId), ctx.inScope(municipalEntities.id)))
    ).length > 0;
  if (!entityFound)
    throw new AppError('VALIDATION', msg('signing.entityOutOfScope'), [
      { path: 'aboutEntityId', ...detail(msg('signing.entityOutOfScopeDetail')) },
    ]);
  let contributorId = input.contributorId;
  if (contributorId !== undefined || input.contributorCui) {
    const [c] = await ctx.db
      .select({ id: contributors.id, entityId: contributors.entityId })
      .from(contributors)
      .where(
        and(
          contributorId !== undefined ? eq(contributors.id, contributorId) : eq(contributors.cui, input.contributorCui ?? ''),
          routeScope(ctx) === 'ALL' ? undefined : ctx.inScope(contributors.entityId),
        ),
      );
    if (!c)
      throw new AppError('VALIDATION', msg('signing.contributorOutOfScope'), [
        {
          path: input.contributorCui ? 'contributorCui' : 'contributorId',
          ...detail(msg('signing.contributorOutOfScopeDetail')),
        },
      ]);
    contributorId = c.id;
    aboutEntityId ??= c.entityId ?? undefined;
  }
  return { aboutEntityId, contributorId };
}

/**
 * Makes `version` the document's next version, in the caller's transaction, unless another version came
 * first since `doc.currentVersion` was read (409 with `raceMessage`). Used by uploads and batch sealing.
 */
export async function appendVersion(
  tx: Db,
  doc: { id: number; currentVersion: number },
  version: Omit<typeof documentVersions.$inferInsert, 'documentId' | 'version'>,
  raceMessage: Message,
) {
  const moved = await tx
    .update(documents)
    .set({ currentVersion: doc.currentVersion + 1, updatedAt: new Date() })
    .where(and(eq(documents.id, doc.id), eq(documents.currentVersion, doc.currentVersion)))
    .returning({ id: documents.id });
  if (!moved.length) throw new AppError('CONFLICT', raceMessage);
  await tx.insert(documentVersions).values({ documentId: doc.id, version: doc.currentVersion + 1, ...version });
}

/** A new version of a document (an upload, or the sealed copy a batch produces). */
export async function addVersion(
  ctx: RequestContext,
  files: FileStore,
  id: number,
  file: { bytes: Uint8Array; filename: string },
  note = 'Nueva versión',
) {
  const current = await getDocument(ctx, id);
  const content = await checkedContent(ctx, files, file.bytes, file.filename, current.docType);
  await ctx.db.transaction(async (tx) => {
    await appendVersion(
      tx,
      { id, currentVersion: current.version },
      {
        sha256: content.sha256,
        filename: file.filename.slice(0, 200),
        contentType: content.type,
        size: content.size,
        pages: content.pages,
        note: withSeal(note, content.sealNote),
        createdBy: ctx.user.id,
      },
      msg('signing.documentChangedMeanwhile'),
    );
    await ctx.audit(
      {
        action: 'UPDATE',
        entityType: 'document',
        entityId: id,
        before: { sha256: current.sha256 },
        after: { sha256: content.sha256, note },
        scopeEntityId: current.entityId,
      },
      tx,
    );
  });
  return getDocument(ctx, id);
}

export async function deleteDocument(ctx: RequestContext, id: number) {
  const doc = await getDocument(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(documents).where(eq(documents.id, id));
    await ctx.audit(
      { action: 'DELETE', entityType: 'document', entityId: id, before: { title: doc.title }, scopeEntityId: doc.entityId },
      tx,
    );
  });
}

export interface FiledDocument {
  /** Folder names, created when missing, owned by `entityId` (null: the institution's, from the top; else under the entity's own top folder). */
  folder: string[];
  entityId: number | null;
  title: string;
  docType: (typeof documentTypes)[number];
  /** The record it belongs to in its module: a second filing of the same source is a new version. */
  sourceType: string;
  sourceId: number;
  contributorId?: number;
  file: { bytes: Uint8Array; filename: string };
  note?: string;
}

/**
 * Files a document another module produced or received (a planilla's PDF, a notarised survival act,
 * the survival letters) into Documentos: in `folder` (created when missing) owned by `entityId`, as a
 * new document, or a new version of the one already filed for the same source. The calling module has
 * checked its own permission for the record; the document then follows its folder's owner unit like
 * any other (whoever holds `documents` READ within that unit sees it). Sealed on filing when a rule
 * names its type (see `checkedContent`).
 */
export async function fileDocument(ctx: RequestContext, files: FileStore, input: FiledDocument) {
  // The module's own route scope does not apply to the library: filing works at the folder's unit.
  const all = createContext({ db: ctx.db, user: ctx.user, actor: ctx.actor, sessionId: ctx.sessionId, scope: 'ALL' });
  // An entity's documents go under its own top folder ("M-0101 Municipalidad de …"), which its users reach.
  let path = input.folder;
  if (input.entityId !== null) {
    const [e] = await ctx.db
      .select({ code: municipalEntities.code, name: municipalEntities.name })
      .from(municipalEntities)
      .where(eq(municipalEntities.id, input.entityId));
    if (!e) throw new AppError('NOT_FOUND', msg('signing.entityNotFound'));
    path = [`${e.code} ${e.name}`, ...input.folder];
  }
  const folderId = await ensureFolderPath(ctx.db, path, input.entityId, ctx.user.id);
  const [existing] = await ctx.db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.sourceType, input.sourceType), eq(documents.sourceId, input.sourceId)))
    .orderBy(desc(documents.id))
    .limit(1);
  if (existing) return addVersion(all, files, existing.id, input.file, input.note ?? 'Archivado de nuevo');
  return addDocument(all, files, {
    folderId,
    title: input.title,
    docType: input.docType,
    contributorId: input.contributorId,
    aboutEntityId: input.entityId ?? undefined,
    sourceType: input.sourceType,
    sourceId: input.sourceId,
    file: input.file,
    note: input.note ?? 'Archivado automáticamente',
  });
}
