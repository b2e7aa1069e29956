import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDecimal, formatAmount, MAX_AMOUNT_CENTS } from './money.ts';
import {
  compileForm,
  conditionHolds,
  type FlowDefinition,
  type FlowTransition,
  type FormField,
  type FormFieldType,
  flowProblems,
  formCatalogs,
  formFieldSchema,
  formFieldsProblems,
  formFieldTypes,
  isFinalFlowState,
  normaliseMoney,
  pruneHidden,
} from './workflow.ts';

type Json = Record<string, unknown>;
const CUI = '1587564440904';

// ─── Generators ────────────────────────────────────────────────────────────────────────────────────

const nameArb = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,12}$/);
const columnTypes = ['text', 'number', 'money', 'date', 'cui'] as const;
const bounds = fc
  .tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }))
  .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);

/** A field of `type` named `name` whose settings are consistent (what the builder lets one save). */
function fieldArb(name: string, type: FormFieldType, inTable = false): fc.Arbitrary<FormField> {
  const base = { name: fc.constant(name), label: fc.constant(`Campo ${name}`), type: fc.constant(type), required: fc.boolean() };
  switch (type) {
    case 'text':
    case 'textarea':
      return fc
        .record({
          ...base,
          limits: fc.option(
            bounds.map(([a, b]) => ({ minLength: a, maxLength: Math.max(1, b) })),
            { nil: undefined },
          ),
        })
        .map(({ limits, ...f }) => ({ ...f, ...(limits ?? {}) }) as FormField);
    case 'number':
      return fc
        .record({ ...base, limits: fc.option(bounds, { nil: undefined }) })
        .map(({ limits, ...f }) => ({ ...f, ...(limits ? { min: limits[0], max: limits[1] } : {}) }) as FormField);
    case 'select':
      return fc.oneof(
        fc.record({
          ...base,
          options: fc
            .uniqueArray(fc.stringMatching(/^[A-Z]{1,4}$/), { minLength: 1, maxLength: 5 })
            .map((vs) => vs.map((v) => ({ value: v, label: `Opción ${v}` }))),
        }),
        fc.record({ ...base, catalog: fc.constantFrom(...formCatalogs) }),
      ) as fc.Arbitrary<FormField>;
    case 'table':
      if (inTable) throw new Error('no tables in tables');
      return fc
        .tuple(
          fc.record({
            ...base,
            rows: fc.option(
              bounds.map(([a, b]) => [a, Math.max(1, b)] as const),
              { nil: undefined },
            ),
          }),
          fc
            .uniqueArray(nameArb, { minLength: 1, maxLength: 4 })
            .chain((names) => fc.tuple(...names.map((n) => fc.constantFrom(...columnTypes).chain((t) => fieldArb(n, t, true))))),
        )
        .map(
          ([{ rows, ...f }, columns]) =>
            ({ ...f, columns, ...(rows ? { minRows: rows[0], maxRows: rows[1] } : {}) }) as FormField,
        );
    case 'section':
      return fc.constant({ name, label: `Sección ${name}`, type });
    default:
      return fc.record(base) as fc.Arbitrary<FormField>;
  }
}

/** A list of fields the builder would save: unique names, at least one data field, conditions on earlier fields. */
const validFieldsArb: fc.Arbitrary<FormField[]> = fc
  .uniqueArray(nameArb, { minLength: 1, maxLength: 10 })
  .chain((names) =>
    fc.tuple(
      ...names.map((n, i) =>
        // The first field holds data, so the form always has at least one.
        fc.constantFrom(...formFieldTypes.filter((t) => i > 0 || t !== 'section')).chain((t) => fieldArb(n, t)),
      ),
    ),
  )
  .chain((fields) =>
    fc.tuple(fc.constant(fields), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 5 })), { maxLength: 3 })),
  )
  .map(([fields, conditions]) => {
    const out = fields.map((f) => ({ ...f }));
    for (const [a, b, equals] of conditions) {
      const targetIndex = a % out.length;
      const target = out[targetIndex];
      const later = out.slice(targetIndex + 1).filter((f) => f.type !== 'section');
      if (target.type === 'section' || target.type === 'table' || !later.length) continue;
      later[b % later.length].visibleIf = { field: target.name, equals };
    }
    return out;
  });

// ─── formFieldsProblems ────────────────────────────────────────────────────────────────────────────

const paths = (fields: FormField[]) => formFieldsProblems(fields).map((p) => p.path);
const messages = (fields: FormField[]) => formFieldsProblems(fields).map((p) => p.message);

