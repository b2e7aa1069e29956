import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCellDate } from './parse.ts';

const iso = (v: Parameters<typeof parseCellDate>[0]) => {
  const r = parseCellDate(v, 'Fecha de nacimiento');
  return r.ok ? r.iso : r.message;
};

describe('parseCellDate: dates of spreadsheet cells (issue 9)', () => {
  it('accepts a real date cell, dd/mm/aaaa and ISO text', () => {
    expect(iso(new Date(Date.UTC(1985, 2, 4)))).toBe('1985-03-04');
    expect(iso('01/05/1990')).toBe('1990-05-01');
    expect(iso('1/5/1990')).toBe('1990-05-01');
    expect(iso('01-05-1990')).toBe('1990-05-01');
    expect(iso('01.05.1990')).toBe('1990-05-01');
    expect(iso(' 1990-05-01 ')).toBe('1990-05-01');
    expect(iso('29/02/2024')).toBe('2024-02-29');
  });

  it('never reads a bare number as a date: 1980 is refused, not 1905-06-02', () => {
    expect(iso('1980')).toBe('Fecha de nacimiento no válida: "1980" (escriba dd/mm/aaaa).');
    expect(iso(1980)).toBe('Fecha de nacimiento no válida: "1980" (escriba dd/mm/aaaa).');
    expect(iso(32874)).toMatch(/no válida: "32874"/);
    expect(iso('45292.5')).toMatch(/no válida/);
  });

  it('refuses impossible days, two-digit years, mixed separators and dates out of range', () => {
    expect(iso('31/02/2020')).toMatch(/esa fecha no existe/);
    expect(iso('29/02/2023')).toMatch(/esa fecha no existe/);
    expect(iso('01/05/90')).toMatch(/año con cuatro cifras/);
    expect(iso('01/05-1990')).toMatch(/escriba dd\/mm\/aaaa/);
    expect(iso('0000-00-00')).toMatch(/esa fecha no existe/);
    expect(iso('01/01/1899')).toMatch(/fuera del rango/);
    expect(iso(new Date(Date.UTC(1850, 0, 1)))).toMatch(/fuera del rango/);
    expect(iso(new Date(Number.NaN))).toMatch(/no válida/);
    expect(iso('')).toBe('Falta fecha de nacimiento.');
  });

  it('property: every day 1900–2099 written dd/mm/aaaa reads back as that day; digits alone never do', () => {
    const day = fc.date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true });
    fc.assert(
      fc.property(day, (d) => {
        const want = d.toISOString().slice(0, 10);
        const [y, m, dd] = want.split('-');
        expect(iso(`${dd}/${m}/${y}`)).toBe(want);
        expect(iso(want)).toBe(want);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.nat(3_000_000), fc.stringMatching(/^[0-9]{1,8}$/)), (n) => {
        expect(parseCellDate(n).ok).toBe(false);
      }),
    );
  });
});
