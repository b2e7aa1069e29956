import { z } from 'zod';
import { cuiSchema, intTextSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema, listResponse } from './list.ts';
import { text } from './messages.ts';
import { defineMachine } from './state-machine.ts';

/**
 * Documents library (Documentos), the institution's certificates (administradorFirma), the signing
 * flow (firmaDoc) and automatic sealing (firmaAutomatica): the contracts both sides share.
 */

/** A required text: `required` when missing or blank, `tooLong` over `max` characters (catalogue texts). */
const requiredText = (max: number, required: string, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

export const idParamSchema = z.object({ id: intTextSchema({ min: 1 }) });

// ---------------------------------------------------------------- documents library

export const documentTypes = [
  'RESOLUCION',
  'ACUERDO',
  'RECIBO',
  'CERTIFICADO',
  'SOLVENCIA',
  'PLANILLA',
  'ACTA',
  'OFICIO',
  'OTRO',
] as const;
export const documentTypeSchema = z.enum(documentTypes, { error: text('signing.documentTypeInvalid') });
export const documentTypeLabels: Record<(typeof documentTypes)[number], string> = {
  RESOLUCION: 'Resolución',
  ACUERDO: 'Acuerdo',
  RECIBO: 'Recibo',
  CERTIFICADO: 'Certificado',
  SOLVENCIA: 'Constancia de solvencia',
  PLANILLA: 'Planilla',
  ACTA: 'Acta',
  OFICIO: 'Oficio',
  OTRO: 'Otro',
};

export const folderSchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  name: z.string(),
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  documents: z.number().int(),
  subfolders: z.number().int(),
  createdAt: z.string(),
});
export type Folder = z.infer<typeof folderSchema>;

export const folderListQuerySchema = z.object({ parentId: intTextSchema({ min: 1 }).optional() });
export const folderListSchema = z.object({
  items: z.array(folderSchema),
  path: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

export const newFolderSchema = z.object({
  name: requiredText(120, text('signing.nameRequired'), text('signing.nameTooLong')).refine(
    (s) => !/[/\\]/.test(s),
    text('signing.folderNameSlash'),
  ),
  parentId: z.number().int().positive().nullable().default(null),
  /** Owner unit; null = the institution (only users with an ALL grant see it). A sub-folder takes its parent's. */
  entityId: z.number().int().positive().nullable().default(null),
});
export type NewFolder = z.infer<typeof newFolderSchema>;

export const documentSchema = z.object({
  id: z.number().int(),
  folderId: z.number().int(),
  folderName: z.string(),
  title: z.string(),
  docType: z.string(),
  entityId: z.number().int().nullable(),
  aboutEntityId: z.number().int().nullable(),
  /** The municipal entity the document concerns (its name), if any. */
  aboutEntityName: z.string().nullable(),
  contributorId: z.number().int().nullable(),
  /** The contributor it concerns: CUI and full name, if any. */
  contributorCui: z.string().nullable(),
  contributorName: z.string().nullable(),
  version: z.number().int(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  pages: z.number().int().nullable(),
  sha256: z.string(),
  updatedAt: z.string(),
});
export type LibraryDocument = z.infer<typeof documentSchema>;

export const documentListQuerySchema = listQuerySchema.extend({
  folderId: intTextSchema({ min: 1 }).optional(),
  docType: documentTypeSchema.optional(),
  contributorId: intTextSchema({ min: 1 }).optional(),
});
export const documentListSchema = listResponse(documentSchema);
export const documentExportQuerySchema = exportQueryOf(documentListQuerySchema);
export type DocumentExportQuery = z.infer<typeof documentExportQuerySchema>;

/** The choices of the library's forms: the municipal entities within the caller's `documents` scope. */
export const documentOptionsSchema = z.object({
  entities: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string() })),
  /** Whether the caller may create folders of the institution itself (an ALL grant). */
  institution: z.boolean(),
});
export type DocumentOptions = z.infer<typeof documentOptionsSchema>;

