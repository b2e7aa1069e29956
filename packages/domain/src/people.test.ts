import { describe, expect, it } from 'vitest';
import { fullNameOf, initialsOf, institutionLabelOf } from './people.ts';

describe('shell identity', () => {
  it('takes initials from first and last name', () => {
    expect(initialsOf({ firstName: 'maría', lastName: 'López', email: 'x@y.z' })).toBe('ML');
  });
  it('falls back to the first two letters of the e-mail local part', () => {
    expect(initialsOf({ firstName: '', lastName: '', email: 'jperez@muni.gt' })).toBe('JP');
  });
  it('shows SISTEMA as SUPER ADMINISTRADOR, else the institution name', () => {
    expect(institutionLabelOf({ institucion: ['SISTEMA'], institutionName: 'Sistema' })).toBe('SUPER ADMINISTRADOR');
    expect(institutionLabelOf({ institucion: ['MUNI-0101'], institutionName: 'Municipalidad de Guatemala' })).toBe(
      'Municipalidad de Guatemala',
    );
  });
  it('uses the e-mail as full name when no name is known', () => {
    expect(fullNameOf({ firstName: 'Ana', lastName: 'Gómez' })).toBe('Ana Gómez');
    expect(fullNameOf({ email: 'a@b.c' })).toBe('a@b.c');
  });
});
