import { useEffect, useState, type ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Grid, Tooltip } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { ProLayout } from '@ant-design/pro-layout';
import { useTranslation } from 'react-i18next';
import { AvatarDropdown } from '../../components/AvatarDropdown.tsx';
import { AlertBell } from '../../features/alerts/AlertBell.tsx';
import { EnterpriseDropdown } from '../../components/EnterpriseDropdown.tsx';
import { GlobalFooter } from '../../components/GlobalFooter.tsx';
import { DatabaseBanner } from '../../components/DatabaseBanner.tsx';
import { MultiTab } from '../../components/MultiTab.tsx';
import { SelectLang } from '../../components/SelectLang.tsx';
import { useSession } from '../../stores/session.ts';
import { PRIMARY_COLORS, useSettings } from '../../stores/settings.ts';
import type { MenuItem } from '../../stores/menus.ts';
import { useDocumentTitle, useRouteMeta } from '../../routing/routeMeta.ts';
import { later, useOpenedOnce } from '../../components/later.tsx';
import './layout.css';

// The settings drawer's code (its switches, radios, lists) loads when it is first opened.
const SettingsDrawer = later(() => import('../../components/SettingsDrawer.tsx').then((m) => m.SettingsDrawer));

const DARK_NAV = '#001529';

export interface ConsoleLayoutProps {
  /** Menu entries; none for layouts without a menu. */
  menus?: MenuItem[];
  /** Shown at the left of the header actions (e.g. a link back to project management). */
  headerExtra?: ReactNode;
  /** Subtitle after the product title. */
  subtitle?: string;
  /** Content without padding (full-map workspaces). */
  fullBleed?: boolean;
}

/** Hides the fixed header while scrolling down when autoHideHeader is on. */
function useAutoHideHeader(enabled: boolean) {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) return setHidden(false);
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      setHidden(y > last && y > 64);
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled]);
  return hidden;
}

/**
 * Parts antd draws that a keyboard reaches wrongly, set right as they appear:
 * - the top menu keeps the entries that do not fit in the bar as hidden copies (aria-hidden) whose
 *   links can still take the focus, and a table's measuring row (aria-hidden) holds a copy of the
 *   column titles with the select-all box: a keyboard would land on something no screen reader
 *   announces, so they are made inert while hidden;
 * - a table that scrolls sideways must be reachable to be scrolled by keyboard (WCAG 2.1.1).
 */
function useKeyboardSafeAntdParts() {
  useEffect(() => {
    let queued = 0;
    const mark = () => {
      queued = 0;
      for (const item of document.querySelectorAll<HTMLElement>('.ant-menu-overflow-item, .ant-table-measure-row')) {
        const hidden = item.getAttribute('aria-hidden') === 'true';
        if (hidden !== item.inert) item.inert = hidden;
      }
      for (const box of document.querySelectorAll<HTMLElement>('.ant-table-content')) {
        const scrolls = box.scrollWidth > box.clientWidth;
        if (scrolls && box.tabIndex !== 0) box.tabIndex = 0;
        else if (!scrolls && box.hasAttribute('tabindex')) box.removeAttribute('tabindex');
      }
    };
    const queue = () => {
      if (!queued) queued = requestAnimationFrame(mark);
    };
    mark();
    const observer = new MutationObserver(queue);
    observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-hidden'], childList: true });
    window.addEventListener('resize', queue);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', queue);
      cancelAnimationFrame(queued);
    };
  }, []);
}

