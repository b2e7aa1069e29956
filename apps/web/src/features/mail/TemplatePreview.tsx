import { type Language, MAIL_EVENTS, MAIL_LANGUAGES, type MailEvent } from '@aporta/domain/mail';
import { Card, Code, Group, Select, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { LANGUAGE_NAMES, parseLanguage } from '../../lib/i18n.ts';
import { useTemplatePreview } from './api.ts';
import { eventLabel, MailFrame } from './components.tsx';

/**
 * An event's template as a recipient would receive it (subject, HTML and plain text) in a chosen language,
 * filled with the templates' example data: no real person's data is shown.
 */
export function TemplatePreview() {
  const { t, i18n } = useTranslation();
  const [event, setEvent] = useState<MailEvent>(MAIL_EVENTS[0]);
  const [language, setLanguage] = useState<Language>(parseLanguage(i18n.language));
  const preview = useTemplatePreview({ event, language });
  return (
    <Stack>
      <PageHeader title={t('mail.preview.title')} description={t('mail.preview.intro')} />
      <Group align="flex-end" wrap="wrap" gap="sm">
        <Select
          label={t('mail.fields.event')}
          data={MAIL_EVENTS.map((e) => ({ value: e, label: eventLabel(t, e) }))}
          value={event}
          onChange={(v) => v && setEvent(v as MailEvent)}
          allowDeselect={false}
          searchable
          w={{ base: '100%', sm: 300 }}
        />
        <Select
          label={t('mail.fields.language')}
          data={MAIL_LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          value={language}
          onChange={(v) => v && setLanguage(v as Language)}
          allowDeselect={false}
          w={{ base: '100%', sm: 200 }}
        />
      </Group>
      <QueryState query={preview}>
        {() => (
          <Card withBorder data-testid="template-preview">
            <Stack gap="sm">
              <div>
                <Text size="xs" c="dimmed">
                  {t('mail.fields.subject')}
                </Text>
                <Text fw={600} dir="auto">
                  {preview.data!.subject}
                </Text>
              </div>
              <Tabs defaultValue="html">
                <Tabs.List>
                  <Tabs.Tab value="html">{t('mail.html')}</Tabs.Tab>
                  <Tabs.Tab value="text">{t('mail.text')}</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="html" pt="sm">
                  <MailFrame html={preview.data!.html} title={t('mail.htmlFrameTitle')} />
                </Tabs.Panel>
                <Tabs.Panel value="text" pt="sm">
                  <Code block dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
                    {preview.data!.text}
                  </Code>
                </Tabs.Panel>
              </Tabs>
            </Stack>
          </Card>
        )}
      </QueryState>
    </Stack>
  );
}
