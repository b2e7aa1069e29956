import { AppError, detail, guatemalaToday, type LegalCase, msg } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { legalCaseActions, legalCaseDocuments } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { fileDocument } from '../documents/filing.ts';
import { getCase, openCaseRow } from './service.ts';

/**
 * What is recorded on an open collection case: its actions (actuaciones, dated, by the lawyer who
 * records them) and its attached documents (filed in Documentos, in the entity's folder), each audited.
 */

export async function addAction(
  ctx: RequestContext,
  input: { id: number; actionDate: string; kind: string; description: string },
): Promise<LegalCase> {
  if (input.actionDate > guatemalaToday()) {
    const m = msg('legal.actionDateFuture');
    throw new AppError('VALIDATION', m, [{ path: 'actionDate', ...detail(m) }]);
  }
  await ctx.db.transaction(async (tx) => {
    const row = await openCaseRow(ctx, tx, input.id);
    const [a] = await tx
      .insert(legalCaseActions)
      .values({
        caseId: row.id,
        actionDate: input.actionDate,
        kind: input.kind,
        description: input.description,
        lawyerId: ctx.actor.id,
        createdBy: ctx.actor.id,
      })
      .returning({ id: legalCaseActions.id });
    await ctx.audit(
      {
        action: 'LEGAL_ACTION',
        entityType: 'legal-case',
        entityId: row.id,
        after: { actuacion: a.id, fecha: input.actionDate, tipo: input.kind, descripcion: input.description.slice(0, 200) },
        scopeEntityId: row.entityId,
      },
      tx,
    );
  });
  return getCase(ctx, { id: input.id });
}

/** Attaches a document: filed in Documentos (the entity's folder, «Cobro jurídico/EXP-…»), linked to the case. */
export async function attachDocument(
  ctx: RequestContext,
  files: FileStore,
  input: { id: number; filename: string; bytes: Uint8Array },
): Promise<LegalCase> {
  const row = await ctx.db.transaction((tx) => openCaseRow(ctx, tx, input.id));
  const [{ next }] = rowsOf<{ next: number }>(
    await ctx.db.execute(sql`select nextval('legal_case_documents_id_seq')::int as next`),
  );
  const doc = await fileDocument(ctx, files, {
    folder: ['Cobro jurídico', row.number],
    entityId: row.entityId,
    title: `${row.number} · ${input.filename}`,
    docType: 'OTRO',
    sourceType: 'legal_case_document',
    sourceId: Number(next),
    file: { bytes: input.bytes, filename: input.filename },
  });
  await ctx.db.transaction(async (tx) => {
    await tx.insert(legalCaseDocuments).values({
      id: Number(next),
      caseId: row.id,
      documentId: doc.id,
      title: input.filename,
      createdBy: ctx.actor.id,
    });
    await ctx.audit(
      {
        action: 'LEGAL_DOCUMENT',
        entityType: 'legal-case',
        entityId: row.id,
        after: { documento: doc.id, archivo: input.filename },
        scopeEntityId: row.entityId,
      },
      tx,
    );
  });
  return getCase(ctx, { id: input.id });
}
