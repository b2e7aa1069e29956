import { z } from 'zod';
import { cuiSchema, dateSchema, idSchema, idTextSchema, intTextSchema, isCalendarDate, nitSchema } from './fields.ts';
import {
  checkHeaders,
  type HeaderCheck,
  type ImportBatch,
  type ImportColumn,
  type ImportIssue,
  importBatchSchema,
  importIssueSchema,
} from './imports.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import { detail, keyOfText, type MessageKey, type MessageParams, msg, text, textWith } from './messages.ts';
import { type AmountOptions, centsToDecimal, MAX_MONTHLY_AMOUNT_CENTS, parseAmount } from './money.ts';
import { parseCellDate } from './parse.ts';
import { availableTransitionSchema, defineMachine, type TransitionRequest, transitionRequestSchemaFor } from './state-machine.ts';

export const contributorStates = ['ACTIVO', 'INACTIVO', 'FALLECIDO'] as const;
export const contributorStateSchema = z.enum(contributorStates);
export type ContributorState = z.infer<typeof contributorStateSchema>;

export const cuiStates = ['PENDIENTE', 'APROBADO', 'RECHAZADO'] as const;
export const cuiStateSchema = z.enum(cuiStates);
export type CuiState = z.infer<typeof cuiStateSchema>;

export const sexes = ['M', 'F'] as const;
export const sexSchema = z.enum(sexes, { error: text('contributors.sexInvalid') });

export const maritalStatuses = ['SOLTERO', 'CASADO', 'UNIDO', 'DIVORCIADO', 'VIUDO'] as const;
export const maritalStatusSchema = z.enum(maritalStatuses, { error: text('contributors.maritalStatusInvalid') });

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
/** The longest texts of the form, each with its catalogue text (a schema's message has no placeholders). */
const maxLengthTexts = {
  10: 'contributors.max10Chars',
  60: 'contributors.max60Chars',
  200: 'contributors.max200Chars',
} as const satisfies Record<number, MessageKey>;
const optionalText = (max: keyof typeof maxLengthTexts) =>
  z.preprocess(
    emptyToNull,
    z
      .string()
      .trim()
      .max(max, { error: text(maxLengthTexts[max]) })
      .nullable()
      .optional(),
  );
const name = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(60, { error: text('contributors.max60Chars') });

/** @deprecated `dateSchema` of fields.ts; kept for the forms that still import this name. */
export const isoDateSchema = dateSchema;

export function isRealDate(iso: string): boolean {
  return isCalendarDate(iso);
}

const today = () => new Date().toISOString().slice(0, 10);

/** The texts of an amount field: `required` when no amount is given, `invalid` naming parseAmount's reason. */
export interface AmountTexts {
  required: string;
  invalid: (reason: string) => string;
}

/**
 * An amount typed in a form or sent in a body (text or JSON number), parsed by THE amount parser
 * (parseAmount): `1,234.50`, `1234.5`, `Q 1,234.50` are accepted; `1.234,50`, `12,34`, `1.234`, more
 * than two decimals are refused with a message naming the field (`texts`, from the catalogue). Kept as
 * the numeric(14,2) text.
 */
export const amountSchema = (texts: AmountTexts, opts: AmountOptions = {}) =>
  z.union([z.string(), z.number()], { error: texts.required }).transform((v, ctx) => {
    const r = parseAmount(v, opts);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: texts.invalid(r.message) });
      return z.NEVER;
    }
    return centsToDecimal(r.cents);
  });

/** The salary of a contributor (form, API body and bulk upload alike). */
const salaryTexts: AmountTexts = {
  required: text('contributors.salaryRequired'),
  invalid: (reason) => textWith('contributors.salaryInvalid', { reason }),
};
export const moneyTextSchema = amountSchema(salaryTexts, { maxCents: MAX_MONTHLY_AMOUNT_CENTS });