describe('formFieldsProblems', () => {
  it('a form needs a field that holds data: none, or only sections, is a problem', () => {
    expect(messages([])).toEqual(['El formulario necesita al menos un campo.']);
    expect(messages([{ name: 's', label: 'Datos', type: 'section' }])).toEqual(['El formulario necesita al menos un campo.']);
    expect(formFieldsProblems([{ name: 'a', label: 'A', type: 'text' }])).toEqual([]);
  });

  it('refuses more fields than the limit', () => {
    const many = Array.from({ length: 201 }, (_, i) => ({ name: `f${i}`, label: `F${i}`, type: 'text' as const }));
    expect(messages(many)).toContain('El formulario admite hasta 200 campos.');
    expect(formFieldsProblems(many.slice(0, 200))).toEqual([]);
  });

  it('names a repeated field name at the repetition, also among the columns of a table', () => {
    const fields: FormField[] = [
      { name: 'cui', label: 'CUI', type: 'cui' },
      { name: 'monto', label: 'Monto', type: 'money' },
      { name: 'cui', label: 'Otro CUI', type: 'text' },
      {
        name: 'hijos',
        label: 'Hijos',
        type: 'table',
        columns: [
          { name: 'nombre', label: 'Nombre', type: 'text' },
          { name: 'nombre', label: 'Nombre 2', type: 'text' },
        ],
      },
    ];
    expect(formFieldsProblems(fields)).toEqual([
      {
        path: 'fields.2.name',
        message: 'El nombre de campo «cui» está repetido.',
        key: 'workflow.fieldNameRepeated',
        params: { name: 'cui' },
      },
      {
        path: 'fields.3.columns.1.name',
        message: 'El nombre de campo «nombre» está repetido.',
        key: 'workflow.fieldNameRepeated',
        params: { name: 'nombre' },
      },
    ]);
  });

  it('a column of a table cannot be a table, a section or a file; a table needs columns', () => {
    const col = (type: FormFieldType): FormField[] => [
      { name: 't', label: 'Tabla', type: 'table', columns: [{ name: 'c', label: 'Col', type }] },
    ];
    expect(paths(col('file'))).toEqual(['fields.0.columns.0.type']);
    expect(paths(col('section'))).toEqual(['fields.0.columns.0.type']);
    expect(paths(col('table'))).toContain('fields.0.columns.0.type');
    expect(messages(col('file'))[0]).toBe('Una columna de tabla no puede ser archivo adjunto: «Col».');
    for (const type of columnTypes) expect(formFieldsProblems(col(type))).toEqual([]);
    expect(formFieldsProblems([{ name: 't', label: 'Tabla', type: 'table' }])).toEqual([
      {
        path: 'fields.0.columns',
        message: '«Tabla»: la tabla necesita al menos una columna.',
        key: 'workflow.tableNeedsColumn',
        params: { field: 'Tabla' },
      },
    ]);
  });

  it('bounds must be in order: number, length and rows', () => {
    expect(paths([{ name: 'n', label: 'N', type: 'number', min: 5, max: 4 }])).toEqual(['fields.0.max']);
    expect(paths([{ name: 'n', label: 'N', type: 'number', min: 4, max: 4 }])).toEqual([]);
    expect(paths([{ name: 's', label: 'S', type: 'text', minLength: 3, maxLength: 2 }])).toEqual(['fields.0.maxLength']);
    expect(
      paths([
        { name: 't', label: 'T', type: 'table', minRows: 3, maxRows: 1, columns: [{ name: 'a', label: 'A', type: 'text' }] },
      ]),
    ).toEqual(['fields.0.maxRows']);
  });

  it('a pattern must be a regular expression', () => {
    expect(messages([{ name: 's', label: 'Código', type: 'text', pattern: '([A-Z' }])).toEqual([
      '«Código»: el patrón no es una expresión regular válida.',
    ]);
    expect(formFieldsProblems([{ name: 's', label: 'Código', type: 'text', pattern: '^[A-Z]{2}\\d+$' }])).toEqual([]);
  });

  it('a select needs options or a catalogue, and its option values are unique', () => {
    expect(paths([{ name: 's', label: 'S', type: 'select' }])).toEqual(['fields.0.options']);
    expect(formFieldsProblems([{ name: 's', label: 'S', type: 'select', catalog: 'regions' }])).toEqual([]);
    const repeated: FormField = {
      name: 's',
      label: 'Sí o no',
      type: 'select',
      options: [
        { value: 'SI', label: 'Sí' },
        { value: 'SI', label: 'Otra vez sí' },
      ],
    };
    expect(messages([repeated])).toEqual(['«Sí o no»: hay opciones repetidas.']);
  });

  it('a visibility condition must name an earlier field that is not a section', () => {
    const later: FormField[] = [
      { name: 'a', label: 'A', type: 'text', visibleIf: { field: 'b', equals: 'x' } },
      { name: 'b', label: 'B', type: 'text' },
    ];
    expect(paths(later)).toEqual(['fields.0.visibleIf']);
    const section: FormField[] = [
      { name: 's', label: 'Sección', type: 'section' },
      { name: 'a', label: 'A', type: 'text', visibleIf: { field: 's', equals: 'x' } },
    ];
    expect(paths(section)).toEqual(['fields.1.visibleIf']);
    const unknown: FormField[] = [{ name: 'a', label: 'A', type: 'text', visibleIf: { field: 'zzz', equals: 1 } }];
    expect(messages(unknown)[0]).toContain('(«zzz» no lo es)');
    expect(formFieldsProblems([...later].reverse())).toEqual([]);
  });

  it('property: what the builder saves has no problems and passes the field schema', () => {
    fc.assert(
      fc.property(validFieldsArb, (fields) => {
        expect(formFieldsProblems(fields)).toEqual([]);
        for (const f of fields) expect(formFieldSchema.safeParse(f).success).toBe(true);
      }),
    );
  });

  it('property: repeating any field name is reported once, at the copy', () => {
    fc.assert(
      fc.property(validFieldsArb, fc.nat(), (fields, k) => {
        const i = k % fields.length;
        const copy: FormField = { name: fields[i].name, label: 'Copia', type: 'text' };
        const problems = formFieldsProblems([...fields, copy]);
        expect(problems).toEqual([
          {
            path: `fields.${fields.length}.name`,
            message: `El nombre de campo «${fields[i].name}» está repetido.`,
            key: 'workflow.fieldNameRepeated',
            params: { name: fields[i].name },
          },
        ]);
      }),
    );
  });
});