/** The frame of every signed-in page: ProLayout with header actions, tabs, content and footer. */
export function ConsoleLayout({ menus, headerExtra, subtitle, fullBleed }: ConsoleLayoutProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const settings = useSettings();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const meta = useRouteMeta();
  const documentTitle = useDocumentTitle();
  const screens = Grid.useBreakpoint();
  const [drawer, setDrawer] = useState(false);
  const drawerOpened = useOpenedOnce(drawer);
  const isMobile = screens.md === false;
  const headerHidden = useAutoHideHeader(settings.fixedHeader && settings.autoHideHeader);
  useKeyboardSafeAntdParts();

  useEffect(() => {
    if (settings.isMobile !== isMobile) useSettings.setState({ isMobile });
  }, [isMobile, settings.isMobile]);

  const dark = settings.theme === 'dark';
  // Menu popups are portalled to <body>; layout.css colours them by this attribute.
  useEffect(() => {
    document.body.dataset.navTheme = settings.theme;
  }, [settings.theme]);
  const primary = PRIMARY_COLORS[settings.primaryColor];
  // The side menu sits under a full-width header that carries the title and actions ("mix").
  const layout = settings.layout === 'sidemenu' ? 'mix' : 'top';
  // Mobile width: the menu collapses and the content goes fluid; a full-map workspace is always fluid.
  const contentWidth = isMobile || layout === 'mix' || fullBleed ? 'Fluid' : settings.contentWidth;
  const hasMenu = Boolean(menus && menus.length);

  const translate = (items: MenuItem[]): MenuItem[] =>
    items.map((item) => ({ ...item, name: t(item.name), children: item.children ? translate(item.children) : undefined }));

  return (
    <div className={`console-layout${headerHidden ? ' header-hidden' : ''}${fullBleed ? ' full-bleed' : ''}`} data-testid="console-layout" data-layout={settings.layout} data-theme={settings.theme} data-content-width={contentWidth}>
      <ProLayout
        // The spec's name of the product, whole (a phone's header shows the logo only).
        title={t('app.title')}
        // ProLayout titles the document from its menu, which layouts without a menu lack.
        pageTitleRender={() => documentTitle}
        logo="/logo.svg"
        layout={layout}
        navTheme="light"
        // The header always spans the window; a fixed content width applies to the content below.
        contentWidth="Fluid"
        fixedHeader={settings.fixedHeader}
        fixSiderbar={layout === 'mix' && settings.fixedSidebar}
        collapsed={isMobile ? true : settings.sideCollapsed}
        onCollapse={(sideCollapsed) => !isMobile && settings.update({ sideCollapsed })}
        breakpoint={false}
        location={{ pathname: location.pathname }}
        route={{ path: '/', routes: hasMenu ? translate(menus!) : [] }}
        menu={{ locale: false }}
        menuRender={hasMenu ? undefined : false}
        siderWidth={208}
        token={{
          colorPrimary: primary,
          header: dark
            ? {
                colorBgHeader: DARK_NAV,
                colorBgScrollHeader: DARK_NAV,
                colorHeaderTitle: '#fff',
                colorTextMenu: 'rgba(255,255,255,0.75)',
                colorTextMenuSecondary: 'rgba(255,255,255,0.65)',
                colorTextMenuSelected: '#fff',
                colorTextMenuActive: '#fff',
                colorBgMenuItemSelected: primary,
                colorBgMenuItemHover: 'rgba(255,255,255,0.08)',
                colorTextRightActionsItem: 'rgba(255,255,255,0.85)',
                colorBgRightActionsItemHover: 'rgba(255,255,255,0.12)',
              }
            : { colorBgHeader: '#fff', colorBgScrollHeader: '#fff' },
          sider: dark
            ? {
                colorMenuBackground: DARK_NAV,
                colorTextMenu: 'rgba(255,255,255,0.75)',
                colorTextMenuSecondary: 'rgba(255,255,255,0.65)',
                colorTextMenuSelected: '#fff',
                colorTextMenuActive: '#fff',
                colorTextMenuItemHover: '#fff',
                colorTextMenuTitle: '#fff',
                colorTextSubMenuSelected: '#fff',
                colorBgMenuItemSelected: primary,
                colorBgMenuItemHover: 'rgba(255,255,255,0.08)',
                colorTextCollapsedButton: 'rgba(255,255,255,0.65)',
                colorMenuItemDivider: 'rgba(255,255,255,0.15)',
              }
            : { colorMenuBackground: '#fff' },
          pageContainer: fullBleed ? { paddingInlinePageContainerContent: 0, paddingBlockPageContainerContent: 0 } : undefined,
        }}
        headerTitleRender={(logo, title) => (
          <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 8 }} data-testid="header-title">
            {logo}
            {/* Under 1600 px the top menu needs the room of the long name: it goes on two lines. */}
            {!isMobile && <span className={layout === 'top' && !screens.xxl ? 'layout-title-two-lines' : undefined}>{title}</span>}
            {subtitle && !isMobile && <span className="layout-subtitle">{subtitle}</span>}
          </Link>
        )}
        menuItemRender={(item, dom) => (item.path ? <Link to={item.path}>{dom}</Link> : dom)}
        actionsRender={() => [
          headerExtra ? <span key="extra">{headerExtra}</span> : null,
          enterpriseID ? <AlertBell key="alerts" /> : null,
          <EnterpriseDropdown key="enterprise" />,
          <AvatarDropdown key="avatar" />,
          <SelectLang key="lang" />,
          <Tooltip key="settings" title={t('header.settings')}>
            <SettingOutlined data-testid="open-settings" onClick={() => setDrawer(true)} style={{ padding: '0 8px' }} />
          </Tooltip>,
        ]}
        footerRender={() => (meta?.hideFooter ? null : <GlobalFooter />)}
      >
        <div className={`layout-content${contentWidth === 'Fixed' ? ' layout-content-fixed' : ''}`}>
          <DatabaseBanner />
          {settings.multiTab && <MultiTab />}
          {/* Remounting on an enterprise switch reloads the page's data for the new enterprise. */}
          <Outlet key={enterpriseID ?? 'none'} />
        </div>
      </ProLayout>
      {drawerOpened && <SettingsDrawer open={drawer} onClose={() => setDrawer(false)} />}
    </div>
  );
}
