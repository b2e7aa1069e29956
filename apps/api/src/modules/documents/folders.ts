import { AppError, detail, msg, type NewFolder } from '@aporta/domain';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documentFolders, documents, municipalEntities } from '../../db/schema/index.ts';
import { type RequestContext, routeScope } from '../../platform/context.ts';
import { isEntityInScope } from '../../platform/scope.ts';

/**
 * The folders of the document library: listed, created and deleted by users within the scope of their
 * `documents` grant, and the folder paths other modules file into (created when missing).
 */

/** Folders (and so documents) in the route's scope: the institution's own (entity null) only with ALL. */
const folderInScope = (ctx: RequestContext) => (routeScope(ctx) === 'ALL' ? undefined : ctx.inScope(documentFolders.entityId));

export async function folderRow(ctx: RequestContext, id: number) {
  const [f] = await ctx.db
    .select()
    .from(documentFolders)
    .where(and(eq(documentFolders.id, id), folderInScope(ctx)));
  if (!f) throw new AppError('NOT_FOUND', msg('signing.folderNotFound'));
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
    if (routeScope(ctx) !== 'ALL') throw new AppError('FORBIDDEN', msg('signing.institutionFolderForbidden'));
  } else if (!(await isEntityInScope(ctx, entityId))) {
    throw new AppError('VALIDATION', msg('signing.unitOutOfScope'), [
      { path: 'entityId', ...detail(msg('signing.unitOutOfScopeDetail')) },
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
    throw new AppError('DUPLICATE', msg('signing.folderDuplicate', { name: input.name }), [
      { path: 'name', ...detail(msg('signing.folderDuplicateDetail')) },
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
  if (n > 0 || m > 0) throw new AppError('CONFLICT', msg('signing.folderNotEmpty'));
  await ctx.db.transaction(async (tx) => {
    await tx.delete(documentFolders).where(eq(documentFolders.id, id));
    await ctx.audit(
      { action: 'DELETE', entityType: 'document_folder', entityId: id, before: { name: f.name }, scopeEntityId: f.entityId },
      tx,
    );
  });
}

/** The id of the folder at `path`, each level created when missing (two filings at once: one wins, both use it). */
export async function ensureFolderPath(db: Db, path: string[], entityId: number | null, userId: number): Promise<number> {
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
    if (f.entityId !== entityId) throw new AppError('CONFLICT', msg('signing.folderOtherUnit', { name }));
    parentId = f.id;
  }
  if (parentId === null) throw new Error('empty folder path');
  return parentId;
}
