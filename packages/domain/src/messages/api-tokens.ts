/**
 * Spanish texts of the integration tokens' messages (issue 30), by key (see ../messages.ts): the schemas
 * of packages/domain/src/api-tokens.ts, the service (modules/api-tokens) and the access guard's answers to
 * a request made with a token (platform/access.ts, platform/session.ts).
 */
export const apiTokensMessages = {
  // ------------------------------------------------------------ schemas (api-tokens.ts)
  entityRequired: 'Entidad: elija la entidad cuyo sistema usará el token.',
  permissionInvalid: 'Permisos: elija permisos de la lista de integraciones.',
  permissionsRequired: 'Permisos: elija al menos uno.',
  permissionsRepeated: 'Permisos: cada permiso una sola vez.',
  stateInvalid: 'Estado: elija «vigente», «vencido» o «revocado».',
  // ------------------------------------------------------------ creation and revocation (modules/api-tokens)
  expiresNotAfterToday: 'Vence: la fecha debe ser posterior a hoy ({{today, date}}).',
  expiresTooFar: 'Vence: un token dura como máximo {{days, number}} días (hasta el {{max, date}}).',
  permissionsNotHeld: 'No puede dar a un token permisos que usted no tiene para esa entidad: {{names}}.',
  notFound: 'El token de integración no existe.',
  alreadyRevoked: 'El token ya estaba revocado.',
  // ------------------------------------------------------------ a request with a token (platform/access.ts)
  invalid: 'El token de integración no es válido o fue revocado.',
  expired: 'El token de integración venció. Pida uno nuevo al administrador.',
  creatorInactive: 'El usuario que creó el token ya no está activo: el token no puede usarse.',
  noPermissionLeft: 'El usuario que creó el token ya no tiene ninguno de sus permisos: el token no puede usarse.',
  routeNotAllowed:
    'Un token de integración no puede usar {{method}} {{path}}: solo las rutas de la sección «Integraciones» de /api/docs.',
  rateLimited: 'Demasiadas solicitudes con este token: máximo {{max, number}} por minuto. Espere {{seconds, number}} s.',
} as const;
