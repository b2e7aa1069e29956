import type { MenuItem } from '@aporta/domain';
import { IconChevronRight } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { MenuIcon } from './menuIcons.tsx';
import { activeGroupIds, isActiveLink } from './menuModel.ts';

/**
 * The menu as nested lists: titles, groups (up to three levels, a button that opens and closes them)
 * and links. The active entry is marked and the groups above it open when the page changes.
 * `forceOpen` opens every group (while searching).
 */
export function MenuTree({
  items,
  forceOpen = false,
  onNavigate,
}: {
  items: MenuItem[];
  forceOpen?: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [open, setOpen] = useState<Set<string>>(() => new Set(activeGroupIds(items, pathname)));

  const activeKey = activeGroupIds(items, pathname).join('|');
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
            title={label}
          >
            {depth === 0 && <MenuIcon name={item.icon} />}
            <span className="menu-label">{label}</span>
            <IconChevronRight className="menu-chevron" size={16} aria-hidden="true" />
          </button>
          <ul className="submenu" id={subId} hidden={!isOpen} data-depth={depth + 1}>
            {item.subItems.map((s) => render(s, depth + 1))}
          </ul>
        </li>
      );
    }
    const active = isActiveLink(item.link, pathname);
    return (
      <li key={item.id} className="menu-item">
        <Link
          className="menu-link"
          to={item.link ?? '/'}
          data-active={active}
          aria-current={active ? 'page' : undefined}
          onClick={onNavigate}
          title={label}
        >
          {depth === 0 && <MenuIcon name={item.icon} />}
          <span className="menu-label">{label}</span>
        </Link>
      </li>
    );
  };

  return <ul className="menu-list">{items.map((i) => render(i, 0))}</ul>;
}
