import { z } from 'zod';
import { cuiSchema, idTextSchema, intTextSchema, MAX_ID, nitSchema as sharedNitSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import type { MenuItem } from './menu.ts';
import { text as messageText, textWith } from './messages.ts';
import { type AmountOptions, moneyDecimalSchema, moneyInputSchema } from './money.ts';
import type { Action } from './permissions.ts';

/**
 * Administrative catalogues run on one metadata-driven CRUD (the collection registry). This file holds
 * what the server and the web app share: field types and each collection's fields, declared once as an
 * annotated zod schema from which the field metadata and the input schema are derived.
 */

/**
 * `status`: an enum shown as a coloured badge (`colors`, `optionLabels`); `image`: a picture held as a
 * `data:` URI (generated placeholders, never an external address), shown as an avatar — or, when
 * empty, as a placeholder generated from the record's label.
 */
export const fieldTypes = ['text', 'number', 'money', 'date', 'boolean', 'enum', 'reference', 'nit', 'status', 'image'] as const;
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
  /** For `enum`/`status`: the Spanish label of each value (the values themselves are codes). */
  optionLabels?: Record<string, string>;
  /** For `status`: the badge colour of each value (a Mantine colour name). */
  colors?: Record<string, string>;
  /** For `number`: decimals a value may have (default none: an integer). */
  decimals?: number;
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
  optionLabels: z.record(z.string(), z.string()).optional(),
  colors: z.record(z.string(), z.string()).optional(),
  decimals: z.number().int().optional(),
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

// ─── Fields declared once: the zod schema carries the metadata ──────────────────────────────────────

/**
 * What a catalogue field says about itself besides its validation, attached to its zod schema
 * (`catalogField`) in the `catalogFields` registry. `FieldMeta` — what the engine, the API's
 * `/schema` and the web form read — is derived from the schema and this (`fieldMetaOf`): the name is
 * the property's key, `required` is whether the schema accepts a missing value, an enum's options are
 * the `z.enum` values, and booleans, enums and numbers need no `type`.
 */
export interface CatalogFieldAnnotation {
  /** Spanish label (the same text the field's messages name). */
  label: string;
  type?: FieldType;
  unique?: boolean;
  searchable?: boolean;
  /** Default true. */
  inList?: boolean;
  /** Default: boolean, enum and reference fields. */
  filterable?: boolean;
  /** Shown, never written through the form: left out of the collection's input schema. */
  readOnly?: boolean;
  reference?: { collection: string; displayField: string };
  maxLength?: number;
  optionLabels?: Record<string, string>;
  colors?: Record<string, string>;
  decimals?: number;
}

/** The registry of catalogue field annotations (zod 4 registry keyed by schema instance). */
export const catalogFields = z.registry<CatalogFieldAnnotation>();

/** A schema annotated as a catalogue field: a copy of `schema`, so a shared schema is never annotated twice. */
export function catalogField<T extends z.ZodType>(schema: T, annotation: CatalogFieldAnnotation): T {
  const copy = schema.clone() as T;
  catalogFields.add(copy, annotation);
  return copy;
}

/** The schema under wrappers (default, optional, nullable) and pipes (transforms): what a value is. */
function baseOf(schema: z.ZodType): z.ZodType {
  const def = schema.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  if (def.innerType && ['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch'].includes(def.type)) {
    return baseOf(def.innerType);
  }
  if (def.type === 'pipe' && def.in) return baseOf(def.in);
  return schema;
}

const inferredType = (base: z.ZodType): FieldType | undefined =>
  ({ boolean: 'boolean', enum: 'enum', number: 'number' })[base.def.type as string] as FieldType | undefined;

/** The metadata of one field, derived from its annotated schema. Throws for a schema without annotation. */
export function fieldMetaOf(collection: string, name: string, schema: z.ZodType): FieldMeta {
  const a = catalogFields.get(schema);
  if (!a) throw new Error(`Catálogo ${collection}: el campo ${name} no está declarado con catalogField`);
  const base = baseOf(schema);
  const type = a.type ?? inferredType(base);
  if (!type) throw new Error(`Catálogo ${collection}: el campo ${name} necesita un tipo`);
  const choice = type === 'enum' || type === 'status';
  const options = choice && base instanceof z.ZodEnum ? (base.options as string[]) : undefined;
  if (choice && !options) throw new Error(`Catálogo ${collection}: el campo ${name} debe ser z.enum`);
  return {
    name,
    label: a.label,
    labelKey: `catalogs.fields.${collection}.${name}`,
    type,
    required: !schema.isOptional(),
    unique: a.unique ?? false,
    searchable: a.searchable ?? false,
    inList: a.inList ?? true,
    filterable: a.filterable ?? (type === 'boolean' || choice || type === 'reference'),
    readOnly: a.readOnly ?? false,
    ...(options ? { options } : {}),
    ...(a.reference ? { reference: a.reference } : {}),
    ...(a.maxLength != null ? { maxLength: a.maxLength } : {}),
    ...(a.optionLabels ? { optionLabels: a.optionLabels } : {}),
    ...(a.colors ? { colors: a.colors } : {}),
    ...(a.decimals != null ? { decimals: a.decimals } : {}),
  };
}

export type FieldExtra = Omit<CatalogFieldAnnotation, 'label' | 'type' | 'maxLength'>;

const required = (label: string) => ({ error: textWith('catalogs.fieldRequired', { label }) });
const textRule = (label: string, max: number) =>
  z
    .string(required(label))
    .trim()
    .min(1, required(label))
    .max(max, { error: textWith('catalogs.fieldMaxLength', { label, max }) });
/** Required text of at most `max` characters. */
const text = (label: string, max: number, extra: FieldExtra = {}) =>
  catalogField(textRule(label, max), { label, type: 'text', maxLength: max, ...extra });
/** Optional text: empty is null. */
const optionalText = (label: string, max: number, extra: FieldExtra = {}) =>
  catalogField(
    z
      .string()
      .trim()
      .max(max, { error: textWith('catalogs.fieldMaxLength', { label, max }) })
      .transform((v) => (v === '' ? null : v))
      .nullable()
      .optional(),
    { label, type: 'text', maxLength: max, ...extra },
  );
/** A code: upper-case letters, digits, dash and underscore. */
const code = (label: string, max: number, extra: FieldExtra = {}) =>
  catalogField(
    textRule(label, max)
      .toUpperCase()
      .regex(/^[A-Z0-9_-]+$/, { error: textWith('catalogs.fieldCodeCharacters', { label }) }),
    { label, type: 'text', maxLength: max, ...extra },
  );
/** Digits only, exactly as many as `pattern` says (territory and budget codes). */
const digitCode = (label: string, pattern: RegExp, message: string, max: number, extra: FieldExtra = {}) =>
  catalogField(z.string(required(label)).trim().regex(pattern, { error: message }), {
    label,
    type: 'text',
    maxLength: max,
    ...extra,
  });
const refRule = (label: string) =>
  z
    .number({ error: textWith('catalogs.fieldSelectValue', { label }) })
    .int()
    .positive({ error: textWith('catalogs.fieldSelectValue', { label }) })
    .max(MAX_ID, { error: textWith('catalogs.fieldSelectValue', { label }) });
/** A reference to a row of `collection` (or `users`), shown by its `displayField`. */
const ref = (label: string, collection: string, displayField: string, extra: FieldExtra = {}) =>
  catalogField(refRule(label), { label, type: 'reference', reference: { collection, displayField }, ...extra });
const optionalRef = (label: string, collection: string, displayField: string, extra: FieldExtra = {}) =>
  catalogField(refRule(label).nullable().optional(), {
    label,
    type: 'reference',
    reference: { collection, displayField },
    ...extra,
  });
/** The active flag: true unless said otherwise. */
const active = (label: string) => catalogField(z.boolean().default(true), { label });
const sortOrder = () =>
  catalogField(
    z
      .number({ error: messageText('catalogs.sortOrderNotNumber') })
      .int()
      .min(0)
      .max(999),
    { label: 'Orden', filterable: false },
  );
const phone = (label: string, extra: FieldExtra = {}) =>
  catalogField(
    z
      .string()
      .trim()
      .transform((v) => (v === '' ? null : v))
      .nullable()
      .optional()
      .refine((v) => v == null || /^[0-9 +()-]{8,20}$/.test(v), { error: textWith('catalogs.fieldPhoneDigits', { label }) }),
    { label, type: 'text', maxLength: 20, ...extra },
  );
const email = (label: string, extra: FieldExtra = {}) =>
  catalogField(
    z
      .string()
      .trim()
      .toLowerCase()
      .transform((v) => (v === '' ? null : v))
      .nullable()
      .optional()
      .refine((v) => v == null || z.email().safeParse(v).success, { error: messageText('accounts.emailInvalid') }),
    { label, type: 'text', maxLength: 200, ...extra },
  );
/**
 * Up to `max` e-mail addresses written comma-separated (a semicolon or a line break also separates them),
 * each checked, lower-cased, repeats dropped; kept as `a@x.gt, b@y.gt`; empty is null. A bad address is
 * named in the message.
 */
const emailList = (label: string, max: number, extra: FieldExtra = {}) =>
  catalogField(
    z
      .string()
      .max(max * 220, { error: textWith('catalogs.fieldMaxLength', { label, max: max * 220 }) })
      .transform((v, ctx) => {
        const list = [
          ...new Set(
            v
              .split(/[,;\n]/)
              .map((a) => a.trim().toLowerCase())
              .filter(Boolean),
          ),
        ];
        if (!list.length) return null;
        const bad = list.find((a) => a.length > 200 || !z.email().safeParse(a).success);
        if (bad !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message: textWith('catalogs.fieldEmailListInvalid', { label, address: bad.slice(0, 80) }),
          });
          return z.NEVER;
        }
        if (list.length > max) {
          ctx.addIssue({ code: 'custom', message: textWith('catalogs.fieldEmailListTooMany', { label, max }) });
          return z.NEVER;
        }
        return list.join(', ');
      })
      .nullable()
      .optional(),
    { label, type: 'text', maxLength: max * 220, ...extra },
  );
