import { periodSchema } from '@aporta/domain';

/**
 * Periods typed by users: month first, as every list shows them (mm/aaaa, also m/aaaa and with `-` or `.`),
 * or year first (aaaa-mm, what the API takes and what a paste from another system often is). Answers the
 * period `AAAA-MM` the API expects, or null when the text is not a real month within 1900-01 – 2100-12
 * (13/2026, 10/26, a whole date…): refused rather than guessed.
 */
export function parseTypedPeriod(text: string): string | null {
  const s = text.trim();
  let m = /^(\d{1,2})[/.-](\d{4})$/.exec(s);
  let [mo, y] = m ? [m[1], m[2]] : ['', ''];
  if (!m) {
    m = /^(\d{4})[/-](\d{1,2})$/.exec(s);
    if (!m) return null;
    [y, mo] = [m[1], m[2]];
  }
  const period = `${y}-${mo.padStart(2, '0')}`;
  return periodSchema.safeParse(period).success ? period : null;
}

/** A period `AAAA-MM` → mm/aaaa (empty for none or for text that is not a period). */
export const formatTypedPeriod = (period: string | null | undefined): string => {
  const m = period ? /^(\d{4})-(\d{2})$/.exec(period) : null;
  return m ? `${m[2]}/${m[1]}` : '';
};
