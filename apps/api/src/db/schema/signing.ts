import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { municipalEntities } from './catalogs.ts';
import { contributors } from './contributors.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * Stored content by its SHA-256 (platform/blobs.ts): the same bytes uploaded twice are kept once, and a
 * document version names its content by hash, so a changed file is a new version, never an overwrite.
 */
export const blobs = pgTable('blobs', {
  sha256: text().primaryKey(),
  size: bigint({ mode: 'number' }).notNull(),
  contentType: text().notNull(),
  createdAt: ts().notNull().defaultNow(),
});

/**
 * Folders of the document library (Documentos). `entityId` is the owner unit: null for the institution's
 * own folders (only an ALL grant reaches them), else the municipal entity whose users see it.
 */
export const documentFolders = pgTable(
  'document_folders',
  {
    id: serial().primaryKey(),
    parentId: integer().references((): AnyPgColumn => documentFolders.id, { onDelete: 'restrict' }),
    name: text().notNull(),
    entityId: integer().references(() => municipalEntities.id),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('document_folders_name_key').on(sql`coalesce(${t.parentId}, 0)`, sql`lower(${t.name})`),
    index('document_folders_entity_idx').on(t.entityId),
  ],
);

/** A document of the library: metadata; its content is its versions. `entityId` is the folder's owner unit. */
export const documents = pgTable(
  'documents',
  {
    id: serial().primaryKey(),
    folderId: integer()
      .notNull()
      .references(() => documentFolders.id),
    title: text().notNull(),
    docType: text().notNull(),
    entityId: integer().references(() => municipalEntities.id),
    /** The municipal entity the document concerns (beside the owner unit), if any. */
    aboutEntityId: integer().references(() => municipalEntities.id),
    contributorId: integer().references(() => contributors.id),
    /** What attached it (`planilla`, `supervivencia`…) and the record's id: other modules' attachments. */
    sourceType: text(),
    sourceId: integer(),
    currentVersion: integer().notNull().default(1),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('documents_folder_idx').on(t.folderId, t.id),
    index('documents_entity_idx').on(t.entityId),
    index('documents_source_idx').on(t.sourceType, t.sourceId),
  ],
);

export const documentVersions = pgTable(
  'document_versions',
  {
    documentId: integer()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    sha256: text()
      .notNull()
      .references(() => blobs.sha256),
    filename: text().notNull(),
    contentType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    pages: integer(),
    /** Why this version exists ("Carga", "Sellado automático"…). */
    note: text().notNull().default(''),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.version] })],
);

/**
 * The institution's certification authority (root and issuing CA, created on first start) and its
 * seal (issued by the CA, or an uploaded PKCS#12). Private keys are encrypted at rest with the master
 * key (config SIGNING_MASTER_KEY, or DATA_DIR/signing-master.key generated on first start).
 */
export const pkiAuthorities = pgTable('pki_authorities', {
  id: serial().primaryKey(),
  kind: text({ enum: ['ROOT', 'CA', 'SEAL'] }).notNull(),
  /** DER, base64. */
  certificate: text().notNull(),
  /** Chain above it (DER base64, issuer first) for an uploaded seal. */
  chain: jsonb().$type<string[]>().notNull().default([]),
  encryptedKey: text().notNull(),
  serial: text().notNull(),
  subject: text().notNull(),
  notAfter: ts().notNull(),
  isActive: boolean().notNull().default(true),
  createdAt: ts().notNull().defaultNow(),
});

/** A personal signing certificate issued by the CA to a user; the key is encrypted with the user's passphrase. */
export const signingCertificates = pgTable(
  'signing_certificates',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    serial: text().notNull().unique(),
    certificate: text().notNull(),
    encryptedKey: text().notNull(),
    /** The position printed in the signature appearance (Jefe de Planillas…). */
    position: text().notNull().default(''),
    notBefore: ts().notNull(),
    notAfter: ts().notNull(),
    revokedAt: ts(),
    revokeReason: text(),
    /** Wrong passphrases in a row; three lock signing until lockedUntil. */
    failedAttempts: smallint().notNull().default(0),
    lockedUntil: ts(),
    issuedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('signing_certificates_user_idx').on(t.userId)],
);

