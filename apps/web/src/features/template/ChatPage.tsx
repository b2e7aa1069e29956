import { CHAT_MAX_MESSAGE, type ChatMessage, presenceLabels, presenceStatuses } from '@aporta/domain';
import {
  ActionIcon,
  Anchor,
  Badge,
  Card,
  FileButton,
  Group,
  Indicator,
  NavLink,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconBookmark, IconBookmarkFilled, IconHash, IconPaperclip, IconSend, IconUser } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError } from '../../lib/notify.ts';
import {
  downloadAttachment,
  useBookmark,
  useBookmarks,
  useChatStream,
  useContacts,
  useConversations,
  useMarkRead,
  useMessages,
  useOpenDirect,
  useSendFile,
  useSendMessage,
  useSetPresence,
} from './api.ts';

const presenceColor = { online: 'green', away: 'yellow', offline: 'gray' } as const;

/**
 * The chat: channels and direct conversations (unread counts), contacts by presence, bookmarks; the
 * open conversation's messages arrive live through the API's event stream.
 */
export function ChatPage() {
  const { t } = useTranslation();
  useChatStream();
  const conversations = useConversations();
  const contacts = useContacts();
  const openDirect = useOpenDirect();
  const setPresence = useSetPresence();
  const [active, setActive] = useState<number | null>(null);
  const [panel, setPanel] = useState<'chats' | 'contacts' | 'bookmarks'>('chats');
  const current = conversations.data?.find((c) => c.id === active) ?? null;
  useEffect(() => {
    if (active == null && conversations.data?.length) setActive(conversations.data[0].id);
  }, [active, conversations.data]);

  return (
    <Stack>
      <PageHeader title={t('menu.tplChat')}>
        <Select
          aria-label={t('tpl.myPresence')}
          data={presenceStatuses.map((s) => ({ value: s, label: presenceLabels[s] }))}
          defaultValue="online"
          allowDeselect={false}
          w={160}
          onChange={(v) => {
            const status = presenceStatuses.find((s) => s === v);
            if (status) setPresence.mutate(status, { onError: notifyError });
          }}
          data-testid="presence-select"
        />
      </PageHeader>
      <Group align="stretch" wrap="wrap" gap="md">
        <Card withBorder p="xs" style={{ flex: '0 1 300px', minWidth: 260 }}>
          <SegmentedControl
            fullWidth
            size="xs"
            value={panel}
            onChange={(v) => setPanel(v as typeof panel)}
            data={[
              { value: 'chats', label: t('tpl.chats') },
              { value: 'contacts', label: t('tpl.contacts') },
              { value: 'bookmarks', label: t('tpl.bookmarks') },
            ]}
          />
          <ScrollArea h={460} mt="xs">
            {panel === 'chats' && (
              <QueryState query={conversations}>
                {() => (
                  <Stack gap={2}>
                    {conversations.data?.map((c) => (
                      <NavLink
                        key={c.id}
                        active={c.id === active}
                        onClick={() => setActive(c.id)}
                        label={c.name}
                        description={c.lastMessage ?? undefined}
                        data-testid="chat-conversation"
                        leftSection={
                          c.kind === 'channel' ? (
                            <IconHash size={16} />
                          ) : (
                            <Indicator color={presenceColor[c.presence ?? 'offline']} position="bottom-end" size={9} withBorder>
                              <IconUser size={16} />
                            </Indicator>
                          )
                        }
                        rightSection={
                          c.unread > 0 ? (
                            <Badge size="sm" circle data-testid="unread-badge">
                              {c.unread}
                            </Badge>
                          ) : undefined
                        }
                      />
                    ))}
                  </Stack>
                )}
              </QueryState>
            )}
            {panel === 'contacts' && (
              <QueryState query={contacts}>
                {() => (
                  <Stack gap={2}>
                    {contacts.data?.map((c) => (
                      <NavLink
                        key={c.id}
                        label={c.name}
                        description={presenceLabels[c.status]}
                        data-testid="chat-contact"
                        leftSection={
                          <Indicator color={presenceColor[c.status]} position="bottom-end" size={9} withBorder>
                            <IconUser size={16} />
                          </Indicator>
                        }
                        onClick={() =>
                          openDirect.mutate(c.id, {
                            onSuccess: (r) => {
                              setActive(r.id);
                              setPanel('chats');
                            },
                            onError: notifyError,
                          })
                        }
                      />
                    ))}
                  </Stack>
                )}
              </QueryState>
            )}
            {panel === 'bookmarks' && <Bookmarks />}
          </ScrollArea>
        </Card>
        <Card withBorder style={{ flex: '1 1 420px' }} p="sm">
          {current ? (
            <Conversation id={current.id} title={current.name} unread={current.unread} />
          ) : (
            <Text c="dimmed">{t('tpl.pickConversation')}</Text>
          )}
        </Card>
      </Group>
    </Stack>
  );
}

