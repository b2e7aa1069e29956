/**
 * Spanish texts of the signed webhooks' messages (issue 30), by key (see ../messages.ts): the schemas of
 * packages/domain/src/webhooks.ts and the service (modules/webhooks, platform/webhooks.ts).
 */
export const webhooksMessages = {
  // ------------------------------------------------------------ schemas (webhooks.ts)
  entityRequired: 'Entidad: elija una entidad de la lista o «Toda la institución».',
  eventInvalid: 'Evento: elija un evento de la lista.',
  eventsRequired: 'Eventos: elija al menos uno.',
  eventsRepeated: 'Eventos: cada evento una sola vez.',
  stateInvalid: 'Estado: elija «pendiente», «enviándose», «enviado» o «fallido».',
  activeInvalid: 'Activo: debe ser sí o no.',
  urlInvalid: 'URL: escriba una dirección https:// completa, sin usuario, contraseña ni fragmento (#).',
  urlTooLong: 'URL: como máximo 2000 caracteres.',
  // ------------------------------------------------------------ the service (modules/webhooks, platform/webhooks.ts)
  urlNotHttps: 'URL: debe empezar con https:// (http:// solo hacia esta misma máquina, fuera de producción).',
  urlPrivate: 'URL: {{host}} es una dirección privada o local; en producción no se envían webhooks a ella.',
  urlUnresolvable: 'URL: no se encontró la dirección de {{host}}.',
  institutionWideNotAllowed: 'Entidad: solo quien administra todas las entidades registra webhooks de la institución.',
  notFound: 'El webhook no existe.',
  deliveryNotFound: 'El envío del webhook no existe.',
  deliverySending: 'El envío se está haciendo ahora; espere a que termine para reenviarlo.',
  endpointInactive: 'El webhook está desactivado: actívelo antes de probarlo o de reenviar.',
  secretUnreadable: 'No se pudo leer el secreto del webhook (¿cambió SIGNING_MASTER_KEY?).',
  pingMessage: 'Prueba del webhook desde Aporta.',
} as const;
