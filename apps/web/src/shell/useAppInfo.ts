import type { AppInfo } from '@aporta/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../lib/api.ts';

/** Title, acronym and credit from the server's configuration; the title becomes the document title. */
export function useAppInfo(): AppInfo | undefined {
  const { data } = useQuery({
    queryKey: ['app-info'],
    queryFn: () => api<AppInfo>('/api/app-info'),
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (data?.title) document.title = data.title;
  }, [data?.title]);
  return data;
}
