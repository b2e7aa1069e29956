import { z } from 'zod';
import { type CuiProblem, cuiProblem, normalizeCui } from './cui.ts';
import { dateSchema, idSchema, idTextSchema, intTextSchema, isCalendarDate, textSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import { detail, type Message, type MessageKey, msg, text } from './messages.ts';
import { centsToDecimal, parseAmount } from './money.ts';

/**
 * Workflow and forms (issue 17): forms designed in the builder, stored as JSON Schema plus a UI schema;
 * flows of states and transitions by role; requests (SIG items) that carry a form's data through a flow.
 * Everything here is pure: the API validates the same definitions (ajv for the data, these rules for the
 * definitions) and the web app uses them to show the problems before saving.
 */

// ─── Form builder: the field model ─────────────────────────────────────────────────────────────────

export const formFieldTypes = [
  'text',
  'textarea',
  'number',
  'money',
  'date',
  'select',
  'cui',
  'entity',
  'file',
  'table',
  'section',
] as const;
export type FormFieldType = (typeof formFieldTypes)[number];

export const formFieldTypeLabels: Record<FormFieldType, string> = {
  text: 'Texto',
  textarea: 'Texto largo',
  number: 'Número',
  money: 'Monto (Q)',
  date: 'Fecha',
  select: 'Lista de opciones',
  cui: 'CUI',
  entity: 'Entidad municipal',
  file: 'Archivo adjunto',
  table: 'Tabla de filas',
  section: 'Sección (título)',
};

/** Catalogues a select may take its options from (reference data every signed-in user may read). */
export const formCatalogs = ['departments', 'regions', 'budget-lines', 'classifications'] as const;
export type FormCatalog = (typeof formCatalogs)[number];
export const formCatalogLabels: Record<FormCatalog, string> = {
  departments: 'Departamentos',
  regions: 'Regiones',
  'budget-lines': 'Renglones presupuestarios',
  classifications: 'Clasificaciones de entidad',
};

const FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/;
export const FORM_MAX_FIELDS = 200;

const scalar = z.union([z.string().max(200), z.number(), z.boolean()]);
const optionSchema = z.strictObject({
  value: z
    .string()
    .trim()
    .min(1, { error: text('workflow.optionValueRequired') })
    .max(100),
  label: z
    .string()
    .trim()
    .min(1, { error: text('workflow.optionLabelRequired') })
    .max(200),
});

const baseField = {
  name: z.string().regex(FIELD_NAME, { error: text('workflow.fieldNameInvalid') }),
  label: z
    .string()
    .trim()
    .min(1, { error: text('workflow.fieldLabelRequired') })
    .max(200),
  type: z.enum(formFieldTypes, { error: text('workflow.fieldTypeUnknown') }),
  required: z.boolean().optional(),
  help: z.string().max(500).optional(),
  minLength: z.number().int().min(0).max(10_000).optional(),
  maxLength: z.number().int().min(1).max(10_000).optional(),
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  pattern: z.string().max(300).optional(),
  options: z.array(optionSchema).max(500).optional(),
  catalog: z.enum(formCatalogs).optional(),
  minRows: z.number().int().min(0).max(1000).optional(),
  maxRows: z.number().int().min(1).max(1000).optional(),
  visibleIf: z.strictObject({ field: z.string().max(40), equals: scalar }).optional(),
};

export type FormField = {
  name: string;
  label: string;
  type: FormFieldType;
  required?: boolean;
  help?: string;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  pattern?: string;
  options?: { value: string; label: string }[];
  catalog?: FormCatalog;
  minRows?: number;
  maxRows?: number;
  visibleIf?: { field: string; equals: string | number | boolean };
  columns?: FormField[];
};

const columnSchema = z.strictObject(baseField);
export const formFieldSchema: z.ZodType<FormField> = z.strictObject({
  ...baseField,
  columns: z.array(columnSchema).max(30).optional(),
}) as unknown as z.ZodType<FormField>;

/**
 * A problem of a definition: the part it is about (`fields.0.name`, `transitions.2.to`) and why, as a
 * keyed message (messages.ts: `message` the Spanish text, `key` and `params` for the user's language).
 */
export type DefinitionProblem = { path: string; message: string; key: string; params?: Record<string, string | number> };

const problem = (path: string, m: Message): DefinitionProblem => ({ path, ...detail(m) });

/** The type a table column may not take, and the text that says so. */
const notAColumn: Partial<Record<FormFieldType, 'columnCannotBeTable' | 'columnCannotBeSection' | 'columnCannotBeFile'>> = {
  table: 'columnCannotBeTable',
  section: 'columnCannotBeSection',
  file: 'columnCannotBeFile',
};

/** Problems of a field list, each naming the field (keyed messages); empty when the form can be saved. */
export function formFieldsProblems(fields: readonly FormField[]): DefinitionProblem[] {
  const out: DefinitionProblem[] = [];
  if (!fields.some((f) => f.type !== 'section')) out.push(problem('fields', msg('workflow.formNeedsField')));
  // The text names FORM_MAX_FIELDS (200).
  if (fields.length > FORM_MAX_FIELDS) out.push(problem('fields', msg('workflow.formTooManyFields')));
  const check = (list: readonly FormField[], prefix: string, inTable: boolean) => {
    const seen = new Set<string>();
    list.forEach((f, i) => {
      const path = `${prefix}${i}`;
      const field = f.label || f.name;
      if (seen.has(f.name)) out.push(problem(`${path}.name`, msg('workflow.fieldNameRepeated', { name: f.name })));
      seen.add(f.name);
      const notColumn = inTable ? notAColumn[f.type] : undefined;
      if (notColumn) out.push(problem(`${path}.type`, msg(`workflow.${notColumn}`, { field })));
      if (f.min != null && f.max != null && f.min > f.max)
        out.push(problem(`${path}.max`, msg('workflow.fieldMaxBelowMin', { field })));
      if (f.minLength != null && f.maxLength != null && f.minLength > f.maxLength) {
        out.push(problem(`${path}.maxLength`, msg('workflow.fieldMaxLengthBelowMin', { field })));
      }
      if (f.minRows != null && f.maxRows != null && f.minRows > f.maxRows) {
        out.push(problem(`${path}.maxRows`, msg('workflow.fieldMaxRowsBelowMin', { field })));
      }
      if (f.pattern) {
        try {
          new RegExp(f.pattern, 'u');
        } catch {
          out.push(problem(`${path}.pattern`, msg('workflow.fieldPatternInvalid', { field })));
        }
      }
      if (f.type === 'select') {
        if (!f.catalog && !f.options?.length) out.push(problem(`${path}.options`, msg('workflow.selectNeedsOptions', { field })));
        const values = (f.options ?? []).map((o) => o.value);
        if (new Set(values).size !== values.length)
          out.push(problem(`${path}.options`, msg('workflow.selectOptionsRepeated', { field })));
      }
      if (f.type === 'table') {
        if (!f.columns?.length) out.push(problem(`${path}.columns`, msg('workflow.tableNeedsColumn', { field })));
        else check(f.columns, `${path}.columns.`, true);
      }
      if (f.visibleIf) {
        const earlier = list.slice(0, i).find((o) => o.name === f.visibleIf?.field && o.type !== 'section');
        if (!earlier) {
          out.push(problem(`${path}.visibleIf`, msg('workflow.visibleIfNotEarlier', { field, other: f.visibleIf.field })));
        }
      }
    });
  };
  check(fields, 'fields.', false);
  return out;
}

type Json = Record<string, unknown>;

function fieldSchema(f: FormField): Json {
  const base: Json = { title: f.label, ...(f.help ? { description: f.help } : {}) };
  switch (f.type) {
    case 'text':
    case 'textarea':
      return {
        ...base,
        type: 'string',
        ...(f.minLength != null ? { minLength: f.minLength } : f.required ? { minLength: 1 } : {}),
        maxLength: f.maxLength ?? (f.type === 'text' ? 200 : 4000),
        ...(f.pattern ? { pattern: f.pattern } : {}),
      };
    case 'number':
      return {
        ...base,
        type: 'number',
        ...(f.min != null ? { minimum: f.min } : {}),
        ...(f.max != null ? { maximum: f.max } : {}),
      };
    case 'money':
      return { ...base, type: 'string', format: 'money' };
    case 'date':
      return { ...base, type: 'string', format: 'date' };
    case 'cui':
      return { ...base, type: 'string', format: 'cui' };
    case 'select':
      return f.options?.length
        ? { ...base, type: 'string', oneOf: f.options.map((o) => ({ const: o.value, title: o.label })) }
        : { ...base, type: 'string', minLength: 1, maxLength: 100 };
    case 'entity':
    case 'file':
      return { ...base, type: 'integer', minimum: 1, maximum: 2_147_483_647 };
    case 'table': {
      const cols = f.columns ?? [];
      return {
        ...base,
        type: 'array',
        items: {
          type: 'object',
          properties: Object.fromEntries(cols.map((c) => [c.name, fieldSchema(c)])),
          required: cols.filter((c) => c.required).map((c) => c.name),
          additionalProperties: false,
        },
        ...(f.minRows != null ? { minItems: f.minRows } : f.required ? { minItems: 1 } : {}),
        maxItems: f.maxRows ?? 200,
      };
    }
    case 'section':
      return base;
  }
}

function fieldUi(f: FormField): Json {
  const ui: Json = {};
  const options: Json = {};
  if (f.type === 'textarea') ui['ui:widget'] = 'textarea';
  if (['money', 'cui', 'entity', 'file', 'date'].includes(f.type)) ui['ui:widget'] = f.type;
  if (f.type === 'select') {
    ui['ui:widget'] = f.catalog ? 'catalog' : 'select';
    if (f.catalog) options.catalog = f.catalog;
  }
  if (f.visibleIf) options.visibleIf = f.visibleIf;
  if (f.type === 'table') {
    ui.items = Object.fromEntries((f.columns ?? []).map((c) => [c.name, fieldUi(c)]));
    options.orderable = false;
  }
  if (Object.keys(options).length) ui['ui:options'] = options;
  return ui;
}

/** A form as stored: JSON Schema (draft-07) for the data, a UI schema for the renderer. */
export interface CompiledForm {
  schema: Json;
  uiSchema: Json;
}

/**
 * Compiles the builder's fields into JSON Schema and a UI schema. Sections exist only in the UI schema
 * (`ui:options.sections`: a title before a field); a field with `visibleIf` is required only while its
 * condition holds (`if`/`then`), and its value is dropped when hidden (`pruneHidden`).
 */
export function compileForm(title: string, fields: readonly FormField[]): CompiledForm {
  const data = fields.filter((f) => f.type !== 'section');
  const sections: { before: string | null; title: string }[] = [];
  fields.forEach((f, i) => {
    if (f.type !== 'section') return;
    const next = fields.slice(i + 1).find((o) => o.type !== 'section');
    sections.push({ before: next?.name ?? null, title: f.label });
  });
  const conditional = data.filter((f) => f.required && f.visibleIf);
  const schema: Json = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    title,
    properties: Object.fromEntries(data.map((f) => [f.name, fieldSchema(f)])),
    required: data.filter((f) => f.required && !f.visibleIf).map((f) => f.name),
    additionalProperties: false,
    ...(conditional.length
      ? {
          allOf: conditional.map((f) => ({
            if: { properties: { [f.visibleIf!.field]: { const: f.visibleIf!.equals } }, required: [f.visibleIf!.field] },
            // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword (if/then).
            then: { required: [f.name] },
          })),
        }
      : {}),
  };
  const uiSchema: Json = {
    'ui:order': data.map((f) => f.name),
    ...Object.fromEntries(data.map((f) => [f.name, fieldUi(f)]).filter(([, ui]) => Object.keys(ui as Json).length)),
    ...(sections.length ? { 'ui:options': { sections } } : {}),
  };
  return { schema, uiSchema };
}