/** One row (id 1): signature appearance, timestamp server, published CRL. */
export const signingSettings = pgTable('signing_settings', {
  id: integer().primaryKey(),
  showName: boolean().notNull().default(true),
  showPosition: boolean().notNull().default(true),
  showDate: boolean().notNull().default(true),
  /** A PNG/JPEG stamp image, by its blob hash. */
  imageSha256: text().references(() => blobs.sha256),
  timestampUrl: text(),
  crl: text(),
  crlNumber: integer().notNull().default(0),
  updatedAt: ts().notNull().defaultNow(),
});

/** A document sent for signature to signers in order. */
export const signingRequests = pgTable(
  'signing_requests',
  {
    id: serial().primaryKey(),
    title: text().notNull(),
    message: text().notNull().default(''),
    state: text({ enum: ['BORRADOR', 'PENDIENTE', 'FIRMADO', 'RECHAZADO'] }).notNull(),
    /** The sender's unit (municipal entity), for scoped lists; null = the institution. */
    entityId: integer().references(() => municipalEntities.id),
    documentId: integer().references(() => documents.id),
    filename: text().notNull(),
    originalSha256: text()
      .notNull()
      .references(() => blobs.sha256),
    currentSha256: text()
      .notNull()
      .references(() => blobs.sha256),
    createdBy: integer()
      .notNull()
      .references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    completedAt: ts(),
  },
  (t) => [
    index('signing_requests_creator_idx').on(t.createdBy, t.state),
    index('signing_requests_state_idx').on(t.state, t.id),
    // Keyset paging of the signing lists by title or date, with the id as tiebreak.
    index('signing_requests_title_id_idx').on(t.title, t.id),
    index('signing_requests_created_id_idx').on(t.createdAt, t.id),
  ],
);

export const signingSigners = pgTable(
  'signing_signers',
  {
    requestId: integer()
      .notNull()
      .references(() => signingRequests.id, { onDelete: 'cascade' }),
    position: smallint().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    state: text({ enum: ['ESPERA', 'PENDIENTE', 'FIRMADO', 'RECHAZADO'] }).notNull(),
    actedAt: ts(),
    reason: text(),
    certificateId: integer().references(() => signingCertificates.id),
  },
  (t) => [
    primaryKey({ columns: [t.requestId, t.position] }),
    uniqueIndex('signing_signers_user_key').on(t.requestId, t.userId),
    index('signing_signers_pending_idx').on(t.userId, t.state),
  ],
);

export const signingEventActions = [
  'CREADO',
  'ENVIADO',
  'VISTO',
  'FIRMADO',
  'RECHAZADO',
  'CLAVE_INCORRECTA',
  'CONSTANCIA',
] as const;
export type SigningEventAction = (typeof signingEventActions)[number];

/** The audit trail of a signing request: who, when, from where, the document's hash before and after. */
export const signingEvents = pgTable(
  'signing_events',
  {
    id: serial().primaryKey(),
    requestId: integer()
      .notNull()
      .references(() => signingRequests.id, { onDelete: 'cascade' }),
    action: text({ enum: signingEventActions }).notNull(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    userName: text().notNull(),
    ip: text(),
    hashBefore: text(),
    hashAfter: text(),
    detail: text(),
    at: ts().notNull().defaultNow(),
  },
  (t) => [index('signing_events_request_idx').on(t.requestId, t.id)],
);

/** Automatic sealing: every generated document of `documentKind` is sealed with the institution's seal. */
export const autoSignRules = pgTable('auto_sign_rules', {
  id: serial().primaryKey(),
  name: text().notNull(),
  documentKind: text().notNull().unique(),
  isActive: boolean().notNull().default(true),
  createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts().notNull().defaultNow(),
});
