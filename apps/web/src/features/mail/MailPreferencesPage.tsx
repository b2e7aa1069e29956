import {
  type Language,
  MAIL_DELIVERY,
  MAIL_LANGUAGES,
  type MailDelivery,
  type MailPreferenceEvent,
  mailPreferencesInputSchema,
} from '@aporta/domain/mail';
import { Anchor, Button, Card, Divider, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { LANGUAGE_NAMES } from '../../lib/i18n.ts';
import { notifyError, notifySuccess, notifyWarning } from '../../lib/notify.ts';
import { issueText } from '../../lib/server-messages.ts';
import { useMailPreferences, useSaveMailPreferences } from './api.ts';
import { eventLabel } from './components.tsx';

/**
 * `/profile/correo`: the signed-in user's own mail preferences — the language of their mails and, for each
 * event that concerns them (their permissions), no mail, one at once, or a line in the daily digest. Notices
 * that are always sent (arrears notices, password resets) are said, not offered.
 */
export function MailPreferencesPage() {
  const { t } = useTranslation();
  const prefs = useMailPreferences();
  const save = useSaveMailPreferences();
  const [language, setLanguage] = useState<Language>('es');
  const [events, setEvents] = useState<Partial<Record<MailPreferenceEvent, MailDelivery>>>({});

  // Fill the form when the stored choices arrive (and again after each save).
  useEffect(() => {
    if (!prefs.data) return;
    setLanguage(prefs.data.language);
    setEvents(prefs.data.events);
  }, [prefs.data]);

  const submit = () => {
    const concerning = prefs.data?.concerning ?? [];
    const body = { language, events: Object.fromEntries(concerning.map((e) => [e, events[e] ?? 'immediate'])) };
    const checked = mailPreferencesInputSchema.safeParse(body);
    if (!checked.success) {
      notifyWarning(issueText(checked.error.issues[0].message));
      return;
    }
    save.mutate(checked.data, { onSuccess: () => notifySuccess(t('mail.prefs.saved')), onError: notifyError });
  };

  return (
    <Stack maw={880}>
      <Anchor component={Link} to="/profile" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} />
          {t('mail.prefs.backToProfile')}
        </Group>
      </Anchor>
      <PageHeader title={t('mail.prefs.title')} description={t('mail.prefs.intro')} />
      <QueryState query={prefs}>
        {() => (
          <Card withBorder>
            <Stack gap="md">
              <Select
                label={t('mail.prefs.language')}
                description={t('mail.prefs.languageHelp')}
                data={MAIL_LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
                value={language}
                onChange={(v) => v && setLanguage(v as Language)}
                allowDeselect={false}
                w={{ base: '100%', sm: 260 }}
              />
              <Divider label={t('mail.prefs.events')} labelPosition="left" />
              <Stack gap="sm" data-testid="mail-preference-events">
                {prefs.data!.concerning.map((e) => (
                  <Group key={e} justify="space-between" wrap="wrap" gap="xs" data-testid={`mail-pref-${e}`}>
                    <Text size="sm" fw={500}>
                      {eventLabel(t, e)}
                    </Text>
                    <SegmentedControl
                      aria-label={eventLabel(t, e)}
                      size="xs"
                      value={events[e] ?? 'immediate'}
                      onChange={(v) => setEvents((cur) => ({ ...cur, [e]: v as MailDelivery }))}
                      data={MAIL_DELIVERY.map((d) => ({ value: d, label: t(`mail.prefs.delivery.${d}`) }))}
                    />
                  </Group>
                ))}
              </Stack>
              <Text size="xs" c="dimmed">
                {t('mail.prefs.digestHelp')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('mail.prefs.alwaysSent')}
              </Text>
              <Group justify="flex-end">
                <Button onClick={submit} loading={save.isPending} data-testid="mail-prefs-save">
                  {t('mail.prefs.save')}
                </Button>
              </Group>
            </Stack>
          </Card>
        )}
      </QueryState>
    </Stack>
  );
}