// ─── compileForm ───────────────────────────────────────────────────────────────────────────────────

const jsonType: Record<FormFieldType, string | undefined> = {
  text: 'string',
  textarea: 'string',
  number: 'number',
  money: 'string',
  date: 'string',
  select: 'string',
  cui: 'string',
  entity: 'integer',
  file: 'integer',
  table: 'array',
  section: undefined,
};

describe('compileForm', () => {
  const one = (f: FormField) => {
    const { schema, uiSchema } = compileForm('Prueba', [f]);
    return {
      prop: (schema.properties as Record<string, Json>)[f.name],
      ui: uiSchema[f.name] as Json | undefined,
      required: schema.required as string[],
    };
  };

  it('compiles each field type into its JSON Schema and widget', () => {
    expect(one({ name: 'a', label: 'Nombre', type: 'text', help: 'Como en el DPI' })).toEqual({
      prop: { title: 'Nombre', description: 'Como en el DPI', type: 'string', maxLength: 200 },
      ui: undefined,
      required: [],
    });
    expect(one({ name: 'a', label: 'Nota', type: 'textarea' })).toMatchObject({
      prop: { type: 'string', maxLength: 4000 },
      ui: { 'ui:widget': 'textarea' },
    });
    expect(one({ name: 'a', label: 'Edad', type: 'number', min: 18, max: 99 }).prop).toEqual({
      title: 'Edad',
      type: 'number',
      minimum: 18,
      maximum: 99,
    });
    for (const type of ['money', 'date', 'cui'] as const) {
      expect(one({ name: 'a', label: 'X', type })).toEqual({
        prop: { title: 'X', type: 'string', format: type },
        ui: { 'ui:widget': type },
        required: [],
      });
    }
    for (const type of ['entity', 'file'] as const) {
      expect(one({ name: 'a', label: 'X', type })).toMatchObject({
        prop: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
        ui: { 'ui:widget': type },
      });
    }
    const options = [
      { value: 'SI', label: 'Sí' },
      { value: 'NO', label: 'No' },
    ];
    expect(one({ name: 'a', label: 'X', type: 'select', options })).toEqual({
      prop: {
        title: 'X',
        type: 'string',
        oneOf: [
          { const: 'SI', title: 'Sí' },
          { const: 'NO', title: 'No' },
        ],
      },
      ui: { 'ui:widget': 'select' },
      required: [],
    });
    expect(one({ name: 'a', label: 'X', type: 'select', catalog: 'departments' })).toEqual({
      prop: { title: 'X', type: 'string', minLength: 1, maxLength: 100 },
      ui: { 'ui:widget': 'catalog', 'ui:options': { catalog: 'departments' } },
      required: [],
    });
    expect(
      one({
        name: 'hijos',
        label: 'Hijos',
        type: 'table',
        required: true,
        maxRows: 5,
        columns: [
          { name: 'nombre', label: 'Nombre', type: 'text', required: true },
          { name: 'monto', label: 'Monto', type: 'money' },
        ],
      }),
    ).toEqual({
      prop: {
        title: 'Hijos',
        type: 'array',
        items: {
          type: 'object',
          properties: {
            nombre: { title: 'Nombre', type: 'string', minLength: 1, maxLength: 200 },
            monto: { title: 'Monto', type: 'string', format: 'money' },
          },
          required: ['nombre'],
          additionalProperties: false,
        },
        minItems: 1,
        maxItems: 5,
      },
      ui: { items: { nombre: {}, monto: { 'ui:widget': 'money' } }, 'ui:options': { orderable: false } },
      required: ['hijos'],
    });
  });

  it('a required text needs a character unless a minimum length is set; a table its minimum of rows', () => {
    expect(one({ name: 'a', label: 'A', type: 'text', required: true }).prop.minLength).toBe(1);
    expect(one({ name: 'a', label: 'A', type: 'text', required: true, minLength: 0 }).prop.minLength).toBe(0);
    expect(one({ name: 'a', label: 'A', type: 'text', minLength: 3, maxLength: 9 }).prop).toMatchObject({
      minLength: 3,
      maxLength: 9,
    });
    const table = (f: Partial<FormField>) =>
      one({ name: 't', label: 'T', type: 'table', columns: [{ name: 'c', label: 'C', type: 'text' }], ...f }).prop;
    expect(table({}).minItems).toBeUndefined();
    expect(table({ required: true, minRows: 3 }).minItems).toBe(3);
  });

  it('sections live only in the UI schema, as a title before the next data field', () => {
    const { schema, uiSchema } = compileForm('Con secciones', [
      { name: 's1', label: 'Datos personales', type: 'section' },
      { name: 'nombre', label: 'Nombre', type: 'text' },
      { name: 's2', label: 'Pago', type: 'section' },
      { name: 's3', label: 'Subtítulo', type: 'section' },
      { name: 'monto', label: 'Monto', type: 'money' },
      { name: 's4', label: 'Al final', type: 'section' },
    ]);
    expect(Object.keys(schema.properties as Json)).toEqual(['nombre', 'monto']);
    expect(uiSchema['ui:order']).toEqual(['nombre', 'monto']);
    expect(uiSchema['ui:options']).toEqual({
      sections: [
        { before: 'nombre', title: 'Datos personales' },
        { before: 'monto', title: 'Pago' },
        { before: 'monto', title: 'Subtítulo' },
        { before: null, title: 'Al final' },
      ],
    });
  });

  it('a required field with a visibility condition is required only while its condition holds', () => {
    const { schema, uiSchema } = compileForm('Condicional', [
      { name: 'tipo', label: 'Tipo', type: 'text', required: true },
      { name: 'motivo', label: 'Motivo', type: 'text', required: true, visibleIf: { field: 'tipo', equals: 'B' } },
      { name: 'nota', label: 'Nota', type: 'text', visibleIf: { field: 'tipo', equals: 'C' } },
    ]);
    expect(schema.required).toEqual(['tipo']);
    expect(schema.allOf).toEqual([
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword (if/then).
      { if: { properties: { tipo: { const: 'B' } }, required: ['tipo'] }, then: { required: ['motivo'] } },
    ]);
    expect(uiSchema.motivo).toEqual({ 'ui:options': { visibleIf: { field: 'tipo', equals: 'B' } } });
    expect(uiSchema.nota).toEqual({ 'ui:options': { visibleIf: { field: 'tipo', equals: 'C' } } });
    expect(compileForm('Sin condiciones', [{ name: 'a', label: 'A', type: 'text', required: true }]).schema).not.toHaveProperty(
      'allOf',
    );
  });

  it('property: the schema is a closed draft-07 object of exactly the data fields, in order, and survives JSON', () => {
    fc.assert(
      fc.property(validFieldsArb, fc.string({ maxLength: 30 }), (fields, title) => {
        const { schema, uiSchema } = compileForm(title, fields);
        const data = fields.filter((f) => f.type !== 'section');
        expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
        expect(schema).toMatchObject({ type: 'object', title, additionalProperties: false });
        expect(Object.keys(schema.properties as Json)).toEqual(data.map((f) => f.name));
        expect(uiSchema['ui:order']).toEqual(data.map((f) => f.name));
        expect(schema.required).toEqual(data.filter((f) => f.required && !f.visibleIf).map((f) => f.name));
        const conditional = data.filter((f) => f.required && f.visibleIf).map((f) => f.name);
        const then = ((schema.allOf ?? []) as { then: { required: string[] } }[]).flatMap((x) => x.then.required);
        expect(then).toEqual(conditional);
        for (const f of data) {
          const prop = (schema.properties as Record<string, Json>)[f.name];
          expect(prop.title).toBe(f.label);
          expect(prop.type).toBe(jsonType[f.type]);
        }
        expect(JSON.parse(JSON.stringify({ schema, uiSchema }))).toEqual({ schema, uiSchema });
      }),
    );
  });
});