/** Metadata sent with an upload (multipart fields). */
export const documentMetaSchema = z.object({
  folderId: intTextSchema({ min: 1 }),
  title: requiredText(200, text('signing.titleRequired'), text('signing.titleTooLong')),
  docType: documentTypeSchema,
  aboutEntityId: intTextSchema({ min: 1 }).optional(),
  contributorId: intTextSchema({ min: 1 }).optional(),
  /** The contributor it concerns by CUI (the form's way); must be a contributor within the caller's scope. */
  contributorCui: z
    .string()
    .trim()
    .transform((s) => s || undefined)
    .pipe(cuiSchema.optional())
    .optional(),
});

export const documentVersionSchema = z.object({
  version: z.number().int(),
  filename: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  note: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export const documentDetailSchema = documentSchema.extend({ versions: z.array(documentVersionSchema) });

// ---------------------------------------------------------------- certificates

export const certificateStates = ['VIGENTE', 'REVOCADO', 'VENCIDO'] as const;
export const signingCertificateSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  userEmail: z.string(),
  position: z.string(),
  serial: z.string(),
  subject: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  state: z.enum(certificateStates),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
});
export type SigningCertificate = z.infer<typeof signingCertificateSchema>;
export const signingCertificateListSchema = listResponse(signingCertificateSchema);
export const certificateListQuerySchema = listQuerySchema.extend({ state: z.enum(certificateStates).optional() });

export const passphraseSchema = z
  .string({ error: text('signing.passphraseRequired') })
  .min(8, text('signing.passphraseTooShort'))
  .max(200, text('signing.passphraseTooLong'));

export const issueCertificateSchema = z.object({
  userId: z
    .number({ error: text('signing.userRequired') })
    .int()
    .positive(),
  position: z.string().trim().max(120, text('signing.positionTooLong')).default(''),
  /** Years of validity (1–5). */
  years: z.number().int().min(1, text('signing.validityYears')).max(5, text('signing.validityYears')).default(2),
  /** Set by the user who will sign (typed by them on the administrator's screen, never stored). */
  passphrase: passphraseSchema,
});
export type IssueCertificate = z.infer<typeof issueCertificateSchema>;

export const renewCertificateSchema = z.object({ passphrase: passphraseSchema });
export const revokeCertificateSchema = z.object({
  reason: requiredText(500, text('signing.reasonRequired'), text('signing.revokeReasonTooLong')),
});

export const authoritySchema = z.object({
  kind: z.enum(['ROOT', 'CA', 'SEAL']),
  subject: z.string(),
  serial: z.string(),
  notAfter: z.string(),
  fingerprint: z.string(),
});
export const signingSettingsSchema = z.object({
  showName: z.boolean(),
  showPosition: z.boolean(),
  showDate: z.boolean(),
  hasImage: z.boolean(),
  timestampUrl: z.string().nullable(),
  crlNumber: z.number().int(),
  authorities: z.array(authoritySchema),
});
export type SigningSettings = z.infer<typeof signingSettingsSchema>;
export const updateSigningSettingsSchema = z.object({
  showName: z.boolean(),
  showPosition: z.boolean(),
  showDate: z.boolean(),
  timestampUrl: z
    .string()
    .trim()
    .max(500)
    .refine((s) => s === '' || /^https?:\/\/[^\s]+$/.test(s), text('signing.timestampUrlInvalid'))
    .transform((s) => (s === '' ? null : s))
    .nullable(),
});

// ---------------------------------------------------------------- signing flow

export const signingRequestStates = ['BORRADOR', 'PENDIENTE', 'FIRMADO', 'RECHAZADO'] as const;
export type SigningRequestState = (typeof signingRequestStates)[number];
export const signingRequestStateLabels: Record<SigningRequestState, string> = {
  BORRADOR: 'Borrador',
  PENDIENTE: 'Pendiente',
  FIRMADO: 'Firmado',
  RECHAZADO: 'Rechazado',
};

/**
 * A document sent for signature: created as a draft (BORRADOR) or sent at once (PENDIENTE); its sender
 * sends a draft; the last signer's signature completes it (FIRMADO), any signer's rejection ends it
 * (RECHAZADO). Every step is `system`: who may take it is decided by taking part in the request (its
 * sender, the signer whose turn it is), which the signing service checks, not by a grant's scope — the
 * requests belong to no municipal entity, so a scoped step would reach them only with an ALL grant. The
 * permission named is the one of the route that leads to the step.
 */
