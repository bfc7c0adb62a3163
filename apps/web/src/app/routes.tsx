import type { ReactNode } from 'react';
import { redirect, type RouteObject } from 'react-router';
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
import { lazyPage } from './lazyPage.ts';
import { guardLoader, routesRef } from './guard.ts';
import { RootRoute, RouteError } from './RootRoute.tsx';
import { UserLayout } from './layouts/UserLayout.tsx';

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

type AppRoute = RouteObject & { handle?: RouteMeta; children?: AppRoute[] };

const to = (path: string) => () => redirect(path);
const page = lazyPage;

/** Main enterprise layout: its children are the menu. */
export const mainRoutes: AppRoute[] = [
  {
    path: '/project/list',
    handle: { name: 'projectList', title: 'menu.projectList', icon: <DashboardOutlined />, permission: ['dashboard'], hideFooter: true },
    lazy: page(() => import('../features/projects/ProjectListPage.tsx')),
  },
  {
    path: '/enterprise',
    handle: { name: 'enterprise', title: 'menu.enterprise', icon: <ApartmentOutlined />, permission: ['enterprise'] },
    children: [
      { index: true, loader: to('/enterprise/edit') },
      {
        path: '/enterprise/applyEnterprise',
        handle: { name: 'applyEnterprise', title: 'menu.applyEnterprise', hideInMenu: true, permission: ['enterprise'] },
        lazy: page(() => import('../features/enterprises/ApplyEnterprisePage.tsx')),
      },
      {
        path: '/enterprise/edit',
        handle: { name: 'enterpriseEdit', title: 'menu.enterpriseEdit', permission: ['enterprise'] },
        lazy: page(() => import('../features/enterprises/EnterpriseEditPage.tsx')),
      },
      {
        path: '/enterprise/map',
        handle: { name: 'enterpriseMap', title: 'menu.enterpriseMap', permission: ['enterprise'], hideFooter: true },
        lazy: page(() => import('../features/enterprises/EnterpriseMapPage.tsx')),
      },
      {
        path: '/enterprise/pipeLine',
        handle: { name: 'pipeLine', title: 'menu.pipeLine', permission: ['pipeline'] },
        lazy: page(() => import('../features/pipelines/PipelinePage.tsx')),
      },
      {
        path: '/enterprise/users',
        handle: { name: 'enterpriseUsers', title: 'menu.enterpriseUsers', permission: ['users'] },
        lazy: page(() => import('../features/enterprises/EnterpriseUsersPage.tsx')),
      },
    ],
  },
  {
    path: '/leak',
    handle: { name: 'leak', title: 'menu.leak', icon: <AlertOutlined />, permission: ['leak'], hideFooter: true },
    lazy: page(() => import('../features/leaks/LeakPage.tsx')),
  },
  {
    path: '/settlement',
    handle: { name: 'settlement', title: 'menu.settlement', icon: <LineChartOutlined />, permission: ['settlement'], hideFooter: true },
    lazy: page(() => import('../features/settlement/SettlementPage.tsx')),
  },
  {
    path: '/weather',
    handle: { name: 'weather', title: 'menu.weather', icon: <CloudOutlined />, permission: ['weather'] },
    lazy: page(() => import('../features/weather/WeatherPage.tsx')),
  },
  {
    path: '/risk',
    handle: { name: 'risk', title: 'menu.risk', icon: <WarningOutlined />, permission: ['risk'] },
    children: [
      { index: true, loader: to('/risk/construction') },
      {
        path: '/risk/construction',
        handle: { name: 'construction', title: 'menu.construction', permission: ['risk'], hideFooter: true },
        lazy: page(() => import('../features/risk/ConstructionRiskPage.tsx')),
      },
      {
        path: '/risk/riskProne',
        handle: { name: 'riskProne', title: 'menu.riskProne', permission: ['risk'], hideFooter: true },
        lazy: page(() => import('../features/risk/RiskPronePage.tsx')),
      },
    ],
  },
  {
    path: '/comprehensiveSupervision',
    handle: { name: 'comprehensiveSupervision', title: 'menu.comprehensiveSupervision', icon: <FundProjectionScreenOutlined />, permission: ['datav'] },
    loader: to('/datav'),
  },
];

