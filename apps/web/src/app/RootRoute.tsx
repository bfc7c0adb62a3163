import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { useDocumentTitle } from '../routing/routeMeta.ts';
import { later } from '../components/later.tsx';

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

/**
 * A route that failed to load (chunk timeout or network) or threw while rendering. The page
 * (antd's Result with its pictures) loads only when a route fails.
 */
export const RouteError = later(() => import('./RouteError.tsx').then((m) => m.default));
