import dayjs from 'dayjs';

/** UI formats of the product (DOMAIN.md): dd/mm/aaaa, Q 1,234.56. */
export const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format('DD/MM/YYYY') : '');
export const formatDateTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('DD/MM/YYYY HH:mm') : '');
export const formatMoneyCents = (cents: number | null | undefined) =>
  cents == null ? '' : `Q ${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
