import {
  AppError,
  detail,
  type FormField,
  formError,
  formFormats,
  type Message,
  msg,
  normaliseMoney,
  pruneHidden,
} from '@aporta/domain';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * The server's reading of a form: the same JSON Schema the browser renders, compiled by ajv with the
 * project's formats (money, date, CUI). The browser's validation is a convenience; this one decides.
 */
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
for (const [name, validate] of Object.entries(formFormats)) ajv.addFormat(name, { type: 'string', validate });

const compiled = new Map<number, ValidateFunction>();

/** Why a JSON Schema cannot be a form (null when it can): not valid against the meta-schema, or not an object of fields. */
export function schemaProblem(schema: Record<string, unknown>): Message | null {
  const copy = { ...schema };
  delete copy.$id;
  if (!ajv.validateSchema(copy)) {
    return msg('workflow.schemaInvalid', { errors: ajv.errorsText(ajv.errors, { dataVar: 'esquema', separator: '; ' }) });
  }
  if (copy.type !== 'object' || typeof copy.properties !== 'object' || copy.properties === null) {
    return msg('workflow.schemaNotObject');
  }
  try {
    ajv.compile(copy);
  } catch (err) {
    return msg('workflow.schemaUnusable', { error: (err as Error).message });
  }
  return null;
}

function validatorOf(versionId: number, schema: Record<string, unknown>): ValidateFunction {
  let v = compiled.get(versionId);
  if (!v) {
    const copy = { ...schema };
    delete copy.$id;
    v = ajv.compile(copy);
    compiled.set(versionId, v);
  }
  return v;
}

const titleAt = (schema: Record<string, unknown>, path: string[]): string => {
  let node: Record<string, unknown> | undefined = schema;
  let title = path[path.length - 1] ?? '';
  for (const seg of path) {
    if (!node) break;
    if (/^\d+$/.test(seg)) {
      node = node.items as Record<string, unknown> | undefined;
      continue;
    }
    node = (node.properties as Record<string, Record<string, unknown>> | undefined)?.[seg];
    if (node?.title) title = String(node.title);
  }
  const row = path.find((s) => /^\d+$/.test(s));
  return row ? `${title} (fila ${Number(row) + 1})` : title;
};

/**
 * Validates a request's data against its form version, after dropping hidden fields and normalising
 * money and CUI. Throws 400 naming every field (`data.<campo>`) with a Spanish message; returns the
 * data to store.
 */
export function validateFormData(
  version: { id: number; schema: Record<string, unknown>; fields: FormField[] | null },
  raw: Record<string, unknown>,
): Record<string, unknown> {
  const data = pruneHidden(version.fields, raw);
  const validate = validatorOf(version.id, version.schema);
  if (validate(data)) return normaliseMoney(version.fields, data);
  const details = (validate.errors ?? [])
    .filter((e: ErrorObject) => e.keyword !== 'if' && !(e.keyword === 'oneOf' && e.instancePath === ''))
    .map((e: ErrorObject) => {
      const path = e.instancePath.split('/').filter(Boolean);
      if (e.keyword === 'required') path.push(String(e.params.missingProperty));
      let value: unknown = data;
      for (const seg of path) value = (value as Record<string, unknown> | undefined)?.[seg];
      return {
        path: ['data', ...path].join('.'),
        ...detail(formError(e as never, titleAt(version.schema, path) || 'Formulario', value)),
      };
    });
  const unique = [...new Map(details.map((d) => [d.path + d.message, d])).values()];
  throw new AppError('VALIDATION', msg('workflow.problemList', { problems: unique.map((d) => d.message).join(' ') }), unique);
}
