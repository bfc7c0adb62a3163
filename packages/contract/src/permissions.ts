/** Roles a user holds in one enterprise (the spec's userType). */
export const ROLES = ['admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Permission ids: one per area of the console. */
export const PERMISSION_IDS = [
  'dashboard',
  'project',
  'pipeline',
  'enterprise',
  'users',
  'leak',
  'saocom',
  'poi',
  'settlement',
  'risk',
  'weather',
  'datav',
  'sensor',
] as const;
export type PermissionId = (typeof PERMISSION_IDS)[number];

/** Action vocabulary of console-spec section 6. */
export const ACTIONS = ['add', 'delete', 'edit', 'query', 'get', 'enable', 'disable', 'import', 'export'] as const;
export type Action = (typeof ACTIONS)[number];

export interface Permission {
  permissionId: PermissionId;
  actionList: Action[];
}

const ALL: Action[] = [...ACTIONS];
const READ: Action[] = ['query', 'get', 'export'];
const WORK: Action[] = ['add', 'edit', 'query', 'get', 'enable', 'disable', 'import', 'export'];

/** Areas whose data members create and work on; enterprise and users are the admins' own. */
const DOMAIN_IDS = PERMISSION_IDS.filter((id) => id !== 'enterprise' && id !== 'users');

/**
 * The one table that maps a role to what it may do. The server enforces it on every route and
 * reports it from /api/getUserPermission; the console hides what it does not allow.
 * - admin: everything, including the enterprise profile, map settings and members.
 * - member: works on the domain data (no deleting); reads the enterprise and its members.
 * - viewer: reads and exports only.
 */
export const ROLE_PERMISSIONS: Record<Role, Permission[]> = {
  admin: PERMISSION_IDS.map((permissionId) => ({ permissionId, actionList: ALL })),
  member: [
    ...DOMAIN_IDS.map((permissionId) => ({ permissionId, actionList: WORK })),
    { permissionId: 'enterprise', actionList: ['query', 'get'] },
    { permissionId: 'users', actionList: ['query', 'get'] },
  ],
  viewer: [
    ...DOMAIN_IDS.map((permissionId) => ({ permissionId, actionList: READ })),
    { permissionId: 'enterprise', actionList: ['query', 'get'] },
    { permissionId: 'users', actionList: ['query', 'get'] },
  ],
};

/**
 * What a signed-in user without a current enterprise may do: register an enterprise or apply to
 * join one (the console's apply page), nothing else.
 */
export const NO_ENTERPRISE_PERMISSIONS: Permission[] = [{ permissionId: 'enterprise', actionList: ['add'] }];

/** Is `action` allowed for `permissionId` in this permission list? (console-spec section 6 helper) */
export function isActionAllowed(permissions: readonly Permission[], permissionId: string, action: string): boolean {
  return permissions.some((p) => p.permissionId === permissionId && (p.actionList as string[]).includes(action));
}
