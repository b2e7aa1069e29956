import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** What browsers say when a screen's code (a lazily loaded chunk) could not be downloaded. */
const CHUNK_FAILURE = /dynamically imported module|Importing a module script failed|Loading chunk|module script/i;

/**
 * Shown instead of React Router's English developer page when a screen fails to load or render: a screen's
 * code that could not be downloaded (a dropped connection, a busy server, a new version deployed) says so in
 * the user's language and offers to load it again; anything else is an unexpected error, also with a retry.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message = error instanceof Error ? error.message : String(error ?? '');
  const chunk = CHUNK_FAILURE.test(message);
  return (
    <Stack align="center" py="xl" px="md" data-testid="route-error" role="alert">
      <Title order={1}>{chunk ? t('common.loadFailedTitle') : t('common.unexpectedTitle')}</Title>
      <Text ta="center">{chunk ? t('common.loadFailed') : t('common.unexpected')}</Text>
      <Button onClick={() => window.location.reload()}>{t('common.retry')}</Button>
    </Stack>
  );
}