export const signingRequestMachine = defineMachine({
  entityType: 'signing_request',
  label: 'El documento en firma',
  states: signingRequestStates,
  stateLabels: signingRequestStateLabels,
  initial: 'BORRADOR',
  transitions: [
    {
      key: 'SIGNING_SEND',
      from: 'BORRADOR',
      to: 'PENDIENTE',
      label: 'Enviar a firma',
      permission: { resource: 'signing-upload', action: 'CREATE' },
      commentRequired: false,
      system: true,
    },
    {
      key: 'SIGNING_COMPLETE',
      from: 'PENDIENTE',
      to: 'FIRMADO',
      label: 'Firmado por todos',
      permission: { resource: 'signing-pending', action: 'SIGN' },
      commentRequired: false,
      system: true,
    },
    {
      key: 'SIGNING_REJECT',
      from: 'PENDIENTE',
      to: 'RECHAZADO',
      label: 'Rechazar',
      permission: { resource: 'signing-pending', action: 'SIGN' },
      commentRequired: true,
      system: true,
    },
  ],
});
export const signerStates = ['ESPERA', 'PENDIENTE', 'FIRMADO', 'RECHAZADO'] as const;
export type SignerState = (typeof signerStates)[number];

/**
 * One signer's turn in a request: waiting, then pending when the one before signs (or the request is sent),
 * then signed or rejected. Only the application moves it (`moveSigner` in apps/api modules/signing/requests.ts,
 * alongside the request's own machine); the request's events are its history.
 */
export const signerMachine = defineMachine({
  entityType: 'signing_signer',
  label: 'El turno de firma',
  states: signerStates,
  stateLabels: { ESPERA: 'En espera', PENDIENTE: 'Pendiente', FIRMADO: 'Firmado', RECHAZADO: 'Rechazado' },
  initial: 'ESPERA',
  transitions: [
    {
      key: 'SIGNER_TURN',
      from: 'ESPERA',
      to: 'PENDIENTE',
      label: 'Turno de firmar',
      permission: { resource: 'signing-pending', action: 'SIGN' },
      commentRequired: false,
      system: true,
    },
    {
      key: 'SIGNER_SIGN',
      from: 'PENDIENTE',
      to: 'FIRMADO',
      label: 'Firmar',
      permission: { resource: 'signing-pending', action: 'SIGN' },
      commentRequired: false,
      system: true,
    },
    {
      key: 'SIGNER_REJECT',
      from: 'PENDIENTE',
      to: 'RECHAZADO',
      label: 'Rechazar',
      permission: { resource: 'signing-pending', action: 'SIGN' },
      commentRequired: true,
      system: true,
    },
  ],
});

export const signerSchema = z.object({
  position: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  state: z.enum(signerStates),
  actedAt: z.string().nullable(),
  reason: z.string().nullable(),
});

export const signingRequestSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  state: z.enum(signingRequestStates),
  filename: z.string(),
  sha256: z.string(),
  createdBy: z.string(),
  createdById: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  signers: z.array(signerSchema),
  /** The position of the signer whose turn it is, if any. */
  currentPosition: z.number().int().nullable(),
  /** Whether the caller is the signer whose turn it is. */
  myTurn: z.boolean(),
});
export type SigningRequest = z.infer<typeof signingRequestSchema>;
export const signingRequestListSchema = listResponse(signingRequestSchema);
export const signingListQuerySchema = listQuerySchema;
export const signingExportQuerySchema = exportQueryOf(signingListQuerySchema);