/** Optional NIT through the shared field schema (fields.ts): stored without dash, e.g. `576937K`. */
const nit = (label: string, extra: FieldExtra = {}) =>
  catalogField(sharedNitSchema.nullable().optional(), { label, type: 'nit', maxLength: 15, ...extra });
/** A required CUI through the shared field schema (fields.ts): 13 digits. */
const cui = (label: string, extra: FieldExtra = {}) => catalogField(cuiSchema, { label, type: 'text', maxLength: 15, ...extra });

/** The field builders of this file, for collections declared elsewhere (packages/domain/src/template.ts). */
export const fieldBuilders = { text, optionalText, ref, optionalRef, phone, email };

/**
 * The input schema of a catalogue's `money` field: what people type, read by the one amount parser
 * (parseAmount, messages naming the field), kept as the decimal text `"1234.50"` (the JSON form of
 * money); empty is null. The table's column must be the `money` column type (numeric(14,2) ↔ bigint).
 */
export const moneyFieldSchema = (label: string, opts: AmountOptions = {}) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), moneyInputSchema(label, opts).nullable()).optional();

/** A catalogue `money` field (see moneyFieldSchema). */
export const moneyField = (label: string, opts: AmountOptions = {}, extra: FieldExtra = {}) =>
  catalogField(moneyFieldSchema(label, opts), { label, type: 'money', ...extra });

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
  'ENVIANDO',
  'ENVIADA',
  'EN_REVISION',
  'APROBADA',
  'OBSERVADA',
  'RECHAZADA',
  'PAGADA',
  'ANULADA',
] as const;
export const paymentAgreementStatusCodes = ['VIGENTE', 'CUMPLIDO', 'INCUMPLIDO', 'ANULADO'] as const;

