/**
 * Spanish texts of the signing messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 * Also the documents library's (Documentos) and the verification of generated documents.
 */
export const signingMessages = {
  // ------------------------------------------------------------ schemas (packages/domain/src/signing.ts)
  documentTypeInvalid: 'Tipo de documento: elija uno de la lista.',
  nameRequired: 'Nombre: es obligatorio.',
  nameTooLong: 'Nombre: máximo 120 caracteres.',
  folderNameSlash: 'Nombre: no puede contener / ni \\.',
  titleRequired: 'Título: es obligatorio.',
  titleTooLong: 'Título: máximo 200 caracteres.',
  passphraseRequired: 'Frase de paso: es obligatoria.',
  passphraseTooShort: 'Frase de paso: al menos 8 caracteres.',
  passphraseTooLong: 'Frase de paso: máximo 200 caracteres.',
  userRequired: 'Usuario: es obligatorio.',
  positionTooLong: 'Cargo: máximo 120 caracteres.',
  validityYears: 'Vigencia: entre 1 y 5 años.',
  reasonRequired: 'Motivo: es obligatorio.',
  revokeReasonTooLong: 'Motivo: máximo 500 caracteres.',
  rejectReasonTooLong: 'Motivo: máximo 1000 caracteres.',
  timestampUrlInvalid: 'Servidor de sellado de tiempo: debe ser una URL http o https.',
  messageTooLong: 'Mensaje: máximo 2000 caracteres.',
  signersRequired: 'Firmantes: elija al menos uno.',
  signersTooMany: 'Firmantes: máximo 10.',
  signersRepeated: 'Firmantes: un usuario aparece dos veces.',
  documentHashInvalid: 'Documento: huella inválida.',
  documentKindRequired: 'Tipo de documento generado: es obligatorio.',
  documentKindTooLong: 'Tipo de documento generado: máximo 80 caracteres.',

  // ------------------------------------------------------------ certificates
  userNotFound: 'Usuario: no existe.',
  userNotFoundDetail: 'El usuario no existe.',
  userInactive: 'Usuario: la cuenta no está activa.',
  userInactiveDetail: 'La cuenta no está activa.',
  certificateNotFound: 'El certificado no existe.',
  certificateRevoked: 'El certificado está revocado: emita uno nuevo.',
  certificateAlreadyRevoked: 'El certificado ya estaba revocado.',

  // ------------------------------------------------------------ settings and the institution's seal
  pkcs12Invalid: 'El archivo PKCS#12 no es válido.',
  sealInvalid: 'El archivo no es un PKCS#12 válido o la contraseña no lo abre.',
  sealPasswordDetail: 'Contraseña incorrecta o archivo inválido.',
  imageTooLarge: 'La imagen «{{filename}}» supera {{max, number}} KB.',
  imageTooLargeDetail: 'Máximo {{max, number}} KB.',
  imageDamaged: 'La imagen «{{filename}}» está dañada o no se puede leer.',
  imageDamagedDetail: 'Imagen dañada.',

  // ------------------------------------------------------------ signing flow
  requestNotFound: 'El documento no existe o usted no participa en él.',
  signerInvalid: 'Firmante {{position}}: el usuario no existe o no está activo.',
  signerInvalidDetail: 'El usuario no existe o no está activo.',
  signerCannotSign: 'Firmante {{position}} ({{name}}): su rol no tiene el permiso de firmar documentos.',
  signerNoCertificate:
    'Firmante {{position}} ({{name}}): no tiene un certificado de firma vigente; un administrador lo emite en «Administrador de firma».',
  fileOrDocumentRequired: 'Elija un PDF o un documento de la biblioteca.',
  fileRequiredDetail: 'Elija un archivo.',
  onlySenderSends: 'Solo quien cargó el documento puede enviarlo.',
  alreadySent: 'El documento ya fue enviado.',
  notASigner: 'Usted no es firmante de este documento.',
  notSentYet: 'El documento aún no fue enviado.',
  noLongerPending: 'El documento ya no está pendiente de firma.',
  alreadySigned: 'Usted ya firmó este documento.',
  alreadyRejected: 'Usted ya rechazó este documento.',
  notYourTurn: 'Aún no es su turno: firmantes anteriores no han firmado.',
  changedSinceReview: 'El documento cambió desde que lo revisó: vuelva a abrirlo antes de firmar.',
  changedWhileSigning: 'El documento cambió mientras firmaba: vuelva a abrirlo.',
  noCertificate: 'Usted no tiene un certificado de firma: solicítelo al administrador de firma.',
  ownCertificateRevoked: 'Su certificado de firma está revocado: solicite uno nuevo al administrador de firma.',
  ownCertificateExpired: 'Su certificado de firma está vencido: solicite su renovación.',
  signingPaused: 'Tres frases de paso incorrectas: la firma está en pausa. Intente de nuevo en {{minutes, number}} min.',
  passphraseWrongPaused:
    'Frase de paso incorrecta. Tras {{tries, number}} intentos la firma queda en pausa {{minutes, number}} minutos.',
  passphraseWrongAttempt: 'Frase de paso incorrecta (intento {{attempt, number}} de {{tries, number}}).',
  passphraseWrong: 'Frase de paso incorrecta.',

  // ------------------------------------------------------------ automatic signing and verification
  noFileReceived: 'No se recibió ningún archivo.',
  ruleKindInvalid: 'Tipo de documento generado: elija uno de la lista.',
  chooseFromList: 'Elija uno de la lista.',
  ruleDuplicate: 'Ya existe una regla para ese tipo de documento.',
  ruleDuplicateDetail: 'Ya tiene una regla.',
  ruleNotFound: 'La regla no existe.',
  batchNoMatch: 'Ningún documento PDF coincide con el filtro.',
  batchDocumentGone: 'El documento ya no existe.',
  batchDocumentChanged: 'El documento cambió durante el sellado.',

  // ------------------------------------------------------------ documents library (Documentos)
  folderNotFound: 'La carpeta no existe.',
  institutionFolderForbidden: 'Solo quien tiene alcance total crea carpetas de la institución.',
  unitOutOfScope: 'Unidad: fuera de su alcance.',
  unitOutOfScopeDetail: 'La entidad está fuera de su alcance.',
  folderDuplicate: 'Ya existe una carpeta «{{name}}» aquí.',
  folderDuplicateDetail: 'Ya existe una carpeta con ese nombre.',
  folderNotEmpty: 'La carpeta no está vacía: mueva o elimine su contenido primero.',
  folderOtherUnit: 'La carpeta «{{name}}» de Documentos pertenece a otra unidad.',
  documentNotFound: 'El documento no existe.',
  versionNotFound: 'La versión no existe.',
  noteTooLong: 'Nota: máximo 200 caracteres.',
  entityOutOfScope: 'Entidad: no existe o está fuera de su alcance.',
  entityOutOfScopeDetail: 'La entidad no existe o está fuera de su alcance.',
  contributorOutOfScope: 'Afiliado: no existe o está fuera de su alcance.',
  contributorOutOfScopeDetail: 'No hay un afiliado con ese CUI a su alcance.',
  entityNotFound: 'La entidad no existe.',
  documentChangedMeanwhile: 'El documento cambió mientras tanto: vuelva a abrirlo.',

  // ------------------------------------------------------------ verification of generated documents
  verificationCodeUnknown: 'No existe ningún documento generado con ese código de verificación.',
  verificationCodeTooLong: 'El código de verificación tiene 16 caracteres.',
} as const;
