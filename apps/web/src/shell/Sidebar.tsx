import { fullNameOf, initialsOf, institutionLabelOf, type MenuItem } from '@aporta/domain';
import { Avatar, TextInput } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconSearch, IconX } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '../lib/auth.ts';
import { MenuTree } from './MenuTree.tsx';
import { activeLinkOf, searchMenu } from './menuModel.ts';

export function Brand({ title, className = 'app-menu-brand' }: { title: string; className?: string }) {
  return (
    <Link to="/" className={className}>
      <span className="app-menu-brand-mark" aria-hidden="true">
        {title.slice(0, 1).toUpperCase()}
      </span>
      <span className="app-menu-brand-text">{title}</span>
    </Link>
  );
}

/** The user's institution, full name and initials (spec section 1). */
export function ProfileBlock() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <div className="app-menu-profile" data-testid="sidebar-profile">
      <Avatar color="blue" variant="filled" radius="xl" size={38} aria-hidden="true">
        {initialsOf(user)}
      </Avatar>
      <div className="app-menu-profile-text">
        <div className="app-menu-profile-name">{fullNameOf(user)}</div>
        <div className="app-menu-profile-inst" data-testid="sidebar-institution">
          {institutionLabelOf(user)}
        </div>
      </div>
    </div>
  );
}

/** The menu with its search box (by label); used by the vertical sidebar and the mobile menu. */
export function SearchableMenu({
  items,
  onNavigate,
  iconOnly = false,
}: {
  items: MenuItem[];
  onNavigate?: () => void;
  iconOnly?: boolean;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [query, setQuery] = useState('');
  const activeLink = activeLinkOf(items, pathname);
  const shown = useMemo(() => searchMenu(items, query, (k) => t(k)), [items, query, t]);
  return (
    <>
      <div className="app-menu-search">
        <TextInput
          size="sm"
          placeholder={t('shell.menuSearch')}
          aria-label={t('shell.menuSearch')}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          type="search"
          data-testid="menu-search"
        />
      </div>
      <nav aria-label={t('shell.mainMenu')} className="app-menu-scroll">
        {shown.length ? (
          <MenuTree
            items={shown}
            forceOpen={!!query.trim()}
            onNavigate={onNavigate}
            activeLink={activeLink}
            iconOnly={iconOnly}
          />
        ) : (
          <p className="menu-empty">{t('shell.menuNoResults')}</p>
        )}
      </nav>
    </>
  );
}

/**
 * The vertical sidebar (260 px; 180 md; 70 collapsed) with the institution, profile, menu search and
 * the buttons to collapse it and, on phones, to close it.
 */
export function Sidebar(props: {
  items: MenuItem[];
  title: string;
  imageUrl: string | null;
  collapsed: boolean;
  /** Only icons show (70 px, collapsed by the button or by the window's width). */
  iconOnly?: boolean;
  onToggleCollapse: () => void;
  isMobile: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div
      className="app-menu"
      data-testid="sidebar"
      data-image={props.imageUrl ? '' : undefined}
      style={props.imageUrl ? ({ '--sb-image': `url(${props.imageUrl})` } as React.CSSProperties) : undefined}
    >
      <div className="app-menu-header">
        <Brand title={props.title} />
        {props.isMobile ? (
          <button
            type="button"
            className="app-menu-btn"
            onClick={props.onClose}
            aria-label={t('shell.closeMenu')}
            data-testid="sidebar-close"
          >
            <IconX size={20} aria-hidden="true" />
          </button>
        ) : (
          <button
            type="button"
            className="app-menu-btn"
            onClick={props.onToggleCollapse}
            aria-label={props.collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
            aria-pressed={props.collapsed}
            data-testid="sidebar-collapse"
          >
            {props.collapsed ? (
              <IconLayoutSidebarLeftExpand size={20} aria-hidden="true" />
            ) : (
              <IconLayoutSidebarLeftCollapse size={20} aria-hidden="true" />
            )}
          </button>
        )}
      </div>
      <ProfileBlock />
      <SearchableMenu items={props.items} onNavigate={props.isMobile ? props.onClose : undefined} iconOnly={props.iconOnly} />
    </div>
  );
}