/** The fields of a status catalogue: its code is fixed (read-only), the rest is editable. */
const statusFields = (codes: readonly [string, ...string[]]) => ({
  code: catalogField(z.enum(codes), { label: 'Código', unique: true, readOnly: true, searchable: true }),
  label: text('Etiqueta', 60, { searchable: true }),
  color: catalogField(z.enum(statusColors, { error: messageText('catalogs.colorNotInList') }), { label: 'Color' }),
  sortOrder: sortOrder(),
});

/** Everything about one collection that does not depend on the database. */
export interface CollectionDefinition {
  name: string;
  label: string;
  /** Derived from `shape`: what the engine, the API and the web form read. */
  fields: FieldMeta[];
  /**
   * Derived from `shape` without its read-only fields: validates a create; an update validates the same
   * object made partial. Unknown fields are refused.
   */
  input: z.ZodObject;
  defaultSort: string;
  systemOnlyWrites?: boolean;
  canCreateRows?: boolean;
  canDeleteRows?: boolean;
  /**
   * The field that names a row when another collection references it; for a catalogue the server binds by
   * itself, also its `label` in lists (a label built from other tables is bound by hand in the registry).
   */
  displayField: string;
  /**
   * The permission resource guarding the collection's routes; default: its name. A catalogue of
   * `collectionDefinitions` never sets it: its name is its own resource (permissions.ts derives it, with CRUD).
   */
  resource?: string;
  /**
   * Where the catalogue's screen sits in the sidebar. menu.ts derives its entry (id: the name in camelCase,
   * label `menu.{id}`, permission: the name) and the web serves the generic list and record pages at its
   * link. Without it the catalogue is reached only under /dcrud/{name}.
   */
  menu?: CatalogMenuPlace;
  /** Its rows belong to a municipal entity, so REGION and ENTITY grants narrow them (the registry names the column). */
  scopedByEntity?: boolean;
  /** The SQL table of its rows, which the server's registry finds in the Drizzle schema; default: the name with `_` for `-`. */
  table?: string;
}

