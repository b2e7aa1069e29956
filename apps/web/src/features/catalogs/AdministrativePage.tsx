import { Card, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { QueryState } from '../../components/QueryState.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useCollectionSummary } from '../../lib/useCollections.ts';
import { administrativeCatalogues } from './routes.tsx';

/** /administrative: how many rows each catalogue the user may read holds, each a link to its screen. */
export function AdministrativePage() {
  const { t } = useTranslation();
  const summary = useCollectionSummary();
  const { data } = summary;
  const can = useCan();
  const extra = [
    { name: 'statistics', link: '/administrative/statistics' },
    { name: 'planilla-audit-logs', link: '/administrative/planilla-audit-logs' },
    // The general audit view has no entry in the specification's menu; it is reached from here.
    { name: 'audit', link: '/audit' },
  ] as const;
  const permitted = extra.filter((e) => can(e.name, 'READ'));
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('catalogs.overviewTitle')}
      </Title>
      <Text c="dimmed">{t('catalogs.overviewIntro')}</Text>
      <QueryState query={summary}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }}>
          {(data ?? [])
            .flatMap((s) => {
              const screen = administrativeCatalogues.find((c) => c.name === s.name);
              return screen ? [{ ...s, link: screen.link }] : [];
            })
            .map((s) => (
              <UnstyledButton key={s.name} component={Link} to={s.link} data-testid={`overview-${s.name}`}>
                <Card withBorder h="100%">
                  <Text size="sm" c="dimmed">
                    {t(s.labelKey, { defaultValue: s.label })}
                  </Text>
                  <Text fz={28} fw={700}>
                    {s.count.toLocaleString('en-US')}
                  </Text>
                </Card>
              </UnstyledButton>
            ))}
          {permitted.map((e) => (
            <UnstyledButton key={e.name} component={Link} to={e.link}>
              <Card withBorder h="100%">
                <Text fw={600}>{t(`catalogs.collections.${e.name}`)}</Text>
                <Text size="sm" c="dimmed">
                  {t('catalogs.open')}
                </Text>
              </Card>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </QueryState>
    </Stack>
  );
}
