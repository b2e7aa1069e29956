/**
 * Spanish texts of the financial messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const financialMessages = {
  // Request schemas (an entity filter: agreements.entityInvalid).
  regionInvalid: 'Región no válida.',
  searchTooLong: 'La búsqueda admite 100 caracteres.',
  limitInvalid: 'Límite no válido.',
  limitOutOfRange: 'Límite: de 1 a 5000.',
  verificationCodeTooLong: 'El código de verificación tiene 16 caracteres.',
  periodRangeInverted: 'El período inicial no puede ser posterior al final.',
  // Solvency ("al día", solvencyOf): the refusal, and the reason a certificate rests on.
  notSolventOne: 'La entidad tiene 1 orden vencida por {{amount, money}}: no está al día.',
  notSolventMany: 'La entidad tiene {{count, number}} órdenes vencidas por {{amount, money}}: no está al día.',
  solventWithAgreement: 'Al día: convenio de pago {{agreement}} vigente y sin cuotas vencidas.',
  solventNoOverdue: 'Al día: sin órdenes de pago vencidas.',
  // Certificates.
  certificateNotFound: 'La constancia no existe o no está dentro de su alcance.',
  verificationCodeUnknown: 'No existe ninguna constancia de solvencia con ese código.',
  certificateRevoked: 'La institución revocó la constancia.',
  basisAgreementDefaulted: 'El convenio de pago {{agreement}} en que se basa fue declarado incumplido.',
  basisAgreementDefaultedOn: 'El convenio de pago {{agreement}} en que se basa fue declarado incumplido el {{date, date}}.',
  basisAgreementVoided: 'El convenio de pago {{agreement}} en que se basa fue anulado.',
  basisAgreementVoidedOn: 'El convenio de pago {{agreement}} en que se basa fue anulado el {{date, date}}.',
  basisPaymentsReopenedOne:
    'Se basa en pagos que ya no están en firme: una orden vencida antes del {{date, date}} vuelve a estar pendiente de pago.',
  basisPaymentsReopenedMany:
    'Se basa en pagos que ya no están en firme: {{count, number}} órdenes vencidas antes del {{date, date}} vuelven a estar pendientes de pago.',
  // Arrears notice campaigns (arrears-notices.ts, issue 29).
  campaignEntitiesInvalid: 'Elija al menos una entidad del ranking.',
  campaignTooManyEntities: 'Una campaña admite hasta 500 entidades.',
  campaignMinTotalZero: 'La deuda mínima debe ser mayor que cero.',
  campaignSelectionRequired: 'Elija las entidades del ranking o una deuda mínima (una de las dos).',
  campaignStateInvalid: 'Estado de campaña no válido.',
  campaignInvalid: 'Campaña no válida.',
  noticeOutcomeInvalid: 'Resultado de aviso no válido.',
  campaignNotFound: 'La campaña no existe o no está dentro de su alcance.',
  campaignEntityNotFound: 'La entidad {{id}} no existe o no está dentro de su alcance.',
  campaignNoEntities: 'Ninguna entidad debe al menos {{amount, money}} al {{date, date}}.',
  campaignCancelled: 'La campaña se canceló antes de terminar: las entidades que faltaban no recibieron aviso.',
  campaignFailed: 'La campaña no pudo terminar: las entidades que faltaban no recibieron aviso.',
  campaignAllAlreadyNotified: 'Las entidades elegidas ya recibieron un aviso de mora hoy ({{date, date}}).',
} as const;
