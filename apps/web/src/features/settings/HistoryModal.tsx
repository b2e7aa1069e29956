import { cancelSettingSchema, type SettingKey, type SettingOverview, type SettingValueEntry } from '@aporta/domain/settings';
import { Badge, Button, Modal, Stack, Table, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { type SettingsBase, useCancelSetting, useSettingHistory } from './api.ts';
import { SettingValue } from './SettingValue.tsx';

type Status = 'scheduled' | 'current' | 'past' | 'cancelled';

/** Status of each value on `today`: the history is newest first, so the first live one not after today rules. */
function statuses(items: SettingValueEntry[], today: string): Map<number, Status> {
  const out = new Map<number, Status>();
  let currentFound = false;
  for (const e of items) {
    if (e.cancelledAt) out.set(e.id, 'cancelled');
    else if (e.effectiveFrom > today) out.set(e.id, 'scheduled');
    else if (!currentFound) {
      out.set(e.id, 'current');
      currentFound = true;
    } else out.set(e.id, 'past');
  }
  return out;
}

const statusColor: Record<Status, string> = { scheduled: 'blue', current: 'green', past: 'gray', cancelled: 'red' };

/** Every value of one setting, cancelled ones included; a scheduled value can be cancelled from here. */
export function HistoryModal({
  setting,
  canUpdate,
  onClose,
  base,
}: {
  setting: SettingOverview | null;
  canUpdate: boolean;
  onClose: () => void;
  base?: SettingsBase;
}) {
  const { t } = useTranslation();
  const history = useSettingHistory(setting?.key ?? null, base);
  const [cancelling, setCancelling] = useState<SettingValueEntry | null>(null);
  if (!setting) return null;
  return (
    <>
      <Modal
        opened={!cancelling}
        onClose={onClose}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        title={t('settings.history.title', { label: setting.label })}
        size="xl"
      >
        <QueryState query={history}>
          {() => {
            const data = history.data!;
            const status = statuses(data.items, data.today);
            return (
              <Table.ScrollContainer minWidth={640}>
                <Table verticalSpacing="sm" striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('settings.history.from')}</Table.Th>
                      <Table.Th>{t('settings.history.value')}</Table.Th>
                      <Table.Th>{t('settings.history.status')}</Table.Th>
                      <Table.Th>{t('settings.history.reason')}</Table.Th>
                      {canUpdate && <Table.Th>{t('settings.actions')}</Table.Th>}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.items.map((e) => {
                      const s = status.get(e.id)!;
                      return (
                        <Table.Tr key={e.id} data-testid={`history-${e.id}`}>
                          <Table.Td>{formatDate(e.effectiveFrom)}</Table.Td>
                          <Table.Td>
                            <SettingValue settingKey={setting.key as SettingKey} value={e.value} compact />
                          </Table.Td>
                          <Table.Td>
                            <Badge color={statusColor[s]} variant="outline">
                              {t(`settings.status.${s}`)}
                            </Badge>
                            {e.retroactive && (
                              <Badge color="orange" variant="outline" ml={4}>
                                {t('settings.status.retroactive')}
                              </Badge>
                            )}
                          </Table.Td>
                          <Table.Td>
                            <Text size="sm">{e.reason}</Text>
                            <Text size="xs" c="dimmed">
                              {t('settings.history.by', {
                                who: e.createdBy ?? t('settings.history.system'),
                                when: formatDateTime(e.createdAt),
                              })}
                            </Text>
                            {e.cancelledAt && (
                              <Text size="xs" c="dimmed">
                                {t('settings.history.cancelledBy', {
                                  who: e.cancelledBy ?? '',
                                  when: formatDateTime(e.cancelledAt),
                                  reason: e.cancelReason ?? '',
                                })}
                              </Text>
                            )}
                          </Table.Td>
                          {canUpdate && (
                            <Table.Td>
                              {s === 'scheduled' && (
                                <Button size="compact-sm" variant="light" color="red" onClick={() => setCancelling(e)}>
                                  {t('settings.history.cancelValue')}
                                </Button>
                              )}
                            </Table.Td>
                          )}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            );
          }}
        </QueryState>
      </Modal>
      {cancelling && <CancelModal setting={setting} entry={cancelling} onClose={() => setCancelling(null)} />}
    </>
  );
}

/** The confirmation of a cancellation, which needs its reason. */
function CancelModal({ setting, entry, onClose }: { setting: SettingOverview; entry: SettingValueEntry; onClose: () => void }) {
  const { t } = useTranslation();
  const cancel = useCancelSetting();
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: (values) => {
      const errors = zod4Resolver(cancelSettingSchema)(values);
      // The schema's minimum, said in the user's language.
      if (values.reason.trim().length < 5) errors.reason = t('settings.history.reasonRequired');
      return errors;
    },
  });
  const submit = form.onSubmit((values) =>
    cancel.mutate(
      { key: setting.key as SettingKey, id: entry.id, body: values },
      {
        onSuccess: () => {
          notifySuccess(t('settings.history.cancelled'));
          onClose();
        },
        onError: (err) => showApiError(err, form, ['reason'], { notify: 'non-validation' }),
      },
    ),
  );
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t('settings.history.cancelTitle')}
      centered
      transitionProps={{ transition: 'fade' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            {t('settings.history.cancelConfirm', { label: setting.label, date: formatDate(entry.effectiveFrom) })}
          </Text>
          <SettingValue settingKey={setting.key as SettingKey} value={entry.value} compact />
          <Textarea
            label={t('settings.history.cancelReason')}
            required
            autosize
            minRows={2}
            maxLength={500}
            {...form.getInputProps('reason')}
          />
          <FormActions
            onCancel={onClose}
            cancelLabel={t('settings.history.keep')}
            submitLabel={t('settings.history.cancelValue')}
            color="red"
            loading={cancel.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
