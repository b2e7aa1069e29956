/**
 * Spanish texts of the legal messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const legalMessages = {
  // Request schemas (an entity filter: agreements.entityInvalid).
  stageInvalid: 'Etapa no válida.',
  actionKindInvalid: 'Tipo de actuación no válido.',
  // Stages (stageProblem).
  agreementStageNeedsCurrent: 'La entidad no tiene un convenio de pago vigente: créelo antes de pasar el expediente a convenio.',
  closeNeedsPaidOrAgreement: 'Solo se cierra un expediente con la deuda pagada o con un convenio vigente o cumplido.',
  // Cases, actions, deadlines.
  notFound: 'El expediente no existe o no está dentro de su alcance.',
  alreadyOpen: 'La entidad ya tiene abierto el expediente {{number}}.',
  nothingToCollect: 'La entidad no tiene deuda vencida ni convenios pendientes: no hay qué cobrar.',
  caseClosed: 'El expediente {{number}} está cerrado.',
  actionDateFuture: 'La fecha de la actuación no puede ser futura.',
  deadlineInPast: 'El plazo no puede vencer en el pasado.',
  deadlineNotFound: 'El plazo no existe en este expediente o ya está cumplido.',
} as const;