// ─── pruneHidden ───────────────────────────────────────────────────────────────────────────────────

describe('pruneHidden', () => {
  const fields: FormField[] = [
    { name: 'tipo', label: 'Tipo', type: 'text' },
    { name: 'motivo', label: 'Motivo', type: 'text', visibleIf: { field: 'tipo', equals: 'B' } },
    { name: 'detalle', label: 'Detalle', type: 'text', visibleIf: { field: 'motivo', equals: 'otro' } },
    { name: 'edad', label: 'Edad', type: 'number' },
  ];

  it('drops empty strings, nulls and undefined, keeping zero and false', () => {
    expect(pruneHidden(null, { a: '', b: null, c: undefined, d: 0, e: false, f: 'x' })).toEqual({ d: 0, e: false, f: 'x' });
  });

  it('drops the values of hidden fields, and of fields whose condition named a dropped value', () => {
    expect(pruneHidden(fields, { tipo: 'B', motivo: 'otro', detalle: 'algo', edad: 3 })).toEqual({
      tipo: 'B',
      motivo: 'otro',
      detalle: 'algo',
      edad: 3,
    });
    expect(pruneHidden(fields, { tipo: 'A', motivo: 'otro', detalle: 'algo', edad: 3 })).toEqual({ tipo: 'A', edad: 3 });
    expect(pruneHidden(fields, { tipo: 'B', motivo: 'salud', detalle: 'algo' })).toEqual({ tipo: 'B', motivo: 'salud' });
    // The condition compares exactly: "b" is not "B", 1 is not "1".
    expect(pruneHidden(fields, { tipo: 'b', motivo: 'x' })).toEqual({ tipo: 'b' });
    const numeric: FormField[] = [
      { name: 'n', label: 'N', type: 'number' },
      { name: 'm', label: 'M', type: 'text', visibleIf: { field: 'n', equals: 1 } },
    ];
    expect(pruneHidden(numeric, { n: 1, m: 'sí' })).toEqual({ n: 1, m: 'sí' });
    expect(pruneHidden(numeric, { n: '1', m: 'sí' })).toEqual({ n: '1' });
  });

  it('keeps keys no field names (the schema refuses them later) and does not change its input', () => {
    const input = { tipo: 'A', motivo: 'x', extra: 'y' };
    expect(pruneHidden(fields, input)).toEqual({ tipo: 'A', extra: 'y' });
    expect(input).toEqual({ tipo: 'A', motivo: 'x', extra: 'y' });
  });

  it('property: the result is a subset of the input, without empties or hidden fields, and pruning twice changes nothing', () => {
    const value = fc.oneof(
      fc.constant(''),
      fc.constant(null),
      fc.constant(undefined),
      fc.constantFrom('A', 'B', 'otro'),
      fc.integer(),
    );
    fc.assert(
      fc.property(
        validFieldsArb,
        fc.dictionary(nameArb, value),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        (fs, raw, meet) => {
          // Some conditions are met on purpose, so visible conditional fields occur too.
          const data: Record<string, unknown> = { ...raw };
          fs.forEach((f, i) => {
            if (f.visibleIf && meet[i]) data[f.visibleIf.field] = f.visibleIf.equals;
          });
          const out = pruneHidden(fs, data);
          for (const [k, v] of Object.entries(out)) {
            expect(data[k]).toBe(v);
            expect(v === '' || v === null || v === undefined).toBe(false);
          }
          for (const f of fs) {
            if (f.visibleIf && f.name in out) expect(out[f.visibleIf.field]).toBe(f.visibleIf.equals);
          }
          expect(pruneHidden(fs, out)).toEqual(out);
        },
      ),
    );
  });
});

