import { centsToDecimal, formatMoney, formatPeriod, planillaMachine, planillaTypeLabels } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { municipalEntities, type planillas } from '../../db/schema/index.ts';
import { enqueueWebhook } from '../../platform/webhooks.ts';
import { reviewersOf } from '../notifications/recipients.ts';
import { notifyUsers } from '../notifications/service.ts';

type PlanillaRow = typeof planillas.$inferSelect;

/** A step of a planilla as its notification tells it. */
export interface PlanillaStep {
  key: string;
  label: string;
  comment: string | null;
  actorId: number | null;
  actorEmail: string;
  /** Observing: how many lines the reviewer observed one by one. */
  lineObservations?: number;
}

/** A comment as a sentence: its own final stop, or one added. */
const sentence = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);

const plural = (n: number, one: string, other: string) => `${n} ${n === 1 ? one : other}`;

/**
 * The title and body of a planilla's step as a clerk would write them (issue 28): what happened to which
 * planilla, the period as mm/aaaa, amounts as `Q 1,234.50`, counts in words ("3 observaciones"), and who
 * acted — never a transition's imperative label ("Aprobar por …"). Spanish, as every notification.
 */
export function planillaStepText(
  p: Pick<PlanillaRow, 'period' | 'type' | 'state' | 'lineCount' | 'totalEmployee' | 'totalEmployer'>,
  entityName: string,
  step: PlanillaStep,
): { title: string; body: string } {
  const kind = p.type === 'ORDINARIA' ? '' : ` ${planillaTypeLabels[p.type].toLowerCase()}`;
  const period = formatPeriod(p.period);
  const planilla = `planilla${kind} ${period} de ${entityName}`;
  const yours = `Su ${planilla}`;
  const by = step.actorId == null ? '' : ` por ${step.actorEmail}`;
  const amounts = `cuota laboral ${formatMoney(p.totalEmployee)} y patronal ${formatMoney(p.totalEmployer)}`;
  const comment = step.comment?.trim() ?? '';
  switch (step.key) {
    case 'PLANILLA_SUBMITTED':
      return {
        title: `Planilla${kind} ${period} de ${entityName} enviada a revisión`,
        body: `${plural(p.lineCount, 'línea', 'líneas')}; ${amounts}. Espera su revisión.`,
      };
    case 'PLANILLA_TAKE':
      return { title: `${yours} está en revisión`, body: `Tomada para revisión${by}.` };
    case 'PLANILLA_APPROVE':
      return {
        title: `${yours} fue aprobada`,
        body: `Aprobada${by}. Se emitieron las órdenes de pago: ${amounts}.`,
      };
    case 'PLANILLA_OBSERVE': {
      const n = step.lineObservations ?? 0;
      return {
        title: n ? `${yours} fue observada: ${plural(n, 'observación', 'observaciones')}` : `${yours} fue observada`,
        body: `${comment ? sentence(comment) : `Observada${by}.`} Corrija lo observado y envíela de nuevo.`,
      };
    }
    case 'PLANILLA_REJECT':
      return { title: `${yours} fue rechazada`, body: comment || `Rechazada${by}.` };
    case 'PLANILLA_DISCARD':
    case 'PLANILLA_VOID':
      return { title: `${yours} fue anulada`, body: comment || `Anulada${by}.` };
    case 'PLANILLA_SUBMIT_UNDONE':
    case 'PLANILLA_SUBMIT_UNDONE_OBSERVED':
      return { title: `${yours} no se envió a revisión`, body: comment || 'El envío no se completó.' };
    default:
      return {
        title: `${yours}: ${planillaMachine.stateLabels[p.state].toLowerCase()}`,
        body: comment || `Cambio de estado${by}.`,
      };
  }
}

/**
 * Tells the other side of a planilla's step, in the caller's transaction: the reviewers when it reaches
 * them (sent), the entity (submitter and creator) otherwise — never the one who acted (`actorId`).
 */
export async function notifyPlanillaStep(
  tx: Db,
  p: PlanillaRow,
  step: PlanillaStep,
  /** Who to tell instead of the usual side (an unfinished submit: whoever asked for it). */
  recipients?: readonly number[],
) {
  const [ent] = await tx
    .select({ name: municipalEntities.name, code: municipalEntities.code })
    .from(municipalEntities)
    .where(eq(municipalEntities.id, p.entityId));
  const toUsers = recipients
    ? [...recipients]
    : step.key === 'PLANILLA_SUBMITTED'
      ? await reviewersOf(tx, p.entityId)
      : [p.submittedBy, p.createdBy].filter((x): x is number => x != null);
  const warning = ['PLANILLA_REJECT', 'PLANILLA_OBSERVE', 'PLANILLA_SUBMIT_UNDONE', 'PLANILLA_SUBMIT_UNDONE_OBSERVED'].includes(
    step.key,
  );
  const { title, body } = planillaStepText(p, ent?.name ?? 'la entidad', step);
  const event = MAIL_OF_STEP[step.key];
  await notifyUsers({
    db: tx,
    userIds: toUsers.filter((u) => u !== step.actorId),
    type: warning ? 'warning' : step.key === 'PLANILLA_APPROVE' ? 'success' : 'info',
    title: title.slice(0, 200),
    body: body.slice(0, 500),
    link: `/planilla/vista/${p.id}`,
    // Issue 29: observed, approved and returned (rejected) also reach the entity's clerks by mail.
    ...(event && {
      mail: {
        event,
        params: {
          entity: ent?.name ?? '',
          period: p.period,
          ...(event === 'planilla.returned' && { reason: step.comment?.trim() ?? '' }),
        },
      },
    }),
  });
  // Issue 30: sent to review after its validation, observed and approved reach the entity's webhooks.
  const hook = WEBHOOK_OF_STEP[step.key];
  if (hook) {
    await enqueueWebhook(tx, hook.event, p.entityId, {
      // Observed or sent once per submission; approved once.
      record: hook.event === 'planilla.approved' ? p.id : `${p.id}:${p.submittedAt?.toISOString() ?? ''}`,
      data: {
        planillaId: p.id,
        entityId: p.entityId,
        entityCode: ent?.code ?? null,
        period: p.period,
        type: p.type,
        state: hook.state,
        lineCount: p.lineCount,
        totalEmployee: centsToDecimal(p.totalEmployee),
        totalEmployer: centsToDecimal(p.totalEmployer),
      },
    });
  }
}

/** The steps that reach webhooks (issue 30), by event, with the state the planilla is left in. */
const WEBHOOK_OF_STEP: Partial<
  Record<string, { event: 'planilla.validated' | 'planilla.observed' | 'planilla.approved'; state: string }>
> = {
  PLANILLA_SUBMITTED: { event: 'planilla.validated', state: 'ENVIADA' },
  PLANILLA_OBSERVE: { event: 'planilla.observed', state: 'OBSERVADA' },
  PLANILLA_APPROVE: { event: 'planilla.approved', state: 'APROBADA' },
};

/** The steps that also send a mail (issue 29), by the mail's event: a rejected planilla is "returned" to the entity. */
const MAIL_OF_STEP: Partial<Record<string, 'planilla.observed' | 'planilla.approved' | 'planilla.returned'>> = {
  PLANILLA_OBSERVE: 'planilla.observed',
  PLANILLA_APPROVE: 'planilla.approved',
  PLANILLA_REJECT: 'planilla.returned',
};
