import type { ReactNode } from 'react';
import {
  AlertOutlined,
  ApartmentOutlined,
  CloudOutlined,
  DashboardOutlined,
  FundProjectionScreenOutlined,
  LineChartOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { PermissionId } from '@console/contract';

/** What a route says about itself: its name (the guard's whitelist uses it), title, menu and footer. */
export interface RouteMeta {
  name: string;
  /** i18n key of the page title. */
  title?: string;
  icon?: ReactNode;
  permission?: PermissionId[];
  hideInMenu?: boolean;
  /** The global footer is hidden on this page. */
  hideFooter?: boolean;
}

/** A route of the main layout as its menu knows it; the page itself is attached in app/routes.tsx. */
export interface MenuRoute {
  path: string;
  handle: RouteMeta;
  /** Where the route (or, with children, its index) sends the user instead of a page of its own. */
  redirect?: string;
  children?: MenuRoute[];
}

/**
 * The main enterprise layout's routes: its menu, in order. Kept apart from the page modules so the
 * menu store, the guard and the layouts read it without importing every page.
 */
export const MAIN_MENU: MenuRoute[] = [
  { path: '/project/list', handle: { name: 'projectList', title: 'menu.projectList', icon: <DashboardOutlined />, permission: ['dashboard'], hideFooter: true } },
  {
    path: '/enterprise',
    handle: { name: 'enterprise', title: 'menu.enterprise', icon: <ApartmentOutlined />, permission: ['enterprise'] },
    redirect: '/enterprise/edit',
    children: [
      { path: '/enterprise/applyEnterprise', handle: { name: 'applyEnterprise', title: 'menu.applyEnterprise', hideInMenu: true, permission: ['enterprise'] } },
      { path: '/enterprise/edit', handle: { name: 'enterpriseEdit', title: 'menu.enterpriseEdit', permission: ['enterprise'] } },
      { path: '/enterprise/map', handle: { name: 'enterpriseMap', title: 'menu.enterpriseMap', permission: ['enterprise'], hideFooter: true } },
      { path: '/enterprise/pipeLine', handle: { name: 'pipeLine', title: 'menu.pipeLine', permission: ['pipeline'] } },
      { path: '/enterprise/users', handle: { name: 'enterpriseUsers', title: 'menu.enterpriseUsers', permission: ['users'] } },
    ],
  },
  { path: '/leak', handle: { name: 'leak', title: 'menu.leak', icon: <AlertOutlined />, permission: ['leak'], hideFooter: true } },
  { path: '/settlement', handle: { name: 'settlement', title: 'menu.settlement', icon: <LineChartOutlined />, permission: ['settlement'], hideFooter: true } },
  { path: '/weather', handle: { name: 'weather', title: 'menu.weather', icon: <CloudOutlined />, permission: ['weather'] } },
  {
    path: '/risk',
    handle: { name: 'risk', title: 'menu.risk', icon: <WarningOutlined />, permission: ['risk'] },
    redirect: '/risk/construction',
    children: [
      { path: '/risk/construction', handle: { name: 'construction', title: 'menu.construction', permission: ['risk'], hideFooter: true } },
      { path: '/risk/riskProne', handle: { name: 'riskProne', title: 'menu.riskProne', permission: ['risk'], hideFooter: true } },
      // In the risk group: the top bar holds every group at 1440 px in both languages, and one more did not fit.
      { path: '/risk/sensors', handle: { name: 'sensors', title: 'menu.sensors', permission: ['sensor'], hideFooter: true } },
      { path: '/risk/alerts', handle: { name: 'alerts', title: 'menu.alerts', permission: ['risk'] } },
      { path: '/risk/reports', handle: { name: 'reports', title: 'menu.reports', permission: ['risk'] } },
    ],
  },
  {
    path: '/comprehensiveSupervision',
    handle: { name: 'comprehensiveSupervision', title: 'menu.comprehensiveSupervision', icon: <FundProjectionScreenOutlined />, permission: ['datav'] },
    redirect: '/datav',
  },
];
