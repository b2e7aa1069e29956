import { z } from 'zod';
import { actingDateSchema } from './acting-dates.ts';
import { arrearsNoticeSchema } from './arrears-notices.ts';
import { dateSchema, entityIdSchema, idTextSchema, textSchema } from './fields.ts';
import { listQuerySchema } from './list.ts';
import { text } from './messages.ts';
import { type Cents, moneyDecimalSchema } from './money.ts';
import { availableTransitionSchema, defineMachine } from './state-machine.ts';

/**
 * The legal module (issue 14): collection cases (expedientes) against municipal entities — the orders
 * and agreements a case covers, its stage through the machine, actions, deadlines with reminders and
 * attached documents. Closing needs the debt paid or an agreement (closeProblem).
 */

export const legalStages = ['ABIERTO', 'REQUERIMIENTO', 'DEMANDA', 'CONVENIO', 'CERRADO'] as const;
export const legalStageSchema = z.enum(legalStages, { error: text('legal.stageInvalid') });
export type LegalStage = z.infer<typeof legalStageSchema>;
export const legalStageLabels: Record<LegalStage, string> = {
  ABIERTO: 'Abierto',
  REQUERIMIENTO: 'Requerimiento',
  DEMANDA: 'Demanda',
  CONVENIO: 'Convenio',
  CERRADO: 'Cerrado',
};

const U = { resource: 'legal-module', action: 'UPDATE' } as const;

/** A case's stages: requirement, lawsuit, agreement (the entity signed one), closed (paid or in agreement). */
export const legalCaseMachine = defineMachine({
  entityType: 'legal-case',
  label: 'El expediente',
  states: legalStages,
  stateLabels: legalStageLabels,
  initial: 'ABIERTO',
  transitions: [
    {
      key: 'LEGAL_REQUIREMENT',
      from: 'ABIERTO',
      to: 'REQUERIMIENTO',
      label: 'Requerir el pago',
      permission: U,
      commentRequired: false,
    },
    {
      key: 'LEGAL_LAWSUIT',
      from: ['ABIERTO', 'REQUERIMIENTO', 'CONVENIO'],
      to: 'DEMANDA',
      label: 'Presentar demanda',
      permission: U,
      commentRequired: false,
    },
    {
      key: 'LEGAL_AGREEMENT',
      from: ['ABIERTO', 'REQUERIMIENTO', 'DEMANDA'],
      to: 'CONVENIO',
      label: 'Pasar a convenio',
      permission: U,
      commentRequired: false,
    },
    {
      key: 'LEGAL_CLOSE',
      from: ['ABIERTO', 'REQUERIMIENTO', 'DEMANDA', 'CONVENIO'],
      to: 'CERRADO',
      label: 'Cerrar expediente',
      permission: U,
      commentRequired: true,
    },
  ],
});

/**
 * Why a case may not move to `to` (null when it may; a catalogue text, keyed by the error handler): CONVENIO needs an agreement of the entity in force;
 * CERRADO needs what the case covers paid (nothing outstanding now) or an agreement in force or fulfilled.
 */
export function stageProblem(
  to: LegalStage,
  f: { outstanding: Cents; agreement: 'VIGENTE' | 'CUMPLIDO' | 'INCUMPLIDO' | 'ANULADO' | null },
): string | null {
  if (to === 'CONVENIO' && f.agreement !== 'VIGENTE') {
    return text('legal.agreementStageNeedsCurrent');
  }
  if (to === 'CERRADO' && f.outstanding > 0n && f.agreement !== 'VIGENTE' && f.agreement !== 'CUMPLIDO') {
    return text('legal.closeNeedsPaidOrAgreement');
  }
  return null;
}

export const legalActionKinds = ['NOTIFICACION', 'REQUERIMIENTO', 'DEMANDA', 'AUDIENCIA', 'RESOLUCION', 'OTRO'] as const;
export const legalActionKindLabels: Record<(typeof legalActionKinds)[number], string> = {
  NOTIFICACION: 'Notificación',
  REQUERIMIENTO: 'Requerimiento de pago',
  DEMANDA: 'Demanda',
  AUDIENCIA: 'Audiencia',
  RESOLUCION: 'Resolución',
  OTRO: 'Otra actuación',
};

