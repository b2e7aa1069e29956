import { contributorSchema, listResponse } from '@aporta/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileList, isListResponse, serializerCompiler } from './serialize.ts';

/**
 * List answers are written by a serialiser compiled from their schema (fast-json-stringify): the same JSON
 * zod + JSON.stringify wrote, unknown fields left out, a missing required field an error; other answers,
 * and a list whose schema JSON Schema cannot express, keep zod's serialiser.
 */
const item = {
  id: 7,
  cui: '1234567890101',
  nit: '576937K',
  firstName: 'Ana',
  secondName: 'María "la Nena"',
  thirdName: null,
  firstSurname: 'López',
  secondSurname: 'García\\Ñ',
  marriedSurname: null,
  fullName: 'Ana María López García',
  birthDate: '1990-05-01',
  sex: 'F',
  maritalStatus: null,
  address: 'Calle 1\nzona 2 </script>',
  municipalityId: 1,
  municipalityName: 'Cobán',
  departmentName: 'Alta Verapaz',
  phone: null,
  email: 'a@b.gt',
  typeId: 1,
  typeName: 'Activo',
  state: 'ACTIVO',
  entityId: null,
  entityName: null,
  budgetLineCode: '011',
  hireDate: null,
  salary: '3500.00',
  cuiState: 'APROBADO',
  renapCheckedAt: null,
  renapResult: null,
  createdAt: '2026-11-23T10:00:00.123Z',
  updatedAt: '2026-11-23T10:00:00.123Z',
};
const schema = listResponse(contributorSchema);
const route = (s: unknown) =>
  serializerCompiler({ schema: s as z.ZodType, method: 'GET', url: '/x', httpStatus: '200' } as Parameters<
    typeof serializerCompiler
  >[0]);

describe('list serialiser', () => {
  it('writes what zod wrote, for every field type and every total kind and cursor', () => {
    const write = compileList(schema)!;
    expect(write).not.toBeNull();
    for (const page of [
      { items: [item, { ...item, id: 8 }], total: 2, totalKind: 'exact', next: null, prev: null },
      { items: [item], total: 10_000, totalKind: 'atLeast', next: '8', prev: '7' },
      { items: [], total: 0 },
    ]) {
      expect(write(page)).toBe(JSON.stringify(schema.parse(page)));
      expect(route(schema)(page)).toBe(JSON.stringify(schema.parse(page)));
    }
  });

  it('leaves out fields the schema does not have and refuses a missing required one', () => {
    const write = route(schema);
    const out = JSON.parse(write({ items: [{ ...item, passwordHash: 'secreto' }], total: 1, extra: true }));
    expect(out.items[0]).not.toHaveProperty('passwordHash');
    expect(out).not.toHaveProperty('extra');
    const { cui: _cui, ...withoutCui } = item;
    expect(() => write({ items: [withoutCui], total: 1 })).toThrow();
  });

  it('keeps zod for other answers and for lists its JSON Schema cannot express', () => {
    expect(isListResponse(schema)).toBe(true);
    expect(isListResponse(contributorSchema)).toBe(false);
    const transformed = listResponse(z.object({ at: z.date() }));
    expect(compileList(transformed)).toBeNull();
    const at = new Date('2026-01-02T03:04:05.000Z');
    expect(route(transformed)({ items: [{ at }], total: 1 })).toBe('{"items":[{"at":"2026-01-02T03:04:05.000Z"}],"total":1}');
    // zod checks the enum of a non-list answer.
    expect(() => route(z.object({ state: z.enum(['A']) }))({ state: 'B' })).toThrow();
  });
});
