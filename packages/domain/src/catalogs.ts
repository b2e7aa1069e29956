import { z } from 'zod';
import { isValidCui } from './cui.ts';
import { idTextSchema, intTextSchema, MAX_ID } from './fields.ts';
import { exportFormatSchema, listQuerySchema } from './list.ts';
import type { MenuItem } from './menu.ts';
import { type AmountOptions, moneyDecimalSchema, moneyInputSchema } from './money.ts';
import { formatNit, isValidNit, normalizeNit } from './nit.ts';
import type { Action } from './permissions.ts';

/**
 * Administrative catalogues run on one metadata-driven CRUD (the collection registry). This file holds
 * what the server and the web app share: field types, each collection's fields and input schema, and
 * the pure rules those schemas use (NIT check digit, delegate CUI).
 */

export const fieldTypes = ['text', 'number', 'money', 'date', 'boolean', 'enum', 'reference'] as const;
export type FieldType = (typeof fieldTypes)[number];

export interface FieldMeta {
  /** Property name in API payloads (camelCase). */
  name: string;
  /** i18n key of the label; `label` is the Spanish default the server uses in messages and exports. */
  labelKey: string;
  label: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  searchable: boolean;
  inList: boolean;
  /** Offered as an exact-match filter on lists (`?<name>=value`). */
  filterable: boolean;
  /** Shown but never written through the generic form (e.g. lifecycle codes). */
  readOnly: boolean;
  /** For `enum`: the allowed values. */
  options?: readonly string[];
  /** For `reference`: the collection whose rows it points to (or `users`) and the field shown. */
  reference?: { collection: string; displayField: string };
  maxLength?: number;
}

/** What GET /api/collections/:name/schema answers: the metadata plus what this user may do. */
export interface CollectionSchema {
  name: string;
  labelKey: string;
  label: string;
  fields: FieldMeta[];
  defaultSort: string;
  /** Reference data (departments, municipalities): only the super administrator writes it. */
  systemOnlyWrites: boolean;
  canCreateRows: boolean;
  canDeleteRows: boolean;
  /** Has an `isActive` field, so a referenced row can be deactivated instead of deleted. */
  hasActiveFlag: boolean;
  /** What the current user may do (permission actions held on the collection's resource). */
  actions: Action[];
}

export const fieldMetaSchema: z.ZodType<FieldMeta> = z.object({
  name: z.string(),
  labelKey: z.string(),
  label: z.string(),
  type: z.enum(fieldTypes),
  required: z.boolean(),
  unique: z.boolean(),
  searchable: z.boolean(),
  inList: z.boolean(),
  filterable: z.boolean(),
  readOnly: z.boolean(),
  options: z.array(z.string()).optional(),
  reference: z.object({ collection: z.string(), displayField: z.string() }).optional(),
  maxLength: z.number().int().optional(),
});

export const collectionSchemaSchema = z.object({
  name: z.string(),
  labelKey: z.string(),
  label: z.string(),
  fields: z.array(fieldMetaSchema),
  defaultSort: z.string(),
  systemOnlyWrites: z.boolean(),
  canCreateRows: z.boolean(),
  canDeleteRows: z.boolean(),
  hasActiveFlag: z.boolean(),
  actions: z.array(z.string()),
});

/** GET /api/collections answers the names the user may read, as the specification says. */
export const collectionNamesSchema = z.array(z.string());
export type CollectionNames = z.infer<typeof collectionNamesSchema>;

export const collectionSummarySchema = z.array(
  z.object({ name: z.string(), labelKey: z.string(), label: z.string(), count: z.number().int() }),
);
export type CollectionSummary = z.infer<typeof collectionSummarySchema>;

/** A reference option for searchable selects. */
export const referenceOptionSchema = z.object({ value: z.number().int(), label: z.string() });
export type ReferenceOption = z.infer<typeof referenceOptionSchema>;

// ─── Rules ────────────────────────────────────────────────────────────────────────────────────────

