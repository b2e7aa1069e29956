/**
 * Spanish texts of the pensions messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const pensionsMessages = {
  // Domain rules and schemas (packages/domain/src/pensions.ts)
  typeInvalid: 'Tipo de pensión no válido.',
  relationshipInvalid: 'Parentesco no válido.',
  survivalMethodInvalid: 'Forma de presentación no válida.',
  shareRequired: 'Porcentaje: escriba un número.',
  shareInvalid: 'Porcentaje: {{reason}}',
  shareNotPositive: 'Porcentaje: debe ser mayor que cero.',
  bankAccountRequired: 'Ingrese la cuenta bancaria.',
  bankAccountInvalid: 'Cuenta bancaria no válida: solo dígitos y guiones (6 a 30).',
  tooManyBeneficiaries: 'Máximo 20 beneficiarios.',
  beneficiaryCuiRepeated: 'Este CUI ya está entre los beneficiarios.',
  sharesExceed100: 'Los porcentajes de los beneficiarios suman más de 100 %.',
  startBeforeResolution: 'El inicio no puede ser anterior a la resolución.',
  monthlyAmountRequired: 'Monto mensual: escriba un monto.',
  monthlyAmountInvalid: 'Monto mensual: {{reason}}',
  monthlyAmountNotPositive: 'Monto mensual: debe ser mayor que cero.',
  notarialActRequired: 'Adjunte el acta notarial.',
  decisionRequired: 'Elija la decisión.',
  // Pensions
  notFound: 'La pensión no existe o no está dentro de su alcance.',
  duplicateOpen: 'Esta persona ya tiene una pensión de ese tipo activa o suspendida.',
  amountChangeDateTaken: 'Ya hay un cambio de monto desde esa fecha.',
  beneficiaryCuiDuplicate: 'Un CUI está repetido entre los beneficiarios.',
  holderNotContributor: 'El CUI no corresponde a un afiliado registrado (dentro de su alcance).',
  holderNotWidowhoodBeneficiary:
    'El CUI no corresponde a un beneficiario registrado en la pensión de un afiliado (dentro de su alcance): una pensión de viudez se otorga a un beneficiario.',
  holderNotOrphanhoodBeneficiary:
    'El CUI no corresponde a un beneficiario registrado en la pensión de un afiliado (dentro de su alcance): una pensión de orfandad se otorga a un beneficiario.',
  ownBeneficiary: 'El pensionado no puede ser su propio beneficiario.',
  orphanOverAge: 'El huérfano ya superó la edad de la pensión de orfandad en la fecha de inicio.',
  pensionEnded: 'La pensión está finalizada y no admite cambios.',
  amountChangeBeforeStart: 'El cambio no puede regir antes del inicio de la pensión.',
  amountChangeInClosedPayroll:
    'La planilla de pensiones de {{period, period}} está cerrada y no se modifica; las correcciones van en el mes siguiente. El cambio debe regir desde un mes sin planilla cerrada.',
  reactivateBySurvival:
    'Una pensión suspendida se reactiva al registrar su supervivencia (o al descartar la revisión de fallecimiento).',
  createPensionPermission: 'Para aprobar y crear la pensión necesita además el permiso de crear pensiones (Clases pasivas).',
  cannotCreatePension: 'No se puede crear la pensión: {{reasons}}',
  // Payroll
  payrollClosed: 'La planilla de pensiones está cerrada y no se modifica.',
  payrollPeriodClosed:
    'La planilla de pensiones de {{period, period}} está cerrada y no se modifica; las correcciones van en el mes siguiente.',
  payrollNeedsAllScope: 'La planilla de pensiones es de toda la institución: requiere alcance total.',
  payrollPeriodPast:
    'Período: una planilla de pensiones nueva es del mes en curso ({{current, period}}) o del siguiente; {{period, period}} ya pasó.',
  payrollNotFound: 'No hay planilla de pensiones de {{period, period}}.',
  payrollNotGenerated: 'No hay planilla de pensiones de {{period, period}}; genérela primero.',
  // Survival checks
  noSurvival: 'La pensión está finalizada: no lleva supervivencia.',
  attachmentType: 'El acta debe ser PDF, JPG o PNG.',
  checkBeforeStart: 'La fecha de la supervivencia es anterior al inicio de la pensión.',
  openDeathReview:
    'RENAP registra el fallecimiento del pensionado: resuelva primero la revisión abierta antes de registrar la supervivencia.',
  checkTooEarly: 'Aún no corresponde: la supervivencia del cumpleaños {{due, date}} se presenta desde {{opens, date}}.',
  attachmentUnavailable: 'El archivo adjunto no existe o ya se usó; vuelva a adjuntar el acta.',
  renapNotConfirmed: 'RENAP no confirmó al pensionado.',
  renapDeathNoSurvival: 'RENAP registra el fallecimiento el {{date, date}}: no confirma la supervivencia.',
  checkAttachmentNotFound: 'La supervivencia no existe, no tiene acta adjunta o no está dentro de su alcance.',
  noLettersThisMonth: 'No hay pensionados con supervivencia en ese mes.',
  renapNotConfigured: 'RENAP no está configurado en este proceso.',
  // Death reviews
  reviewNotFound: 'La revisión no existe o no está dentro de su alcance.',
  reviewClosed: 'La revisión ya fue resuelta.',
  // Eligibility when a pension is registered (issue 28)
  eligibilityUnderAge: 'Jubilación: el pensionado tiene {{age, number}} años al inicio; la edad mínima es {{min, number}} años.',
  eligibilityRetirementContributions:
    'Jubilación: el historial registra {{months, number}} meses cotizados y se requieren {{min, number}}; confirme que el expediente acredita el tiempo de servicio.',
  eligibilityDisabilityContributions:
    'Invalidez: el historial registra {{months, number}} meses cotizados y se requieren {{min, number}}; confirme que el dictamen lo acredita.',
  eligibilitySurvivorContributions:
    'El afiliado fallecido registra {{months, number}} meses cotizados y se requieren {{min, number}}; confirme que el expediente lo acredita.',
  eligibilityActiveEmployment:
    'Figura como empleado en la planilla {{period, period}} de {{entity}}: confirme que la relación laboral terminó.',
  eligibilityRefused: 'La pensión no cumple los requisitos de su tipo.',
  // What the pension payroll left out or pointed out (issue 28)
  payrollExcludedDeath: 'Excluido: RENAP registra el fallecimiento el {{date, date}}.',
  payrollExcludedSurvival: 'Excluido: suspendido por supervivencia vencida desde el {{date, date}}.',
  payrollExcludedManual: 'Excluido: suspendido manualmente desde el {{date, date}}.',
  payrollFlaggedEmployed: 'Pagado con observación: figura como empleado en la planilla {{period, period}} de {{entity}}.',
} as const;
