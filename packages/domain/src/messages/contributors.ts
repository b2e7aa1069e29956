/**
 * Spanish texts of the contributors messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 *
 * This file imports nothing: cui.ts and nit.ts read their texts straight from it (they are imported by
 * messages.ts itself, through fields.ts).
 */
export const contributorsMessages = {
  // CUI and NIT (packages/domain/src/cui.ts, nit.ts)
  cuiEmpty: 'Ingrese el CUI.',
  cuiFormat: 'El CUI solo puede contener dígitos.',
  cuiLength: 'El CUI debe tener 13 dígitos.',
  cuiCheckDigit: 'El dígito verificador del CUI no es válido.',
  cuiDepartment: 'El departamento del CUI (dígitos 10–11) no existe.',
  cuiMunicipality: 'El municipio del CUI (dígitos 12–13) no existe en ese departamento.',
  cuiThirteenDigits: 'CUI no válido: 13 dígitos.',
  nitEmpty: 'Ingrese el NIT.',
  nitFormat: 'El NIT debe tener dígitos y un dígito verificador (0–9 o K), por ejemplo 576937-K.',
  nitCheckDigit: 'El dígito verificador del NIT no es válido.',
  // The contributor form (packages/domain/src/contributors.ts)
  sexInvalid: 'El sexo debe ser M o F.',
  maritalStatusInvalid: 'Estado civil no válido.',
  max10Chars: 'Máximo 10 caracteres.',
  max60Chars: 'Máximo 60 caracteres.',
  max200Chars: 'Máximo 200 caracteres.',
  firstNameRequired: 'Ingrese el primer nombre.',
  firstSurnameRequired: 'Ingrese el primer apellido.',
  salaryRequired: 'Salario: escriba un monto.',
  salaryInvalid: 'Salario: {{reason}}',
  birthDateFuture: 'La fecha de nacimiento no puede ser futura.',
  phoneInvalid: 'Teléfono no válido (8 dígitos o más).',
  emailInvalid: 'Correo electrónico no válido.',
  typeRequired: 'Seleccione el tipo de afiliado.',
  hireBeforeBirth: 'La fecha de ingreso es anterior al nacimiento.',
  cuiOwnRequest: 'No puede aprobar ni rechazar su propia solicitud; debe hacerlo otra persona.',
  // The bulk upload's rows
  municipalityNotInCatalogue: 'El municipio "{{code}}" no existe en el catálogo.',
  typeNotInCatalogue: 'El tipo de afiliado "{{code}}" no existe en el catálogo.',
  entityNotInCatalogue: 'La entidad "{{code}}" no existe en el catálogo.',
  budgetLineNotInCatalogue: 'El renglón "{{code}}" no existe en el catálogo.',
  cuiScientificNotation: 'El CUI está en notación científica; dé a la columna formato de texto.',
  entityNoAccess: 'No tiene acceso a esa entidad.',
  birthDateMissing: 'Falta la fecha de nacimiento.',
  typeMissing: 'Falta el tipo de afiliado.',
  importEntityRequired: 'Indique una entidad de su alcance.',
  importCuiTaken: 'Ya existe un afiliado con este CUI (/contributors/{{id}}).',
  importCuiRepeated: 'CUI repetido en el archivo (ya está en la fila {{row}}).',
  importCuisTakenSinceValidation:
    'Desde la validación se registraron afiliados con CUIs de este archivo; vuelva a cargarlo. No se guardó ninguna fila.',
  importCuiExists: 'El CUI {{cui}} ya existe.',
  // Contributors
  notFound: 'El afiliado no existe o no está dentro de su alcance.',
  pendingCuiRequest: 'Este afiliado ya tiene una solicitud de CUI pendiente; espere a que se resuelva.',
  cuiTaken: 'Ya existe un afiliado con este CUI.',
  cuiOutOfScope: 'Este CUI no se puede registrar. Si cree que es un error, consulte con la administración.',
  cuiTakenBy: 'Ya existe un afiliado con el CUI {{cui}}.',
  cuiTakenByNamed: 'Ya existe un afiliado con este CUI: {{name}} (/contributors/{{id}}).',
  typeNotFound: 'El tipo de afiliado no existe o está inactivo.',
  entityNotFound: 'La entidad no existe.',
  entityOutOfScope: 'La entidad no está dentro de su alcance.',
  municipalityNotFound: 'El municipio no existe.',
  budgetLineNotFound: 'El renglón presupuestario no existe.',
  entityRequired: 'Seleccione una entidad de su alcance.',
  entityCannotBeRemoved: 'Seleccione una entidad de su alcance: el afiliado no puede quedar sin entidad.',
  renapDiffers: 'Los datos difieren de RENAP en: {{fields}}.',
  renapDeath: 'RENAP registra el fallecimiento el {{date, date}}.',
  cuiChangePending: 'El cambio de CUI quedó pendiente de aprobación por otra persona.',
  // RENAP
  renapNotFound: 'El CUI no está registrado en RENAP.',
  renapTimeout: 'RENAP no respondió a tiempo; no se pudo confirmar el CUI. Puede guardar y verificarlo más tarde.',
  renapUnavailable:
    'RENAP no está disponible en este momento; no se pudo confirmar el CUI. Puede guardar y verificarlo más tarde.',
  // CUI approvals
  cuiRequestNotFound: 'La solicitud no existe o no está dentro de su alcance.',
  otherHasCui: 'Ya existe otro afiliado con el CUI {{cui}}.',
  otherHasCuiLinked: 'Ya existe otro afiliado con este CUI (/contributors/{{id}}).',
} as const;