// ─── Field and schema builders ──────────────────────────────────────────────────────────────────────

type FieldInit = Partial<Omit<FieldMeta, 'name' | 'label' | 'labelKey' | 'type'>>;

const field =
  (collection: string) =>
  (name: string, label: string, type: FieldType, init: FieldInit = {}): FieldMeta => ({
    name,
    label,
    labelKey: `catalogs.fields.${collection}.${name}`,
    type,
    required: false,
    unique: false,
    searchable: false,
    inList: true,
    filterable: type === 'boolean' || type === 'enum' || type === 'reference',
    readOnly: false,
    ...init,
  });

const required = (label: string) => ({ error: `${label}: campo obligatorio.` });
const text = (label: string, max = 200) =>
  z
    .string(required(label))
    .trim()
    .min(1, required(label))
    .max(max, { error: `${label}: máximo ${max} caracteres.` });
const optionalText = (label: string, max = 200) =>
  z
    .string()
    .trim()
    .max(max, { error: `${label}: máximo ${max} caracteres.` })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
const code = (label: string, max = 20) =>
  text(label, max)
    .toUpperCase()
    .regex(/^[A-Z0-9_-]+$/, { error: `${label}: solo letras, dígitos, guion y guion bajo.` });
const ref = (label: string) =>
  z
    .number({ error: `${label}: seleccione un valor.` })
    .int()
    .positive({ error: `${label}: seleccione un valor.` })
    .max(MAX_ID, { error: `${label}: seleccione un valor.` });
const active = z.boolean().default(true);

/**
 * The input schema of a catalogue's `money` field: what people type, read by the one amount parser
 * (parseAmount, messages naming the field), kept as the decimal text `"1234.50"` (the JSON form of
 * money); empty is null. The table's column must be the `money` column type (numeric(14,2) ↔ bigint).
 */
export const moneyFieldSchema = (label: string, opts: AmountOptions = {}) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), moneyInputSchema(label, opts).nullable()).optional();

export const statusColors = [
  'gray',
  'dark',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
] as const;

export const planillaStatusCodes = [
  'BORRADOR',
  'ENVIADA',
  'EN_REVISION',
  'APROBADA',
  'OBSERVADA',
  'RECHAZADA',
  'PAGADA',
  'ANULADA',
] as const;
export const paymentAgreementStatusCodes = ['VIGENTE', 'CUMPLIDO', 'INCUMPLIDO', 'ANULADO'] as const;

const nitSchema = z
  .string()
  .trim()
  .transform((v) => (v === '' ? null : normalizeNit(v)))
  .nullable()
  .optional()
  .refine((v) => v == null || isValidNit(v), { error: 'NIT: el dígito verificador no es válido.' })
  .transform((v) => (v == null ? v : formatNit(v)));

const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional()
  .refine((v) => v == null || z.email().safeParse(v).success, { error: 'Correo electrónico no válido.' });

const phoneField = (label: string) =>
  z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional()
    .refine((v) => v == null || /^[0-9 +()-]{8,20}$/.test(v), { error: `${label}: use de 8 a 20 dígitos.` });

const statusFields = (c: string, codes: readonly string[]) => {
  const f = field(c);
  return [
    f('code', 'Código', 'enum', { required: true, unique: true, readOnly: true, options: codes, searchable: true }),
    f('label', 'Etiqueta', 'text', { required: true, searchable: true }),
    f('color', 'Color', 'enum', { required: true, options: statusColors }),
    f('sortOrder', 'Orden', 'number', { required: true, filterable: false }),
  ];
};
const statusInput = z.strictObject({
  label: text('Etiqueta', 60),
  color: z.enum(statusColors, { error: 'Color: elija uno de la lista.' }),
  sortOrder: z.number({ error: 'Orden: debe ser un número.' }).int().min(0).max(999),
});

