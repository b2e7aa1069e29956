import {
  AppError,
  addDays,
  formatDay,
  guatemalaToday,
  msg,
  type SolvencyCertificate,
  type SolvencyStatus,
  type SolvencyVerification,
  text,
} from '@aporta/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { solvencyCertificates } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import {
  formatVerificationCode,
  newVerificationCode,
  normalizeVerificationCode,
  type ReportDefinition,
} from '../../platform/pdf.ts';
import { scopedEntityOr404 } from '../../platform/scope.ts';
import { settingsAt } from '../settings/service.ts';
import { solvencyFacts } from './service.ts';

/**
 * Solvency certificates: issued to an entity that is "al día", listed and read in scope, verified in
 * public by their code, and printed; each one's status computed now from what it rests on.
 */

type CertificateRow = typeof solvencyCertificates.$inferSelect;
type CertificateState = { status: SolvencyStatus; statusReason: string | null };

/**
 * Whether what each certificate rests on still holds, read now (docs/decisions.md, "A certificate
 * verifies against what it rests on"): the agreement in force when it was issued (the entity's one
 * VIGENTE agreement of that day) later declared in default or annulled; or orders that existed and were
 * settled when it was issued — due before the issue date — owed again (a payment reversed, an agreement
 * undone). One statement for the whole list. The reason of each certificate that no longer holds.
 */
async function voidReasons(db: Db, certs: CertificateRow[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (!certs.length) return out;
  const ids = certs.map((c) => c.id);
  const rows = rowsOf<{
    id: number;
    issued_on: string;
    agreement_number: string | null;
    agreement_state: string | null;
    agreement_ended: string | null;
    reopened: number;
  }>(
    await db.execute(sql`
      select c.id, c.issued_on::text as issued_on, a.number as agreement_number, a.state as agreement_state,
             a.ended::text as agreement_ended,
             (select count(*)::int from payment_orders o
               where o.entity_id = c.entity_id and o.state = 'EMITIDA' and o.due_date < c.issued_on
                 and o.created_at <= c.created_at) as reopened
        from solvency_certificates c
        left join lateral (
          select pa.number, pa.state,
                 coalesce(pa.defaulted_on, (pa.voided_at at time zone 'America/Guatemala')::date) as ended
            from payment_agreements pa
           where pa.entity_id = c.entity_id and pa.agreement_date <= c.issued_on
             and ((pa.state = 'INCUMPLIDO' and pa.defaulted_on >= c.issued_on)
               or (pa.state = 'ANULADO' and (pa.voided_at at time zone 'America/Guatemala')::date >= c.issued_on))
           order by pa.id desc
           limit 1
        ) a on true
       where c.id in (${sql.join(
         ids.map((id) => sql`${id}`),
         sql`, `,
       )})`),
  );
  for (const r of rows) {
    if (r.agreement_number) {
      const agreement = r.agreement_number;
      const defaulted = r.agreement_state === 'INCUMPLIDO';
      const date = r.agreement_ended;
      const reason = date
        ? msg(defaulted ? 'financial.basisAgreementDefaultedOn' : 'financial.basisAgreementVoidedOn', { agreement, date })
        : msg(defaulted ? 'financial.basisAgreementDefaulted' : 'financial.basisAgreementVoided', { agreement });
      out.set(Number(r.id), reason.text);
    } else if (Number(r.reopened) > 0) {
      const n = Number(r.reopened);
      const reason =
        n === 1
          ? msg('financial.basisPaymentsReopenedOne', { date: r.issued_on })
          : msg('financial.basisPaymentsReopenedMany', { count: n, date: r.issued_on });
      out.set(Number(r.id), reason.text);
    }
  }
  return out;
}

function certState(c: CertificateRow, today: string, voided: Map<number, string>): CertificateState {
  if (c.revokedAt) return { status: 'REVOCADA', statusReason: text('financial.certificateRevoked') };
  const reason = voided.get(c.id);
  if (reason) return { status: 'SIN_EFECTO', statusReason: reason };
  if (c.validUntil < today) return { status: 'VENCIDA', statusReason: null };
  return { status: 'VIGENTE', statusReason: null };
}

async function toCertificates(db: Db, rows: CertificateRow[]): Promise<SolvencyCertificate[]> {
  const today = guatemalaToday();
  const voided = await voidReasons(db, rows);
  return rows.map((r) => toCertificate(r, certState(r, today, voided)));
}

function toCertificate(c: CertificateRow, state: CertificateState): SolvencyCertificate {
  return {
    id: c.id,
    code: formatVerificationCode(c.code),
    entityId: c.entityId,
    entityName: c.entityName,
    entityCode: c.entityCode,
    issuedOn: c.issuedOn,
    validUntil: c.validUntil,
    basis: c.basis,
    ...state,
  };
}

/** Issues a certificate to an entity that is "al día" today; refused (409) with the reason otherwise. */
export async function issueCertificate(ctx: RequestContext, input: { entityId: number }): Promise<SolvencyCertificate> {
  const entity = await scopedEntityOr404(ctx, input.entityId);
  const today = guatemalaToday();
  const solvency = await solvencyFacts(ctx.db, entity.id, today);
  if (!solvency.solvent) throw new AppError('CONFLICT', solvency.reason);
  const basis = solvency.reason.text;
  const s = await settingsAt(ctx.db, today);
  const row = await ctx.db.transaction(async (tx) => {
    const [c] = await tx
      .insert(solvencyCertificates)
      .values({
        code: newVerificationCode(),
        entityId: entity.id,
        entityName: entity.name,
        entityCode: entity.code,
        issuedOn: today,
        validUntil: addDays(today, s.values['agreements.solvencyValidityDays']),
        basis,
        createdBy: ctx.actor.id,
      })
      .returning();
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'solvency-certificate',
        entityId: c.id,
        after: { entidad: entity.name, vigenteHasta: c.validUntil, motivo: basis },
        scopeEntityId: entity.id,
      },
      tx,
    );
    return c;
  });
  return toCertificate(row, { status: 'VIGENTE', statusReason: null });
}

