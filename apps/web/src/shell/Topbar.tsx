import { fullNameOf, initialsOf, institutionLabelOf } from '@aporta/domain';
import { ActionIcon, Avatar, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useFullscreenDocument } from '@mantine/hooks';
import {
  IconLanguage,
  IconLogout,
  IconMail,
  IconMaximize,
  IconMenu2,
  IconMinimize,
  IconMoon,
  IconSearch,
  IconSettings,
  IconSun,
  IconUserCircle,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CartButton } from '../features/template/Cart.tsx';
import { useCurrentUser, useLogout } from '../lib/auth.ts';
import { changeLanguage, LANGUAGE_NAMES, LANGUAGES, parseLanguage } from '../lib/i18n.ts';
import { screenPaths } from '../screens.ts';
import { NotificationsMenu } from './notifications/NotificationsMenu.tsx';
import { Brand } from './Sidebar.tsx';
import { openCommandPalette } from './search/CommandPalette.tsx';
import { layoutStore, useLayoutSettings } from './settings/layoutStore.ts';

function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = parseLanguage(i18n.language);
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <Tooltip label={t('shell.language')}>
          <ActionIcon
            variant="subtle"
            size="lg"
            className="topbar-btn"
            aria-label={t('shell.language')}
            data-testid="language-menu"
          >
            <IconLanguage size={22} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((lang) => (
          <Menu.Item
            key={lang}
            lang={lang === 'ch' ? 'zh' : lang === 'gr' ? 'de' : lang}
            onClick={() => void changeLanguage(lang)}
            fw={lang === current ? 700 : undefined}
            aria-current={lang === current ? 'true' : undefined}
          >
            {LANGUAGE_NAMES[lang]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const logout = useLogout();
  if (!user) return null;
  const signOut = () => logout.mutate(undefined, { onSettled: () => navigate('/auth/login', { replace: true }) });
  return (
    <Menu position="bottom-end" withArrow width={240}>
      <Menu.Target>
        <UnstyledButton data-testid="user-menu" className="topbar-user" title={t('shell.userMenu')}>
          <Avatar color="blue" variant="filled" radius="xl" size={36} aria-hidden="true">
            {initialsOf(user)}
          </Avatar>
          <div className="topbar-user-text" style={{ lineHeight: 1.2 }}>
            <Text size="sm" fw={600} data-testid="user-name" visibleFrom="md">
              {fullNameOf(user)}
            </Text>
            <Text className="topbar-user-inst" data-testid="user-institution" visibleFrom="md">
              {institutionLabelOf(user)}
            </Text>
          </div>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        {screenPaths.includes('/profile') && (
          <Menu.Item component={Link} to="/profile" leftSection={<IconUserCircle size={16} />}>
            {t('shell.profile')}
          </Menu.Item>
        )}
        {screenPaths.includes('/profile/correo') && (
          <Menu.Item component={Link} to="/profile/correo" leftSection={<IconMail size={16} />}>
            {t('shell.mailPreferences')}
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={signOut}>
          {t('shell.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function Topbar(props: {
  title: string;
  showBrand: boolean;
  onMenuButton: () => void;
  menuButtonLabel: string;
  onOpenSettings: () => void;
}) {
  const { t } = useTranslation();
  const settings = useLayoutSettings();
  const fullscreen = useFullscreenDocument();
  const dark = settings.mode === 'dark';
  return (
    <header className="layout-topbar" data-testid="topbar">
      <ActionIcon
        variant="subtle"
        size="lg"
        className="topbar-btn"
        onClick={props.onMenuButton}
        aria-label={props.menuButtonLabel}
        data-testid="menu-toggle"
      >
        <IconMenu2 size={22} aria-hidden="true" />
      </ActionIcon>
      {props.showBrand && <Brand title={props.title} className="topbar-brand" />}
      <button
        type="button"
        className="topbar-search"
        onClick={openCommandPalette}
        data-testid="topbar-search"
        aria-keyshortcuts="Control+K"
      >
        <IconSearch size={16} aria-hidden="true" />
        <span className="topbar-search-text">{t('shell.search')}</span>
        <span className="topbar-kbd" aria-hidden="true">
          Ctrl K
        </span>
      </button>
      <div className="topbar-spacer" />
      <LanguageMenu />
      <Tooltip label={dark ? t('shell.lightMode') : t('shell.darkMode')}>
        <ActionIcon
          variant="subtle"
          size="lg"
          className="topbar-btn"
          onClick={() => layoutStore.set('mode', dark ? 'light' : 'dark')}
          aria-label={dark ? t('shell.lightMode') : t('shell.darkMode')}
          data-testid="mode-toggle"
        >
          {dark ? <IconSun size={22} aria-hidden="true" /> : <IconMoon size={22} aria-hidden="true" />}
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('shell.fullscreen')}>
        <ActionIcon
          variant="subtle"
          size="lg"
          className="topbar-btn"
          onClick={() => void fullscreen.toggle().catch(() => undefined)}
          aria-label={t('shell.fullscreen')}
          aria-pressed={fullscreen.fullscreen}
          visibleFrom="sm"
        >
          {fullscreen.fullscreen ? <IconMinimize size={22} aria-hidden="true" /> : <IconMaximize size={22} aria-hidden="true" />}
        </ActionIcon>
      </Tooltip>
      <NotificationsMenu />
      <CartButton />
      <Tooltip label={t('shell.settings.title')}>
        <ActionIcon
          variant="subtle"
          size="lg"
          className="topbar-btn"
          onClick={props.onOpenSettings}
          aria-label={t('shell.settings.title')}
          data-testid="settings-button"
        >
          <IconSettings size={22} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      <UserMenu />
    </header>
  );
}
