import type { MenuItem } from '@aporta/domain';
import { NavLink, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, useLocation } from 'react-router';

/** The filtered menu tree: titles, groups (opened when they hold the active entry) and links. */
export function SidebarMenu({ items }: { items: MenuItem[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const holdsActive = (item: MenuItem): boolean => item.link === pathname || (item.subItems ?? []).some((s) => holdsActive(s));
  const render = (item: MenuItem) => {
    if (item.isTitle) {
      return (
        <Text key={item.id} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
          {t(item.label)}
        </Text>
      );
    }
    if (item.subItems) {
      return (
        <NavLink key={item.id} label={t(item.label)} defaultOpened={holdsActive(item)} childrenOffset="md">
          {item.subItems.map(render)}
        </NavLink>
      );
    }
    return (
      <NavLink
        key={item.id}
        label={t(item.label)}
        component={RouterLink}
        to={item.link ?? '/'}
        end
        active={item.link === pathname}
      />
    );
  };
  return <nav aria-label={t('shell.mainMenu')}>{items.map(render)}</nav>;
}
