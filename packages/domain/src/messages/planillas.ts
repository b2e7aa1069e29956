/**
 * Spanish texts of the planillas messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const planillasMessages = {
  // Schemas (fixed texts: a schema's message has no placeholders).
  typeInvalid: 'Tipo de planilla no válido.',
  stateInvalid: 'Estado de planilla no válido.',
  cuiInvalid: 'CUI no válido: 13 dígitos.',
  cuiRequired: 'Ingrese el CUI.',
  cuiTooLong: 'CUI: máximo 40 caracteres.',
  entityRequired: 'Indique la entidad.',
  entityInvalid: 'Entidad no válida.',
  budgetLineRequired: 'Ingrese el renglón presupuestario.',
  salaryRequired: 'Salario: escriba un monto.',
  monthlySalaryRequired: 'Salario mensual: escriba un monto.',
  backPayLastBeforeFirst: 'El último mes no puede ser anterior al primero.',
  backPayTooManyMonths: 'Una resolución abarca a lo sumo 120 meses.',
  approveNotByMaker: 'No puede aprobar una planilla que usted creó, modificó o envió; debe hacerlo otra persona.',

  // A line's blocking errors and warnings (checkLine).
  lineCuiEmpty: 'CUI: Ingrese el CUI.',
  lineCuiFormat: 'CUI: El CUI solo puede contener dígitos.',
  lineCuiLength: 'CUI: El CUI debe tener 13 dígitos.',
  lineCuiCheckDigit: 'CUI: El dígito verificador del CUI no es válido.',
  lineCuiDepartment: 'CUI: El departamento del CUI (dígitos 10–11) no existe.',
  lineCuiMunicipality: 'CUI: El municipio del CUI (dígitos 12–13) no existe en ese departamento.',
  lineNameRequired: 'Ingrese el nombre del empleado.',
  lineNameTooLong: 'Nombre: máximo {{max, number}} caracteres.',
  lineBudgetLineUnknown: 'Renglón presupuestario desconocido: "{{code}}".',
  lineSalaryInvalid: 'Salario: {{problem}}',
  lineSalaryNotPositive: 'Salario: debe ser mayor que cero.',
  lineDaysInvalid: 'Días laborados: "{{days}}" no es un número de 0 a 31.',
  lineMovementInvalid: 'Movimiento: escriba ALTA o BAJA, no "{{movement}}".',
  lineMovementDateOutsidePeriod: 'La fecha del movimiento debe caer en el período {{period, period}}.',
  lineMovementDateRequired: 'Indique la fecha del alta o baja.',
  lineMovementRequired: 'Indique si la fecha es de un alta o de una baja.',
  lineRenapUnknown: 'El CUI no figura en RENAP.',
  lineRenapNameDiffers: 'El nombre difiere de RENAP: {{name}}.',
  lineRenapDeceasedBeforePeriod:
    'RENAP registra el fallecimiento el {{date, date}}, antes del período {{period, period}}: no puede declararse.',
  lineRenapDeceased: 'RENAP registra el fallecimiento el {{date, date}}.',
  lineNewEmployee: 'Empleado nuevo: no estaba en el período anterior.',
  lineSalaryChanged: 'El salario cambió más de {{rate, number}} % (antes {{before, money}}).',
  lineCuiRepeated: 'CUI repetido en la planilla (ya está en la línea {{row, number}}).',
  uploadCuiRepeated: 'CUI repetido en el archivo (ya está en la fila {{row, number}}).',
  uploadNoEntity: 'La carga no indica la entidad.',

  // Declaring, editing and reviewing.
  notFound: 'La planilla no existe o no está dentro de su alcance.',
  lineNotFound: 'La línea no existe en esta planilla.',
  lineNotInPlanilla: 'La línea no pertenece a esta planilla.',
  lineInvalid: 'Línea no válida.',
  entityForbidden: 'No puede declarar planillas de esa entidad.',
  updateForbidden: 'No tiene permiso para modificar planillas.',
  notEditable: 'La planilla está en estado «{{state}}»: solo se modifica en borrador u observada.',
  periodInvalid: 'Período no válido (mm/aaaa).',
  periodFuture: 'El período {{period, period}} aún no ha llegado: no se puede declarar un período futuro.',
  ordinaryTaken:
    'Ya existe la planilla ordinaria de esta entidad para ese período; las correcciones van en una planilla complementaria.',
  existingPlanilla: 'Planilla existente: /planilla/vista/{{id}}',
  complementaryWithoutApproved:
    'Una planilla complementaria corrige una ordinaria aprobada: ese período no tiene ninguna aprobada.',
  nothingToCopy: 'La entidad no tiene planilla del período {{period, period}} para copiar.',
  resolutionDateFuture: 'La fecha de la resolución no puede ser futura.',
  futureDate: 'Fecha futura.',
  backPayFutureMonths: 'Los salarios caídos son de meses pasados.',
  futureMonth: 'Mes futuro.',
  lineCommentsOnlyWhenObserving: 'Las observaciones por línea se hacen al observar la planilla.',
  onlyWhenObserving: 'Solo al observar.',
  notContributionSetting: 'Ese parámetro no es una cuota de planilla.',
  totalSalaryTooLarge:
    'El total de salarios de la planilla ({{total, money}}) supera el máximo que el sistema registra ({{max, money}}).',
  totalEmployeeTooLarge:
    'El total de cuotas laborales de la planilla ({{total, money}}) supera el máximo que el sistema registra ({{max, money}}).',
  totalEmployerTooLarge:
    'El total de cuotas patronales de la planilla ({{total, money}}) supera el máximo que el sistema registra ({{max, money}}).',

  // Submitting.
  linesWithErrors:
    'La planilla tiene líneas con errores que impiden enviarla (en total: {{count, number}}); corríjalas o elimínelas.',
  noLines: 'La planilla no tiene líneas: agregue al menos un empleado antes de enviarla.',
  submitCancelled: 'El envío se canceló antes de terminar: la planilla volvió a su estado anterior y puede enviarla de nuevo.',
  submitInterrupted:
    'El envío no terminó (el servidor se detuvo o falló): la planilla volvió a su estado anterior y puede enviarla de nuevo.',
  submitFailed:
    'El envío falló por un error inesperado: la planilla volvió a su estado anterior. Envíela de nuevo; si el problema continúa, avise al administrador.',
} as const;