/** Whether a field's visibility condition holds on `data`. */
export const isVisible = (f: Pick<FormField, 'visibleIf'>, data: Record<string, unknown>) =>
  !f.visibleIf || data[f.visibleIf.field] === f.visibleIf.equals;

/** The data without values of hidden fields, empty strings and nulls (what is validated and stored). */
export function pruneHidden(fields: readonly FormField[] | null, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (v !== '' && v !== null && v !== undefined) out[k] = v;
  if (!fields) return out;
  for (const f of fields) if (f.type !== 'section' && !isVisible(f, out)) delete out[f.name];
  return out;
}

/** Custom JSON Schema formats, shared by the browser's and the server's ajv. */
export const formFormats = {
  money: (v: string) => parseAmount(v).ok,
  date: (v: string) => isCalendarDate(v),
  cui: (v: string) => cuiProblem(normalizeCui(v)) === null,
};

/** The text of each CUI problem after a field's title (cui.ts's problems). */
const cuiFieldKeys: Record<CuiProblem, Extract<MessageKey, `workflow.fieldCui${string}`>> = {
  EMPTY: 'workflow.fieldCuiEmpty',
  FORMAT: 'workflow.fieldCuiFormat',
  LENGTH: 'workflow.fieldCuiLength',
  CHECK_DIGIT: 'workflow.fieldCuiCheckDigit',
  DEPARTMENT: 'workflow.fieldCuiDepartment',
  MUNICIPALITY: 'workflow.fieldCuiMunicipality',
};

