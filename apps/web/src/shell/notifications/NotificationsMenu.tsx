import type { Notification } from '@aporta/domain';
import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconBell, IconCheck, IconCircleCheck, IconInfoCircle, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useDeleteNotifications, useFindNotifications, useMarkNotificationsRead } from './useNotifications.ts';

const typeIcon = {
  info: { icon: IconInfoCircle, color: 'blue' },
  success: { icon: IconCircleCheck, color: 'green' },
  warning: { icon: IconAlertTriangle, color: 'orange' },
  error: { icon: IconX, color: 'red' },
} as const;

/**
 * The bell of the topbar: unread count, the list, mark read, and deletion with confirmation. Checking
 * items reveals a bulk action area for them.
 */
export function NotificationsMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  // While the confirmation is open the panel stays: the dialog lies outside it.
  const [confirming, setConfirming] = useState(false);
  const { data, isLoading } = useFindNotifications();
  const markRead = useMarkNotificationsRead();
  const remove = useDeleteNotifications();
  const items = data?.items ?? [];
  const unread = data?.unread ?? 0;
  const selected = items.filter((i) => checked.has(i.id)).map((i) => i.id);

  const toggle = (id: number) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const confirmDelete = (ids: number[]) => {
    setConfirming(true);
    modals.openConfirmModal({
      onClose: () => setConfirming(false),
      title: t('shell.notifications.deleteTitle'),
      children: <Text size="sm">{t('shell.notifications.deleteConfirm', { count: ids.length })}</Text>,
      labels: { confirm: t('shell.notifications.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, string>,
      onConfirm: () =>
        remove.mutate(
          { ids },
          {
            onSuccess: (r) => {
              setChecked((prev) => new Set([...prev].filter((id) => !ids.includes(id))));
              notifySuccess(t('shell.notifications.deleted', { count: r.affected }));
            },
          },
        ),
    });
  };

  const open = (n: Notification) => {
    if (!n.readAt) markRead.mutate({ ids: [n.id] });
    if (n.link) {
      setOpened(false);
      navigate(n.link);
    }
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={380}
      shadow="lg"
      withinPortal
      trapFocus={false}
      closeOnClickOutside={!confirming}
      closeOnEscape={!confirming}
      // Above the topbar, below the confirmation dialog.
      zIndex={150}
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="lg"
          className="topbar-btn"
          onClick={() => setOpened((o) => !o)}
          aria-label={t('shell.notifications.open', { count: unread })}
          data-testid="notifications-button"
        >
          <Indicator
            label={unread > 99 ? '99+' : unread}
            size={18}
            color="red.9"
            disabled={unread === 0}
            offset={2}
            data-testid="notifications-badge"
          >
            <IconBell size={22} aria-hidden="true" />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} maw="calc(100vw - 16px)" data-testid="notifications-panel">
        <Group justify="space-between" px="md" py="sm">
          <Text fw={700}>{t('shell.notifications.title')}</Text>
          <Badge color="red.9" variant="filled">
            {t('shell.notifications.unread', { count: unread })}
          </Badge>
        </Group>
        {selected.length > 0 && (
          <Group justify="space-between" px="md" py={6} bg="var(--mantine-color-default-hover)" data-testid="notifications-bulk">
            <Text size="sm">{t('shell.notifications.selected', { count: selected.length })}</Text>
            <Group gap={6}>
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconCheck size={14} />}
                onClick={() => markRead.mutate({ ids: selected })}
              >
                {t('shell.notifications.markRead')}
              </Button>
              <Button
                size="compact-sm"
                color="red.9"
                leftSection={<IconTrash size={14} />}
                onClick={() => confirmDelete(selected)}
              >
                {t('shell.notifications.delete')}
              </Button>
            </Group>
          </Group>
        )}
        <ScrollArea.Autosize mah={320} type="auto">
          {items.length === 0 ? (
            <Text c="dimmed" size="sm" p="md" ta="center">
              {isLoading ? t('common.loading') : t('shell.notifications.empty')}
            </Text>
          ) : (
            items.map((n) => {
              const kind = typeIcon[n.type];
              return (
                <div key={n.id} className="notif-item" data-unread={!n.readAt} data-testid="notification-item">
                  <Checkbox
                    mt={4}
                    checked={checked.has(n.id)}
                    onChange={() => toggle(n.id)}
                    aria-label={t('shell.notifications.select', { title: n.title })}
                  />
                  <ThemeIcon variant="light" color={kind.color} radius="xl" size="md" aria-hidden="true">
                    <kind.icon size={16} />
                  </ThemeIcon>
                  <Stack gap={2} style={{ flex: 1, minWidth: 0, cursor: n.link ? 'pointer' : undefined }} onClick={() => open(n)}>
                    <Text size="sm" fw={n.readAt ? 500 : 700}>
                      {n.title}
                    </Text>
                    {n.body && (
                      <Text size="xs" c="dimmed">
                        {n.body}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {formatDateTime(n.createdAt)}
                    </Text>
                  </Stack>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    onClick={() => confirmDelete([n.id])}
                    aria-label={t('shell.notifications.deleteOne', { title: n.title })}
                  >
                    <IconTrash size={16} aria-hidden="true" />
                  </ActionIcon>
                </div>
              );
            })
          )}
        </ScrollArea.Autosize>
        <Group justify="space-between" px="md" py="sm">
          <Button size="compact-sm" variant="subtle" disabled={unread === 0} onClick={() => markRead.mutate({ all: true })}>
            {t('shell.notifications.markAllRead')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            disabled={items.length === 0}
            onClick={() => setChecked(new Set(items.map((i) => i.id)))}
          >
            {t('shell.notifications.selectAll')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