/** Fields a person fills on the contributor form; the API and the bulk upload validate the same way. */
export const contributorInputSchema = z
  .object({
    cui: cuiSchema,
    nit: z.preprocess((v) => v ?? '', nitSchema).optional(),
    firstName: name(text('contributors.firstNameRequired')),
    secondName: optionalText(60),
    thirdName: optionalText(60),
    firstSurname: name(text('contributors.firstSurnameRequired')),
    secondSurname: optionalText(60),
    marriedSurname: optionalText(60),
    birthDate: isoDateSchema.refine((v) => v <= today(), { error: text('contributors.birthDateFuture') }),
    sex: sexSchema,
    maritalStatus: z.preprocess(emptyToNull, maritalStatusSchema.nullable().optional()),
    address: optionalText(200),
    municipalityId: idSchema.nullable().optional(),
    phone: z.preprocess(
      emptyToNull,
      z
        .string()
        .trim()
        .regex(/^\+?[\d\s-]{8,20}$/, { error: text('contributors.phoneInvalid') })
        .nullable()
        .optional(),
    ),
    email: z.preprocess(
      emptyToNull,
      z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.email({ error: text('contributors.emailInvalid') }))
        .nullable()
        .optional(),
    ),
    typeId: z.number({ error: text('contributors.typeRequired') }).pipe(idSchema),
    state: contributorStateSchema.default('ACTIVO'),
    entityId: idSchema.nullable().optional(),
    budgetLineCode: optionalText(10),
    hireDate: z.preprocess(emptyToNull, isoDateSchema.nullable().optional()),
    salary: z.preprocess(emptyToNull, moneyTextSchema.nullable().optional()),
  })
  .superRefine((v, ctx) => {
    if (v.hireDate && v.birthDate && v.hireDate < v.birthDate) {
      ctx.addIssue({ code: 'custom', path: ['hireDate'], message: text('contributors.hireBeforeBirth') });
    }
  });
export type ContributorInput = z.input<typeof contributorInputSchema>;
export type ContributorData = z.output<typeof contributorInputSchema>;

/** An update changes any field; a new CUI goes to approval instead of being applied at once. */
export const contributorUpdateSchema = z.object({
  ...contributorInputSchema.shape,
  cui: cuiSchema.optional(),
});

export const contributorSchema = z.object({
  id: z.number().int(),
  cui: z.string(),
  nit: z.string().nullable(),
  firstName: z.string(),
  secondName: z.string().nullable(),
  thirdName: z.string().nullable(),
  firstSurname: z.string(),
  secondSurname: z.string().nullable(),
  marriedSurname: z.string().nullable(),
  fullName: z.string(),
  birthDate: z.string(),
  sex: z.string(),
  maritalStatus: z.string().nullable(),
  address: z.string().nullable(),
  municipalityId: z.number().int().nullable(),
  municipalityName: z.string().nullable(),
  departmentName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  typeId: z.number().int(),
  typeName: z.string(),
  state: contributorStateSchema,
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  budgetLineCode: z.string().nullable(),
  hireDate: z.string().nullable(),
  salary: z.string().nullable(),
  cuiState: cuiStateSchema,
  renapCheckedAt: z.string().nullable(),
  renapResult: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Contributor = z.infer<typeof contributorSchema>;

export const contributorListQuerySchema = listQuerySchema.extend({
  entityId: idTextSchema.optional(),
  municipalityId: idTextSchema.optional(),
  departmentId: idTextSchema.optional(),
  typeId: idTextSchema.optional(),
  state: contributorStateSchema.optional(),
  cuiState: cuiStateSchema.optional(),
});
export type ContributorListQuery = z.infer<typeof contributorListQuerySchema>;

/** The export of contributors: the list's filters plus the file format. */
export const contributorExportQuerySchema = exportQueryOf(contributorListQuerySchema);
export type ContributorExportQuery = z.infer<typeof contributorExportQuerySchema>;

/** What saving a contributor answers: the record, RENAP's warnings and the CUI request it opened. */
export const contributorSaveResponseSchema = z.object({
  contributor: contributorSchema,
  warnings: z.array(z.string()),
  approvalRequestId: z.number().int().nullable().optional(),
});
export type ContributorSaveResponse = z.infer<typeof contributorSaveResponseSchema>;

/** The choices of the contributor form and filters. */
export const contributorOptionsSchema = z.object({
  types: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string(), isActive: z.boolean() })),
  entities: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string() })),
  municipalities: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      name: z.string(),
      departmentName: z.string(),
      departmentId: z.number().int(),
    }),
  ),
  budgetLines: z.array(z.object({ code: z.string(), name: z.string() })),
});
export type ContributorOptions = z.infer<typeof contributorOptionsSchema>;