/** The message (keyed, messages.ts) for one ajv error, naming the field by its title. */
export function formError(
  e: { keyword: string; params: Record<string, unknown>; message?: string },
  label: string,
  value?: unknown,
): Message {
  const p = e.params;
  const limit = String(p.limit);
  switch (e.keyword) {
    case 'required':
      return msg('workflow.fieldRequired', { label });
    case 'type':
      return msg('workflow.fieldWrongType', { label, type: String(p.type) });
    case 'minLength':
      return msg('workflow.textMinLength', { label, limit });
    case 'maxLength':
      return msg('workflow.textMaxLength', { label, limit });
    case 'minimum':
      return msg('workflow.fieldMinimum', { label, limit });
    case 'maximum':
      return msg('workflow.fieldMaximum', { label, limit });
    case 'pattern':
      return msg('workflow.fieldPattern', { label });
    case 'minItems':
      return msg('workflow.fieldMinRows', { label, limit });
    case 'maxItems':
      return msg('workflow.fieldMaxRows', { label, limit });
    case 'oneOf':
    case 'const':
    case 'enum':
      return msg('workflow.fieldChooseOption', { label });
    case 'additionalProperties':
      return msg('workflow.fieldNotInForm', { field: String(p.additionalProperty) });
    case 'format':
      if (p.format === 'money') {
        const r = typeof value === 'string' ? parseAmount(value) : null;
        return r && !r.ok
          ? msg('workflow.fieldProblem', { label, problem: r.message })
          : msg('workflow.fieldMoneyInvalid', { label });
      }
      if (p.format === 'cui') {
        const pr = typeof value === 'string' ? cuiProblem(normalizeCui(value)) : 'FORMAT';
        return pr ? msg(cuiFieldKeys[pr], { label }) : msg('workflow.fieldCuiInvalid', { label });
      }
      if (p.format === 'date') return msg('workflow.fieldDateInvalid', { label });
      return msg('workflow.fieldFormatInvalid', { label });
    default:
      return e.message
        ? msg('workflow.fieldProblem', { label, problem: e.message })
        : msg('workflow.fieldValueInvalid', { label });
  }
}

