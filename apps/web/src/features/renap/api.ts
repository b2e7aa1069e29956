import { normalizeCui } from '@aporta/domain';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { ListParams } from '../../components/ListPage.tsx';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { renapKeys } from './keys.ts';

export const useRenapLookup = () =>
  useMutation({
    mutationFn: (cui: string) => api.get('/api/renap/{cui}', { path: { cui } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: renapKeys.lookups() }),
  });

/** A list parameter that is text (a date), or a page number. */
const text = (v: ListParams[string]) => (typeof v === 'string' ? v : undefined);
const page = (v: ListParams[string]) => (typeof v === 'number' || typeof v === 'string' ? v : undefined);

/**
 * The lookup log with the list's filters: an exact CUI (sent once it has its 13 digits, typed with or
 * without spaces) and a day range; newest first.
 */
export const useRenapLookups = (params: ListParams) => {
  const cui = typeof params.cui === 'string' ? normalizeCui(params.cui) : '';
  const query = {
    page: page(params.page),
    pageSize: page(params.pageSize),
    from: text(params.from),
    to: text(params.to),
    cui: /^\d{13}$/.test(cui) ? cui : undefined,
  };
  return useQuery({
    queryKey: renapKeys.lookupsPage(query),
    queryFn: () => api.get('/api/renap/lookups', { query }),
    placeholderData: keepPreviousData,
  });
};