/** Everything about one collection that does not depend on the database. */
export interface CollectionDefinition {
  name: string;
  label: string;
  fields: FieldMeta[];
  /** Validates a create; an update validates the same object made partial. Unknown fields are refused. */
  input: z.ZodObject;
  defaultSort: string;
  systemOnlyWrites?: boolean;
  canCreateRows?: boolean;
  canDeleteRows?: boolean;
  /** The field that names a row when another collection references it. */
  displayField: string;
}

const f = {
  departments: field('departments'),
  municipalities: field('municipalities'),
  regions: field('regions'),
  classifications: field('classifications'),
  entities: field('municipal-entities'),
  entityRegions: field('entity-regions'),
  delegates: field('delegates'),
  regionDelegates: field('region-delegates'),
  assignments: field('entity-assignment'),
  budget: field('budget-lines'),
  contributorTypes: field('contributor-catalogs'),
};

/**
 * The catalogue collections, keyed by name = the permission resource of its screen. The server's
 * registry binds each to its table; the web app renders list and form from the same metadata.
 */
export const collectionDefinitions = {
  regions: {
    name: 'regions',
    label: 'Regiones',
    displayField: 'name',
    defaultSort: 'code',
    fields: [
      f.regions('code', 'Código', 'text', { required: true, unique: true, searchable: true, maxLength: 20 }),
      f.regions('name', 'Nombre', 'text', { required: true, searchable: true, maxLength: 120 }),
      f.regions('isActive', 'Activa', 'boolean'),
    ],
    input: z.strictObject({ code: code('Código'), name: text('Nombre', 120), isActive: active }),
  },
  departments: {
    name: 'departments',
    label: 'Departamentos',
    displayField: 'name',
    defaultSort: 'code',
    systemOnlyWrites: true,
    fields: [
      f.departments('code', 'Código', 'text', { required: true, unique: true, searchable: true, maxLength: 2 }),
      f.departments('name', 'Nombre', 'text', { required: true, searchable: true, maxLength: 120 }),
      f.departments('regionId', 'Región', 'reference', { reference: { collection: 'regions', displayField: 'name' } }),
    ],
    input: z.strictObject({
      code: z
        .string(required('Código'))
        .trim()
        .regex(/^\d{2}$/, { error: 'Código: dos dígitos (01–22).' }),
      name: text('Nombre', 120),
      regionId: ref('Región').nullable().optional(),
    }),
  },
  municipalities: {
    name: 'municipalities',
    label: 'Municipios',
    displayField: 'name',
    defaultSort: 'code',
    systemOnlyWrites: true,
    fields: [
      f.municipalities('code', 'Código', 'text', { required: true, unique: true, searchable: true, maxLength: 4 }),
      f.municipalities('name', 'Nombre', 'text', { required: true, searchable: true, maxLength: 120 }),
      f.municipalities('departmentId', 'Departamento', 'reference', {
        required: true,
        reference: { collection: 'departments', displayField: 'name' },
      }),
    ],
    input: z.strictObject({
      code: z
        .string(required('Código'))
        .trim()
        .regex(/^\d{4}$/, { error: 'Código: cuatro dígitos (departamento y municipio).' }),
      name: text('Nombre', 120),
      departmentId: ref('Departamento'),
    }),
  },
  classifications: {
    name: 'classifications',
    label: 'Clasificaciones',
    displayField: 'name',
    defaultSort: 'code',
    fields: [
      f.classifications('code', 'Código', 'text', { required: true, unique: true, searchable: true, maxLength: 40 }),
      f.classifications('name', 'Nombre', 'text', { required: true, searchable: true, maxLength: 120 }),
      f.classifications('isActive', 'Activa', 'boolean'),
    ],
    input: z.strictObject({ code: code('Código', 40), name: text('Nombre', 120), isActive: active }),
  },
  'municipal-entities': {
    name: 'municipal-entities',
    label: 'Entidades municipales',
    displayField: 'name',
    defaultSort: 'code',
    fields: [
      f.entities('code', 'Código', 'text', { required: true, unique: true, searchable: true, maxLength: 30 }),
      f.entities('name', 'Nombre', 'text', { required: true, searchable: true, maxLength: 200 }),
      f.entities('nit', 'NIT', 'text', { searchable: true, maxLength: 15 }),
      f.entities('classificationId', 'Clasificación', 'reference', {
        required: true,
        reference: { collection: 'classifications', displayField: 'name' },
      }),
      f.entities('municipalityId', 'Municipio', 'reference', {
        required: true,
        reference: { collection: 'municipalities', displayField: 'name' },
      }),
      f.entities('address', 'Dirección', 'text', { inList: false, maxLength: 300 }),
      f.entities('phone', 'Teléfono', 'text', { inList: false, maxLength: 20 }),
      f.entities('email', 'Correo electrónico', 'text', { inList: false, maxLength: 200 }),
      f.entities('bankAccount', 'Cuenta bancaria', 'text', { inList: false, maxLength: 40 }),
      f.entities('isActive', 'Activa', 'boolean'),
    ],
    input: z.strictObject({
      code: code('Código', 30),
      name: text('Nombre', 200),
      nit: nitSchema,
      classificationId: ref('Clasificación'),
      municipalityId: ref('Municipio'),
      address: optionalText('Dirección', 300),
      phone: phoneField('Teléfono'),
      email: emailField,
      bankAccount: optionalText('Cuenta bancaria', 40),
      isActive: active,
    }),
  },
  'entity-regions': {
    name: 'entity-regions',
    label: 'Regiones de entidades',
    displayField: 'id',
    defaultSort: '-id',
    fields: [
      f.entityRegions('entityId', 'Entidad', 'reference', {
        required: true,
        reference: { collection: 'municipal-entities', displayField: 'name' },
      }),
      f.entityRegions('regionId', 'Región', 'reference', {
        required: true,
        reference: { collection: 'regions', displayField: 'name' },
      }),
    ],
    input: z.strictObject({ entityId: ref('Entidad'), regionId: ref('Región') }),
  },
  delegates: {
    name: 'delegates',
    label: 'Delegados',
    displayField: 'userId',
    defaultSort: '-id',
    fields: [
      f.delegates('userId', 'Usuario', 'reference', {
        required: true,
        unique: true,
        reference: { collection: 'users', displayField: 'name' },
      }),
      f.delegates('cui', 'CUI', 'text', { required: true, unique: true, searchable: true, maxLength: 15 }),
      f.delegates('phone', 'Teléfono', 'text', { maxLength: 20 }),
      f.delegates('isActive', 'Activo', 'boolean'),
    ],
    input: z.strictObject({
      userId: ref('Usuario'),
      cui: z
        .string(required('CUI'))
        .transform((v) => v.replace(/\s/g, ''))
        .refine((v) => isValidCui(v), { error: 'CUI no válido: revise los 13 dígitos.' }),
      phone: phoneField('Teléfono'),
      isActive: active,
    }),
  },
  'region-delegates': {
    name: 'region-delegates',
    label: 'Delegados por región',
    displayField: 'id',
    defaultSort: '-id',
    fields: [
      f.regionDelegates('regionId', 'Región', 'reference', {
        required: true,
        reference: { collection: 'regions', displayField: 'name' },
      }),
      f.regionDelegates('delegateId', 'Delegado', 'reference', {
        required: true,
        reference: { collection: 'delegates', displayField: 'userId' },
      }),
    ],
    input: z.strictObject({ regionId: ref('Región'), delegateId: ref('Delegado') }),
  },
  'entity-assignment': {
    name: 'entity-assignment',
    label: 'Asignación de entidades',
    displayField: 'id',
    defaultSort: '-id',
    fields: [
      f.assignments('entityId', 'Entidad', 'reference', {
        required: true,
        reference: { collection: 'municipal-entities', displayField: 'name' },
      }),
      f.assignments('delegateId', 'Delegado', 'reference', {
        required: true,
        reference: { collection: 'delegates', displayField: 'userId' },
      }),
    ],
    input: z.strictObject({ entityId: ref('Entidad'), delegateId: ref('Delegado') }),
  },
  'budget-lines': {
    name: 'budget-lines',
    label: 'Renglones presupuestarios',
    displayField: 'name',
    defaultSort: 'code',
    fields: [
      f.budget('code', 'Código', 'text', { required: true, unique: true, searchable: true, maxLength: 3 }),
      f.budget('name', 'Nombre', 'text', { required: true, searchable: true, maxLength: 200 }),
      f.budget('isSubjectToContribution', 'Afecto a cuota', 'boolean', { required: true }),
      f.budget('isActive', 'Activo', 'boolean'),
    ],
    input: z.strictObject({
      code: z
        .string(required('Código'))
        .trim()
        .regex(/^\d{3}$/, { error: 'Código: tres dígitos (p. ej. 011).' }),
      name: text('Nombre', 200),
      isSubjectToContribution: z.boolean({ error: 'Afecto a cuota: indique sí o no.' }),
      isActive: active,
    }),
  },
  // The contributor catalogue of the contributors module (/contributors/catalogs): kinds of contributor.
  'contributor-catalogs': {
    name: 'contributor-catalogs',
    label: 'Tipos de afiliado',
    displayField: 'name',
    defaultSort: 'sortOrder',
    fields: [
      f.contributorTypes('code', 'Código', 'text', { required: true, unique: true, searchable: true, maxLength: 40 }),
      f.contributorTypes('name', 'Nombre', 'text', { required: true, searchable: true, maxLength: 120 }),
      f.contributorTypes('sortOrder', 'Orden', 'number', { required: true, filterable: false }),
      f.contributorTypes('isActive', 'Activo', 'boolean'),
    ],
    input: z.strictObject({
      code: code('Código', 40),
      name: text('Nombre', 120),
      sortOrder: z.number({ error: 'Orden: debe ser un número.' }).int().min(0).max(999),
      isActive: active,
    }),
  },
  'planilla-statuses': {
    name: 'planilla-statuses',
    label: 'Estados de planilla',
    displayField: 'label',
    defaultSort: 'sortOrder',
    canCreateRows: false,
    canDeleteRows: false,
    fields: statusFields('planilla-statuses', planillaStatusCodes),
    input: statusInput,
  },
  'payment-agreement-statuses': {
    name: 'payment-agreement-statuses',
    label: 'Estados de convenio',
    displayField: 'label',
    defaultSort: 'sortOrder',
    canCreateRows: false,
    canDeleteRows: false,
    fields: statusFields('payment-agreement-statuses', paymentAgreementStatusCodes),
    input: statusInput,
  },
} as const satisfies Record<string, CollectionDefinition>;