/** The sidebar groups that hold catalogue entries (menu.ts puts them where the group says `CATALOGUES`). */
export const catalogMenuGroups = ['contributorsGroup', 'administrativeGroup'] as const;
export type CatalogMenuGroup = (typeof catalogMenuGroups)[number];

/** A catalogue's place in the sidebar. */
export interface CatalogMenuPlace {
  group: CatalogMenuGroup;
  /** Its order among the group's catalogue entries (ascending). */
  position: number;
  /** The screen's address; default `/administrative/{name}`. */
  link?: string;
}

type CollectionSpec = Omit<CollectionDefinition, 'fields' | 'input'> & {
  /** Every field, once: property name → annotated zod schema (catalogField), in display order. */
  shape: Record<string, z.ZodType>;
};

/** A collection from its one declaration of fields: metadata and input schema derived from `shape`. */
export function defineCollection({ shape, ...spec }: CollectionSpec): CollectionDefinition {
  const fields = Object.entries(shape).map(([name, schema]) => fieldMetaOf(spec.name, name, schema));
  const writable = Object.fromEntries(Object.entries(shape).filter(([name]) => !fields.find((f) => f.name === name)?.readOnly));
  return { ...spec, fields, input: z.strictObject(writable) };
}

/**
 * The catalogue collections, keyed by name = the permission resource of its screen. The server's
 * registry binds each to its table; the web app renders list and form from the same metadata.
 */
