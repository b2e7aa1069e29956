import { AppError, type documentTypes, type LibraryDocument, type NewFolder } from '@aporta/domain';
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { contributors, documentFolders, documents, documentVersions, municipalEntities, users } from '../../db/schema/index.ts';
import { getBlob, putBlob } from '../../platform/blobs.ts';
import { createContext, type RequestContext, routeScope } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { orderBy } from '../../platform/list.ts';
import { badPdfError, inspectPdf } from '../../platform/pades.ts';
import { finishPdf } from '../../platform/pdf.ts';
import { isEntityInScope } from '../../platform/scope.ts';
import { checkUpload } from '../../platform/uploads.ts';

/**
 * The document library (Documentos): folders owned by a unit (the institution, or a municipal entity),
 * documents with versions whose content is stored by hash. What a user reaches is the folder's owner
 * unit within the scope of their `documents` grant, in SQL.
 */

/** Folders (and so documents) in the route's scope: the institution's own (entity null) only with ALL. */
const folderInScope = (ctx: RequestContext) => (routeScope(ctx) === 'ALL' ? undefined : ctx.inScope(documentFolders.entityId));
const docInScope = (ctx: RequestContext) => (routeScope(ctx) === 'ALL' ? undefined : ctx.inScope(documents.entityId));

async function folderRow(ctx: RequestContext, id: number) {
  const [f] = await ctx.db
    .select()
    .from(documentFolders)
    .where(and(eq(documentFolders.id, id), folderInScope(ctx)));
  if (!f) throw new AppError('NOT_FOUND', 'La carpeta no existe.');
  return f;
}

export async function listFolders(ctx: RequestContext, parentId?: number) {
  const path: { id: number; name: string }[] = [];
  if (parentId) {
    let cur: number | null = parentId;
    for (let depth = 0; cur && depth < 20; depth++) {
      const f: typeof documentFolders.$inferSelect = await folderRow(ctx, cur);
      path.unshift({ id: f.id, name: f.name });
      cur = f.parentId;
    }
  }
  const rows = await ctx.db
    .select({
      f: documentFolders,
      entityName: municipalEntities.name,
      documents: sql<number>`(select count(*)::int from ${documents} where ${documents.folderId} = ${documentFolders.id})`,
      subfolders: sql<number>`(select count(*)::int from ${documentFolders} c where c.parent_id = ${documentFolders.id})`,
    })
    .from(documentFolders)
    .leftJoin(municipalEntities, eq(municipalEntities.id, documentFolders.entityId))
    .where(and(parentId ? eq(documentFolders.parentId, parentId) : isNull(documentFolders.parentId), folderInScope(ctx)))
    .orderBy(asc(documentFolders.name));
  return {
    path,
    items: rows.map((r) => ({
      id: r.f.id,
      parentId: r.f.parentId,
      name: r.f.name,
      entityId: r.f.entityId,
      entityName: r.entityName ?? null,
      documents: Number(r.documents),
      subfolders: Number(r.subfolders),
      createdAt: r.f.createdAt.toISOString(),
    })),
  };
}