/** The Spanish text for one ajv error, naming the field by its title (`formError`'s text). */
export const formErrorMessage = (
  e: { keyword: string; params: Record<string, unknown>; message?: string },
  label: string,
  value?: unknown,
): string => formError(e, label, value).text;

/** The money values of a form's data in their normal decimal form (`1,234.5` → `1234.50`). */
export function normaliseMoney(fields: readonly FormField[] | null, data: Record<string, unknown>): Record<string, unknown> {
  if (!fields) return data;
  const out = { ...data };
  const fix = (list: readonly FormField[], obj: Record<string, unknown>) => {
    for (const f of list) {
      const v = obj[f.name];
      if (f.type === 'money' && typeof v === 'string') {
        const r = parseAmount(v);
        if (r.ok) obj[f.name] = centsToDecimal(r.cents);
      }
      if (f.type === 'cui' && typeof v === 'string') obj[f.name] = normalizeCui(v);
      if (f.type === 'table' && Array.isArray(v)) {
        obj[f.name] = v.map((row) => {
          const copy = { ...(row as Record<string, unknown>) };
          fix(f.columns ?? [], copy);
          return copy;
        });
      }
    }
  };
  fix(fields, out);
  return out;
}

// ─── Forms library ────────────────────────────────────────────────────────────────────────────────

export const FORM_DEFINITION_FORMAT = 'aporta-formulario';

/** What the builder exports and imports (a JSON file): the fields plus the compiled schemas, for reading. */
export const formDefinitionSchema = z.object({
  format: z.literal(FORM_DEFINITION_FORMAT, {
    // The text names FORM_DEFINITION_FORMAT.
    error: text('workflow.definitionFormatInvalid'),
  }),
  title: z
    .string()
    .trim()
    .min(1, { error: text('workflow.definitionTitleMissing') })
    .max(200),
  description: z.string().max(1000).optional(),
  fields: z.array(formFieldSchema).max(FORM_MAX_FIELDS),
  schema: z.record(z.string(), z.unknown()).optional(),
  uiSchema: z.record(z.string(), z.unknown()).optional(),
});
export type FormDefinition = z.infer<typeof formDefinitionSchema>;

export const formVersionStates = ['BORRADOR', 'PUBLICADA', 'RETIRADA'] as const;
export type FormVersionState = (typeof formVersionStates)[number];
export const formVersionStateLabels: Record<FormVersionState, string> = {
  BORRADOR: 'Borrador',
  PUBLICADA: 'Publicada',
  RETIRADA: 'Retirada',
};

