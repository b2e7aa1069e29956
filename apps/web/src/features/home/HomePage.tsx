import { fullNameOf, institutionLabelOf } from '@aporta/domain';
import { Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../auth/useAuth.ts';

export function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('home.greeting', { name: fullNameOf(user) })}
      </Title>
      <Card withBorder>
        <Text size="sm" c="dimmed">
          {t('home.institution')}
        </Text>
        <Text fw={600} data-testid="home-institution">
          {institutionLabelOf(user)}
        </Text>
      </Card>
    </Stack>
  );
}
