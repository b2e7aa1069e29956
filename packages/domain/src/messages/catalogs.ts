/**
 * Spanish texts of the catalogs messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const catalogsMessages = {
  // Catalogue field rules (catalogs.ts).
  sortOrderNotNumber: 'Orden: debe ser un número.',
  colorNotInList: 'Color: elija uno de la lista.',
  subjectToContributionRequired: 'Afecto a cuota: indique sí o no.',
  idListInvalid: 'Lista de identificadores separados por comas.',
  departmentCodeInvalid: 'Código: dos dígitos (01–22).',
  municipalityCodeInvalid: 'Código: cuatro dígitos (departamento y municipio).',
  budgetLineCodeInvalid: 'Código: tres dígitos (p. ej. 011).',
  // The collections engine (apps/api modules/collections).
  fieldRequired: '{{label}}: campo obligatorio.',
  fieldMaxLength: '{{label}}: máximo {{max, number}} caracteres.',
  fieldCodeCharacters: '{{label}}: solo letras, dígitos, guion y guion bajo.',
  fieldSelectValue: '{{label}}: seleccione un valor.',
  fieldPhoneDigits: '{{label}}: use de 8 a 20 dígitos.',
  fieldStatusFromList: '{{label}}: elija un valor de la lista ({{values}}).',
  fieldWholeNumber: '{{label}}: debe ser un número entero.',
  fieldNotNegative: '{{label}}: no puede ser negativo.',
  fieldMaxValue: '{{label}}: máximo {{max, number}}.',
  fieldRatingRange: '{{label}}: un número de 0 a 5.',
  fieldOneDecimal: '{{label}}: un decimal como máximo.',
  collectionNotFound: 'La colección «{{name}}» no existe.',
  recordNotFound: 'No existe el registro {{id}} en «{{collection}}».',
  sortInvalid: 'No se puede ordenar por "{{name}}". Opciones: {{choices}}.',
  referenceFieldNotFound: '«{{collection}}» no tiene el campo de referencia «{{field}}».',
  referenceDataSystemOnly: '«{{collection}}» son datos de referencia: solo el super administrador puede modificarlos.',
  invalidReferences: 'Hay referencias que no son válidas.',
  referenceNotFound: '{{field}}: el registro {{id}} no existe.',
  referenceEntityOutOfScope: '{{field}}: la entidad está fuera de su alcance.',
  duplicateValue: 'Ya existe un registro en «{{collection}}» con {{field}} «{{value}}».',
  duplicateCombination: 'Ya existe un registro en «{{collection}}» con la misma combinación de {{fields}}.',
  valueRepeated: '{{field}}: valor repetido.',
  rowsFixed: 'Los registros de «{{collection}}» son fijos: solo se editan su etiqueta, color y orden.',
  entityCreateNeedsAllScope: 'Solo un usuario con alcance total puede crear entidades.',
  rowsFixedNoDelete: 'Los registros de «{{collection}}» son fijos del ciclo de vida y no se eliminan.',
  inUseDeactivate: 'No se puede eliminar «{{label}}»: lo usan {{uses}}. Puede desactivarlo en su lugar.',
  inUseRemoveReferences: 'No se puede eliminar «{{label}}»: lo usan {{uses}}. Elimine primero esas referencias.',
  referrerCountOne: '{{count, number}} registro',
  referrerCountMany: '{{count, number}} registros',
} as const;