export type CollectionName = keyof typeof collectionDefinitions;
export const collectionNames = Object.keys(collectionDefinitions) as CollectionName[];
export const isCollectionName = (v: string): v is CollectionName => Object.hasOwn(collectionDefinitions, v);

/** The input schema of a collection for an update: every field optional, unknown fields still refused. */
export const updateInputOf = (name: CollectionName) => (collectionDefinitions[name].input as z.ZodObject).partial();

/** A record as the generic API answers it: its fields, `labels` of its references and its own `label`. */
export type CollectionRecord = Record<string, unknown> & {
  id: number;
  label: string;
  labels: Record<string, string | null>;
};

/**
 * The sidebar's dynamic group: one entry per collection the user may read (from GET /api/collections),
 * under /dcrud/{collection}. The static menu tree stays in menu.ts; the shell appends this group.
 */
export function dcrudMenuGroup(
  names: readonly string[],
  labelKeyOf = (n: string) => `catalogs.collections.${n}`,
): MenuItem | null {
  const known = names.filter(isCollectionName);
  if (known.length === 0) return null;
  return {
    id: 'dcrud',
    label: 'catalogs.menu.dcrud',
    icon: 'database',
    link: '',
    subItems: known.map((n) => ({
      id: `dcrud-${n}`,
      label: labelKeyOf(n),
      name: n,
      link: `/dcrud/${n}`,
      parentId: 'dcrud',
    })),
  };
}

