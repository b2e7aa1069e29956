import { AppError, detail, documentTypeLabels, documentTypes, msg } from '@aporta/domain';
import { and, asc, eq } from 'drizzle-orm';
import { autoSignRules } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { signPdf } from '../../platform/pades.ts';
import { sealSigner } from './authority.ts';
import type { SigningDeps } from './deps.ts';
import { sealAppearance, timestampUrlOf } from './settings.ts';

/**
 * Automatic sealing (firmaAutomatica): the rules naming which generated reports and library document types
 * are sealed with the institution's seal, and the PDF finisher that seals them as they are produced.
 */

/**
 * What automatic sealing can name: generated reports (platform/pdf.ts kinds, sealed as they are
 * produced) and the types of the documents library (`documento:<TIPO>`, sealed as they are filed —
 * uploaded, or filed by another module: planilla PDFs, survival acts, letters).
 */
export const sealableKinds = [
  { kind: 'contributor-report-general', label: 'Reporte general de afiliados' },
  { kind: 'contributor-report-municipality', label: 'Reporte de afiliados por municipio' },
  { kind: 'contributor-report-type', label: 'Reporte de afiliados por tipo' },
  { kind: 'planilla', label: 'PDF de una planilla' },
  { kind: 'survival-letters', label: 'Avisos de supervivencia' },
  { kind: 'pension-payroll', label: 'Planilla de pensiones' },
  ...documentTypes.map((t) => ({ kind: `documento:${t}`, label: `Documentos de tipo «${documentTypeLabels[t]}» al archivarse` })),
];

/**
 * The PDF finisher of automatic sealing: a generated document, or a library document as it is filed, whose
 * kind has an active rule comes back sealed by the institution; any other, null (left as it is).
 */
export async function sealByRule(ctx: RequestContext, deps: SigningDeps, kind: string, pdf: Buffer): Promise<Buffer | null> {
  const [rule] = await ctx.db
    .select({ id: autoSignRules.id })
    .from(autoSignRules)
    .where(and(eq(autoSignRules.documentKind, kind), eq(autoSignRules.isActive, true)));
  if (!rule) return null;
  const signer = await sealSigner(ctx.db, deps.config);
  const sealed = await signPdf(new Uint8Array(pdf), signer, {
    reason: 'Sello institucional',
    location: 'Guatemala',
    timestampUrl: await timestampUrlOf(ctx.db),
    appearance: await sealAppearance(ctx.db, deps),
  });
  return Buffer.from(sealed);
}

const ruleDto = (r: typeof autoSignRules.$inferSelect) => ({
  id: r.id,
  name: r.name,
  documentKind: r.documentKind,
  isActive: r.isActive,
  createdAt: r.createdAt.toISOString(),
});

export async function listRules(ctx: RequestContext) {
  const rows = await ctx.db.select().from(autoSignRules).orderBy(asc(autoSignRules.name));
  return { items: rows.map(ruleDto), kinds: sealableKinds };
}

export async function createRule(ctx: RequestContext, input: { name: string; documentKind: string; isActive: boolean }) {
  if (!sealableKinds.some((k) => k.kind === input.documentKind)) {
    throw new AppError('VALIDATION', msg('signing.ruleKindInvalid'), [
      { path: 'documentKind', ...detail(msg('signing.chooseFromList')) },
    ]);
  }
  const [dup] = await ctx.db
    .select({ id: autoSignRules.id })
    .from(autoSignRules)
    .where(eq(autoSignRules.documentKind, input.documentKind));
  if (dup)
    throw new AppError('DUPLICATE', msg('signing.ruleDuplicate'), [
      { path: 'documentKind', ...detail(msg('signing.ruleDuplicateDetail')) },
    ]);
  const [row] = await ctx.db.transaction(async (tx) => {
    const out = await tx
      .insert(autoSignRules)
      .values({ ...input, createdBy: ctx.user.id })
      .returning();
    await ctx.audit({ action: 'CREATE', entityType: 'auto_sign_rule', entityId: out[0].id, after: input }, tx);
    return out;
  });
  return ruleDto(row);
}

export async function updateRule(ctx: RequestContext, id: number, input: { isActive: boolean }) {
  const [row] = await ctx.db.transaction(async (tx) => {
    const out = await tx.update(autoSignRules).set(input).where(eq(autoSignRules.id, id)).returning();
    if (out[0]) await ctx.audit({ action: 'UPDATE', entityType: 'auto_sign_rule', entityId: id, after: input }, tx);
    return out;
  });
  if (!row) throw new AppError('NOT_FOUND', msg('signing.ruleNotFound'));
  return ruleDto(row);
}

export async function deleteRule(ctx: RequestContext, id: number) {
  const out = await ctx.db.transaction(async (tx) => {
    const rows = await tx.delete(autoSignRules).where(eq(autoSignRules.id, id)).returning();
    if (rows[0])
      await ctx.audit(
        { action: 'DELETE', entityType: 'auto_sign_rule', entityId: id, before: { documentKind: rows[0].documentKind } },
        tx,
      );
    return rows;
  });
  if (!out.length) throw new AppError('NOT_FOUND', msg('signing.ruleNotFound'));
}
