import type { SettingKey } from '@aporta/domain/settings';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ApiBody, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { settingKeys } from './keys.ts';

const invalidate = () => queryClient.invalidateQueries({ queryKey: settingKeys.all });

/**
 * The APIs answering the overview and the histories: the settings API, or the read-only view of one topic's
 * (`/api/planillas/rates`, which every planilla user may read); each with its own history route.
 */
const historyOf = {
  '/api/settings': '/api/settings/{key}/history',
  '/api/planillas/rates': '/api/planillas/rates/{key}/history',
} as const;
export type SettingsBase = keyof typeof historyOf;

export function useSettingsOverview(base: SettingsBase = '/api/settings') {
  return useQuery({
    queryKey: [...settingKeys.overview(), base],
    queryFn: ({ signal }) => api.get(base, { signal }),
  });
}

export function useSettingHistory(key: SettingKey | null, base: SettingsBase = '/api/settings') {
  return useQuery({
    queryKey: [...settingKeys.history(key), base],
    queryFn: ({ signal }) => api.get(historyOf[base], { path: { key: key ?? '' }, signal }),
    enabled: key !== null,
  });
}

export function useScheduleSetting() {
  return useMutation({
    mutationFn: ({ key, body }: { key: SettingKey; body: ApiBody<'/api/settings/{key}/values'> }) =>
      api.post('/api/settings/{key}/values', { path: { key }, body }),
    onSuccess: invalidate,
  });
}

export function useCancelSetting() {
  return useMutation({
    mutationFn: ({ key, id, body }: { key: SettingKey; id: number; body: ApiBody<'/api/settings/{key}/values/{id}/cancel'> }) =>
      api.post('/api/settings/{key}/values/{id}/cancel', { path: { key, id }, body }),
    onSuccess: invalidate,
  });
}
