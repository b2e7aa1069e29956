import { formatPeriod } from '@aporta/domain';
import { formatMoneyDecimal } from '../lib/format.ts';

/** Money the API sends as decimal text, right-aligned digits; a dash for none. */
export const Money = ({ value }: { value: string | null | undefined }) => (
  <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
    {value == null ? '—' : formatMoneyDecimal(value)}
  </span>
);

/** A period `AAAA-MM` as the user reads it, on one line. */
export const Period = ({ value }: { value: string }) => <span style={{ whiteSpace: 'nowrap' }}>{formatPeriod(value)}</span>;