export async function findCertificates(ctx: RequestContext, q: { entityId?: number }): Promise<{ items: SolvencyCertificate[] }> {
  const rows = await ctx.db
    .select()
    .from(solvencyCertificates)
    .where(
      and(ctx.inScope(solvencyCertificates.entityId), q.entityId ? eq(solvencyCertificates.entityId, q.entityId) : undefined),
    )
    .orderBy(desc(solvencyCertificates.id))
    .limit(200);
  return { items: await toCertificates(ctx.db, rows) };
}

export async function getCertificate(ctx: RequestContext, input: { id: number }): Promise<SolvencyCertificate> {
  const [row] = await ctx.db
    .select()
    .from(solvencyCertificates)
    .where(and(eq(solvencyCertificates.id, input.id), ctx.inScope(solvencyCertificates.entityId)));
  if (!row) throw new AppError('NOT_FOUND', msg('financial.certificateNotFound'));
  return (await toCertificates(ctx.db, [row]))[0];
}

/**
 * Public: whether a code belongs to a certificate and whether it is still valid, computed now from what
 * it rests on (`voidReasons`). A forged code answers 404 saying only that; a genuine one tells what the
 * certificate itself prints (entity, dates), its status and, when it no longer holds, why.
 */
export async function verifyCertificate(db: Db, input: { code: string }): Promise<SolvencyVerification> {
  const unknown = new AppError('NOT_FOUND', msg('financial.verificationCodeUnknown'));
  const code = normalizeVerificationCode(input.code);
  if (!code) throw unknown;
  const [c] = await db.select().from(solvencyCertificates).where(eq(solvencyCertificates.code, code));
  if (!c) throw unknown;
  const state = certState(c, guatemalaToday(), await voidReasons(db, [c]));
  return {
    code: formatVerificationCode(c.code),
    entityName: c.entityName,
    entityCode: c.entityCode,
    issuedOn: c.issuedOn,
    validUntil: c.validUntil,
    ...state,
  };
}

export function certificateReport(c: SolvencyCertificate, verifyUrl: string): ReportDefinition {
  return {
    kind: 'solvency-certificate',
    layout: 'document',
    title: 'Constancia de solvencia',
    filters: [],
    fields: [
      { label: 'Entidad', value: `${c.entityName} (${c.entityCode})` },
      { label: 'Emitida', value: formatDay(c.issuedOn) },
    ],
    tables: [],
    sections: [
      {
        heading: `Código de la constancia: ${c.code}`,
        qr: { value: verifyUrl, caption: `Verifique en ${verifyUrl}` },
        paragraphs: [
          `Se hace constar que ${c.entityName} (${c.entityCode}) se encuentra al día en el pago de sus cuotas al ${formatDay(c.issuedOn)}.`,
          c.basis,
          `Esta constancia es válida hasta el ${formatDay(c.validUntil)}. Su autenticidad y vigencia se verifican con el código anterior en la página de verificación de constancias.`,
        ],
      },
    ],
    signatures: { lines: [{ caption: 'Por la institución' }], seal: 'Sello de la institución' },
  };
}
