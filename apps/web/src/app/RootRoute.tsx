import { useEffect } from 'react';
import { Outlet, useMatches, useNavigate, useRouteError } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RouteMeta } from './routes.tsx';

/** The meta of the deepest matched route that has a title. */
export function useRouteMeta(): RouteMeta | undefined {
  const matches = useMatches();
  const metas = matches.map((m) => m.handle as RouteMeta | undefined).filter((h): h is RouteMeta => Boolean(h?.title));
  return metas[metas.length - 1];
}

/** All permission ids of the matched routes (the current route's, for the action check). */
export function useRoutePermissionIds(): string[] {
  const matches = useMatches();
  const last = [...matches].reverse().find((m) => (m.handle as RouteMeta | undefined)?.permission);
  return (last?.handle as RouteMeta | undefined)?.permission ?? [];
}

/** The document title: page title plus product title (ProLayout is given the same, or it sets its own). */
export function useDocumentTitle(): string {
  const meta = useRouteMeta();
  const { t } = useTranslation();
  return meta?.title ? `${t(meta.title)} - ${t('app.title')}` : t('app.title');
}

function DocumentTitle() {
  const title = useDocumentTitle();
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

export function RootRoute() {
  return (
    <>
      <DocumentTitle />
      <Outlet />
    </>
  );
}

/** A route that failed to load (chunk timeout or network) or threw while rendering. */
export function RouteError() {
  const error = useRouteError() as Error | undefined;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isChunk = error?.name === 'ChunkLoadError' || /dynamically imported module|Importing a module script failed/i.test(error?.message ?? '');
  return (
    <Result
      status={isChunk ? 'warning' : '500'}
      title={isChunk ? t('exception.chunkTitle') : t('exception.e500')}
      subTitle={isChunk ? t('exception.chunkDescription') : error?.message}
      extra={[
        <Button key="retry" type="primary" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>,
        <Button key="home" onClick={() => navigate('/')}>
          {t('exception.backHome')}
        </Button>,
      ]}
    />
  );
}