/** One panel of the statistics screen; later modules add panels of their own (registry on the server). */
export const statisticsPanelSchema = z.object({
  key: z.string(),
  titleKey: z.string(),
  title: z.string(),
  kind: z.enum(['bar', 'donut', 'list']),
  /** Sum of the panel's population (e.g. entities without a delegate): shown as its headline number. */
  total: z.number().int(),
  items: z.array(z.object({ label: z.string(), value: z.number() })),
});
export type StatisticsPanel = z.infer<typeof statisticsPanelSchema>;
export const statisticsPanelListSchema = z.array(statisticsPanelSchema);

// ---------------------------------------------------------------- generic CRUD contracts

const collectionValueSchema = (f: FieldMeta) => {
  switch (f.type) {
    case 'boolean':
      return z.boolean();
    case 'number':
      return z.number().nullable();
    case 'money':
      return moneyDecimalSchema.nullable();
    case 'reference':
      return z.number().int().nullable();
    default:
      return z.string().nullable();
  }
};

/** A record of a collection as the API answers it: id, display label, reference labels and every field. */
export const collectionRecordSchemaOf = (def: CollectionDefinition) =>
  z.object({
    id: z.number().int(),
    label: z.string(),
    labels: z.record(z.string(), z.string().nullable()),
    ...Object.fromEntries(def.fields.map((f) => [f.name, collectionValueSchema(f)])),
  });

