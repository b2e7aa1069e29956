/**
 * Spanish texts of the outgoing-mail messages the server sends, by key (see ../messages.ts): the outbox,
 * the templates and each user's mail preferences (issue 29).
 */
export const mailMessages = {
  // ------------------------------------------------------------ schemas (packages/domain/src/mail.ts)
  eventInvalid: 'Evento: elija uno de la lista.',
  deliveryInvalid: 'Envío: elija «no enviar», «inmediato» o «resumen diario».',
  languageInvalid: 'Idioma: elija uno de la lista.',
  stateInvalid: 'Estado: elija uno de la lista.',
  addressInvalid: 'Destinatario: «{{address}}» no es una dirección de correo válida.',
  recipientsRequired: 'Destinatarios: indique al menos una dirección.',
  recipientsTooMany: 'Destinatarios: máximo 50 direcciones.',
  linkInvalid: 'Enlace: debe ser una ruta dentro de la aplicación (empieza con /).',
  dedupeKeyTooLong: 'Clave de deduplicación: máximo 300 caracteres.',
  // ------------------------------------------------------------ sending (platform/mail*.ts)
  attachmentRendererUnknown: 'Adjunto: no hay un generador registrado con el nombre «{{renderer}}».',
  attachmentsTooMany: 'Adjuntos: máximo 10 por mensaje.',
  // ------------------------------------------------------------ «Correo saliente», preferences, digest (modules/mail/)
  outboxNotFound: 'El mensaje de correo no existe.',
  retryNotFailed: 'Solo se reintenta un mensaje fallido; este ya no lo está.',
} as const;