export const routes: AppRoute[] = [
  {
    id: 'root',
    element: <RootRoute />,
    errorElement: <RouteError />,
    loader: guardLoader,
    shouldRevalidate: () => true,
    children: [
      // Every console page works on server data through React Query; the sign-in pages do not,
      // so its code loads with the first of them rather than with the sign-in page.
      {
        lazy: page(() => import('./QueryScope.tsx')),
        children: [
          { path: '/', lazy: page(() => import('./layouts/BasicLayout.tsx')), handle: { name: 'index' }, children: [{ index: true, loader: to('/project/list') }, ...mainRoutes] },
          {
            path: '/project',
            lazy: page(() => import('./layouts/ProjectLayout.tsx')),
            children: [
              { index: true, loader: to('/project/list') },
              {
                path: '/project/info',
                handle: { name: 'projectInfo', title: 'menu.projectInfo', permission: ['project'] },
                lazy: page(() => import('../features/projects/ProjectInfoPage.tsx')),
              },
            ],
          },
          { path: '/superposition', loader: to('/project/poiControl') },
          {
            lazy: page(() => import('./layouts/OverlayLayout.tsx')),
            children: [
              {
                path: '/project/poiControl',
                handle: { name: 'poiControl', title: 'menu.poiControl', permission: ['poi'] },
                lazy: page(() => import('../features/poi/PoiControlPage.tsx')),
              },
            ],
          },
          { path: '/saocom', loader: to('/platform/saocom') },
          {
            lazy: page(() => import('./layouts/SatelliteLayout.tsx')),
            children: [
              {
                path: '/platform/saocom',
                handle: { name: 'saocom', title: 'menu.saocom', permission: ['saocom'] },
                lazy: page(() => import('../features/saocom/SaocomPage.tsx')),
              },
            ],
          },
          {
            path: '/system',
            lazy: page(() => import('./layouts/SystemLayout.tsx')),
            children: [
              { index: true, loader: to('/system/productionIntroduction') },
              {
                path: '/system/productionIntroduction',
                handle: { name: 'productionIntroduction', title: 'menu.productionIntroduction' },
                lazy: page(() => import('../features/system/ProductionIntroductionPage.tsx')),
              },
              {
                // The platform administrator's screen (not tied to an enterprise).
                path: '/system/enterpriseReview',
                handle: { name: 'enterpriseReview', title: 'menu.enterpriseReview' },
                lazy: page(() => import('../features/platform/EnterpriseReviewPage.tsx')),
              },
            ],
          },
          {
            path: '/datav',
            handle: { name: 'datav', title: 'menu.datav', permission: ['datav'] },
            lazy: page(() => import('../features/datav/DatavPage.tsx')),
          },
          { path: '/wechat', handle: { name: 'wechat', title: 'menu.wechat' }, lazy: page(() => import('../features/exception/WechatPage.tsx')) },
          { path: '/404', handle: { name: '404', title: 'menu.exception404' }, lazy: page(() => import('../features/exception/NotFoundPage.tsx')) },
          {
            path: '/exception/noEnterprise',
            handle: { name: 'noEnterprise', title: 'menu.noEnterprise' },
            lazy: page(() => import('../features/exception/NoEnterprisePage.tsx')),
          },
          { path: '/home', handle: { name: 'home', title: 'menu.home' }, lazy: page(() => import('../features/exception/HomePage.tsx')) },
          { path: '/login', handle: { name: 'loginAlias' }, loader: to('/user/login') },
        ],
      },
      {
        path: '/user',
        element: <UserLayout />,
        children: [
          { index: true, loader: to('/user/login') },
          { path: '/user/login', handle: { name: 'login', title: 'menu.login' }, lazy: page(() => import('../features/user/LoginPage.tsx')) },
          { path: '/user/register', handle: { name: 'register', title: 'menu.register' }, lazy: page(() => import('../features/user/RegisterPage.tsx')) },
          {
            path: '/user/register-result',
            handle: { name: 'registerResult', title: 'menu.registerResult' },
            lazy: page(() => import('../features/user/RegisterResultPage.tsx')),
          },
          { path: '/user/recover', handle: { name: 'recover', title: 'menu.recover' }, lazy: page(() => import('../features/user/RecoverPage.tsx')) },
        ],
      },
      { path: '*', loader: to('/404') },
    ],
  },
];

routesRef.current = routes;