export const collectionDefinitions = {
  regions: defineCollection({
    name: 'regions',
    label: 'Regiones',
    displayField: 'name',
    defaultSort: 'code',
    menu: { group: 'administrativeGroup', position: 50 },
    shape: {
      code: code('Código', 20, { unique: true, searchable: true }),
      name: text('Nombre', 120, { searchable: true }),
      isActive: active('Activa'),
    },
  }),
  departments: defineCollection({
    name: 'departments',
    label: 'Departamentos',
    displayField: 'name',
    defaultSort: 'code',
    menu: { group: 'administrativeGroup', position: 60 },
    systemOnlyWrites: true,
    shape: {
      code: digitCode('Código', /^\d{2}$/, messageText('catalogs.departmentCodeInvalid'), 2, { unique: true, searchable: true }),
      name: text('Nombre', 120, { searchable: true }),
      regionId: optionalRef('Región', 'regions', 'name'),
    },
  }),
  municipalities: defineCollection({
    name: 'municipalities',
    label: 'Municipios',
    displayField: 'name',
    defaultSort: 'code',
    menu: { group: 'administrativeGroup', position: 40 },
    systemOnlyWrites: true,
    shape: {
      code: digitCode('Código', /^\d{4}$/, messageText('catalogs.municipalityCodeInvalid'), 4, {
        unique: true,
        searchable: true,
      }),
      name: text('Nombre', 120, { searchable: true }),
      departmentId: ref('Departamento', 'departments', 'name'),
    },
  }),
  classifications: defineCollection({
    name: 'classifications',
    label: 'Clasificaciones',
    displayField: 'name',
    defaultSort: 'code',
    menu: { group: 'administrativeGroup', position: 70 },
    shape: {
      code: code('Código', 40, { unique: true, searchable: true }),
      name: text('Nombre', 120, { searchable: true }),
      isActive: active('Activa'),
    },
  }),
  'municipal-entities': defineCollection({
    name: 'municipal-entities',
    label: 'Entidades municipales',
    displayField: 'name',
    defaultSort: 'code',
    menu: { group: 'administrativeGroup', position: 20 },
    scopedByEntity: true,
    shape: {
      code: code('Código', 30, { unique: true, searchable: true }),
      name: text('Nombre', 200, { searchable: true }),
      nit: nit('NIT', { searchable: true }),
      classificationId: ref('Clasificación', 'classifications', 'name'),
      municipalityId: ref('Municipio', 'municipalities', 'name'),
      address: optionalText('Dirección', 300, { inList: false }),
      phone: phone('Teléfono', { inList: false }),
      email: email('Correo electrónico', { inList: false }),
      // Where arrears notices go (issue 29): up to 5 addresses; without them, to `email`.
      noticeEmails: emailList('Correos para avisos', 5, { inList: false }),
      bankAccount: optionalText('Cuenta bancaria', 40, { inList: false }),
      isActive: active('Activa'),
    },
  }),
  'entity-regions': defineCollection({
    name: 'entity-regions',
    label: 'Regiones de entidades',
    displayField: 'id',
    defaultSort: '-id',
    menu: { group: 'administrativeGroup', position: 80 },
    scopedByEntity: true,
    shape: {
      entityId: ref('Entidad', 'municipal-entities', 'name'),
      regionId: ref('Región', 'regions', 'name'),
    },
  }),
  delegates: defineCollection({
    name: 'delegates',
    label: 'Delegados',
    displayField: 'userId',
    defaultSort: '-id',
    menu: { group: 'administrativeGroup', position: 10 },
    shape: {
      userId: ref('Usuario', 'users', 'name', { unique: true }),
      cui: cui('CUI', { unique: true, searchable: true }),
      phone: phone('Teléfono'),
      isActive: active('Activo'),
    },
  }),
  'region-delegates': defineCollection({
    name: 'region-delegates',
    label: 'Delegados por región',
    displayField: 'id',
    defaultSort: '-id',
    menu: { group: 'administrativeGroup', position: 90 },
    shape: {
      regionId: ref('Región', 'regions', 'name'),
      delegateId: ref('Delegado', 'delegates', 'userId'),
    },
  }),
  'entity-assignment': defineCollection({
    name: 'entity-assignment',
    label: 'Asignación de entidades',
    displayField: 'id',
    defaultSort: '-id',
    menu: { group: 'administrativeGroup', position: 30 },
    scopedByEntity: true,
    table: 'entity_assignments',
    shape: {
      entityId: ref('Entidad', 'municipal-entities', 'name'),
      delegateId: ref('Delegado', 'delegates', 'userId'),
    },
  }),
  'budget-lines': defineCollection({
    name: 'budget-lines',
    label: 'Renglones presupuestarios',
    displayField: 'name',
    defaultSort: 'code',
    menu: { group: 'administrativeGroup', position: 110 },
    shape: {
      code: digitCode('Código', /^\d{3}$/, messageText('catalogs.budgetLineCodeInvalid'), 3, { unique: true, searchable: true }),
      name: text('Nombre', 200, { searchable: true }),
      isSubjectToContribution: catalogField(z.boolean({ error: messageText('catalogs.subjectToContributionRequired') }), {
        label: 'Afecto a cuota',
      }),
      isActive: active('Activo'),
    },
  }),
  // The contributor catalogue of the contributors module (/contributors/catalogs): kinds of contributor.
  'contributor-catalogs': defineCollection({
    name: 'contributor-catalogs',
    label: 'Tipos de afiliado',
    displayField: 'name',
    defaultSort: 'sortOrder',
    menu: { group: 'contributorsGroup', position: 10, link: '/contributors/catalogs' },
    table: 'contributor_types',
    shape: {
      code: code('Código', 40, { unique: true, searchable: true }),
      name: text('Nombre', 120, { searchable: true }),
      sortOrder: sortOrder(),
      isActive: active('Activo'),
    },
  }),
  'planilla-statuses': defineCollection({
    name: 'planilla-statuses',
    label: 'Estados de planilla',
    displayField: 'label',
    defaultSort: 'sortOrder',
    menu: { group: 'administrativeGroup', position: 100 },
    canCreateRows: false,
    canDeleteRows: false,
    shape: statusFields(planillaStatusCodes),
  }),
  'payment-agreement-statuses': defineCollection({
    name: 'payment-agreement-statuses',
    label: 'Estados de convenio',
    displayField: 'label',
    defaultSort: 'sortOrder',
    menu: { group: 'administrativeGroup', position: 120 },
    canCreateRows: false,
    canDeleteRows: false,
    shape: statusFields(paymentAgreementStatusCodes),
  }),
  // The banks where payments are received (issue 26).
  banks: defineCollection({
    name: 'banks',
    label: 'Bancos',
    displayField: 'name',
    defaultSort: 'name',
    menu: { group: 'administrativeGroup', position: 130 },
    shape: {
      code: code('Código', 20, { unique: true, searchable: true }),
      name: text('Nombre', 120, { searchable: true }),
      isActive: active('Activo'),
    },
  }),
} as const satisfies Record<string, CollectionDefinition>;

