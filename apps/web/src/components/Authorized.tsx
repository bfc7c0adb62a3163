import type { ReactNode } from 'react';
import { isActionAllowed, type Action } from '@console/contract';
import { useSession } from '../stores/session.ts';
import { useRoutePermissionIds } from '../routing/routeMeta.ts';

/** "Is action A allowed for permissionId P?" for the signed-in user in the current enterprise. */
export function usePermission() {
  const permissions = useSession((s) => s.permissions);
  return (permissionId: string, action: Action | string) => isActionAllowed(permissions, permissionId, action);
}

/**
 * The spec's action directive: false when one of the user's permissions matches the current
 * route's permission ids but does not list the action.
 */
export function useActionVisible(action: Action) {
  const permissions = useSession((s) => s.permissions);
  const routeIds = useRoutePermissionIds();
  return !permissions.some((p) => routeIds.includes(p.permissionId) && !(p.actionList as string[]).includes(action));
}

/** Renders its children only where the action directive allows them. */
export function Authorized({ action, children }: { action: Action; children: ReactNode }) {
  return useActionVisible(action) ? <>{children}</> : null;
}
