import type {
  CancelSettingInput,
  ScheduleSettingInput,
  SettingHistory,
  SettingKey,
  SettingsOverview,
  SettingValueEntry,
} from '@aporta/domain/settings';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { settingKeys } from './keys.ts';

const invalidate = () => queryClient.invalidateQueries({ queryKey: settingKeys.all });

/** `base`: the settings API (`/api/settings`) or a read-only view of one topic's (`/api/planillas/rates`). */
export function useSettingsOverview(base = '/api/settings') {
  return useQuery({
    queryKey: [...settingKeys.overview(), base],
    queryFn: ({ signal }) => api<SettingsOverview>(base, { signal }),
  });
}

export function useSettingHistory(key: SettingKey | null, base = '/api/settings') {
  return useQuery({
    queryKey: [...settingKeys.history(key), base],
    queryFn: ({ signal }) => api<SettingHistory>(`${base}/${key}/history`, { signal }),
    enabled: key !== null,
  });
}

export function useScheduleSetting() {
  return useMutation({
    mutationFn: ({ key, body }: { key: SettingKey; body: ScheduleSettingInput }) =>
      api<SettingValueEntry>(`/api/settings/${key}/values`, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useCancelSetting() {
  return useMutation({
    mutationFn: ({ key, id, body }: { key: SettingKey; id: number; body: CancelSettingInput }) =>
      api<SettingValueEntry>(`/api/settings/${key}/values/${id}/cancel`, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}