// ─── normaliseMoney ────────────────────────────────────────────────────────────────────────────────

describe('normaliseMoney', () => {
  const fields: FormField[] = [
    { name: 'monto', label: 'Monto', type: 'money' },
    { name: 'cui', label: 'CUI', type: 'cui' },
    { name: 'nota', label: 'Nota', type: 'text' },
    {
      name: 'pagos',
      label: 'Pagos',
      type: 'table',
      columns: [
        { name: 'valor', label: 'Valor', type: 'money' },
        { name: 'dpi', label: 'DPI', type: 'cui' },
      ],
    },
  ];

  it('writes money as plain decimals with two places, CUIs without spaces or dashes, also inside table rows', () => {
    const input = {
      monto: 'Q 1,500.5',
      cui: '1587 56444 0904',
      nota: 'Q 1,500.5',
      pagos: [{ valor: 'GTQ 12', dpi: '1587-56444-0904' }, { valor: '.5' }],
    };
    expect(normaliseMoney(fields, input)).toEqual({
      monto: '1500.50',
      cui: CUI,
      nota: 'Q 1,500.5',
      pagos: [{ valor: '12.00', dpi: CUI }, { valor: '0.50' }],
    });
    // The input is left as it was.
    expect(input.monto).toBe('Q 1,500.5');
    expect(input.pagos[0].valor).toBe('GTQ 12');
  });

  it('leaves what is not a valid amount (the validator names it) and what is not text', () => {
    expect(normaliseMoney(fields, { monto: '12,34' })).toEqual({ monto: '12,34' });
    expect(normaliseMoney(fields, { monto: 1500 })).toEqual({ monto: 1500 });
    const data = { monto: 'Q 1' };
    expect(normaliseMoney(null, data)).toBe(data);
  });

  it('property: any amount written as a person would reads back as its exact cents, and normalising twice changes nothing', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: MAX_AMOUNT_CENTS }),
        fc.constantFrom('', 'Q', 'Q ', 'Q. ', 'GTQ '),
        fc.boolean(),
        (cents, prefix, grouped) => {
          const plain = centsToDecimal(cents);
          const text = `${prefix}${grouped ? formatAmount(cents) : plain}`;
          const once = normaliseMoney(fields, { monto: text, pagos: [{ valor: text }] });
          expect(once).toEqual({ monto: plain, pagos: [{ valor: plain }] });
          expect(normaliseMoney(fields, once)).toEqual(once);
        },
      ),
    );
  });
});

