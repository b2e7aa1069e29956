import { menuTree } from '@aporta/domain/menu';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

const leafLinks = (items: typeof menuTree): string[] =>
  items.flatMap((i) => [...(i.link ? [i.link] : []), ...leafLinks(i.subItems ?? [])]);
/** Links of the specification's menu: a module not built yet says so instead of "does not exist". */
const specLinks = new Set(leafLinks(menuTree));

export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const planned = specLinks.has(pathname.replace(/\/+$/, '') || '/');
  return (
    <Stack align="center" py="xl" data-testid={planned ? 'screen-unavailable' : 'not-found'}>
      <Title order={1}>{planned ? t('common.unavailableTitle') : '404'}</Title>
      <Text>{planned ? t('common.unavailable') : t('common.notFound')}</Text>
      <Button component={Link} to="/">
        {t('common.backHome')}
      </Button>
    </Stack>
  );
}
