import { compileForm, type FormField, formFieldsProblems } from '@aporta/domain/workflow';
import { describe, expect, it } from 'vitest';
import {
  previewData,
  problemField,
  renameInPreview,
  touchedAfterMove,
  touchedAfterRemove,
  visibleProblems,
} from './builder-state.ts';

describe('the builder shows a problem only after a save was tried or its field was touched', () => {
  it('a fresh, empty form shows nothing until the user tries to save', () => {
    const problems = formFieldsProblems([]);
    expect(problems.length).toBeGreaterThan(0);
    expect(visibleProblems(problems, false, new Set())).toEqual([]);
    expect(visibleProblems(problems, true, new Set())).toEqual(problems);
  });

  it("a touched field's problems show, the others' wait for a save", () => {
    const fields: FormField[] = [
      { name: 'a', label: 'A', type: 'text', minLength: 5, maxLength: 2 },
      { name: 'b', label: 'B', type: 'number', min: 9, max: 1 },
    ];
    const problems = formFieldsProblems(fields);
    expect(problems.map((p) => problemField(p.path))).toEqual([0, 1]);
    expect(visibleProblems(problems, false, new Set([1])).map((p) => p.path)).toEqual(['fields.1.max']);
    expect(visibleProblems(problems, false, new Set())).toEqual([]);
    expect(problemField('fields')).toBeNull();
    expect(problemField('fields.12.columns.0.name')).toBe(12);
  });

  it('touched fields follow a move and a removal', () => {
    expect([...touchedAfterMove(new Set([0, 2]), 0, 2)].sort()).toEqual([1, 2]);
    expect([...touchedAfterMove(new Set([1]), 3, 0)].sort()).toEqual([2]);
    expect([...touchedAfterMove(new Set([3]), 3, 0)].sort()).toEqual([0]);
    expect([...touchedAfterRemove(new Set([0, 1, 3]), 1)].sort()).toEqual([0, 2]);
  });
});

describe('the preview follows the current definition', () => {
  it('a renamed field keeps its value under the new name and the old name is no longer checked', () => {
    const before: FormField[] = [{ name: 'campo', label: 'Campo', type: 'text', required: true, minLength: 3 }];
    const after: FormField[] = [{ ...before[0], name: 'nombre' }];
    const data = renameInPreview({ campo: 'Ana' }, 'campo', 'nombre');
    expect(data).toEqual({ nombre: 'Ana' });
    const schema = compileForm('F', after).schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(previewData(data, after))).toEqual(Object.keys(schema.properties));
    expect(schema.required).toEqual(['nombre']);
  });

  it('values of removed fields and of sections are dropped', () => {
    const fields: FormField[] = [
      { name: 's', label: 'Sección', type: 'section' },
      { name: 'x', label: 'X', type: 'text' },
    ];
    expect(previewData({ x: '1', viejo: '2', s: 'no' }, fields)).toEqual({ x: '1' });
    expect(renameInPreview({ x: '1' }, 'y', 'z')).toEqual({ x: '1' });
  });
});
