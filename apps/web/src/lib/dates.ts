/**
 * Dates typed by users: day first, as Guatemala writes them (dd/mm/aaaa, also with `-` or `.`), or ISO
 * (aaaa-mm-dd, what a paste from another system often is). Answers the ISO date the API expects, or
 * null when the text is not a real calendar date within 1900–2100 (31/02, 1980, 00/00/0000…).
 */
export function parseTypedDate(text: string): string | null {
  const s = text.trim();
  let m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  let [d, mo, y] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  if (!m) {
    m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (!m) return null;
    [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  }
  if (y < 1900 || y > 2100 || mo < 1 || mo > 12 || d < 1) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** ISO aaaa-mm-dd → dd/mm/aaaa (empty for no date). */
export const formatIsoDate = (iso: string | null | undefined): string => {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
};