export async function createFolder(ctx: RequestContext, input: NewFolder) {
  let entityId = input.entityId;
  if (input.parentId) {
    const parent = await folderRow(ctx, input.parentId);
    entityId = parent.entityId;
  } else if (entityId === null) {
    if (routeScope(ctx) !== 'ALL')
      throw new AppError('FORBIDDEN', 'Solo quien tiene alcance total crea carpetas de la institución.');
  } else if (!(await isEntityInScope(ctx, entityId))) {
    throw new AppError('VALIDATION', 'Unidad: fuera de su alcance.', [
      { path: 'entityId', message: 'La entidad está fuera de su alcance.' },
    ]);
  }
  const [dup] = await ctx.db
    .select({ id: documentFolders.id })
    .from(documentFolders)
    .where(
      and(
        input.parentId ? eq(documentFolders.parentId, input.parentId) : isNull(documentFolders.parentId),
        sql`lower(${documentFolders.name}) = lower(${input.name})`,
      ),
    );
  if (dup)
    throw new AppError('DUPLICATE', `Ya existe una carpeta «${input.name}» aquí.`, [
      { path: 'name', message: 'Ya existe una carpeta con ese nombre.' },
    ]);
  const [row] = await ctx.db.transaction(async (tx) => {
    const out = await tx
      .insert(documentFolders)
      .values({ name: input.name, parentId: input.parentId, entityId, createdBy: ctx.user.id })
      .returning();
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'document_folder',
        entityId: out[0].id,
        after: { name: input.name, parentId: input.parentId },
        scopeEntityId: entityId,
      },
      tx,
    );
    return out;
  });
  return {
    id: row.id,
    parentId: row.parentId,
    name: row.name,
    entityId: row.entityId,
    entityName: null,
    documents: 0,
    subfolders: 0,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function deleteFolder(ctx: RequestContext, id: number) {
  const f = await folderRow(ctx, id);
  const [{ n }] = await ctx.db.select({ n: count() }).from(documents).where(eq(documents.folderId, id));
  const [{ m }] = await ctx.db.select({ m: count() }).from(documentFolders).where(eq(documentFolders.parentId, id));
  if (n > 0 || m > 0) throw new AppError('CONFLICT', 'La carpeta no está vacía: mueva o elimine su contenido primero.');
  await ctx.db.transaction(async (tx) => {
    await tx.delete(documentFolders).where(eq(documentFolders.id, id));
    await ctx.audit(
      { action: 'DELETE', entityType: 'document_folder', entityId: id, before: { name: f.name }, scopeEntityId: f.entityId },
      tx,
    );
  });
}

const aboutEntity = alias(municipalEntities, 'about_entity');
const docColumns = {
  d: documents,
  folderName: documentFolders.name,
  v: documentVersions,
  aboutEntityName: aboutEntity.name,
  contributorCui: contributors.cui,
  contributorName: sql<
    string | null
  >`nullif(concat_ws(' ', ${contributors.firstName}, ${contributors.secondName}, ${contributors.firstSurname}, ${contributors.secondSurname}), '')`,
};

type DocRow = {
  d: typeof documents.$inferSelect;
  folderName: string;
  v: typeof documentVersions.$inferSelect;
  aboutEntityName: string | null;
  contributorCui: string | null;
  contributorName: string | null;
};

const toDoc = (r: DocRow): LibraryDocument => ({
  id: r.d.id,
  folderId: r.d.folderId,
  folderName: r.folderName,
  title: r.d.title,
  docType: r.d.docType,
  entityId: r.d.entityId,
  aboutEntityId: r.d.aboutEntityId,
  aboutEntityName: r.aboutEntityName,
  contributorId: r.d.contributorId,
  contributorCui: r.contributorCui,
  contributorName: r.contributorName,
  version: r.d.currentVersion,
  filename: r.v.filename,
  contentType: r.v.contentType,
  size: r.v.size,
  pages: r.v.pages,
  sha256: r.v.sha256,
  updatedAt: r.d.updatedAt.toISOString(),
});

export interface DocumentFilter {
  folderId?: number;
  docType?: string;
  contributorId?: number;
  q?: string;
}

export function documentWhere(ctx: RequestContext, f: DocumentFilter): SQL | undefined {
  return and(
    docInScope(ctx),
    f.folderId ? eq(documents.folderId, f.folderId) : undefined,
    f.docType ? eq(documents.docType, f.docType) : undefined,
    f.contributorId ? eq(documents.contributorId, f.contributorId) : undefined,
    f.q ? sql`(${documents.title} ilike ${`%${f.q}%`} or ${documentVersions.filename} ilike ${`%${f.q}%`})` : undefined,
  );
}

const baseQuery = (db: Db) =>
  db
    .select(docColumns)
    .from(documents)
    .innerJoin(documentFolders, eq(documentFolders.id, documents.folderId))
    .innerJoin(
      documentVersions,
      and(eq(documentVersions.documentId, documents.id), eq(documentVersions.version, documents.currentVersion)),
    )
    .leftJoin(aboutEntity, eq(aboutEntity.id, documents.aboutEntityId))
    .leftJoin(contributors, eq(contributors.id, documents.contributorId));

export async function listDocuments(
  ctx: RequestContext,
  q: DocumentFilter & { page: number; pageSize: number; sort?: string; withTotal?: boolean },
) {
  const where = documentWhere(ctx, q);
  const rows = await baseQuery(ctx.db)
    .where(where)
    .orderBy(...orderBy(q.sort, { id: documents.id, title: documents.title, updatedAt: documents.updatedAt }, '-updatedAt'))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  if (q.withTotal === false) return { items: rows.map(toDoc), total: rows.length };
  const [{ total }] = await ctx.db
    .select({ total: count() })
    .from(documents)
    .innerJoin(
      documentVersions,
      and(eq(documentVersions.documentId, documents.id), eq(documentVersions.version, documents.currentVersion)),
    )
    .where(where);
  return { items: rows.map(toDoc), total };
}

export async function getDocument(ctx: RequestContext, id: number) {
  const [r] = await baseQuery(ctx.db).where(and(eq(documents.id, id), docInScope(ctx)));
  if (!r) throw new AppError('NOT_FOUND', 'El documento no existe.');
  const versions = await ctx.db
    .select({ v: documentVersions, by: sql<string | null>`trim(${users.firstName} || ' ' || ${users.lastName})` })
    .from(documentVersions)
    .leftJoin(users, eq(users.id, documentVersions.createdBy))
    .where(eq(documentVersions.documentId, id))
    .orderBy(desc(documentVersions.version));
  return {
    ...toDoc(r),
    versions: versions.map((x) => ({
      version: x.v.version,
      filename: x.v.filename,
      size: x.v.size,
      sha256: x.v.sha256,
      note: x.v.note,
      createdBy: x.by,
      createdAt: x.v.createdAt.toISOString(),
    })),
  };
}

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
    throw new AppError('VALIDATION', 'Entidad: no existe o está fuera de su alcance.', [
      { path: 'aboutEntityId', message: 'La entidad no existe o está fuera de su alcance.' },
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
      throw new AppError('VALIDATION', 'Afiliado: no existe o está fuera de su alcance.', [
        {
          path: input.contributorCui ? 'contributorCui' : 'contributorId',
          message: 'No hay un afiliado con ese CUI a su alcance.',
        },
      ]);
    contributorId = c.id;
    aboutEntityId ??= c.entityId ?? undefined;
  }
  return { aboutEntityId, contributorId };
}

/** The choices of the library's forms: entities within the caller's `documents` scope. */
export async function documentOptions(ctx: RequestContext) {
  const entities = await ctx.db
    .select({ id: municipalEntities.id, code: municipalEntities.code, name: municipalEntities.name })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.isActive, true), ctx.inScope(municipalEntities.id)))
    .orderBy(municipalEntities.name);
  return { entities, institution: routeScope(ctx) === 'ALL' };
}

