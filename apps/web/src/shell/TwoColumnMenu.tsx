import type { MenuItem } from '@aporta/domain';
import { Tooltip } from '@mantine/core';
import { IconApps } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { MenuTree } from './MenuTree.tsx';
import { MenuIcon } from './menuIcons.tsx';
import { activeLinkOf, holdsActive } from './menuModel.ts';
import { Brand, ProfileBlock } from './Sidebar.tsx';

const ROOT = '__root';

/**
 * Two columns: icons for the top-level sections (the direct entries together, then each group) and
 * the chosen section's entries beside them. The section holding the current page is chosen on arrival.
 */
export function TwoColumnMenu({ items, title, imageUrl }: { items: MenuItem[]; title: string; imageUrl: string | null }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const leaves = useMemo(() => items.filter((i) => !i.isTitle && !i.subItems?.length), [items]);
  const groups = useMemo(() => items.filter((i) => i.subItems?.length), [items]);
  const activeLink = activeLinkOf(items, pathname);
  const activeSection = groups.find((g) => holdsActive(g, activeLink))?.id ?? ROOT;
  const [section, setSection] = useState(activeSection);
  useEffect(() => setSection(activeSection), [activeSection]);

  const current = groups.find((g) => g.id === section);
  const shown = useMemo(
    () => (current ? (current.subItems ?? []) : items.filter((i) => i.isTitle || !i.subItems?.length)),
    [current, items],
  );
  const sections = [
    ...(leaves.length ? [{ id: ROOT, label: t('menu.apps'), icon: null as string | null }] : []),
    ...groups.map((g) => ({ id: g.id, label: t(g.label), icon: g.icon ?? null })),
  ];

  return (
    <div className="twocol" data-testid="twocolumn-menu">
      <div className="twocol-icons app-menu" role="tablist" aria-label={t('shell.menuSections')} aria-orientation="vertical">
        {sections.map((s) => (
          <Tooltip key={s.id} label={s.label} position="right" withArrow>
            <button
              type="button"
              role="tab"
              className="twocol-icon"
              aria-selected={section === s.id}
              aria-controls="twocol-panel"
              data-active={section === s.id}
              aria-label={s.label}
              onClick={() => setSection(s.id)}
            >
              {s.icon ? <MenuIcon name={s.icon} size={22} /> : <IconApps size={22} aria-hidden="true" />}
            </button>
          </Tooltip>
        ))}
      </div>
      <div
        className="twocol-sub app-menu"
        id="twocol-panel"
        role="tabpanel"
        data-image={imageUrl ? '' : undefined}
        style={imageUrl ? ({ '--sb-image': `url(${imageUrl})` } as React.CSSProperties) : undefined}
      >
        <div className="app-menu-header">
          <Brand title={title} />
        </div>
        <ProfileBlock />
        <nav aria-label={t('shell.mainMenu')} className="app-menu-scroll">
          {current && <div className="menu-title">{t(current.label)}</div>}
          <MenuTree items={shown} forceOpen={!!current} activeLink={activeLink} />
        </nav>
      </div>
    </div>
  );
}