export type CollectionName = keyof typeof collectionDefinitions;
export const collectionNames = Object.keys(collectionDefinitions) as CollectionName[];
export const isCollectionName = (v: string): v is CollectionName => Object.hasOwn(collectionDefinitions, v);

/** The SQL table of a collection's rows: its `table`, else its name with `_` for `-`. */
export const collectionTableOf = (def: CollectionDefinition): string => def.table ?? def.name.replaceAll('-', '_');

/** A catalogue's screen, derived from its menu place: the sidebar entry and the web route of its generic pages. */
export interface CatalogScreen {
  name: CollectionName;
  /** The menu entry's id: the name in camelCase (`municipal-entities` → `municipalEntities`). */
  id: string;
  link: string;
  group: CatalogMenuGroup;
  position: number;
}

/** Every catalogue with a menu place, in menu order (group as listed in `catalogMenuGroups`, then position). */
export const catalogScreens: readonly CatalogScreen[] = collectionNames
  .flatMap((name): CatalogScreen[] => {
    const place: CatalogMenuPlace | undefined = collectionDefinitions[name].menu;
    if (!place) return [];
    const id = name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    return [{ name, id, link: place.link ?? `/administrative/${name}`, group: place.group, position: place.position }];
  })
  .sort((a, b) => catalogMenuGroups.indexOf(a.group) - catalogMenuGroups.indexOf(b.group) || a.position - b.position);

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

