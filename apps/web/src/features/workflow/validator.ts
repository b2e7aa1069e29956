import { formFormats } from '@aporta/domain/workflow';
import { type OutputUnit, Validator } from '@cfworker/json-schema';
import {
  type CustomValidator,
  createErrorHandler,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  toErrorSchema,
  type UiSchema,
  unwrapErrorHandler,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';

/**
 * The browser's validator of forms for react-jsonschema-form, without `eval`: the application's
 * Content-Security-Policy (`script-src 'self'`) forbids the code generation ajv relies on, so the browser
 * validates with @cfworker/json-schema (an interpreter of JSON Schema) plus the project's formats (money,
 * CUI, date) from the domain. The server validates the same definition with ajv, which decides.
 */
type Json = Record<string, unknown>;

const validatorCache = new WeakMap<object, Validator>();
const validatorOf = (schema: Json) => {
  let v = validatorCache.get(schema);
  if (!v) {
    v = new Validator(schema as never, '7', false);
    validatorCache.set(schema, v);
  }
  return v;
};

const segmentsOf = (location: string) =>
  location
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s.replace(/~1/g, '/').replace(/~0/g, '~')));

function subschema(schema: Json, path: string[]): Json | undefined {
  let node: Json | undefined = schema;
  for (const seg of path) {
    if (!node) return undefined;
    node = /^\d+$/.test(seg) ? (node.items as Json | undefined) : (node.properties as Record<string, Json> | undefined)?.[seg];
  }
  return node;
}

const limitKeys: Record<string, string> = {
  minLength: 'minLength',
  maxLength: 'maxLength',
  minimum: 'minimum',
  maximum: 'maximum',
  minItems: 'minItems',
  maxItems: 'maxItems',
};

/** Our formats, checked by walking the data with the schema (cfworker ignores unknown formats). */
function formatErrors(schema: Json, data: unknown, path: string[], out: RJSFValidationError[]) {
  if (data === undefined || data === null) return;
  const fmt = schema.format as keyof typeof formFormats | undefined;
  if (typeof data === 'string' && fmt && formFormats[fmt] && !formFormats[fmt](data)) {
    out.push(errorAt('format', path, { format: fmt }, `formato ${fmt} no válido`));
  }
  if (Array.isArray(data) && schema.items) {
    for (const [i, row] of data.entries()) formatErrors(schema.items as Json, row, [...path, String(i)], out);
  } else if (typeof data === 'object' && schema.properties) {
    for (const [k, sub] of Object.entries(schema.properties as Record<string, Json>)) {
      formatErrors(sub, (data as Json)[k], [...path, k], out);
    }
  }
}

function errorAt(name: string, path: string[], params: Json, message: string): RJSFValidationError {
  const property = path.length ? `.${path.join('.')}` : '';
  return { name, property, params, message, stack: `${property} ${message}`.trim(), schemaPath: '' };
}

function toErrors(schema: Json, data: unknown): RJSFValidationError[] {
  const result = validatorOf(schema).validate(data ?? {});
  const out: RJSFValidationError[] = [];
  for (const e of result.errors as OutputUnit[]) {
    const path = segmentsOf(e.instanceLocation);
    const keyword = e.keyword;
    if (keyword === 'required') {
      const missing = /"([^"]+)"/.exec(e.error)?.[1];
      if (missing) out.push(errorAt('required', path, { missingProperty: missing }, 'es obligatorio'));
      continue;
    }
    if (keyword === 'additionalProperties') {
      const extra = /"([^"]+)"/.exec(e.error)?.[1];
      if (extra) out.push(errorAt('additionalProperties', path, { additionalProperty: extra }, 'no pertenece al formulario'));
      continue;
    }
    if (keyword === 'oneOf' || keyword === 'const' || keyword === 'enum') {
      out.push(errorAt('oneOf', path, {}, 'elija una de las opciones'));
      continue;
    }
    if (keyword in limitKeys || keyword === 'type' || keyword === 'pattern' || keyword === 'format') {
      const sub = subschema(schema, path) ?? {};
      const params: Json =
        keyword === 'type' ? { type: sub.type } : keyword === 'format' ? { format: sub.format } : { limit: sub[keyword] };
      out.push(errorAt(keyword, path, params, e.error));
    }
  }
  formatErrors(schema, data, [], out);
  // One message per field and kind.
  return [...new Map(out.map((x) => [`${x.property}|${x.name}|${JSON.stringify(x.params)}`, x])).values()];
}

export const formValidator: ValidatorType = {
  validateFormData(
    formData: unknown,
    schema: RJSFSchema,
    customValidate?: CustomValidator,
    transformErrors?: ErrorTransformer,
    uiSchema?: UiSchema,
  ): ValidationData<unknown> {
    let errors = toErrors(schema as Json, formData);
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    let errorSchema = toErrorSchema(errors);
    if (customValidate) {
      const handler = customValidate(formData, createErrorHandler(formData), uiSchema);
      errorSchema = { ...errorSchema, ...unwrapErrorHandler(handler) };
    }
    return { errors, errorSchema };
  },
  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    const withDefs = { ...(schema as Json), definitions: (rootSchema as Json).definitions };
    return new Validator(withDefs as never, '7', true).validate(formData ?? {}).valid;
  },
  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown) {
    return { errors: toErrors(schema as Json, formData) as unknown as Result[] };
  },
};
