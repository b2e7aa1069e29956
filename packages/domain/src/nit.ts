import { contributorsMessages as texts } from './messages/contributors.ts';

/**
 * NIT (Número de Identificación Tributaria): body digits and a check character. Body digits weighted
 * 2, 3, 4… from the right; c = (11 − sum mod 11) mod 11; c = 10 is written K. Typed as `576937-K` or
 * `576937K`; stored without the dash, upper-case.
 *
 * One NIT, one stored form: zeros before the body do not change the check character (they weigh
 * nothing), so `576937-K`, `0576937-K` and `000576937-K` are the same NIT and all normalise to
 * `576937K` (the body keeps one digit: `0-0` is `00`). Contributors store this form; catalogues store
 * formatNit of it (`576937-K`). Migration 0005_nit_normal_form rewrote the rows stored before.
 */
export function normalizeNit(input: string): string {
  const nit = input.replace(/[\s.-]+/g, '').toUpperCase();
  if (!/^\d+[0-9K]$/.test(nit)) return nit;
  return nit.slice(0, -1).replace(/^0+(?=\d)/, '') + nit.slice(-1);
}

export function nitCheckCharacter(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i + 2);
  const c = (11 - (sum % 11)) % 11;
  return c === 10 ? 'K' : String(c);
}

export type NitProblem = 'EMPTY' | 'FORMAT' | 'CHECK_DIGIT';

/** Why a NIT is refused, as the catalogue's texts (keys `contributors.nit…`; see cuiProblemMessages). */
export const nitProblemMessages: Record<NitProblem, string> = {
  EMPTY: texts.nitEmpty,
  FORMAT: texts.nitFormat,
  CHECK_DIGIT: texts.nitCheckDigit,
};

export function nitProblem(input: string): NitProblem | null {
  const nit = normalizeNit(input);
  if (!nit) return 'EMPTY';
  if (!/^\d{1,12}[0-9K]$/.test(nit)) return 'FORMAT';
  return nitCheckCharacter(nit.slice(0, -1)) === nit.slice(-1) ? null : 'CHECK_DIGIT';
}

export const isValidNit = (input: string): boolean => nitProblem(input) === null;

/** `576937-K`: body, dash, check character. */
export function formatNit(input: string): string {
  const nit = normalizeNit(input);
  return nit.length > 1 ? `${nit.slice(0, -1)}-${nit.slice(-1)}` : input;
}
