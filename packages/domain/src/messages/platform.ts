/**
 * Spanish texts of the platform messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const platformMessages = {
  // The web's own: the server could not be reached.
  network: 'No se pudo conectar con el servidor. Revise su conexión.',

  // Amounts and rates (domain money.ts)
  amountNotNumber: 'El monto no es un número.',
  amountRequired: 'Ingrese el monto.',
  amountAboveMax: 'El monto "{{value}}" supera el máximo permitido ({{max, money}}).',
  amountNegative: 'El monto no puede ser negativo: "{{value}}".',
  amountCellTooManyDecimals: 'El monto {{value}} tiene más de dos decimales.',
  amountSpaces:
    'El monto "{{value}}" tiene espacios entre las cifras: escriba el monto con punto decimal y coma para los miles, por ejemplo 1,234.50.',
  amountDecimalComma:
    'El monto "{{value}}" usa coma decimal o tiene la coma de miles mal colocada: escriba el monto con punto decimal y coma para los miles, por ejemplo 1,234.50.',
  amountSeveralDots:
    'El monto "{{value}}" tiene varios puntos: escriba el monto con punto decimal y coma para los miles, por ejemplo 1,234.50.',
  amountAmbiguous:
    'El monto "{{value}}" es ambiguo (¿miles o decimales?): escriba el monto con punto decimal y coma para los miles, por ejemplo 1,234.50.',
  amountTooManyDecimals: 'El monto "{{value}}" tiene más de dos decimales.',
  amountMisplacedComma:
    'El monto "{{value}}" tiene la coma de miles mal colocada: escriba el monto con punto decimal y coma para los miles, por ejemplo 1,234.50.',
  amountNotANumber:
    'El monto "{{value}}" no es un número: escriba el monto con punto decimal y coma para los miles, por ejemplo 1,234.50.',
  amountExpected: 'escriba un monto.',
  amountDecimalInvalid: 'Monto decimal no válido.',
  totalTooLarge: '{{label}} ({{total, money}}) supera el máximo que el sistema registra ({{max, money}}).',
  rateNotNumber: 'El porcentaje no es un número.',
  rateRequired: 'Ingrese el porcentaje.',
  rateNegative: 'El porcentaje no puede ser negativo: "{{value}}".',
  rateDecimalComma: 'El porcentaje "{{value}}" usa coma decimal: escríbalo con punto, por ejemplo 7.25.',
  rateTooManyDecimals: 'El porcentaje "{{value}}" tiene más de cuatro decimales.',
  rateNotANumber: 'El porcentaje "{{value}}" no es un número.',
  rateAboveMax: 'El porcentaje "{{value}}" supera el máximo de {{max}}.',
  rateExpected: 'escriba un porcentaje.',
  rateInvalid: 'Porcentaje no válido.',

  // Dates of spreadsheet cells (domain parse.ts); `label` names the field ("Fecha de nacimiento").
  cellDateMissing: 'Falta {{label}}.',
  cellDateInvalid: '{{label}} no válida: "{{value}}" (escriba dd/mm/aaaa).',
  cellDateDamaged: '{{label}} no válida: "fecha de Excel dañada" (escriba dd/mm/aaaa).',
  cellDateOutOfRange: '{{label}} no válida: "{{value}}" (fuera del rango 01/01/1900 – 31/12/2099).',
  cellDateTwoDigitYear: '{{label}} no válida: "{{value}}" (el año con cuatro cifras: dd/mm/aaaa).',
  cellDateNotInCalendar: '{{label}} no válida: "{{value}}" (esa fecha no existe en el calendario).',

  // Business calendar (domain calendar.ts)
  calendarDayInvalid: 'Día no válido (mm-dd).',
  calendarDayNotExists: 'Ese día no existe.',
  holidayNameRequired: 'Escriba el nombre del feriado.',
  holidayNameTooLong: 'El nombre del feriado admite 80 caracteres.',
  legalBasisRequired: 'Escriba la base legal (decreto o acuerdo que lo declara).',
  legalBasisTooLong: 'La base legal admite 200 caracteres.',
  calendarFixedRequired: 'Indique los feriados nacionales de fecha fija.',
  calendarHalfDaysRequired: 'Indique los medios días.',
  calendarLocalRequired: 'Indique el feriado local.',
  calendarExtraordinaryRequired: 'Indique los días extraordinarios.',
  armyDayInFixed:
    'El 30 de junio no se ingresa en feriados nacionales de fecha fija: se calcula cada año según el Decreto 19-2018 del Congreso de la República.',
  armyDayInHalfDays:
    'El 30 de junio no se ingresa en medios días: se calcula cada año según el Decreto 19-2018 del Congreso de la República.',
  armyDayInLocal:
    'El 30 de junio no se ingresa en feriado local: se calcula cada año según el Decreto 19-2018 del Congreso de la República.',
  calendarDayRepeated: 'El día {{day}} está repetido en el calendario.',
  calendarTooManyExtraordinary: 'Hay más de 30 días extraordinarios en {{year}}.',
  calendarDateRepeated: 'La fecha {{date, date}} está repetida en los días extraordinarios.',

  // Lists, notifications (domain list.ts, shell.ts; api platform/list.ts)
  cursorInvalid: 'El cursor de página no es válido.',
  sortUnknown: 'No se puede ordenar por "{{field}}". Opciones: {{options}}.',
  notificationIdsRequired: 'Indique al menos una notificación.',
  notificationLinkInvalid: 'El enlace debe ser una ruta de la aplicación.',

  // State machines (domain state-machine.ts, api platform/transitions.ts)
  transitionBySystem: '{{record}} está en estado «{{from}}»: la aplicación la pasará a «{{to}}» por sí misma; no se puede pedir.',
  transitionFinal: '{{record}} ya está en estado «{{from}}» y no admite más cambios.',
  transitionNotAllowed: '{{record}} está en estado «{{from}}»: no puede pasar a «{{to}}».',
  transitionForbidden: 'No tiene permiso para «{{action}}».',
  transitionCommentRequired: 'Indique el motivo: es obligatorio para «{{action}}».',
  transitionCommentTooLong: 'El comentario admite hasta 1000 caracteres.',
  transitionTargetUnknown: 'Estado de destino desconocido: {{to}}.',
  transitionStateUnknown: 'Estado desconocido.',
  transitionNoWay: 'Ninguna acción lleva a «{{to}}».',
  transitionTargetInvalid: 'Estado de destino no válido.',
  transitionRecordNotFound: '{{record}} no existe o no está dentro de su alcance.',
  makerDefault: 'No puede tomar esta acción sobre un registro que usted mismo hizo; debe hacerlo otra persona.',
  transitionRace:
    'El registro cambió de estado mientras lo revisaba (otra persona actuó antes). Vuelva a cargarlo y revise su estado actual.',

  // Input guard, scope, load (api platform)
  fieldNameControlCharacters: 'El nombre del campo contiene caracteres de control.',
  controlCharacters: 'Contiene caracteres de control no permitidos.',
  inputTooDeep: 'Los datos anidan demasiados niveles (más de {{max}}).',
  entityNotFound: 'La entidad no existe o no está dentro de su alcance.',
  busy: 'El servidor está atendiendo demasiadas búsquedas. Intente de nuevo en unos segundos.',
  tooManyDownloads:
    'Tiene {{max, number}} descargas o reportes generándose a la vez, el máximo por usuario. Espere a que terminen e intente de nuevo.',
  tooManyStreams:
    'Tiene {{max, number}} conexiones en vivo abiertas (pestañas o ventanas), el máximo por usuario. Cierre alguna e intente de nuevo.',
  tooManyJobs:
    'Tiene {{max, number}} procesos en espera o en curso, el máximo por usuario. Espere a que terminen o cancele alguno en «Procesos» e intente de nuevo.',

  // Database constraints (api platform/db-errors.ts); `subject` is the caller's " en «Regiones»" or empty.
  dbDuplicateColumn: 'Ya existe un registro{{subject}} con ese valor de «{{column}}».',
  dbDuplicate: 'Ya existe un registro{{subject}} con ese valor.',
  dbInUse: 'El registro{{subject}} está relacionado con otros datos.',
  dbReferenceMissingColumn: '«{{column}}»: el registro relacionado no existe.',
  dbReferenceMissing: 'Un registro relacionado no existe.',
  dbOverlap: 'El registro{{subject}} se superpone con otro existente.',
  dbCheck: 'Un valor{{subject}} no cumple las reglas de los datos.',
  dbRequiredColumn: 'Falta un valor obligatorio: «{{column}}».',
  dbRequired: 'Falta un valor obligatorio.',
  dbBadFormat: 'Un valor no tiene el formato esperado.',
  dbNumberOutOfRange: 'Un número está fuera del rango permitido.',
  dbTextTooLong: 'Un texto supera la longitud permitida.',

  // Exports (api platform/export.ts)
  exportTooManyRows: 'La exportación supera el máximo de {{max, number}} filas. Aplique filtros para exportar menos filas.',
  exportTooManyRowsDetail: 'Más de {{max, number}} filas.',
  exportWorkerFailed:
    'La exportación a Excel falló: el proceso que escribe el archivo se detuvo de forma inesperada. Intente de nuevo.',

  // Uploaded files (api platform/uploads.ts, pades.ts)
  fileEmptyNamed: 'El archivo «{{file}}» está vacío.',
  fileTooLargeNamed: 'El archivo «{{file}}» supera el tamaño máximo de {{max, number}} MB.',
  fileTypeNotAccepted: 'El archivo «{{file}}» no es de un tipo aceptado ({{types}}): su contenido es {{content}}.',
  fileTypesAccepted: 'Tipos aceptados: {{types}}.',
  fileClaimsOtherType: 'El archivo «{{file}}» dice ser {{claimed}} pero su contenido es {{content}}.',
  fileNameMismatch: 'El nombre del archivo no corresponde a su contenido.',
  pdfEncryptedNamed: 'El archivo «{{file}}» está protegido con contraseña: envíe el PDF sin cifrar.',
  pdfEncrypted: 'PDF cifrado.',
  pdfActive:
    'El PDF «{{file}}» contiene {{content}}, que no se admite en un documento. Imprímalo de nuevo como PDF (sin scripts ni adjuntos) y cárguelo otra vez.',
  pdfActiveDetail: 'PDF con contenido activo.',
  pdfInvalidNamed: 'El archivo «{{file}}» no es un PDF válido o está dañado.',
  multipartRequired: 'Envíe el archivo como multipart/form-data en el campo "file".',
  fileTooLarge: 'El archivo supera el máximo de {{max, number}} MB.',
  fileMissing: 'No se recibió ningún archivo.',
  fileChoose: 'Elija un archivo.',
  timestampFailed:
    'El servidor de sellado de tiempo no respondió correctamente: {{reason}}. Intente de nuevo o revise la URL en la configuración de firma.',

  // Bulk imports (api platform/imports)
  importFileEmpty: 'El archivo está vacío.',
  importPasswordProtected:
    'El archivo está protegido con contraseña: ábralo en Excel, quítele la contraseña y guárdelo como .xlsx o .csv.',
  importPasswordProtectedDetail: 'Libro protegido con contraseña.',
  importOldXls: 'El formato .xls antiguo no se admite; guarde el archivo como .xlsx o .csv.',
  importOldOffice: 'El archivo es un documento de Office antiguo, no una hoja de cálculo: cargue un .xlsx o un .csv.',
  importNotSpreadsheet: 'El archivo no es una hoja de cálculo: cargue un .xlsx o un .csv.',
  importXlsxDamagedOrNot: 'El archivo .xlsx está dañado o no es una hoja de cálculo.',
  importNoWorkbook: 'El archivo no es una hoja de cálculo .xlsx (falta el libro de trabajo).',
  importXlsxDamaged: 'El archivo .xlsx está dañado.',
  importXlsxPartMissing: 'El archivo .xlsx está dañado (falta {{part}}).',
  importZipBomb: 'El archivo .xlsx se expande a un tamaño excesivo al descomprimirlo (posible bomba zip); no se procesó.',
  importNoSheets: 'El archivo no tiene hojas: descargue la plantilla y llénela.',
  importDuplicateId: 'Ya existe una carga con ese identificador.',
  importUnreadable: 'No se pudo leer el archivo.',
  importUnreadableFormat: 'No se pudo leer el archivo: está dañado o no tiene el formato de la plantilla.',
  importEntityForbidden: 'No tiene acceso a esa entidad.',
  importTooManyRows: 'El archivo tiene más de {{max, number}} filas; divídalo en varios archivos.',
  importCellFormula: 'La celda contiene una fórmula; pegue solo valores.',
  importCellControlCharacters: 'La celda contiene caracteres de control o de dirección del texto no permitidos.',
  importDataOutsideColumns: 'Hay datos en columnas sin encabezado.',
  importNoRows: 'El archivo no tiene filas: descargue la plantilla y llénela.',
  importNoDataRows: 'El archivo no tiene filas de datos.',
  importOnlyHeaderRow: 'Solo tiene la fila de encabezados.',
  importHeaderRowEmpty: 'La primera fila está vacía: debe contener los encabezados de la plantilla.',
  importHeaderRowEmptyDetail: 'Fila de encabezados vacía.',
  importHeaderFormulas: 'La fila de encabezados contiene fórmulas; escriba los nombres de columna.',
  importHeaderGaps: 'La fila de encabezados tiene celdas vacías o combinadas (columnas {{columns}}).',
  importHeaderGapsDetail: 'Celdas vacías: {{columns}}',
  importColumnsMismatch: 'Las columnas no coinciden con la plantilla: {{problems}}.',
  importColumnsMissingPart: 'faltan {{columns}}',
  importColumnsUnknownPart: 'no se reconocen {{columns}}',
  importColumnsDuplicatedPart: 'están repetidas {{columns}}',
  importColumnMissing: 'Columna obligatoria faltante.',
  importColumnUnknown: 'Columna desconocida.',
  importColumnDuplicated: 'Columna repetida.',
  importValidationFailed: 'La validación falló por un error inesperado. Descarte esta carga y vuelva a cargar el archivo.',
  importRowInvalid: 'Fila no válida.',
  importKindUnknown: 'Tipo de carga desconocido: {{kind}}.',
  importNotFound: 'La carga no existe.',
  importAlreadyCommitted: 'Esta carga ya fue confirmada.',
  importAlreadyCommitting: 'La carga ya se está confirmando; espere a que termine.',
  importStillValidating: 'La carga aún se está validando; espere a que termine.',
  importNotReady: 'La carga no está lista para confirmarse.',
  importNoValidRows: 'La carga no tiene filas válidas que confirmar.',
  importEntityOutOfScope:
    'Ya no tiene acceso a la entidad de algunas filas; vuelva a cargar el archivo. No se guardó ninguna fila.',
  importEntityOutOfScopeDetail: 'Entidad fuera de su alcance.',
  importRefusalRows: '{{message}} ({{rows}})',
  importRefusalRow: 'fila {{row, number}}: {{message}}',
  importAlreadyDiscarded: 'Esta carga ya fue descartada.',
  importCommitting: 'La carga se está confirmando; espere a que termine.',
  importCommitCancelled: 'La confirmación se canceló antes de guardar: no se guardó ninguna fila. Puede confirmarla de nuevo.',
  importCommitInterrupted:
    'La confirmación no terminó (el servidor se detuvo o falló): no se guardó ninguna fila. Puede confirmarla de nuevo.',
  importCommitFailed:
    'La confirmación falló por un error inesperado: no se guardó ninguna fila. Puede confirmarla de nuevo; si el problema continúa, avise al administrador.',
  importCancelled: 'La validación se canceló. Descarte esta carga y vuelva a cargar el archivo.',
  importInterrupted:
    'El proceso se interrumpió (reinicio del servidor) antes de terminar la validación. Descarte esta carga y vuelva a cargar el archivo.',

  // Background jobs (api platform/jobs.ts, modules/jobs)
  jobInterrupted: 'El proceso se interrumpió (el servidor se detuvo o dejó de responder) y se agotaron los reintentos.',
  jobUnexpected: 'El proceso falló por un error inesperado. Intente de nuevo; si el problema continúa, avise al administrador.',
  jobUnauthorized: 'No autorizado: el usuario que inició el proceso ya no tiene el permiso necesario.',
  jobUnknownKind: 'Este tipo de proceso no existe en esta versión de la aplicación.',
  jobNotFound: 'El proceso no existe.',
  jobFinished: 'El proceso ya terminó; no se puede cancelar.',
  jobFileNotOwner: 'Solo quien inició el proceso puede descargar su archivo.',
  jobNoFile: 'Este proceso no tiene un archivo para descargar.',
  jobFileGone: 'El archivo de este proceso ya no está disponible; vuelva a generarlo.',
  routeNotFound: 'La ruta {{method}} {{path}} no existe.',
  routeValueTooLong: 'Un valor de la ruta es demasiado largo.',
  requestAddressInvalid: 'La dirección de la solicitud no es válida.',
  futureDateNamed: '{{label}} no puede ser futura: hoy es {{today, date}}.',
  futurePeriodNamed: '{{label}} no puede ser posterior a {{last, period}}.',
} as const;