/** Every document the filter finds, in pages (the export). */
export async function* documentBatches(ctx: RequestContext, f: DocumentFilter & { sort?: string }) {
  for (let page = 1; ; page++) {
    const { items } = await listDocuments(ctx, { ...f, page, pageSize: 1000, withTotal: false });
    yield items;
    if (items.length < 1000) return;
  }
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
    const moved = await tx
      .update(documents)
      .set({ currentVersion: current.version + 1, updatedAt: new Date() })
      .where(and(eq(documents.id, id), eq(documents.currentVersion, current.version)))
      .returning({ id: documents.id });
    if (!moved.length) throw new AppError('CONFLICT', 'El documento cambió mientras tanto: vuelva a abrirlo.');
    await tx.insert(documentVersions).values({
      documentId: id,
      version: current.version + 1,
      sha256: content.sha256,
      filename: file.filename.slice(0, 200),
      contentType: content.type,
      size: content.size,
      pages: content.pages,
      note: withSeal(note, content.sealNote),
      createdBy: ctx.user.id,
    });
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

export async function documentContent(ctx: RequestContext, files: FileStore, id: number, version?: number) {
  const doc = await getDocument(ctx, id);
  const v = doc.versions.find((x) => x.version === (version ?? doc.version));
  if (!v) throw new AppError('NOT_FOUND', 'La versión no existe.');
  const [meta] = await ctx.db
    .select({ contentType: documentVersions.contentType })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, id), eq(documentVersions.version, v.version)));
  return { bytes: await getBlob(files, v.sha256), filename: v.filename, contentType: meta.contentType, sha256: v.sha256 };
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
    if (!e) throw new AppError('NOT_FOUND', 'La entidad no existe.');
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

/** The id of the folder at `path`, each level created when missing (two filings at once: one wins, both use it). */
async function ensureFolderPath(db: Db, path: string[], entityId: number | null, userId: number): Promise<number> {
  let parentId: number | null = null;
  for (const raw of path) {
    const name = raw.slice(0, 120);
    const find = async () => {
      const [f] = await db
        .select({ id: documentFolders.id, entityId: documentFolders.entityId })
        .from(documentFolders)
        .where(
          and(
            parentId ? eq(documentFolders.parentId, parentId) : isNull(documentFolders.parentId),
            sql`lower(${documentFolders.name}) = lower(${name})`,
          ),
        );
      return f;
    };
    let f = await find();
    if (!f) {
      await db
        .insert(documentFolders)
        .values({ name, parentId, entityId, createdBy: userId > 0 ? userId : null })
        .onConflictDoNothing();
      f = await find();
    }
    if (!f) throw new Error(`folder ${name} could not be created`);
    if (f.entityId !== entityId) throw new AppError('CONFLICT', `La carpeta «${name}» de Documentos pertenece a otra unidad.`);
    parentId = f.id;
  }
  if (parentId === null) throw new Error('empty folder path');
  return parentId;
}
