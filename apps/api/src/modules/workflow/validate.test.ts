import { AppError, compileForm, type FormField, type FormFieldType, formatAmount, formFieldTypes } from '@aporta/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaProblem, validateFormData } from './validate.ts';

/**
 * The server's validator (ajv with the project's formats) against what the builder compiles: every
 * field type yields a schema ajv accepts, data that keeps the form's rules passes (money normalised),
 * and a missing required field is named.
 */
const CUI = '1587564440904';
const dataTypes = formFieldTypes.filter((t) => t !== 'section');
const columnTypes = ['text', 'number', 'money', 'date', 'cui'] as const;

/** A field of each kind with consistent settings, and a value that keeps its rules. */
function fieldArb(name: string, type: FormFieldType, inTable = false): fc.Arbitrary<{ field: FormField; value: unknown }> {
  const label = `Campo ${name}`;
  return fc
    .record({ required: fc.boolean(), n: fc.integer({ min: 0, max: 20 }), cents: fc.bigInt({ min: 0n, max: 10n ** 12n }) })
    .chain(({ required, n, cents }): fc.Arbitrary<{ field: FormField; value: unknown }> => {
      const base = { name, label, type, required };
      switch (type) {
        case 'text':
        case 'textarea':
          return fc.constant({ field: { ...base, minLength: n, maxLength: n + 5, pattern: '^a*$' }, value: 'a'.repeat(n + 1) });
        case 'number':
          return fc.constant({ field: { ...base, min: -n, max: n }, value: n / 2 });
        case 'money':
          return fc.constant({ field: base, value: `Q ${formatAmount(cents)}` });
        case 'date':
          return fc.constant({ field: base, value: `2026-0${(n % 9) + 1}-1${n % 10}` });
        case 'cui':
          return fc.constant({ field: base, value: '1587 56444 0904' });
        case 'select':
          return fc.constant({
            field: {
              ...base,
              options: [
                { value: 'SI', label: 'Sí' },
                { value: 'NO', label: 'No' },
              ],
            },
            value: n % 2 ? 'SI' : 'NO',
          });
        case 'entity':
        case 'file':
          return fc.constant({ field: base, value: n + 1 });
        case 'table': {
          if (inTable) throw new Error('no tables in tables');
          return fc.tuple(...columnTypes.map((t, i) => fieldArb(`c${i}`, t, true))).chain((cols) =>
            fc.integer({ min: 1, max: 3 }).map((rows) => ({
              field: { ...base, minRows: 1, maxRows: 3, columns: cols.map((c) => c.field) },
              value: Array.from({ length: rows }, () => Object.fromEntries(cols.map((c) => [c.field.name, c.value]))),
            })),
          );
        }
        default:
          return fc.constant({ field: { name, label, type: 'section' }, value: undefined });
      }
    });
}

/** Every data type at least once, some twice, and a section somewhere among them. */
const formArb = fc
  .shuffledSubarray([...dataTypes, ...dataTypes], { minLength: dataTypes.length })
  .map((types) => [...new Set(dataTypes), ...types.slice(dataTypes.length)])
  .chain((types) =>
    fc.tuple(...types.map((t, i) => fieldArb(`f${i}`, t)), fieldArb('titulo', 'section'), fc.nat({ max: types.length - 1 })),
  )
  .map((parts) => {
    // Read without popping: fast-check hands the same tuple again while shrinking a failure.
    const at = parts[parts.length - 1] as number;
    const section = parts[parts.length - 2] as { field: FormField };
    const items = parts.slice(0, -2) as { field: FormField; value: unknown }[];
    const fields = items.map((x) => x.field);
    fields.splice(at, 0, section.field);
    const data = Object.fromEntries(items.map((x) => [x.field.name, x.value]));
    return { fields, data };
  });

let versionId = 0;
const version = (fields: FormField[]) => ({ id: ++versionId, fields, ...compileForm('Prueba', fields) });

describe('the server validator and the compiled forms', () => {
  it('property: every field type compiles to a schema ajv accepts, and data within the rules passes, money and CUI normalised', () => {
    fc.assert(
      fc.property(formArb, ({ fields, data }) => {
        const v = version(fields);
        expect(schemaProblem(v.schema)).toBeNull();
        const stored = validateFormData(v, data);
        for (const f of fields) {
          if (f.type === 'money') expect(stored[f.name]).toMatch(/^\d+\.\d{2}$/);
          if (f.type === 'cui') expect(stored[f.name]).toBe(CUI);
          if (f.type === 'table') {
            for (const row of stored[f.name] as Record<string, unknown>[]) expect(row.c2).toMatch(/^\d+\.\d{2}$/);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('property: a required field left empty is named by its path', () => {
    fc.assert(
      fc.property(formArb, fc.nat(), ({ fields, data }, k) => {
        const required = fields.filter((f) => f.required && f.type !== 'section');
        fc.pre(required.length > 0);
        const missing = required[k % required.length];
        const v = version(fields);
        let thrown: unknown;
        try {
          validateFormData(v, { ...data, [missing.name]: '' });
        } catch (err) {
          thrown = err;
        }
        expect(thrown).toBeInstanceOf(AppError);
        expect((thrown as AppError).details).toContainEqual({
          path: `data.${missing.name}`,
          message: `${missing.label}: es obligatorio.`,
          key: 'workflow.fieldRequired',
          params: { label: missing.label },
        });
      }),
      { numRuns: 40 },
    );
  });

  it('a required field hidden by its condition is not asked for, and its value is dropped', () => {
    const fields: FormField[] = [
      { name: 'tipo', label: 'Tipo', type: 'text', required: true },
      { name: 'motivo', label: 'Motivo', type: 'text', required: true, visibleIf: { field: 'tipo', equals: 'B' } },
    ];
    const v = version(fields);
    expect(schemaProblem(v.schema)).toBeNull();
    expect(validateFormData(v, { tipo: 'A', motivo: 'no se guarda' })).toEqual({ tipo: 'A' });
    expect(() => validateFormData(v, { tipo: 'B' })).toThrow('Motivo: es obligatorio.');
    expect(validateFormData(v, { tipo: 'B', motivo: 'Salud' })).toEqual({ tipo: 'B', motivo: 'Salud' });
  });
});
