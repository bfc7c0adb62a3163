import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RouteMeta } from './menu.tsx';

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