/** Days before a deadline its reminder goes out (and again on the day). */
export const DEADLINE_REMINDER_DAYS = 7;

// ─── Contracts ──────────────────────────────────────────────────────────────────────────────────────

export const legalCaseCreateSchema = z.object({ entityId: entityIdSchema }).strict();

export const legalActionCreateSchema = z
  .object({
    actionDate: actingDateSchema('La fecha de la actuación'),
    kind: z.enum(legalActionKinds, { error: text('legal.actionKindInvalid') }),
    description: textSchema({ label: 'La descripción', max: 2000, min: 1, multiline: true }),
  })
  .strict();

export const legalDeadlineCreateSchema = z
  .object({
    dueDate: dateSchema,
    description: textSchema({ label: 'La descripción del plazo', max: 500, min: 1 }),
  })
  .strict();

export const legalTransitionSchema = z
  .object({
    to: legalStageSchema,
    comment: textSchema({ label: 'El comentario', max: 1000 }).optional(),
  })
  .strict();

export const legalDeadlineParamsSchema = z.object({ id: idTextSchema, deadlineId: idTextSchema });

export const legalCaseItemSchema = z.object({
  kind: z.enum(['ORDEN', 'CONVENIO']),
  id: z.number().int(),
  label: z.string(),
  amountAtOpening: moneyDecimalSchema,
  amountNow: moneyDecimalSchema,
});

export const legalActionSchema = z.object({
  id: z.number().int(),
  actionDate: z.string(),
  kind: z.enum(legalActionKinds),
  description: z.string(),
  lawyer: z.string().nullable(),
  createdAt: z.string(),
});

export const legalDeadlineSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  caseNumber: z.string(),
  entityName: z.string(),
  dueDate: z.string(),
  description: z.string(),
  responsible: z.string().nullable(),
  done: z.boolean(),
});
export type LegalDeadline = z.infer<typeof legalDeadlineSchema>;
export const legalDeadlineListSchema = z.object({ items: z.array(legalDeadlineSchema) });

export const legalDocumentSchema = z.object({
  id: z.number().int(),
  documentId: z.number().int(),
  title: z.string(),
  createdAt: z.string(),
});

export const legalCaseListItemSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  entityId: z.number().int(),
  entityName: z.string(),
  stage: legalStageSchema,
  openedOn: z.string(),
  amountAtOpening: moneyDecimalSchema,
  amountNow: moneyDecimalSchema,
  lawyer: z.string().nullable(),
  nextDeadline: z.string().nullable(),
});
export type LegalCaseListItem = z.infer<typeof legalCaseListItemSchema>;

export const legalCaseSchema = legalCaseListItemSchema.extend({
  closedOn: z.string().nullable(),
  closeReason: z.string().nullable(),
  items: z.array(legalCaseItemSchema),
  actions: z.array(legalActionSchema),
  deadlines: z.array(legalDeadlineSchema),
  documents: z.array(legalDocumentSchema),
  /** The arrears notices the entity was sent (issue 29), newest first: the prior notice the case cites. */
  notices: z.array(arrearsNoticeSchema),
  transitions: z.array(availableTransitionSchema),
});
export type LegalCase = z.infer<typeof legalCaseSchema>;

export const legalCaseListQuerySchema = listQuerySchema.extend({
  stage: legalStageSchema.optional(),
  entityId: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { error: text('agreements.entityInvalid') })
    .transform(Number)
    .optional(),
});
export type LegalCaseListQuery = z.infer<typeof legalCaseListQuerySchema>;

export const legalDeadlineQuerySchema = z.object({ from: dateSchema.optional(), to: dateSchema.optional() });

/** The case number as printed: `EXP-AAAA-NNNNNN`. */
export const legalCaseNumber = (year: string, id: number) => `EXP-${year}-${String(id).padStart(6, '0')}`;