/**
 * Saving a form: either the builder's fields (compiled on the server) or a JSON Schema written elsewhere
 * (`schema` + `uiSchema`), which the server checks against the JSON Schema meta-schema.
 */
export const formSaveSchema = z
  .strictObject({
    title: textSchema({ label: 'Título', max: 200, min: 1 }),
    description: textSchema({ label: 'Descripción', max: 1000, multiline: true }).optional(),
    fields: z.array(formFieldSchema).max(FORM_MAX_FIELDS).optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    uiSchema: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.fields && !v.schema) ctx.addIssue({ code: 'custom', path: ['fields'], message: text('workflow.formFieldsMissing') });
    if (v.fields)
      for (const p of formFieldsProblems(v.fields)) ctx.addIssue({ code: 'custom', path: p.path.split('.'), message: p.message });
  });
export type FormSave = z.infer<typeof formSaveSchema>;

export const formVersionSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  state: z.enum(formVersionStates),
  fields: z.array(z.any()).nullable(),
  schema: z.record(z.string(), z.unknown()),
  uiSchema: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  requests: z.number().int(),
});
export type FormVersion = z.infer<typeof formVersionSchema>;

export const formSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  latestVersion: z.number().int(),
  latestState: z.enum(formVersionStates),
  publishedVersion: z.number().int().nullable(),
  updatedAt: z.string(),
});
export type FormSummary = z.infer<typeof formSummarySchema>;
export const formDetailSchema = formSummarySchema.extend({ versions: z.array(formVersionSchema) });
export type FormDetail = z.infer<typeof formDetailSchema>;

export const formListQuerySchema = listQuerySchema.extend({
  state: z.enum(formVersionStates).optional(),
});
export const formVersionParamsSchema = z.object({ id: idTextSchema, version: intTextSchema({ min: 1, max: 100_000 }) });

// ─── Flows ─────────────────────────────────────────────────────────────────────────────────────────

const STATE_KEY = /^[A-Z][A-Z0-9_]{0,39}$/;

export const flowStateSchema = z.strictObject({
  key: z.string().regex(STATE_KEY, { error: text('workflow.stateKeyInvalid') }),
  label: z
    .string()
    .trim()
    .min(1, { error: text('workflow.stateLabelRequired') })
    .max(80),
  /** The requester may edit the data while the request is in this state (recepción, observada). */
  editable: z.boolean().optional(),
  /** Days to act before the request is overdue; empty takes the setting `sig.slaDays`. */
  slaDays: z.number().int().min(1).max(365).nullable().optional(),
  x: z.number().finite().optional(),
  y: z.number().finite().optional(),
});
export type FlowState = z.infer<typeof flowStateSchema>;

export const conditionOps = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'filled'] as const;
export const conditionOpLabels: Record<(typeof conditionOps)[number], string> = {
  eq: 'es igual a',
  neq: 'es distinto de',
  gt: 'es mayor que',
  gte: 'es mayor o igual que',
  lt: 'es menor que',
  lte: 'es menor o igual que',
  filled: 'tiene valor',
};
export const conditionSchema = z.strictObject({
  field: z.string().regex(FIELD_NAME, { error: text('workflow.conditionFieldInvalid') }),
  op: z.enum(conditionOps),
  value: z.union([z.string().max(200), z.number(), z.boolean()]).optional(),
});
export type FlowCondition = z.infer<typeof conditionSchema>;

export const flowActionKinds = ['notify', 'document', 'module'] as const;
export const flowActionKindLabels: Record<(typeof flowActionKinds)[number], string> = {
  notify: 'Notificar al solicitante',
  document: 'Crear un documento (constancia en PDF)',
  module: 'Acción de un módulo',
};
export const flowActionSchema = z.strictObject({
  kind: z.enum(flowActionKinds),
  /** For `module`: the key of an action registered by code (`create-pension`). */
  module: z.string().max(60).optional(),
  message: z.string().max(500).optional(),
});
export type FlowAction = z.infer<typeof flowActionSchema>;

export const flowTransitionSchema = z.strictObject({
  key: z.string().regex(STATE_KEY, { error: text('workflow.transitionKeyInvalid') }),
  from: z.string().max(40),
  to: z.string().max(40),
  label: z
    .string()
    .trim()
    .min(1, { error: text('workflow.transitionLabelRequired') })
    .max(80),
  /** The role that may take it (roles.id); or `requester`: the person who filed the request. */
  roleId: idSchema.nullable().optional(),
  requester: z.boolean().optional(),
  commentRequired: z.boolean().optional(),
  condition: conditionSchema.nullable().optional(),
  action: flowActionSchema.nullable().optional(),
});
export type FlowTransition = z.infer<typeof flowTransitionSchema>;

