import type { MenuItem } from '@aporta/domain';
import { Menu } from '@mantine/core';
import { IconChevronDown, IconDots } from '@tabler/icons-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { MenuIcon } from './menuIcons.tsx';
import { activeLinkOf, fitHorizontal, holdsActive, isActiveLink } from './menuModel.ts';

/** Entries of a group as dropdown items; a third level opens as a sub-menu. */
function DropdownItems({ items, activeLink }: { items: MenuItem[]; activeLink: string | undefined }) {
  const { t } = useTranslation();
  return items.map((item) => {
    if (item.isTitle) return <Menu.Label key={item.id}>{t(item.label)}</Menu.Label>;
    if (item.subItems?.length) {
      return (
        <Menu.Sub key={item.id}>
          <Menu.Sub.Target>
            <Menu.Sub.Item leftSection={<MenuIcon name={item.icon} size={16} />}>{t(item.label)}</Menu.Sub.Item>
          </Menu.Sub.Target>
          <Menu.Sub.Dropdown>
            <DropdownItems items={item.subItems} activeLink={activeLink} />
          </Menu.Sub.Dropdown>
        </Menu.Sub>
      );
    }
    const active = isActiveLink(item.link, activeLink);
    return (
      <Menu.Item
        key={item.id}
        component={Link}
        to={item.link ?? '/'}
        leftSection={<MenuIcon name={item.icon} size={16} />}
        aria-current={active ? 'page' : undefined}
        fw={active ? 700 : undefined}
      >
        {t(item.label)}
      </Menu.Item>
    );
  });
}

function TopEntry({ item, activeLink }: { item: MenuItem; activeLink: string | undefined }) {
  const { t } = useTranslation();
  const active = holdsActive(item, activeLink);
  if (item.subItems?.length) {
    return (
      <Menu trigger="click-hover" position="bottom-start" offset={4} openDelay={80} closeDelay={150}>
        <Menu.Target>
          <button type="button" className="menu-link" data-active={active}>
            <MenuIcon name={item.icon} size={18} />
            <span>{t(item.label)}</span>
            <IconChevronDown size={14} aria-hidden="true" />
          </button>
        </Menu.Target>
        <Menu.Dropdown>
          <DropdownItems items={item.subItems} activeLink={activeLink} />
        </Menu.Dropdown>
      </Menu>
    );
  }
  return (
    <Link className="menu-link" to={item.link ?? '/'} data-active={active} aria-current={active ? 'page' : undefined}>
      <MenuIcon name={item.icon} size={18} />
      <span>{t(item.label)}</span>
    </Link>
  );
}

/**
 * The menu across the top. Entries that do not fit (keeping the specification's 100 px margin) move
 * into a "Más" sub-menu; widths are measured from an invisible copy of the row.
 */
export function HorizontalMenu({ items }: { items: MenuItem[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const activeLink = activeLinkOf(items, pathname);
  const entries = items.filter((i) => !i.isTitle);
  const rowRef = useRef<HTMLDivElement>(null);
  const measureRef = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(entries.length);

  useLayoutEffect(() => {
    const row = rowRef.current;
    const measure = measureRef.current;
    if (!row || !measure) return;
    const compute = () => {
      const nodes = [...measure.children] as HTMLElement[];
      const more = nodes.pop();
      const widths = nodes.map((n) => n.getBoundingClientRect().width + 2);
      setFit(fitHorizontal(widths, row.getBoundingClientRect().width, (more?.getBoundingClientRect().width ?? 80) + 2));
    };
    compute();
    const ro = new ResizeObserver(compute);
    ro.observe(row);
    ro.observe(measure);
    return () => ro.disconnect();
  }, []);

  const visible = entries.slice(0, fit);
  const overflow = entries.slice(fit);
  return (
    <nav aria-label={t('shell.mainMenu')} className="hmenu" data-testid="horizontal-menu">
      <div className="hmenu-row" ref={rowRef} style={{ position: 'relative' }}>
        <div className="hmenu-measure" ref={measureRef} aria-hidden="true" inert>
          {entries.map((item) => (
            <span key={item.id} className="menu-link">
              <MenuIcon name={item.icon} size={18} />
              <span>{t(item.label)}</span>
              {item.subItems?.length ? <IconChevronDown size={14} /> : null}
            </span>
          ))}
          <span className="menu-link">
            <IconDots size={18} />
            <span>{t('shell.more')}</span>
            <IconChevronDown size={14} />
          </span>
        </div>
        {visible.map((item) => (
          <TopEntry key={item.id} item={item} activeLink={activeLink} />
        ))}
        {overflow.length > 0 && (
          <Menu trigger="click-hover" position="bottom-end" offset={4} openDelay={80} closeDelay={150}>
            <Menu.Target>
              <button type="button" className="menu-link" data-testid="menu-more">
                <IconDots size={18} aria-hidden="true" />
                <span>{t('shell.more')}</span>
                <IconChevronDown size={14} aria-hidden="true" />
              </button>
            </Menu.Target>
            <Menu.Dropdown data-testid="menu-more-dropdown">
              <DropdownItems items={overflow} activeLink={activeLink} />
            </Menu.Dropdown>
          </Menu>
        )}
      </div>
    </nav>
  );
}