// ─── flowProblems ──────────────────────────────────────────────────────────────────────────────────

const tr = (key: string, from: string, to: string, over: Partial<FlowTransition> = {}): FlowTransition => ({
  key,
  from,
  to,
  label: key.charAt(0) + key.slice(1).toLowerCase(),
  roleId: 1,
  ...over,
});

const simple = (): FlowDefinition => ({
  initial: 'RECIBIDA',
  states: [
    { key: 'RECIBIDA', label: 'Recibida' },
    { key: 'OBSERVADA', label: 'Observada' },
    { key: 'RESUELTA', label: 'Resuelta' },
  ],
  transitions: [
    tr('OBSERVAR', 'RECIBIDA', 'OBSERVADA'),
    tr('REENVIAR', 'OBSERVADA', 'RECIBIDA', { roleId: null, requester: true }),
    tr('APROBAR', 'RECIBIDA', 'RESUELTA'),
  ],
});

/**
 * A flow that should publish: a chain of states from the initial one to the last (final: nothing leaves
 * it), with extra transitions forward and back between the states before the last.
 */
const validFlowArb: fc.Arbitrary<FlowDefinition> = fc
  .integer({ min: 2, max: 8 })
  .chain((n) =>
    fc.tuple(
      fc.constant(n),
      // Extra transitions between the states before the last, besides the chain's own (none possible with two states).
      n === 2
        ? fc.constant([] as [number, number][])
        : fc.uniqueArray(
            fc
              .tuple(fc.integer({ min: 0, max: n - 2 }), fc.integer({ min: 0, max: n - 1 }))
              .filter(([a, b]) => a !== b && b !== a + 1),
            { selector: ([a, b]) => `${a}-${b}`, maxLength: 8 },
          ),
      fc.boolean(),
    ),
  )
  .map(([n, extra, requesterOnChain]) => {
    const key = (i: number) => `E${i}`;
    const states = Array.from({ length: n }, (_, i) => ({ key: key(i), label: `Estado ${i}` }));
    const transitions = [
      ...Array.from({ length: n - 1 }, (_, i) =>
        tr(`T${i}_${i + 1}`, key(i), key(i + 1), requesterOnChain && i === 0 ? { roleId: null, requester: true } : {}),
      ),
      ...extra.map(([a, b]) => tr(`T${a}_${b}`, key(a), key(b), { roleId: 2 })),
    ];
    return { initial: key(0), states, transitions };
  });