export const flowDefinitionSchema = z.strictObject({
  initial: z.string().max(40),
  states: z.array(flowStateSchema).max(60),
  transitions: z.array(flowTransitionSchema).max(200),
});
export type FlowDefinition = z.infer<typeof flowDefinitionSchema>;

/** A state no transition leaves: the request is closed there. */
export const isFinalFlowState = (def: FlowDefinition, key: string) => !def.transitions.some((t) => t.from === key);

/**
 * Problems that stop a flow from being published, in Spanish: the states and transitions must be
 * consistent, at least one final state must exist, every state must be reachable from the initial one
 * (no orphan), a final state must be reachable from every state, each transition names who takes it,
 * conditions name fields of the form, module actions name an action registered by code.
 */
export function flowProblems(
  def: FlowDefinition,
  opts: { formFields?: readonly string[] | null; moduleActions?: readonly string[]; roleIds?: readonly number[] } = {},
): DefinitionProblem[] {
  const out: DefinitionProblem[] = [];
  const keys = def.states.map((s) => s.key);
  const stateLabel = (k: string) => def.states.find((s) => s.key === k)?.label ?? k;
  if (!def.states.length) return [problem('states', msg('workflow.flowNeedsStates'))];
  const dup = keys.filter((k, i) => keys.indexOf(k) !== i);
  for (const k of new Set(dup)) out.push(problem('states', msg('workflow.stateRepeated', { state: k })));
  if (!keys.includes(def.initial)) out.push(problem('initial', msg('workflow.initialStateMissing')));
  const tkeys = new Set<string>();
  const pairs = new Set<string>();
  def.transitions.forEach((t, i) => {
    const path = `transitions.${i}`;
    const label = t.label;
    if (tkeys.has(t.key)) out.push(problem(`${path}.key`, msg('workflow.transitionRepeated', { transition: t.key })));
    tkeys.add(t.key);
    if (!keys.includes(t.from))
      out.push(problem(`${path}.from`, msg('workflow.transitionFromMissing', { label, state: t.from })));
    if (!keys.includes(t.to)) out.push(problem(`${path}.to`, msg('workflow.transitionToMissing', { label, state: t.to })));
    if (t.from === t.to)
      out.push(problem(`${path}.to`, msg('workflow.transitionToItself', { label, state: stateLabel(t.from) })));
    const pair = `${t.from}→${t.to}`;
    if (pairs.has(pair))
      out.push(problem(`${path}.to`, msg('workflow.transitionsSamePair', { from: stateLabel(t.from), to: stateLabel(t.to) })));
    pairs.add(pair);
    if (!t.roleId && !t.requester) out.push(problem(`${path}.roleId`, msg('workflow.transitionNeedsRole', { label })));
    if (t.roleId && opts.roleIds && !opts.roleIds.includes(t.roleId)) {
      out.push(problem(`${path}.roleId`, msg('workflow.transitionRoleGone', { label })));
    }
    if (t.condition && opts.formFields && !opts.formFields.includes(t.condition.field)) {
      out.push(problem(`${path}.condition`, msg('workflow.conditionFieldMissing', { label, field: t.condition.field })));
    }
    if (t.condition && t.condition.op !== 'filled' && t.condition.value === undefined) {
      out.push(problem(`${path}.condition`, msg('workflow.conditionNeedsValue', { label })));
    }
    if (t.action?.kind === 'module' && !(opts.moduleActions ?? []).includes(t.action.module ?? '')) {
      out.push(problem(`${path}.action`, msg('workflow.moduleActionMissing', { label, action: t.action.module ?? '' })));
    }
  });
  if (out.length) return out;
  const finals = keys.filter((k) => isFinalFlowState(def, k));
  if (!finals.length) out.push(problem('states', msg('workflow.flowNoFinalState')));
  const reach = (from: string[], next: (k: string) => string[]) => {
    const seen = new Set(from);
    const stack = [...from];
    while (stack.length) {
      for (const n of next(stack.pop() as string)) {
        if (!seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return seen;
  };
  const forward = reach([def.initial], (k) => def.transitions.filter((t) => t.from === k).map((t) => t.to));
  for (const k of keys) {
    if (!forward.has(k)) out.push(problem('states', msg('workflow.stateOrphan', { state: stateLabel(k) })));
  }
  if (finals.length) {
    const back = reach(finals, (k) => def.transitions.filter((t) => t.to === k).map((t) => t.from));
    for (const k of keys) {
      if (forward.has(k) && !back.has(k))
        out.push(problem('states', msg('workflow.stateNoWayToFinal', { state: stateLabel(k) })));
    }
  }
  return out;
}

/** Whether a transition's condition holds on the request's data. */
export function conditionHolds(c: FlowCondition | null | undefined, data: Record<string, unknown>): boolean {
  if (!c) return true;
  const v = data[c.field];
  if (c.op === 'filled') return v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && !v.length);
  const num = (x: unknown) => {
    if (typeof x === 'number') return x;
    if (typeof x === 'string') {
      const r = parseAmount(x);
      if (r.ok) return Number(r.cents) / 100;
      const n = Number(x);
      return Number.isFinite(n) ? n : Number.NaN;
    }
    return Number.NaN;
  };
  switch (c.op) {
    case 'eq':
      return String(v) === String(c.value);
    case 'neq':
      return String(v) !== String(c.value);
    case 'gt':
      return num(v) > num(c.value);
    case 'gte':
      return num(v) >= num(c.value);
    case 'lt':
      return num(v) < num(c.value);
    case 'lte':
      return num(v) <= num(c.value);
  }
}

export const conditionText = (c: FlowCondition) =>
  `${c.field} ${conditionOpLabels[c.op]}${c.op === 'filled' ? '' : ` ${String(c.value)}`}`;

export const flowSaveSchema = z.strictObject({
  title: textSchema({ label: 'Título', max: 200, min: 1 }),
  description: textSchema({ label: 'Descripción', max: 1000, multiline: true }).optional(),
  formId: idSchema,
  definition: flowDefinitionSchema,
});
export type FlowSave = z.infer<typeof flowSaveSchema>;

/** POST /api/wf/flows/validate: a flow's definition, checked against its form without saving it. */
export const flowCheckInputSchema = z.strictObject({ formId: idSchema, definition: flowDefinitionSchema });
/**
 * A problem of a definition (`flowProblems`, `formFieldsProblems`): the part it is about and why, the
 * Spanish text with its key and parameters (messages.ts) for the user's language.
 */
export const definitionProblemSchema = z.object({
  path: z.string(),
  message: z.string(),
  key: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
/** The problems a flow's check found: none when it can be published. */
export const flowProblemsSchema = z.object({ problems: z.array(definitionProblemSchema) });

export const flowVersionSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  state: z.enum(formVersionStates),
  definition: flowDefinitionSchema,
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  requests: z.number().int(),
});
export type FlowVersion = z.infer<typeof flowVersionSchema>;

export const flowSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  formId: z.number().int(),
  formTitle: z.string(),
  latestVersion: z.number().int(),
  latestState: z.enum(formVersionStates),
  publishedVersion: z.number().int().nullable(),
  openRequests: z.number().int(),
  updatedAt: z.string(),
});
export type FlowSummary = z.infer<typeof flowSummarySchema>;
export const flowDetailSchema = flowSummarySchema.extend({ versions: z.array(flowVersionSchema) });
export type FlowDetail = z.infer<typeof flowDetailSchema>;
export const flowListQuerySchema = listQuerySchema.extend({ state: z.enum(formVersionStates).optional() });