/** Exact-match filters a list accepts: `?<field>=value` for boolean, enum, reference and number fields. */
const collectionFiltersOf = (def: CollectionDefinition) =>
  Object.fromEntries(
    def.fields
      .filter((f) => f.filterable)
      .map((f) => {
        if (f.type === 'boolean')
          return [
            f.name,
            z
              .enum(['true', 'false'])
              .transform((v) => v === 'true')
              .optional(),
          ];
        if (f.type === 'enum' && f.options) return [f.name, z.enum(f.options as [string, ...string[]]).optional()];
        if (f.type === 'reference') return [f.name, idTextSchema.optional()];
        if (f.type === 'number') return [f.name, intTextSchema().optional()];
        if (f.type === 'money') return [f.name, moneyInputSchema(f.label, { allowNegative: true }).optional()];
        return [f.name, z.string().max(200).optional()];
      }),
  );

/** The list query of a collection: paging, sort, search and its exact-match filters. */
export const collectionListQuerySchemaOf = (def: CollectionDefinition) => listQuerySchema.extend(collectionFiltersOf(def));

/** The export of a collection: the list's filters plus the file format. */
export const collectionExportQuerySchemaOf = (def: CollectionDefinition) =>
  collectionListQuerySchemaOf(def)
    .omit({ page: true, pageSize: true })
    .extend({ format: exportFormatSchema.default('xlsx') });

/** Params of a reference field's options. */
export const referenceFieldParamsSchema = z.object({ field: z.string().max(60) });

/** Options of a reference field: by text, or the given ids (at most 100). */
export const referenceOptionsQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  ids: z
    .string()
    .regex(/^\d+(,\d+)*$/, { error: 'Lista de identificadores separados por comas.' })
    .transform((s) => s.split(',').slice(0, 100))
    .pipe(z.array(z.string().pipe(idTextSchema)))
    .optional(),
});
export type ReferenceOptionsQuery = z.infer<typeof referenceOptionsQuerySchema>;
export const referenceOptionListSchema = z.array(referenceOptionSchema);

/** Params of the catch-all routes that answer an unknown collection with a 404 naming it. */
export const collectionNameParamsSchema = z.object({ name: z.string() }).loose();
