import { formatPeriod, planillaMachine, planillaTypeLabels } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { municipalEntities, type planillas } from '../../db/schema/index.ts';
import { reviewersOf } from '../notifications/recipients.ts';
import { notifyUsers } from '../notifications/service.ts';

/**
 * Tells the other side of a planilla's step, in the caller's transaction: the reviewers when it reaches
 * them (sent), the entity (submitter and creator) otherwise — never the one who acted (`actorId`).
 */
export async function notifyPlanillaStep(
  tx: Db,
  p: typeof planillas.$inferSelect,
  step: { key: string; label: string; comment: string | null; actorId: number | null; actorEmail: string },
  /** Who to tell instead of the usual side (an unfinished submit: whoever asked for it). */
  recipients?: readonly number[],
) {
  const [ent] = await tx
    .select({ name: municipalEntities.name })
    .from(municipalEntities)
    .where(eq(municipalEntities.id, p.entityId));
  const what = `${ent?.name ?? 'Entidad'} · ${formatPeriod(p.period)} (${planillaTypeLabels[p.type].toLowerCase()})`;
  const toUsers = recipients
    ? [...recipients]
    : step.key === 'PLANILLA_SUBMITTED'
      ? await reviewersOf(tx, p.entityId)
      : [p.submittedBy, p.createdBy].filter((x): x is number => x != null);
  const warning = ['PLANILLA_REJECT', 'PLANILLA_OBSERVE', 'PLANILLA_SUBMIT_UNDONE', 'PLANILLA_SUBMIT_UNDONE_OBSERVED'].includes(
    step.key,
  );
  await notifyUsers({
    db: tx,
    userIds: toUsers.filter((u) => u !== step.actorId),
    type: warning ? 'warning' : 'info',
    title: `Planilla ${planillaMachine.stateLabels[p.state].toLowerCase()}: ${what}`.slice(0, 200),
    body: step.comment ? step.comment.slice(0, 500) : `${step.label} por ${step.actorEmail}`,
    link: `/planilla/vista/${p.id}`,
  });
}
