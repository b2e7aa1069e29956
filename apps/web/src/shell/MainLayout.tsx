import './shell.css';
import { effectiveLayout, type MenuItem, responsiveSidebarSize } from '@aporta/domain';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../lib/auth.ts';
import { useAppInfo } from '../lib/useAppInfo.ts';
import { BackToTop, Footer, Preloader, ThemeSpinner } from './FrameParts.tsx';
import { HorizontalMenu } from './HorizontalMenu.tsx';
import { Sidebar } from './Sidebar.tsx';
import { CommandPalette } from './search/CommandPalette.tsx';
import { layoutStore, useLayoutState } from './settings/layoutStore.ts';
import { SettingsDrawer } from './settings/SettingsDrawer.tsx';
import { Topbar } from './Topbar.tsx';
import { TwoColumnMenu } from './TwoColumnMenu.tsx';
import { useMenu } from './useMenu.ts';
import { useViewportWidth } from './useViewportWidth.ts';

const MOBILE_MAX = 767;

/** The shell's own first entry: the home page every signed-in user has (the spec's menu has no home). */
const homeEntry: MenuItem = { id: 'home', label: 'menu.home', icon: 'home', link: '/' };

/**
 * The main layout: vertical, horizontal or two-column per the user's settings, with topbar, menu,
 * content, footer and settings panel. Settings and the responsive state are written as attributes
 * on <html>, which shell.css reads.
 */
export function MainLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: user } = useCurrentUser();
  const info = useAppInfo();
  const { settings, themeChanging, themeChangeSeq } = useLayoutState();
  const width = useViewportWidth();
  const permitted = useMenu(user?.permissions);
  const menu = useMemo(() => {
    const [first, ...rest] = permitted;
    return first?.isTitle
      ? [first, homeEntry, ...rest]
      : [{ id: 'apps', label: 'menu.apps', isTitle: true }, homeEntry, ...permitted];
  }, [permitted]);
  const [collapsed, setCollapsed] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const isMobile = width <= MOBILE_MAX;
  const layout = effectiveLayout(width, settings.layout);
  const size = responsiveSidebarSize(width, collapsed ? 'sm' : settings.sidebarSize);
  const title = info?.title ?? t('shell.appName');
  const imageUrl = settings.sidebarImage === 'none' ? null : `/assets/sidebar/${settings.sidebarImage}.svg`;

  useEffect(() => {
    void layoutStore.load();
  }, []);

  // Scroll to top on navigation (spec section 2) and close the phone menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page, by design.
  useEffect(() => {
    window.scrollTo(0, 0);
    setMobileOpen(false);
  }, [pathname]);

  useLayoutEffect(() => {
    const html = document.documentElement;
    const attrs: Record<string, string | null> = {
      'data-layout': layout,
      'data-theme': settings.theme,
      'data-layout-width': settings.layout === 'twocolumn' ? 'fluid' : settings.width,
      'data-layout-position': settings.layout === 'twocolumn' ? 'fixed' : settings.position,
      'data-topbar': settings.topbar,
      'data-sidebar': layout === 'horizontal' && !isMobile ? null : settings.sidebarColor,
      'data-sidebar-size': layout === 'vertical' ? size : null,
      'data-layout-style': layout === 'vertical' ? settings.sidebarView : null,
      'data-sidebar-image': settings.sidebarImage,
      'data-preloader': settings.preloader,
      'data-mobile': isMobile ? 'true' : null,
      'data-mobile-menu': isMobile && mobileOpen ? 'open' : null,
    };
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null) html.removeAttribute(k);
      else html.setAttribute(k, v);
    }
  });
  useEffect(
    () => () => {
      for (const k of [
        'data-layout',
        'data-sidebar-size',
        'data-sidebar',
        'data-layout-style',
        'data-mobile',
        'data-mobile-menu',
      ]) {
        document.documentElement.removeAttribute(k);
      }
    },
    [],
  );

  const onMenuButton = () => (isMobile ? setMobileOpen((o) => !o) : setCollapsed((c) => !c));
  const showSidebar = isMobile || layout !== 'horizontal';

  return (
    <div className="layout" data-testid="layout">
      <Topbar
        title={title}
        showBrand={layout === 'horizontal' || isMobile || settings.sidebarView === 'detached'}
        onMenuButton={onMenuButton}
        menuButtonLabel={isMobile ? t('shell.toggleMenu') : collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
        onOpenSettings={() => setSettingsOpen(true)}
      />
      {showSidebar && (
        <aside className="layout-sidebar" aria-label={t('shell.sidebar')} data-testid="sidebar-region">
          {layout === 'twocolumn' && !isMobile ? (
            <TwoColumnMenu items={menu} title={title} imageUrl={imageUrl} />
          ) : (
            <Sidebar
              items={menu}
              title={title}
              imageUrl={imageUrl}
              collapsed={collapsed}
              iconOnly={!isMobile && layout === 'vertical' && size === 'sm'}
              onToggleCollapse={() => setCollapsed((c) => !c)}
              isMobile={isMobile}
              onClose={() => setMobileOpen(false)}
            />
          )}
        </aside>
      )}
      {isMobile && mobileOpen && (
        <button
          type="button"
          className="mobile-backdrop"
          aria-label={t('shell.closeMenu')}
          onClick={() => setMobileOpen(false)}
          tabIndex={-1}
        />
      )}
      {layout === 'horizontal' && !isMobile && (
        <div className="layout-hmenu">
          <HorizontalMenu items={menu} />
        </div>
      )}
      <main className="layout-main" id="main-content">
        <Outlet />
      </main>
      <Footer info={info} />
      <SettingsDrawer opened={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <CommandPalette menu={menu} />
      <BackToTop />
      <Preloader enabled={settings.preloader === 'enable'} />
      <ThemeSpinner visible={themeChanging} seq={themeChangeSeq} onDone={layoutStore.endThemeChange} />
    </div>
  );
}
