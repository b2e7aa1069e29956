/**
 * Spanish texts of the agreements messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const agreementsMessages = {
  // Request schemas.
  stateInvalid: 'Estado de convenio no válido.',
  entityInvalid: 'Entidad no válida.',
  instalmentsNotInteger: 'Número de cuotas: escriba un número entero.',
  instalmentsAtLeastOne: 'Número de cuotas: al menos 1.',
  instalmentsTooMany: 'Número de cuotas: demasiadas.',
  orderIdsRequired: 'Elija las órdenes que se convienen.',
  orderIdsEmpty: 'Elija al menos una orden.',
  orderIdsTooMany: 'Un convenio cubre hasta 1000 órdenes.',
  orderIdsRepeated: 'Hay órdenes repetidas.',
  // The terms (termsProblems).
  noOverdueOrders: 'La entidad no tiene órdenes vencidas que convenir.',
  debtBelowMinimum: 'La deuda ({{debt, money}}) es menor que el mínimo para un convenio ({{min, money}}): páguela de una vez.',
  downPaymentBelowMinimum: 'El enganche no puede ser menor que el mínimo: {{min, money}}.',
  downPaymentNotBelowDebt: 'El enganche debe ser menor que la deuda (el resto se paga en cuotas).',
  instalmentsAboveMaximum: 'Número de cuotas: el máximo vigente es {{max, number}}.',
  instalmentsExceedBalance: 'Número de cuotas: el saldo no alcanza para tantas cuotas.',
  firstDueNotAfterAgreement: 'La primera cuota debe vencer después de la fecha del convenio.',
  firstDueTooLate: 'La primera cuota debe vencer a más tardar {{days, number}} días después del convenio ({{latest, date}}).',
  // Creating, restructuring, voiding.
  notFound: 'El convenio no existe o no está dentro de su alcance.',
  orderNotOverdue: 'La orden {{orderId}} no está vencida y pendiente para esta entidad (¿ya está en un convenio?).',
  ordersNotOverdue: 'Órdenes que no están vencidas y pendientes.',
  entityHasCurrent: 'La entidad ya tiene un convenio vigente: reestructúrelo o espere a que termine.',
  orderTaken: 'La orden {{reference}} ya no está pendiente: otro convenio o pago la tomó.',
  orderTakenUnnamed: 'La orden ya no está pendiente: otro convenio o pago la tomó.',
  restructureCompleted: 'El convenio está cumplido: solo se reestructura uno vigente.',
  restructureDefaulted: 'El convenio está incumplido: solo se reestructura uno vigente.',
  restructureVoided: 'El convenio está anulado: solo se reestructura uno vigente.',
  restructureLimitReached: 'El convenio ya se reestructuró {{count, number}} veces: el límite vigente es {{max, number}}.',
  nothingToRestructure: 'El convenio no tiene cuotas pendientes que reestructurar.',
  voidWithPayments: 'El convenio tiene pagos registrados: no puede anularse (revierta los pagos primero).',
} as const;
