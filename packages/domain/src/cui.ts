import { contributorsMessages as texts } from './messages/contributors.ts';
import { municipalityCodes } from './territory-codes.ts';

/**
 * CUI (Código Único de Identificación, the DPI number): 13 digits. Digits 1–8 weighted 2…9, the sum
 * mod 11 is digit 9 (a remainder of 10 is never issued); digits 10–11 are the department and 12–13 the
 * municipality of registration, which must exist (territory data, gt-divisiones.csv).
 */
export const CUI_LENGTH = 13;

const knownMunicipalities = new Set(municipalityCodes);

/** Removes the spaces (and dashes) people type between the groups; keeps anything else as typed. */
export const normalizeCui = (input: string): string => input.replace(/[\s-]+/g, '');

/** The check digit of the first 8 digits, or null when the remainder is 10 (no valid CUI has it). */
export function cuiCheckDigit(body8: string): number | null {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(body8[i]) * (i + 2);
  const r = sum % 11;
  return r === 10 ? null : r;
}

export type CuiProblem = 'EMPTY' | 'FORMAT' | 'LENGTH' | 'CHECK_DIGIT' | 'DEPARTMENT' | 'MUNICIPALITY';

/**
 * Why a CUI is refused, as the catalogue's texts (keys `contributors.cui…`: the error handler and the web
 * find the key of each text). Read from the catalogue file itself, not through messages.ts, which
 * imports this file (messages.ts → periods.ts → fields.ts → cui.ts).
 */
export const cuiProblemMessages: Record<CuiProblem, string> = {
  EMPTY: texts.cuiEmpty,
  FORMAT: texts.cuiFormat,
  LENGTH: texts.cuiLength,
  CHECK_DIGIT: texts.cuiCheckDigit,
  DEPARTMENT: texts.cuiDepartment,
  MUNICIPALITY: texts.cuiMunicipality,
};

/**
 * Why a CUI is not valid, or null when it is. `municipalities` defaults to the generated territory
 * codes; the API may pass the codes from its own table.
 */
export function cuiProblem(input: string, municipalities: ReadonlySet<string> = knownMunicipalities): CuiProblem | null {
  const cui = normalizeCui(input);
  if (!cui) return 'EMPTY';
  if (!/^\d+$/.test(cui)) return 'FORMAT';
  if (cui.length !== CUI_LENGTH) return 'LENGTH';
  const check = cuiCheckDigit(cui.slice(0, 8));
  if (check === null || check !== Number(cui[8])) return 'CHECK_DIGIT';
  if (municipalities.has(cui.slice(9, 13))) return null;
  const dep = cui.slice(9, 11);
  return [...municipalities].some((m) => m.startsWith(dep)) ? 'MUNICIPALITY' : 'DEPARTMENT';
}

export const isValidCui = (input: string): boolean => cuiProblem(input) === null;

/** The department + municipality code of a CUI (digits 10–13). */
export const cuiMunicipalityCode = (cui: string): string => normalizeCui(cui).slice(9, 13);

/** `NNNN NNNNN NNNN`, how the CUI is shown; input that is not 13 digits comes back as typed. */
export function formatCui(input: string): string {
  const cui = normalizeCui(input);
  if (!/^\d{13}$/.test(cui)) return input;
  return `${cui.slice(0, 4)} ${cui.slice(4, 9)} ${cui.slice(9)}`;
}

/**
 * Builds a valid CUI from a serial and a municipality code: the serial's first 8 digits (a remainder of
 * 10 moves to the next serial). Used by the synthetic RENAP registry and tests.
 */
export function makeCui(serial: number, municipalityCode: string): string {
  for (let s = serial; ; s++) {
    const body = String(s % 100_000_000).padStart(8, '0');
    const check = cuiCheckDigit(body);
    if (check !== null) return `${body}${check}${municipalityCode}`;
  }
}