/** Multipart fields of /firmaDoc/upload: the signers' user ids in order, comma separated. */
export const signingUploadMetaSchema = z.object({
  title: requiredText(200, text('signing.titleRequired'), text('signing.titleTooLong')),
  message: z.string().trim().max(2000, text('signing.messageTooLong')).default(''),
  signers: z
    .string({ error: text('signing.signersRequired') })
    .regex(/^\d+(,\d+)*$/, text('signing.signersRequired'))
    .transform((s) => s.split(',').map(Number))
    .refine((ids) => ids.length <= 10, text('signing.signersTooMany'))
    .refine((ids) => new Set(ids).size === ids.length, text('signing.signersRepeated')),
  /** A document of the library instead of a file. */
  documentId: intTextSchema({ min: 1 }).optional(),
  send: z.enum(['true', 'false']).default('true'),
});
export type SigningUploadMeta = z.infer<typeof signingUploadMetaSchema>;

export const signActionSchema = z.object({
  passphrase: z
    .string({ error: text('signing.passphraseRequired') })
    .min(1, text('signing.passphraseRequired'))
    .max(200),
  /** The SHA-256 of the document as previewed: signing a document that changed since is refused (409). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, text('signing.documentHashInvalid')),
});
export const rejectActionSchema = z.object({
  reason: requiredText(1000, text('signing.reasonRequired'), text('signing.rejectReasonTooLong')),
});

export const signingEventSchema = z.object({
  action: z.string(),
  userName: z.string(),
  ip: z.string().nullable(),
  hashBefore: z.string().nullable(),
  hashAfter: z.string().nullable(),
  detail: z.string().nullable(),
  at: z.string(),
});
export const signingRequestDetailSchema = signingRequestSchema.extend({ events: z.array(signingEventSchema) });

export const signerOptionSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export const signerOptionsSchema = z.object({ items: z.array(signerOptionSchema) });

export const signingCountsSchema = z.object({ pending: z.number().int() });

/** The spec's /api/files/documentos/{borrador,firmado,rechazado}. */
export const specDocumentSchema = z.object({
  id: z.number().int(),
  titulo: z.string(),
  archivo: z.string(),
  estado: z.enum(signingRequestStates),
  creado: z.string(),
  finalizado: z.string().nullable(),
  firmantes: z.array(z.object({ nombre: z.string(), estado: z.enum(signerStates) })),
});
export const specDocumentListSchema = z.array(specDocumentSchema);

// ---------------------------------------------------------------- automatic signing

export const autoSignRuleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  documentKind: z.string(),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export const autoSignRuleListSchema = z.object({
  items: z.array(autoSignRuleSchema),
  kinds: z.array(z.object({ kind: z.string(), label: z.string() })),
});
export const newAutoSignRuleSchema = z.object({
  name: requiredText(120, text('signing.nameRequired'), text('signing.nameTooLong')),
  documentKind: requiredText(80, text('signing.documentKindRequired'), text('signing.documentKindTooLong')),
  isActive: z.boolean().default(true),
});
export const updateAutoSignRuleSchema = z.object({ isActive: z.boolean() });

export const batchSealSchema = z.object({
  folderId: z.number().int().positive().optional(),
  docType: documentTypeSchema.optional(),
  q: z.string().trim().max(200).optional(),
  /** Or these documents. */
  documentIds: z.array(z.number().int().positive()).max(5000).optional(),
});
export type BatchSeal = z.infer<typeof batchSealSchema>;
export const batchSealResultSchema = z.object({ jobId: z.number().int(), total: z.number().int() });

// ---------------------------------------------------------------- verification

export const signatureReportSchema = z.object({
  index: z.number().int(),
  signer: z.string(),
  subject: z.string(),
  issuer: z.string(),
  serial: z.string(),
  signingTime: z.string().nullable(),
  reason: z.string().nullable(),
  intact: z.boolean(),
  coversWholeDocument: z.boolean(),
  modifiedAfter: z.boolean(),
  chainTrusted: z.boolean(),
  chain: z.array(z.string()),
  notAfter: z.string(),
  revoked: z.boolean(),
  revokedAt: z.string().nullable(),
  /** The RFC 3161 timestamp in the signature: the certified time, the authority, whether it stamps this signature. */
  timestamp: z.object({ time: z.string(), authority: z.string(), matches: z.boolean() }).nullable(),
});
export const verificationReportSchema = z.object({
  filename: z.string(),
  sha256: z.string(),
  signatures: z.array(signatureReportSchema),
});
export type VerificationReport = z.infer<typeof verificationReportSchema>;
