import { redirect, type RouteObject } from 'react-router';
import { MAIN_MENU, type MenuRoute, type RouteMeta } from '../routing/menu.tsx';
import { lazyPage } from './lazyPage.ts';
import { guardLoader, routesRef } from './guard.ts';
import { RootRoute, RouteError } from './RootRoute.tsx';
import { UserLayout } from './layouts/UserLayout.tsx';

type AppRoute = RouteObject & { handle?: RouteMeta; children?: AppRoute[] };

/** A route that only redirects: no element of its own to render (React Router would warn of an empty leaf). */
const to = (path: string) => ({ loader: () => redirect(path), element: null });
const page = lazyPage;

/** The page of each main-layout route of routing/menu.tsx. */
const MAIN_PAGES: Record<string, ReturnType<typeof lazyPage>> = {
  '/project/list': page(() => import('../features/projects/ProjectListPage.tsx')),
  '/enterprise/applyEnterprise': page(() => import('../features/enterprises/ApplyEnterprisePage.tsx')),
  '/enterprise/edit': page(() => import('../features/enterprises/EnterpriseEditPage.tsx')),
  '/enterprise/map': page(() => import('../features/enterprises/EnterpriseMapPage.tsx')),
  '/enterprise/pipeLine': page(() => import('../features/pipelines/PipelinePage.tsx')),
  '/enterprise/users': page(() => import('../features/enterprises/EnterpriseUsersPage.tsx')),
  '/leak': page(() => import('../features/leaks/LeakPage.tsx')),
  '/settlement': page(() => import('../features/settlement/SettlementPage.tsx')),
  '/weather': page(() => import('../features/weather/WeatherPage.tsx')),
  '/risk/sensors': page(() => import('../features/sensors/SensorsPage.tsx')),
  '/risk/construction': page(() => import('../features/construction/ConstructionPage.tsx')),
  '/risk/riskProne': page(() => import('../features/riskAreas/RiskAreasPage.tsx')),
  '/risk/alerts': page(() => import('../features/alerts/AlertsPage.tsx')),
  '/risk/reports': page(() => import('../features/reports/ReportsPage.tsx')),
};

/** A menu route with its page (or its redirect). */
function withPage({ path, handle, redirect: target, children }: MenuRoute): AppRoute {
  if (children) return { path, handle, children: [...(target ? [{ index: true, ...to(target) }] : []), ...children.map(withPage)] };
  return target ? { path, handle, ...to(target) } : { path, handle, lazy: MAIN_PAGES[path] };
}

/** Main enterprise layout: its children are the menu. */
const mainRoutes: AppRoute[] = MAIN_MENU.map(withPage);

export const routes: AppRoute[] = [
  {
    id: 'root',
    element: <RootRoute />,
    errorElement: <RouteError />,
    // Rendered while the first guard check runs (a moment): nothing, as before; declared so React Router does not warn.
    HydrateFallback: () => null,
    loader: guardLoader,
    shouldRevalidate: () => true,
    children: [
      // Every console page works on server data through React Query; the sign-in pages do not,
      // so its code loads with the first of them rather than with the sign-in page.
      {
        lazy: page(() => import('./QueryScope.tsx')),
        children: [
          { path: '/', lazy: page(() => import('./layouts/BasicLayout.tsx')), handle: { name: 'index' }, children: [{ index: true, ...to('/project/list') }, ...mainRoutes] },
          {
            path: '/project',
            lazy: page(() => import('./layouts/ProjectLayout.tsx')),
            children: [
              { index: true, ...to('/project/list') },
              {
                path: '/project/info',
                handle: { name: 'projectInfo', title: 'menu.projectInfo', permission: ['project'] },
                lazy: page(() => import('../features/projects/ProjectInfoPage.tsx')),
              },
            ],
          },
          { path: '/superposition', ...to('/project/poiControl') },
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
          { path: '/saocom', ...to('/platform/saocom') },
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
              { index: true, ...to('/system/productionIntroduction') },
              {
                path: '/system/productionIntroduction',
                handle: { name: 'productionIntroduction', title: 'menu.productionIntroduction' },
                lazy: page(() => import('../features/system/ProductionIntroductionPage.tsx')),
              },
              {
                // The user's own account: personal access tokens for desktop GIS.
                path: '/system/account',
                handle: { name: 'account', title: 'menu.account.settings' },
                lazy: page(() => import('../features/openData/AccountPage.tsx')),
              },
              {
                // The audit trail: enterprise admins (their enterprise) and platform admins (all).
                path: '/system/audit',
                handle: { name: 'audit', title: 'menu.audit' },
                lazy: page(() => import('../features/audit/AuditPage.tsx')),
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
          { path: '/login', handle: { name: 'loginAlias' }, ...to('/user/login') },
        ],
      },
      {
        path: '/user',
        element: <UserLayout />,
        children: [
          { index: true, ...to('/user/login') },
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
      { path: '*', ...to('/404') },
    ],
  },
];

routesRef.current = routes;