/** The command palette's quick search. */
export const contributorSearchQuerySchema = z.object({ q: z.string().trim().min(2).max(100) });
export const contributorSearchResultSchema = z.array(
  z.object({
    id: z.number().int(),
    cui: z.string(),
    fullName: z.string(),
    entityName: z.string().nullable(),
    state: z.string(),
  }),
);
export type ContributorSearchResult = z.infer<typeof contributorSearchResultSchema>;

const keyCountSchema = z.object({ key: z.string(), total: z.number().int() });

/** The contributors overview: counts by state and type, pending CUI approvals, latest changes. */
export const contributorOverviewSchema = z.object({
  total: z.number().int(),
  byState: z.array(keyCountSchema),
  byType: z.array(keyCountSchema),
  pendingApprovals: z.number().int(),
  recent: z.array(contributorSchema),
});
export type ContributorOverview = z.infer<typeof contributorOverviewSchema>;

/** One row of a contributor report (a group, or the totals): counts by state and the salaries' exact sum. */
export const contributorReportRowSchema = z.object({
  key: z.string(),
  label: z.string(),
  group: z.string().nullable(),
  ACTIVO: z.number().int(),
  INACTIVO: z.number().int(),
  FALLECIDO: z.number().int(),
  total: z.number().int(),
  salaryTotal: z.string(),
});
export type ContributorReportRow = z.infer<typeof contributorReportRowSchema>;
export const contributorReportSchema = z.object({
  kind: z.string(),
  title: z.string(),
  items: z.array(contributorReportRowSchema),
  totals: contributorReportRowSchema,
});
export type ContributorReport = z.infer<typeof contributorReportSchema>;

/** A page of a contributor's change history. */
export const contributorHistoryQuerySchema = z.object({
  page: intTextSchema({ min: 1 }).default(1),
  pageSize: intTextSchema({ min: 1, max: 100 }).default(20),
});
export type ContributorHistoryQuery = z.infer<typeof contributorHistoryQuerySchema>;
export const contributorHistoryEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  changes: z.array(z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
});
export type ContributorHistoryEntry = z.infer<typeof contributorHistoryEntrySchema>;