/** What the designer needs: roles to name on transitions, published forms, module actions registered by code. */
export const flowOptionsSchema = z.object({
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  forms: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      fields: z.array(z.object({ name: z.string(), label: z.string() })),
      /** The version requests are filled with (null: none published, a flow on it takes no request). */
      publishedVersion: z.number().int().nullable(),
      latestVersion: z.number().int(),
      latestState: z.enum(formVersionStates),
    }),
  ),
  moduleActions: z.array(z.object({ key: z.string(), label: z.string() })),
  defaultSlaDays: z.number().int(),
});
export type FlowOptions = z.infer<typeof flowOptionsSchema>;

// ─── Requests (SIG items) ─────────────────────────────────────────────────────────────────────────

export const requestNumber = (id: number, createdAt: string) => `SIG-${createdAt.slice(0, 4)}-${String(id).padStart(6, '0')}`;

export const sigRequestCreateSchema = z.strictObject({
  flowId: idSchema,
  entityId: idSchema.nullable().optional(),
  data: z.record(z.string(), z.unknown()),
});
export type SigRequestCreate = z.infer<typeof sigRequestCreateSchema>;

export const sigRequestUpdateSchema = z.strictObject({
  data: z.record(z.string(), z.unknown()),
  expected: z.string().max(40).optional(),
});