/**
 * A record of a collection as the API answers it: id, display label, reference labels and every field.
 * A required field named `label` (the status catalogues') is the record's label itself: text, never null.
 */
export const collectionRecordSchemaOf = (def: CollectionDefinition) =>
  z.object({
    id: z.number().int(),
    label: z.string(),
    labels: z.record(z.string(), z.string().nullable()),
    ...Object.fromEntries(
      def.fields.filter((f) => !(f.name === 'label' && f.required)).map((f) => [f.name, collectionValueSchema(f)]),
    ),
  });

/** `municipal-entities` → `MunicipalEntities`: a collection's name as the first part of its contract names. */
export const collectionContractPrefix = (name: string) =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** The named contract schemas of one collection (see `collectionContractOf`). */
export interface CollectionContract {
  /** A record as the API answers it (`collectionRecordSchemaOf`): `RegionsRecord`. */
  record: ReturnType<typeof collectionRecordSchemaOf>;
  /** The body of a create (`def.input`): `RegionsCreate`. */
  create: z.ZodObject;
  /** The body of an update (`def.input`, every field optional): `RegionsUpdate`. */
  update: z.ZodObject;
}

const collectionContracts = new WeakMap<CollectionDefinition, CollectionContract>();

/**
 * The contract schemas of a collection, built once per collection and named after it in zod's registry
 * (`regions` → `RegionsRecord`, `RegionsCreate`, `RegionsUpdate`). A collection's shapes are derived from
 * its definition rather than exported one by one, so they are named here, where they are made; the API
 * (apps/api/src/platform/contract.ts) names the exported schemas the same way, so the OpenAPI document
 * declares each collection's record and bodies once under `components` and every route refers to them.
 */
export function collectionContractOf(def: CollectionDefinition): CollectionContract {
  const known = collectionContracts.get(def);
  if (known) return known;
  const prefix = collectionContractPrefix(def.name);
  const contract: CollectionContract = {
    record: collectionRecordSchemaOf(def).meta({ id: `${prefix}Record` }),
    create: def.input.meta({ id: `${prefix}Create` }),
    update: def.input.partial().meta({ id: `${prefix}Update` }),
  };
  collectionContracts.set(def, contract);
  return contract;
}

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
        if ((f.type === 'enum' || f.type === 'status') && f.options)
          return [f.name, z.enum(f.options as [string, ...string[]]).optional()];
        if (f.type === 'reference') return [f.name, idTextSchema.optional()];
        if (f.type === 'number') return [f.name, intTextSchema().optional()];
        if (f.type === 'money') return [f.name, moneyInputSchema(f.label, { allowNegative: true }).optional()];
        return [f.name, z.string().max(200).optional()];
      }),
  );

/** The list query of a collection: paging, sort, search and its exact-match filters. */
export const collectionListQuerySchemaOf = (def: CollectionDefinition) => listQuerySchema.extend(collectionFiltersOf(def));

/** The export of a collection: the list's filters plus the file format. */
export const collectionExportQuerySchemaOf = (def: CollectionDefinition) => exportQueryOf(collectionListQuerySchemaOf(def));

/** Params of a reference field's options. */
export const referenceFieldParamsSchema = z.object({ field: z.string().max(60) });

/** Options of a reference field: by text, or the given ids (at most 100). */
export const referenceOptionsQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  ids: z
    .string()
    .regex(/^\d+(,\d+)*$/, { error: messageText('catalogs.idListInvalid') })
    .transform((s) => s.split(',').slice(0, 100))
    .pipe(z.array(z.string().pipe(idTextSchema)))
    .optional(),
});
export type ReferenceOptionsQuery = z.infer<typeof referenceOptionsQuerySchema>;
export const referenceOptionListSchema = z.array(referenceOptionSchema);

/** Params of the catch-all routes that answer an unknown collection with a 404 naming it. */
export const collectionNameParamsSchema = z.object({ name: z.string() }).loose();