describe('flowProblems', () => {
  it('a consistent flow has no problems', () => {
    expect(flowProblems(simple(), { roleIds: [1, 2], formFields: ['monto'], moduleActions: [] })).toEqual([]);
    expect(isFinalFlowState(simple(), 'RESUELTA')).toBe(true);
    expect(isFinalFlowState(simple(), 'OBSERVADA')).toBe(false);
  });

  it('a flow without states is refused at once', () => {
    expect(flowProblems({ initial: 'X', states: [], transitions: [] })).toEqual([
      { path: 'states', message: 'El flujo necesita al menos dos estados.', key: 'workflow.flowNeedsStates' },
    ]);
  });

  it('names repeated state and transition keys and an initial state that is not one of the states', () => {
    const def = simple();
    def.states.push({ key: 'OBSERVADA', label: 'Otra vez' });
    def.transitions.push(tr('APROBAR', 'OBSERVADA', 'RESUELTA'));
    def.initial = 'NINGUNO';
    expect(flowProblems(def)).toEqual([
      {
        path: 'states',
        message: 'El estado OBSERVADA está repetido.',
        key: 'workflow.stateRepeated',
        params: { state: 'OBSERVADA' },
      },
      { path: 'initial', message: 'Elija el estado inicial entre los estados del flujo.', key: 'workflow.initialStateMissing' },
      {
        path: 'transitions.3.key',
        message: 'La transición APROBAR está repetida.',
        key: 'workflow.transitionRepeated',
        params: { transition: 'APROBAR' },
      },
    ]);
  });

  it('names transitions from or to states that do not exist', () => {
    const def = simple();
    def.transitions.push(tr('ARCHIVAR', 'ARCHIVO', 'RESUELTA'), tr('ANULAR', 'RECIBIDA', 'ANULADA'));
    expect(flowProblems(def)).toEqual([
      {
        path: 'transitions.3.from',
        message: '«Archivar» sale de un estado que no existe (ARCHIVO).',
        key: 'workflow.transitionFromMissing',
        params: { label: 'Archivar', state: 'ARCHIVO' },
      },
      {
        path: 'transitions.4.to',
        message: '«Anular» llega a un estado que no existe (ANULADA).',
        key: 'workflow.transitionToMissing',
        params: { label: 'Anular', state: 'ANULADA' },
      },
    ]);
  });

  it('refuses a transition to the same state, two between the same states, and one nobody takes', () => {
    const def = simple();
    def.transitions.push(
      tr('REPETIR', 'RECIBIDA', 'RECIBIDA'),
      tr('RESOLVER', 'RECIBIDA', 'RESUELTA'),
      tr('SOLTAR', 'OBSERVADA', 'RESUELTA', { roleId: null }),
    );
    expect(flowProblems(def).map((p) => p.message)).toEqual([
      '«Repetir» va de «Recibida» a sí mismo.',
      'Dos transiciones van de «Recibida» a «Resuelta».',
      '«Soltar»: indique el rol que la toma o el solicitante.',
    ]);
  });

  it('checks roles, condition fields and values, and module actions against what exists', () => {
    const def = simple();
    def.transitions[0] = tr('OBSERVAR', 'RECIBIDA', 'OBSERVADA', { roleId: 9, condition: { field: 'edad', op: 'gt' } });
    def.transitions[2] = tr('APROBAR', 'RECIBIDA', 'RESUELTA', {
      condition: { field: 'monto', op: 'filled' },
      action: { kind: 'module', module: 'borrar-todo' },
    });
    expect(flowProblems(def, { roleIds: [1], formFields: ['monto'], moduleActions: ['create-pension'] })).toEqual([
      {
        path: 'transitions.0.roleId',
        message: '«Observar»: el rol ya no existe.',
        key: 'workflow.transitionRoleGone',
        params: { label: 'Observar' },
      },
      {
        path: 'transitions.0.condition',
        message: '«Observar»: la condición nombra un campo que el formulario no tiene (edad).',
        key: 'workflow.conditionFieldMissing',
        params: { label: 'Observar', field: 'edad' },
      },
      {
        path: 'transitions.0.condition',
        message: '«Observar»: la condición necesita un valor.',
        key: 'workflow.conditionNeedsValue',
        params: { label: 'Observar' },
      },
      {
        path: 'transitions.2.action',
        message: '«Aprobar»: la acción de módulo «borrar-todo» no existe.',
        key: 'workflow.moduleActionMissing',
        params: { label: 'Aprobar', action: 'borrar-todo' },
      },
    ]);
    // Without the lists, roles and fields are not checked; a module action always is.
    expect(flowProblems(def).map((p) => p.path)).toEqual(['transitions.0.condition', 'transitions.2.action']);
  });

  it('a flow where every state has a way out has no final state', () => {
    const def = simple();
    def.transitions.push(tr('REABRIR', 'RESUELTA', 'RECIBIDA'));
    expect(flowProblems(def)).toEqual([
      {
        path: 'states',
        message: 'El flujo no tiene estado final: de todo estado sale alguna transición.',
        key: 'workflow.flowNoFinalState',
      },
    ]);
  });

  it('names a state no path from the initial state reaches (an orphan), and one that cannot reach an end', () => {
    const orphan = simple();
    orphan.states.push({ key: 'ARCHIVADA', label: 'Archivada' });
    expect(flowProblems(orphan)).toEqual([
      {
        path: 'states',
        message: 'El estado «Archivada» no se alcanza desde el estado inicial (huérfano).',
        key: 'workflow.stateOrphan',
        params: { state: 'Archivada' },
      },
    ]);
    const trap = simple();
    trap.states.push({ key: 'A', label: 'Bucle A' }, { key: 'B', label: 'Bucle B' });
    trap.transitions.push(tr('IR_A', 'OBSERVADA', 'A'), tr('IR_B', 'A', 'B'), tr('VOLVER_A', 'B', 'A'));
    expect(flowProblems(trap).map((p) => p.message)).toEqual([
      'Desde «Bucle A» no se llega a ningún estado final.',
      'Desde «Bucle B» no se llega a ningún estado final.',
    ]);
  });

  it('property: a generated flow that runs from the initial state to a final one has no problems', () => {
    fc.assert(
      fc.property(validFlowArb, (def) => {
        expect(flowProblems(def, { roleIds: [1, 2], moduleActions: [] })).toEqual([]);
        expect(isFinalFlowState(def, def.states[def.states.length - 1].key)).toBe(true);
      }),
    );
  });

  it('property: an added state nothing reaches is named as an orphan; a transition to an unknown state is named', () => {
    fc.assert(
      fc.property(validFlowArb, fc.nat(), (def, k) => {
        const withOrphan = { ...def, states: [...def.states, { key: 'HUERFANO', label: 'Huérfano' }] };
        expect(flowProblems(withOrphan)).toContainEqual({
          path: 'states',
          message: 'El estado «Huérfano» no se alcanza desde el estado inicial (huérfano).',
          key: 'workflow.stateOrphan',
          params: { state: 'Huérfano' },
        });
        const from = def.states[k % def.states.length].key;
        const broken = { ...def, transitions: [...def.transitions, tr('PERDIDA', from, 'NO_EXISTE')] };
        expect(flowProblems(broken)).toContainEqual({
          path: `transitions.${def.transitions.length}.to`,
          message: '«Perdida» llega a un estado que no existe (NO_EXISTE).',
          key: 'workflow.transitionToMissing',
          params: { label: 'Perdida', state: 'NO_EXISTE' },
        });
      }),
    );
  });
});