export const sigTransitionSchema = z.strictObject({
  to: z.string().max(40),
  comment: z
    .string()
    .trim()
    .max(1000, { error: text('workflow.commentTooLong') })
    .nullable()
    .optional(),
  expected: z.string().max(40).optional(),
});
export const sigCommentSchema = z.strictObject({
  comment: textSchema({ label: 'Comentario', max: 1000, min: 1, multiline: true }),
});

export const sigAvailableTransitionSchema = z.object({
  key: z.string(),
  to: z.string(),
  toLabel: z.string(),
  label: z.string(),
  commentRequired: z.boolean(),
  action: z.string().nullable(),
});

export const sigRequestSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  flowId: z.number().int(),
  flowTitle: z.string(),
  flowVersion: z.number().int(),
  formVersion: z.number().int(),
  state: z.string(),
  stateLabel: z.string(),
  final: z.boolean(),
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  requesterId: z.number().int().nullable(),
  requesterName: z.string(),
  createdAt: z.string(),
  stateSince: z.string(),
  dueAt: z.string().nullable(),
  overdue: z.boolean(),
  closedAt: z.string().nullable(),
  summary: z.string(),
});
export type SigRequest = z.infer<typeof sigRequestSchema>;

export const sigEventSchema = z.object({
  id: z.string(),
  kind: z.enum(['CREATED', 'TRANSITION', 'COMMENT', 'ATTACHMENT', 'ACTION']),
  at: z.string(),
  actor: z.string().nullable(),
  label: z.string(),
  comment: z.string().nullable(),
  documentId: z.number().int().nullable(),
  filename: z.string().nullable(),
});
export type SigEvent = z.infer<typeof sigEventSchema>;

export const sigRequestDetailSchema = sigRequestSchema.extend({
  data: z.record(z.string(), z.unknown()),
  fields: z.array(z.any()).nullable(),
  schema: z.record(z.string(), z.unknown()),
  uiSchema: z.record(z.string(), z.unknown()),
  editable: z.boolean(),
  transitions: z.array(sigAvailableTransitionSchema),
  expected: z.array(z.object({ label: z.string(), role: z.string(), users: z.array(z.string()) })),
  timeline: z.array(sigEventSchema),
  /** The documents the form's file fields name (each the request's own), by field, for download. */
  files: z.array(z.object({ field: z.string(), documentId: z.number().int(), filename: z.string() })),
  states: z.array(z.object({ key: z.string(), label: z.string() })),
  result: z.object({ label: z.string(), link: z.string() }).nullable(),
});
export type SigRequestDetail = z.infer<typeof sigRequestDetailSchema>;

const boolText = z.enum(['true', 'false']).optional();
export const sigRequestListQuerySchema = listQuerySchema.extend({
  flowId: idTextSchema.optional(),
  state: z.string().regex(STATE_KEY).optional(),
  entityId: idTextSchema.optional(),
  requester: z.string().trim().max(200).optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  overdue: boolText,
  waiting: boolText,
  open: boolText,
});
export type SigRequestListQuery = z.infer<typeof sigRequestListQuerySchema>;
export const sigRequestExportQuerySchema = exportQueryOf(sigRequestListQuerySchema);

export const sigCountsSchema = z.object({
  items: z.array(
    z.object({
      flowId: z.number().int(),
      flowTitle: z.string(),
      state: z.string(),
      stateLabel: z.string(),
      count: z.number().int(),
      overdue: z.number().int(),
    }),
  ),
});
export type SigCounts = z.infer<typeof sigCountsSchema>;

export const sigOptionsSchema = z.object({
  flows: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      states: z.array(z.object({ key: z.string(), label: z.string() })),
      schema: z.record(z.string(), z.unknown()).optional(),
      uiSchema: z.record(z.string(), z.unknown()).optional(),
      fields: z.array(z.any()).nullable().optional(),
    }),
  ),
  entities: z.array(z.object({ id: z.number().int(), name: z.string() })),
  anyEntity: z.boolean(),
});
export type SigOptions = z.infer<typeof sigOptionsSchema>;

export const catalogOptionsSchema = z.object({ items: z.array(z.object({ value: z.string(), label: z.string() })) });
export const catalogParamsSchema = z.object({ catalog: z.enum(formCatalogs) });
export const uploadAnswerSchema = z.object({ documentId: z.number().int(), filename: z.string() });
