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

export function useSettingsOverview() {
  return useQuery({
    queryKey: settingKeys.overview(),
    queryFn: ({ signal }) => api<SettingsOverview>('/api/settings', { signal }),
  });
}

export function useSettingHistory(key: SettingKey | null) {
  return useQuery({
    queryKey: settingKeys.history(key),
    queryFn: ({ signal }) => api<SettingHistory>(`/api/settings/${key}/history`, { signal }),
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
