import { AppError, type LibraryDocument, msg } from '@aporta/domain';
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { contributors, documentFolders, documents, documentVersions, municipalEntities, users } from '../../db/schema/index.ts';
import { getBlob } from '../../platform/blobs.ts';
import { type RequestContext, routeScope } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { orderBy } from '../../platform/list.ts';

/**
 * The document library (Documentos): folders owned by a unit (the institution, or a municipal entity),
 * documents with versions whose content is stored by hash. What a user reaches is the folder's owner
 * unit within the scope of their `documents` grant, in SQL. This file reads documents; folders.ts holds the
 * folders, filing.ts what stores a document or a version.
 */

const docInScope = (ctx: RequestContext) => (routeScope(ctx) === 'ALL' ? undefined : ctx.inScope(documents.entityId));

/**
 * A document's current version: the condition joining `documents` to its row of `document_versions`. The one
 * definition of "current version", used by the library, batch sealing (signing) and workflow requests.
 */
export const currentVersion = () =>
  and(eq(documentVersions.documentId, documents.id), eq(documentVersions.version, documents.currentVersion));

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
    .innerJoin(documentVersions, currentVersion())
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
    .innerJoin(documentVersions, currentVersion())
    .where(where);
  return { items: rows.map(toDoc), total };
}

export async function getDocument(ctx: RequestContext, id: number) {
  const [r] = await baseQuery(ctx.db).where(and(eq(documents.id, id), docInScope(ctx)));
  if (!r) throw new AppError('NOT_FOUND', msg('signing.documentNotFound'));
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

export async function documentContent(ctx: RequestContext, files: FileStore, id: number, version?: number) {
  const doc = await getDocument(ctx, id);
  const v = doc.versions.find((x) => x.version === (version ?? doc.version));
  if (!v) throw new AppError('NOT_FOUND', msg('signing.versionNotFound'));
  const [meta] = await ctx.db
    .select({ contentType: documentVersions.contentType })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, id), eq(documentVersions.version, v.version)));
  return { bytes: await getBlob(files, v.sha256), filename: v.filename, contentType: meta.contentType, sha256: v.sha256 };
}
