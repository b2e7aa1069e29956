import { z } from 'zod';
/**
 * The one error catalogue of the product. The API maps each code to its HTTP status; the web app maps
 * codes to form-field errors or notifications. Messages are the Spanish defaults shown to users.
 */
export const errorCatalogue = {
  VALIDATION: { status: 400, message: 'Los datos enviados no son válidos.' },
  BAD_REQUEST: { status: 400, message: 'La solicitud no es válida.' },
  MALFORMED_JSON: { status: 400, message: 'El cuerpo de la solicitud no es un JSON válido.' },
  UNAUTHENTICATED: { status: 401, message: 'Debe iniciar sesión para continuar.' },
  SESSION_EXPIRED: { status: 401, message: 'Su sesión ha expirado. Inicie sesión de nuevo.' },
  INVALID_CREDENTIALS: { status: 401, message: 'Correo electrónico o contraseña incorrectos.' },
  ACCOUNT_INACTIVE: { status: 403, message: 'Su cuenta no está activa. Comuníquese con un administrador.' },
  ACCOUNT_LOCKED: { status: 423, message: 'La cuenta está bloqueada temporalmente por intentos fallidos.' },
  PASSWORD_CHANGE_REQUIRED: { status: 403, message: 'Debe cambiar su contraseña antes de continuar.' },
  // Spec §8, the template's data calls (/app/{collection}): messages in the spec's own words.
  NO_DATA_FOUND: { status: 401, message: 'No Data Found' },
  UNAUTHORISED: { status: 401, message: 'Unauthorised' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'La operación no está disponible para esta colección.' },
  FORBIDDEN: { status: 403, message: 'No tiene permiso para realizar esta acción.' },
  NOT_FOUND: { status: 404, message: 'El registro solicitado no existe.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'La ruta solicitada no existe.' },
  CONFLICT: { status: 409, message: 'La operación entra en conflicto con el estado actual.' },
  DUPLICATE: { status: 409, message: 'Ya existe un registro con ese valor.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'El contenido enviado supera el tamaño máximo permitido.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'El tipo de contenido enviado no es compatible.' },
  RATE_LIMITED: { status: 429, message: 'Demasiadas solicitudes. Espere un momento e intente de nuevo.' },
  INTERNAL: { status: 500, message: 'Ocurrió un error interno. Intente de nuevo más tarde.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'El servicio no está disponible en este momento.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** A message's parameters (messages.ts): the values its placeholders take. */
export const messageParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/**
 * One problem with one field or row; `path` names it the way the form or file does. `message` is the
 * Spanish text; `key` and `params` let the web say it in the user's language (messages.ts).
 */
export const errorDetailSchema = z.object({
  path: z.string(),
  message: z.string(),
  row: z.number().optional(),
  key: z.string().optional(),
  params: messageParamsSchema.optional(),
});
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** The error shape every route declares for its 4xx/5xx answers. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    key: z.string().optional(),
    params: messageParamsSchema.optional(),
    details: z.array(errorDetailSchema).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A message as messages.ts makes it (declared here too, so errors.ts does not import the catalogue). */
interface KeyedMessage {
  readonly key: string;
  readonly params?: Record<string, string | number>;
  readonly text: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ErrorDetail[];
  /** The message's key and parameters (messages.ts); the error handler finds one for a fixed text. */
  readonly key?: string;
  readonly params?: Record<string, string | number>;

  /**
   * `message`: a keyed message (`msg('planillas.notFound')`), or none for the code's own.
   * `cause`: the underlying error, logged by the server and never sent to the client.
   */
  constructor(code: ErrorCode, message?: KeyedMessage | string, details?: ErrorDetail[], options?: { cause?: unknown }) {
    const keyed = typeof message === 'object' ? message : undefined;
    super(typeof message === 'object' ? message.text : (message ?? errorCatalogue[code].message), options);
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.details = details;
    this.key = keyed ? keyed.key : message === undefined ? `errors.${code}` : undefined;
    this.params = keyed?.params;
  }
}

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(errorCatalogue, value);
