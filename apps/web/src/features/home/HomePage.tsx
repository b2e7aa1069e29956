import { fullNameOf, institutionLabelOf } from '@aporta/domain';
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconChecklist } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { QueryState } from '../../components/QueryState.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { useHomeQueues } from './api.ts';

export function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const queues = useHomeQueues();
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
      <section aria-labelledby="home-queues">
        <Title order={2} size="h4" id="home-queues" mb="sm">
          {t('home.queues')}
        </Title>
        <QueryState query={queues}>
          {() => {
            const items = queues.data?.items ?? [];
            return (
              <Stack gap="sm">
                {items.every((q) => q.count === 0) && (
                  <Text c="dimmed" data-testid="home-no-queues">
                    {t('home.noQueues')}
                  </Text>
                )}
                {/* Every queue the user may work is listed, so the empty ones say "nothing waits" too. */}
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="home-queues">
                  {items.map((q) => {
                    // A stranded-money check (should read zero): red, with a label, when it does not.
                    const alarm = q.alert && q.count > 0;
                    return (
                      <UnstyledButton key={q.id} component={Link} to={q.link} data-testid={`queue-${q.id}`}>
                        <Card withBorder h="100%" style={alarm ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}>
                          <Group justify="space-between" wrap="nowrap">
                            <Group gap="sm" wrap="nowrap">
                              {alarm ? (
                                <IconAlertTriangle size={22} color="var(--mantine-color-red-6)" aria-hidden />
                              ) : (
                                <IconChecklist size={22} aria-hidden />
                              )}
                              <Stack gap={2}>
                                <Text fw={600}>{q.title}</Text>
                                {alarm && (
                                  <Badge color="red" variant="light" w="fit-content" data-testid="queue-alert">
                                    {t('home.queueAlert')}
                                  </Badge>
                                )}
                              </Stack>
                            </Group>
                            <Text fw={700} size="lg" ta="end" data-testid="queue-count">
                              {t('home.queueCount', { count: q.count })}
                            </Text>
                          </Group>
                        </Card>
                      </UnstyledButton>
                    );
                  })}
                </SimpleGrid>
              </Stack>
            );
          }}
        </QueryState>
      </section>
    </Stack>
  );
}
