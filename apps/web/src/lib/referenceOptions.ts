import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

/**
 * The choices many screens' selects and filters read (municipal entities, planilla types, contributor
 * types…), from the planillas and contributors "options" endpoints: one cached query each, shared by
 * those modules' screens and the others (agreements, payments, financial, pensions). Their keys stay under
 * each module's key, so invalidating the module's queries refreshes them too.
 */
export const planillaOptionsKey = () => ['planillas', 'options'] as const;
export const contributorOptionsKey = () => ['contributors', 'options'] as const;

export const usePlanillaOptions = (enabled = true) =>
  useQuery({
    queryKey: planillaOptionsKey(),
    queryFn: () => api.get('/api/planillas/options'),
    staleTime: 300_000,
    enabled,
  });

export const useContributorOptions = (enabled = true) =>
  useQuery({
    queryKey: contributorOptionsKey(),
    queryFn: () => api.get('/api/contributors/options'),
    staleTime: 300_000,
    enabled,
  });
