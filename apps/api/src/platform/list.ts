import type { ListQuery } from '@aporta/domain';
import { AppError } from '@aporta/domain';
import { type AnyColumn, asc, desc, type SQL } from 'drizzle-orm';

/**
 * ORDER BY for a list's `sort` (`field` or `-field`), limited to the columns the module exposes so a
 * client can never sort by an arbitrary expression. An unknown field is a 400 naming the choices.
 */
export function orderBy(sort: string | undefined, columns: Record<string, AnyColumn>, fallback: string): SQL[] {
  const spec = sort ?? fallback;
  const descending = spec.startsWith('-');
  const field = descending ? spec.slice(1) : spec;
  const column = columns[field];
  if (!column) {
    throw new AppError('VALIDATION', undefined, [
      { path: 'consulta.sort', message: `No se puede ordenar por "${field}". Opciones: ${Object.keys(columns).join(', ')}.` },
    ]);
  }
  // A stable tiebreak keeps pagination from repeating or skipping rows with equal sort values.
  const tiebreak = columns.id ?? Object.values(columns)[0];
  const primary = descending ? desc(column) : asc(column);
  return column === tiebreak ? [primary] : [primary, asc(tiebreak)];
}

/** LIMIT/OFFSET of a page. */
export const pageOf = (q: Pick<ListQuery, 'page' | 'pageSize'>) => ({ limit: q.pageSize, offset: (q.page - 1) * q.pageSize });

/** Escapes LIKE wildcards in user text so `%` and `_` match themselves. */
export const likePattern = (text: string, mode: 'contains' | 'prefix' = 'contains') => {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return mode === 'prefix' ? `${escaped}%` : `%${escaped}%`;
};
