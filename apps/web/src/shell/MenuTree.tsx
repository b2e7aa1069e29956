import type { MenuItem } from '@aporta/domain';
import { Badge, Tooltip } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { MenuIcon } from './menuIcons.tsx';
import { activeGroupIds, activeLinkOf, isActiveLink } from './menuModel.ts';

/**
 * The menu as nested lists: titles, groups (up to three levels, a button that opens and closes them)
 * and links. The active entry is marked and the groups above it open when the page changes.
 * `forceOpen` opens every group (while searching). `activeLink` is the one highlighted entry, chosen
 * over the whole menu (activeLinkOf); `iconOnly` (the collapsed sidebar) names each top entry in a
 * tooltip and each group at the top of its fly-out.
 */
export function MenuTree({
  items,
  forceOpen = false,
  onNavigate,
  activeLink,
  iconOnly = false,
}: {
  items: MenuItem[];
  forceOpen?: boolean;
  onNavigate?: () => void;
  activeLink?: string;
  iconOnly?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const active = activeLink ?? activeLinkOf(items, pathname);
  const [open, setOpen] = useState<Set<string>>(() => new Set(activeGroupIds(items, active)));

  const activeKey = activeGroupIds(items, active).join('|');
  useEffect(() => {
    if (!activeKey) return;
    setOpen((prev) => {
      const ids = activeKey.split('|');
      return ids.every((id) => prev.has(id)) ? prev : new Set([...prev, ...ids]);
    });
  }, [activeKey]);

  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const render = (item: MenuItem, depth: number) => {
    if (item.isTitle) {
      return (
        <li key={item.id} className="menu-title">
          {t(item.label)}
        </li>
      );
    }
    const label = t(item.label);
    if (item.subItems?.length) {
      const isOpen = forceOpen || open.has(item.id);
      const subId = `submenu-${item.id}`;
      return (
        <li key={item.id} className="menu-item menu-group">
          <button
            type="button"
            className="menu-link"
            aria-expanded={isOpen}
            aria-controls={subId}
            onClick={() => toggle(item.id)}
            title={iconOnly ? undefined : label}
          >
            {depth === 0 && <MenuIcon name={item.icon} />}
            <span className="menu-label">{label}</span>
            <IconChevronRight className="menu-chevron" size={16} aria-hidden="true" />
          </button>
          <ul className="submenu" id={subId} hidden={!isOpen} data-depth={depth + 1}>
            {iconOnly && depth === 0 && (
              <li className="submenu-title" aria-hidden="true">
                {label}
              </li>
            )}
            {item.subItems.map((s) => render(s, depth + 1))}
          </ul>
        </li>
      );
    }
    const isActive = isActiveLink(item.link, active);
    const link = (
      <Link
        className="menu-link"
        to={item.link ?? '/'}
        data-active={isActive}
        aria-current={isActive ? 'page' : undefined}
        onClick={onNavigate}
        title={iconOnly && depth === 0 ? undefined : label}
      >
        {depth === 0 && <MenuIcon name={item.icon} />}
        <span className="menu-label">{label}</span>
        {item.badge && (
          <Badge size="sm" color="red" circle={item.badge.text.length < 3} ms="auto" data-testid={`menu-badge-${item.id}`}>
            {item.badge.text}
          </Badge>
        )}
      </Link>
    );
    return (
      <li key={item.id} className="menu-item">
        {iconOnly && depth === 0 ? (
          <Tooltip label={label} position={i18n.dir() === 'rtl' ? 'left' : 'right'} withArrow openDelay={100}>
            {link}
          </Tooltip>
        ) : (
          link
        )}
      </li>
    );
  };

  return <ul className="menu-list">{items.map((i) => render(i, 0))}</ul>;
}
