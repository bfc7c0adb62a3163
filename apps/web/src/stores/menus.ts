import { create } from 'zustand';
import type { Permission } from '@console/contract';
import { MAIN_MENU, type RouteMeta } from '../routing/menu.tsx';

export interface MenuItem {
  path: string;
  name: string;
  icon?: React.ReactNode;
  hideInMenu?: boolean;
  children?: MenuItem[];
}

type RouteLike = { path?: string; index?: boolean; handle?: RouteMeta; children?: RouteLike[] };

/**
 * The permission filter of the generated routes. Spec section 4: all routes currently pass it;
 * the permissions still travel with the call so a stricter rule has one place to go.
 */
export function routePassesPermission(_route: RouteLike, _permissions: Permission[]): boolean {
  return true;
}

function toMenus(routes: RouteLike[], permissions: Permission[]): MenuItem[] {
  return routes
    .filter((r) => !r.index && r.path && r.handle && routePassesPermission(r, permissions))
    .map((r) => ({
      path: r.path!,
      name: r.handle!.title ?? r.handle!.name,
      icon: r.handle!.icon,
      hideInMenu: r.handle!.hideInMenu,
      children: r.children ? toMenus(r.children, permissions) : undefined,
    }));
}

/** Menu entries built from the permission-filtered route list. */
export const useMenus = create<{ menus: MenuItem[] | null; generate(permissions: Permission[]): void }>((set) => ({
  menus: null,
  generate(permissions) {
    set({ menus: toMenus(MAIN_MENU, permissions) });
  },
}));
