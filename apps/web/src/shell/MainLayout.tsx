import { fullNameOf, initialsOf, institutionLabelOf } from '@aporta/domain';
import { AppShell, Avatar, Burger, Group, Menu, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { useCurrentUser, useLogout } from '../features/auth/useAuth.ts';
import { SidebarMenu } from './SidebarMenu.tsx';
import { useMenu } from './useMenu.ts';

export function MainLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const logout = useLogout();
  const menu = useMenu(user?.permissions);
  const [opened, { toggle }] = useDisclosure();
  const signOut = () => logout.mutate(undefined, { onSettled: () => navigate('/auth/login', { replace: true }) });

  return (
    <AppShell
      header={{ height: 60 }}
      footer={{ height: 40 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('shell.toggleMenu')} />
            <Text fw={800} c="blue.8" fz="xl">
              {t('shell.appName')}
            </Text>
          </Group>
          {user && (
            <Menu position="bottom-end" withArrow>
              <Menu.Target>
                <UnstyledButton data-testid="user-menu">
                  <Group gap="xs">
                    <Avatar color="blue" radius="xl">
                      {initialsOf(user)}
                    </Avatar>
                    <div>
                      <Text size="sm" fw={600} data-testid="user-name">
                        {fullNameOf(user)}
                      </Text>
                      <Text size="xs" c="dimmed" data-testid="user-institution">
                        {institutionLabelOf(user)}
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconLogout size={16} />} onClick={signOut}>
                  {t('shell.logout')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <ScrollArea>
          <SidebarMenu items={menu} />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer px="md">
        <Group h="100%" justify="space-between">
          <Text size="xs" c="dimmed">
            © {new Date().getFullYear()} {t('shell.copyright')}
          </Text>
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}