/** Full name in the Guatemalan order: names, surnames, "de" married surname. */
export function contributorFullName(c: {
  firstName: string;
  secondName?: string | null;
  thirdName?: string | null;
  firstSurname: string;
  secondSurname?: string | null;
  marriedSurname?: string | null;
}): string {
  const parts = [c.firstName, c.secondName, c.thirdName, c.firstSurname, c.secondSurname];
  if (c.marriedSurname) parts.push(`de ${c.marriedSurname}`);
  return parts
    .filter((p) => p?.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Upper case without accents or repeated spaces: how names are compared and searched. */
export const foldName = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();

/** Names and surnames (married surname included) folded: the text the trigram name search runs on. */
export const contributorSearchName = (c: {
  firstName: string;
  secondName?: string | null;
  thirdName?: string | null;
  firstSurname: string;
  secondSurname?: string | null;
  marriedSurname?: string | null;
}): string =>
  foldName([c.firstName, c.secondName, c.thirdName, c.firstSurname, c.secondSurname, c.marriedSurname].filter(Boolean).join(' '));

// ---------------------------------------------------------------------------------------------------
// RENAP

export const renapPersonSchema = z.object({
  cui: z.string(),
  firstName: z.string(),
  secondName: z.string().nullable(),
  thirdName: z.string().nullable(),
  firstSurname: z.string(),
  secondSurname: z.string().nullable(),
  marriedSurname: z.string().nullable(),
  birthDate: z.string(),
  sex: z.string(),
  deathDate: z.string().nullable(),
});
export type RenapPerson = z.infer<typeof renapPersonSchema>;

export const renapResults = ['ENCONTRADO', 'NO_ENCONTRADO', 'TIEMPO_AGOTADO', 'NO_DISPONIBLE'] as const;
export const renapResultSchema = z.enum(renapResults);
export type RenapResult = z.infer<typeof renapResultSchema>;

export const renapLookupResponseSchema = z.object({
  cui: z.string(),
  result: renapResultSchema,
  person: renapPersonSchema.nullable(),
  /** Spanish warning when the registry did not answer; saving is still allowed. */
  warning: z.string().nullable(),
  contributor: z.object({ id: z.number().int(), fullName: z.string(), cuiState: cuiStateSchema }).nullable(),
});
export type RenapLookupResponse = z.infer<typeof renapLookupResponseSchema>;

/** RENAP's answer for the contributor form, with the municipality the CUI was registered in (to prefill). */
export const contributorRenapLookupSchema = renapLookupResponseSchema.extend({ municipalityId: z.number().int().nullable() });
export type ContributorRenapLookup = z.infer<typeof contributorRenapLookupSchema>;

export const renapComparedFields = [
  'firstName',
  'secondName',
  'thirdName',
  'firstSurname',
  'secondSurname',
  'birthDate',
  'sex',
] as const;
export type RenapComparedField = (typeof renapComparedFields)[number];

const fold = (s: string | null | undefined) =>
  (s ?? '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .toUpperCase();

/** Fields where the contributor differs from RENAP (accents and case ignored). */
export function compareWithRenap(
  c: Partial<Record<RenapComparedField, string | null | undefined>>,
  p: RenapPerson,
): RenapComparedField[] {
  return renapComparedFields.filter((f) => fold(c[f]) !== fold(p[f]));
}

// ---------------------------------------------------------------------------------------------------
// CUI approval (maker-checker)

export const cuiRequestKinds = ['ALTA', 'CAMBIO'] as const;
export const cuiRequestKindSchema = z.enum(cuiRequestKinds);

export const cuiApprovalSchema = z.object({
  id: z.number().int(),
  contributorId: z.number().int(),
  contributorName: z.string(),
  kind: cuiRequestKindSchema,
  currentCui: z.string().nullable(),
  proposedCui: z.string(),
  state: cuiStateSchema,
  requestedById: z.number().int().nullable(),
  requestedByEmail: z.string().nullable(),
  requestedAt: z.string(),
  decidedById: z.number().int().nullable(),
  decidedByEmail: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
  /** What the current user may do with it now (empty once decided, or for its requester). */
  transitions: z.array(availableTransitionSchema),
});
export type CuiApproval = z.infer<typeof cuiApprovalSchema>;

/** A CUI request beside what RENAP says of the proposed CUI, for the person who decides it. */
export const cuiReviewSchema = z.object({
  request: cuiApprovalSchema,
  renap: z.object({ result: renapResultSchema, person: renapPersonSchema.nullable(), warning: z.string().nullable() }),
});
export type CuiReview = z.infer<typeof cuiReviewSchema>;

export const cuiApprovalListQuerySchema = listQuerySchema.extend({
  state: cuiStateSchema.optional(),
  contributorId: idTextSchema.optional(),
});

/**
 * The lifecycle of a CUI request: a second person approves or rejects it (maker-checker, never the
 * requester); a rejection says why. Both outcomes are final: a new CUI needs a new request.
 */
export const cuiApprovalMachine = defineMachine({
  entityType: 'cui_approval_request',
  label: 'La solicitud de CUI',
  states: cuiStates,
  stateLabels: { PENDIENTE: 'Pendiente', APROBADO: 'Aprobado', RECHAZADO: 'Rechazado' },
  initial: 'PENDIENTE',
  makerMessage: text('contributors.cuiOwnRequest'),
  transitions: [
    {
      key: 'CUI_APPROVE',
      from: 'PENDIENTE',
      to: 'APROBADO',
      label: 'Aprobar',
      permission: { resource: 'cui-approval', action: 'APPROVE' },
      commentRequired: false,
      notByMaker: true,
    },
    {
      key: 'CUI_REJECT',
      from: 'PENDIENTE',
      to: 'RECHAZADO',
      label: 'Rechazar',
      permission: { resource: 'cui-approval', action: 'APPROVE' },
      commentRequired: true,
      notByMaker: true,
    },
  ],
});

/** Approve or reject a CUI request: `{ to: 'APROBADO' | 'RECHAZADO', comment, expected }`. */
export const cuiDecisionSchema = transitionRequestSchemaFor(cuiApprovalMachine);
export type CuiDecision = TransitionRequest<CuiState>;

// ---------------------------------------------------------------------------------------------------
// Bulk upload

/** Columns of the bulk-upload template, in order; headers are matched ignoring case and accents. */
export const importColumns = [
  { key: 'cui', header: 'CUI', required: true },
  { key: 'nit', header: 'NIT', required: false },
  { key: 'firstName', header: 'PRIMER_NOMBRE', required: true },
  { key: 'secondName', header: 'SEGUNDO_NOMBRE', required: false },
  { key: 'thirdName', header: 'TERCER_NOMBRE', required: false },
  { key: 'firstSurname', header: 'PRIMER_APELLIDO', required: true },
  { key: 'secondSurname', header: 'SEGUNDO_APELLIDO', required: false },
  { key: 'marriedSurname', header: 'APELLIDO_CASADA', required: false },
  { key: 'birthDate', header: 'FECHA_NACIMIENTO', required: true },
  { key: 'sex', header: 'SEXO', required: true },
  { key: 'maritalStatus', header: 'ESTADO_CIVIL', required: false },
  { key: 'address', header: 'DIRECCION', required: false },
  { key: 'municipality', header: 'MUNICIPIO', required: false },
  { key: 'phone', header: 'TELEFONO', required: false },
  { key: 'email', header: 'CORREO', required: false },
  { key: 'type', header: 'TIPO', required: true },
  { key: 'state', header: 'ESTADO', required: false },
  { key: 'entity', header: 'ENTIDAD', required: false },
  { key: 'budgetLine', header: 'RENGLON', required: false },
  { key: 'hireDate', header: 'FECHA_INGRESO', required: false },
  { key: 'salary', header: 'SALARIO', required: false },
] as const satisfies readonly ImportColumn[];
export type ImportColumnKey = (typeof importColumns)[number]['key'];
export type ImportRawRow = Partial<Record<ImportColumnKey, string>>;

/** Which template columns a header row lacks and which it has that the template does not. */
export const checkImportHeaders = (headers: string[]): HeaderCheck<ImportColumnKey> => checkHeaders(importColumns, headers);

/** Catalogue lookups a row is checked against (codes as written in the file → ids). */
export interface ImportCatalogues {
  municipalities: ReadonlyMap<string, number>;
  types: ReadonlyMap<string, number>;
  entities: ReadonlyMap<string, number>;
  budgetLines: ReadonlySet<string>;
  /** When set, only these entity ids may be written (the uploader's data scope). */
  allowedEntityIds?: ReadonlySet<number> | null;
}

/** A problem in one row of a bulk upload (the pipeline's issue: column, cell, message). */
export type ImportRowError = ImportIssue;

export type ImportRowResult = { ok: true; data: ContributorData } | { ok: false; errors: ImportRowError[] };

const headerOf = Object.fromEntries(importColumns.map((c) => [c.key, c.header])) as Record<ImportColumnKey, string>;
const zodPathToColumn: Record<string, ImportColumnKey> = {
  municipalityId: 'municipality',
  typeId: 'type',
  entityId: 'entity',
  budgetLineCode: 'budgetLine',
};

/**
 * Validates one row of a bulk upload with the same schema as the form; catalogue codes are resolved
 * to ids. Every problem is reported with the template column it belongs to.
 */
export function validateImportRow(
  raw: ImportRawRow,
  cat: ImportCatalogues,
  /** Columns whose cell was a number cell (not text): an amount there is that number, not text to read. */
  numberCells: ReadonlySet<ImportColumnKey> = new Set(),
): ImportRowResult {
  const errors: ImportRowError[] = [];
  // A problem: its Spanish text and, when it has them, its key and parameters (messages.ts).
  const err = (key: ImportColumnKey, said: { message: string; key?: string; params?: MessageParams }) =>
    errors.push({
      column: headerOf[key],
      message: said.message,
      ...(said.key ? { key: said.key } : {}),
      ...(said.params ? { params: said.params } : {}),
    });
  const val = (key: ImportColumnKey) => raw[key]?.trim() ?? '';

  // A date cell reaches here as text: a real Excel date cell as its ISO day (the reader's job), anything
  // else as typed. A bare number (`1980`, a serial) is refused, never read as a date.
  const date = (key: ImportColumnKey, label: string): string | null | undefined => {
    const v = val(key);
    if (!v) return undefined;
    const r = parseCellDate(v, label);
    if (!r.ok) err(key, r);
    return r.ok ? r.iso : null;
  };
  const code = (
    key: ImportColumnKey,
    map: ReadonlyMap<string, number>,
    unknown: 'contributors.municipalityNotInCatalogue' | 'contributors.typeNotInCatalogue' | 'contributors.entityNotInCatalogue',
  ): number | null | undefined => {
    const v = val(key);
    if (!v) return undefined;
    const id = map.get(v.toUpperCase()) ?? map.get(v);
    if (id === undefined) err(key, detail(msg(unknown, { code: v })));
    return id ?? null;
  };

  const cuiText = val('cui');
  if (/e\+?\d+$/i.test(cuiText)) err('cui', detail(msg('contributors.cuiScientificNotation')));
  const municipality = code('municipality', cat.municipalities, 'contributors.municipalityNotInCatalogue');
  const typeId = code('type', cat.types, 'contributors.typeNotInCatalogue');
  const entityId = code('entity', cat.entities, 'contributors.entityNotInCatalogue');
  if (entityId && cat.allowedEntityIds && !cat.allowedEntityIds.has(entityId)) {
    err('entity', detail(msg('contributors.entityNoAccess')));
  }
  const budgetLine = val('budgetLine');
  if (budgetLine && !cat.budgetLines.has(budgetLine)) {
    err('budgetLine', detail(msg('contributors.budgetLineNotInCatalogue', { code: budgetLine })));
  }
  const birthDate = date('birthDate', 'Fecha de nacimiento');
  const hireDate = date('hireDate', 'Fecha de ingreso');
  const salaryText = val('salary');
  if (salaryText) {
    const r = parseAmount(numberCells.has('salary') ? Number(salaryText) : salaryText);
    if (!r.ok) err('salary', detail(msg('contributors.salaryInvalid', { reason: r.message })));
  }
  const sexText = val('sex').toUpperCase();
  const sex =
    sexText === 'MASCULINO' || sexText === 'HOMBRE' ? 'M' : sexText === 'FEMENINO' || sexText === 'MUJER' ? 'F' : sexText;

  const candidate = {
    cui: cuiText,
    nit: val('nit'),
    firstName: val('firstName'),
    secondName: val('secondName'),
    thirdName: val('thirdName'),
    firstSurname: val('firstSurname'),
    secondSurname: val('secondSurname'),
    marriedSurname: val('marriedSurname'),
    birthDate: birthDate ?? (val('birthDate') ? '0000-00-00' : ''),
    sex,
    maritalStatus: val('maritalStatus').toUpperCase(),
    address: val('address'),
    municipalityId: municipality ?? null,
    phone: val('phone'),
    email: val('email'),
    typeId: typeId ?? (val('type') ? -1 : undefined),
    state: val('state') ? val('state').toUpperCase() : undefined,
    entityId: entityId ?? null,
    budgetLineCode: budgetLine,
    hireDate: hireDate ?? '',
    salary: salaryText ? salaryText : '',
  };
  const parsed = contributorInputSchema.safeParse(candidate);
  if (!parsed.success) {
    const already = new Set(errors.map((e) => e.column));
    for (const issue of parsed.error.issues) {
      const path = String(issue.path[0] ?? 'cui');
      const key = (zodPathToColumn[path] ?? path) as ImportColumnKey;
      const column = headerOf[key] ?? path;
      if (already.has(column)) continue;
      already.add(column);
      const message =
        key === 'birthDate' && !val('birthDate')
          ? text('contributors.birthDateMissing')
          : key === 'type' && !val('type')
            ? text('contributors.typeMissing')
            : issue.message;
      // A catalogue text carries its key; zod's own texts have none.
      const messageKey = keyOfText(message);
      errors.push({ column, message, ...(messageKey ? { key: messageKey } : {}) });
    }
  }
  if (errors.length || !parsed.success) return { ok: false, errors };
  return { ok: true, data: parsed.data };
}

/** A contributors bulk upload: an import batch of kind `contributors`. */
export const contributorImportSchema = importBatchSchema;
export type ContributorImport = ImportBatch;
/** GET /api/contributor-imports: the user's own unfinished uploads, newest first. */
export const contributorImportListSchema = z.array(contributorImportSchema);

export const importRowSchema = z.object({
  rowNumber: z.number().int(),
  cui: z.string(),
  name: z.string(),
  errors: z.array(importIssueSchema),
  warnings: z.array(importIssueSchema),
});
export type ImportRow = z.infer<typeof importRowSchema>;

export const importRowsQuerySchema = listQuerySchema.extend({ kind: z.enum(['valid', 'error']).default('error') });