function Bookmarks() {
  const { t } = useTranslation();
  const bookmarks = useBookmarks();
  return (
    <QueryState query={bookmarks}>
      {() =>
        bookmarks.data?.length ? (
          <Stack gap="xs">
            {bookmarks.data.map((m) => (
              <div key={m.id}>
                <Text size="xs" c="dimmed">
                  {m.senderName} · {formatDateTime(m.createdAt)}
                </Text>
                <Text size="sm">{m.body}</Text>
              </div>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('tpl.noBookmarks')}
          </Text>
        )
      }
    </QueryState>
  );
}

function Conversation({ id, title, unread }: { id: number; title: string; unread: number }) {
  const { t } = useTranslation();
  const messages = useMessages(id);
  const send = useSendMessage(id);
  const sendFile = useSendFile(id);
  const markRead = useMarkRead();
  const [text, setText] = useState('');
  const viewport = useRef<HTMLDivElement>(null);
  const count = messages.data?.items.length ?? 0;
  useEffect(() => {
    if (unread > 0) markRead.mutate(id);
  }, [id, unread, markRead.mutate]);
  useEffect(() => {
    if (count >= 0) viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [count]);
  const submit = () => {
    const body = text.trim();
    if (!body) return;
    send.mutate(body, { onSuccess: () => setText(''), onError: notifyError });
  };
  return (
    <Stack gap="xs" h="100%">
      <Title order={2} size="h4">
        {title}
      </Title>
      <ScrollArea h={400} viewportRef={viewport} data-testid="chat-messages">
        <QueryState query={messages}>
          {() => (
            <Stack gap="xs" p="xs">
              {messages.data?.items.map((m) => (
                <Bubble key={m.id} m={m} />
              ))}
              {count === 0 && <Text c="dimmed">{t('tpl.noMessages')}</Text>}
            </Stack>
          )}
        </QueryState>
      </ScrollArea>
      <Group align="flex-end" wrap="nowrap" gap="xs">
        <FileButton onChange={(f) => f && sendFile.mutate(f, { onError: notifyError })}>
          {(props) => (
            <ActionIcon {...props} variant="subtle" size="lg" aria-label={t('tpl.attach')} loading={sendFile.isPending}>
              <IconPaperclip size={18} />
            </ActionIcon>
          )}
        </FileButton>
        <Textarea
          aria-label={t('tpl.message')}
          placeholder={t('tpl.writeMessage')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          maxLength={CHAT_MAX_MESSAGE}
          autosize
          minRows={1}
          maxRows={4}
          style={{ flex: 1 }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          data-testid="chat-input"
        />
        <ActionIcon size="lg" onClick={submit} loading={send.isPending} aria-label={t('tpl.send')} data-testid="chat-send">
          <IconSend size={18} />
        </ActionIcon>
      </Group>
    </Stack>
  );
}

function Bubble({ m }: { m: ChatMessage }) {
  const { t } = useTranslation();
  const bookmark = useBookmark();
  return (
    <Group justify={m.isSender ? 'flex-end' : 'flex-start'} wrap="nowrap" data-testid="chat-message">
      <Card
        padding="xs"
        radius="md"
        maw="75%"
        bg={m.isSender ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)'}
      >
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" fw={600}>
            {m.isSender ? t('tpl.you') : m.senderName}
          </Text>
          <Tooltip label={m.bookmarked ? t('tpl.unbookmark') : t('tpl.bookmark')}>
            <ActionIcon
              size="xs"
              variant="subtle"
              aria-label={m.bookmarked ? t('tpl.unbookmark') : t('tpl.bookmark')}
              onClick={() => bookmark.mutate({ id: m.id, on: !m.bookmarked }, { onError: notifyError })}
            >
              {m.bookmarked ? <IconBookmarkFilled size={12} /> : <IconBookmark size={12} />}
            </ActionIcon>
          </Tooltip>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {m.body}
        </Text>
        {m.attachment && (
          <Anchor size="xs" onClick={() => void downloadAttachment(m.id).catch(notifyError)}>
            <IconPaperclip size={12} /> {m.attachment.name} ({Math.ceil(m.attachment.size / 1024)} KB)
          </Anchor>
        )}
        <Text size="xs" c="dimmed" ta="right">
          {formatDateTime(m.createdAt)}
        </Text>
      </Card>
    </Group>
  );
}
