import { matchRoutes, redirect, type LoaderFunctionArgs } from 'react-router';
import { notify } from '../utils/notify.ts';
import i18n from '../locales/index.ts';
import { useSession } from '../stores/session.ts';
import { useMenus } from '../stores/menus.ts';
import { localStore, STORAGE_KEYS, TOKEN_TTL_MS } from '../utils/storage.ts';
import type { RouteMeta } from '../routing/menu.tsx';

/** Route names that may be visited without a token (spec section 2). */
export const WHITELIST = new Set(['login', 'register', 'registerResult', 'home']);
export const LOGIN_PATH = '/user/login';
export const DEFAULT_PATH = '/project/list';
/** Where a user without a verified enterprise may still go. */
const NO_ENTERPRISE_ALLOWED = new Set(['noEnterprise', 'applyEnterprise', 'enterpriseReview', 'audit']);

/** The name of the deepest matched route that has one. */
function routeName(pathname: string): string | undefined {
  // Imported lazily: routes.tsx imports this module.
  const matches = matchRoutes(routesRef.current, pathname) ?? [];
  const named = matches.map((m) => (m.route as { handle?: RouteMeta }).handle?.name).filter(Boolean);
  return named[named.length - 1];
}

export const routesRef: { current: Parameters<typeof matchRoutes>[0] } = { current: [] };

/**
 * The navigation guard of console-spec section 4, run before every navigation (root loader).
 */
export async function guardLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const session = useSession.getState();

  // A token may arrive as a query parameter: store it and continue without it in the address.
  const queryToken = url.searchParams.get('token');
  if (queryToken) {
    localStore.set(STORAGE_KEYS.token, queryToken, TOKEN_TTL_MS);
    useSession.setState({ token: queryToken, roles: null, enterprises: null });
    url.searchParams.delete('token');
    throw redirect(url.pathname + url.search);
  }

  const name = routeName(url.pathname);
  const token = useSession.getState().token;
  if (!token) {
    if (name && WHITELIST.has(name)) return null;
    // "Forgot password" has no screen of its own: it is a dialog of the sign-in page.
    if (name === 'recover') throw redirect(`${LOGIN_PATH}?recover=1`);
    const target = url.pathname + url.search;
    // After signing in the user goes back to where they were going; never to a page that does
    // not exist (unknown paths and the failure page start from the default page instead).
    const keepRedirect = target !== '/' && target !== '/login' && !url.pathname.startsWith('/user') && name !== undefined && name !== '404';
    throw redirect(keepRedirect ? `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}` : LOGIN_PATH);
  }
  if (url.pathname === LOGIN_PATH) throw redirect(DEFAULT_PATH);
  // The failure page is where a failed load ends: loading again there would loop.
  if (name === '404') return null;

  if (useSession.getState().enterprises === null) {
    try {
      await session.loadEnterprises();
    } catch {
      throw redirect('/404');
    }
  }
  const { enterprises } = useSession.getState();
  if (enterprises && enterprises.length === 0 && !(name && NO_ENTERPRISE_ALLOWED.has(name))) {
    throw redirect('/exception/noEnterprise');
  }

  if (useSession.getState().roles === null) {
    try {
      await session.getInfo();
    } catch {
      notify.error({ message: i18n.t('guard.error'), description: i18n.t('guard.userInfoFailed') });
      session.clearSession();
      throw redirect('/login');
    }
    try {
      useMenus.getState().generate(useSession.getState().permissions);
    } catch {
      notify.error({ message: i18n.t('guard.error'), description: i18n.t('guard.routeFailed') });
      session.clearSession();
      throw redirect(LOGIN_PATH);
    }
    // Send the user to the path they asked for before signing in.
    const wanted = url.searchParams.get('redirect');
    if (wanted && wanted.startsWith('/') && !wanted.startsWith('//')) throw redirect(wanted);
  }
  return null;
}
