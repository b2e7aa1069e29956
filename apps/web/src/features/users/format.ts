import dayjs from 'dayjs';

/** dd/mm/aaaa hh:mm, the format of the whole UI; an em dash when there is no date. */
export const formatDateTime = (iso: string | null | undefined): string => (iso ? dayjs(iso).format('DD/MM/YYYY HH:mm') : '—');