// ─── conditionHolds ────────────────────────────────────────────────────────────────────────────────

describe('conditionHolds', () => {
  it('no condition always holds', () => {
    expect(conditionHolds(null, {})).toBe(true);
    expect(conditionHolds(undefined, { a: 1 })).toBe(true);
  });

  it('"filled" means a value that is not empty (an empty table is empty; zero and false are values)', () => {
    const filled = (v: unknown) => conditionHolds({ field: 'x', op: 'filled' }, { x: v });
    expect([undefined, null, '', []].map(filled)).toEqual([false, false, false, false]);
    expect([0, false, 'a', [{}]].map(filled)).toEqual([true, true, true, true]);
  });

  it('equality compares as text; order compares as numbers, money text read as an amount', () => {
    expect(conditionHolds({ field: 'tipo', op: 'eq', value: 'A' }, { tipo: 'A' })).toBe(true);
    expect(conditionHolds({ field: 'tipo', op: 'eq', value: 'A' }, { tipo: 'a' })).toBe(false);
    expect(conditionHolds({ field: 'n', op: 'eq', value: '5' }, { n: 5 })).toBe(true);
    expect(conditionHolds({ field: 'tipo', op: 'neq', value: 'A' }, {})).toBe(true);
    expect(conditionHolds({ field: 'monto', op: 'gt', value: '10000' }, { monto: 'Q 10,000.01' })).toBe(true);
    expect(conditionHolds({ field: 'monto', op: 'gt', value: '10000' }, { monto: '10000.00' })).toBe(false);
    expect(conditionHolds({ field: 'monto', op: 'gte', value: '10000' }, { monto: '10000.00' })).toBe(true);
    expect(conditionHolds({ field: 'edad', op: 'lt', value: 18 }, { edad: 17 })).toBe(true);
    expect(conditionHolds({ field: 'edad', op: 'lte', value: '1e2' }, { edad: 100 })).toBe(true);
  });

  it('an order comparison with something that is not a number never holds', () => {
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
      expect(conditionHolds({ field: 'x', op, value: 5 }, { x: 'cinco' })).toBe(false);
      expect(conditionHolds({ field: 'x', op, value: 5 }, {})).toBe(false);
      expect(conditionHolds({ field: 'x', op, value: 'cinco' }, { x: 5 })).toBe(false);
    }
  });

  it('property: comparisons agree with the numbers, whether given as numbers or as money text', () => {
    const money = fc.bigInt({ min: 0n, max: 10_000_000_000n });
    fc.assert(
      fc.property(money, money, fc.boolean(), (a, b, asText) => {
        const value = (c: bigint) => (asText ? `Q ${formatAmount(c)}` : Number(c) / 100);
        const holds = (op: 'gt' | 'gte' | 'lt' | 'lte') =>
          conditionHolds({ field: 'm', op, value: centsToDecimal(b) }, { m: value(a) });
        expect(holds('gt')).toBe(a > b);
        expect(holds('gte')).toBe(a >= b);
        expect(holds('lt')).toBe(a < b);
        expect(holds('lte')).toBe(a <= b);
      }),
    );
  });

  it('property: eq and neq are opposite for any value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.boolean()), fc.oneof(fc.string(), fc.integer()), (v, c) => {
        const eq = conditionHolds({ field: 'x', op: 'eq', value: c }, { x: v });
        expect(conditionHolds({ field: 'x', op: 'neq', value: c }, { x: v })).toBe(!eq);
        expect(eq).toBe(String(v) === String(c));
      }),
    );
  });
});
