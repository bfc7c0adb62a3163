import { describe, expect, it } from 'vitest';
import { isActionAllowed, ROLE_PERMISSIONS, ROLES, type Action, type PermissionId, type Role } from '@console/contract';
import { as, login, useDemoServer } from '../testing/app.ts';
import type { Access } from '../requestContext.ts';

const demo = useDemoServer();

/**
 * What each kind of request may ask for: reads never need a writing action, deletes always need
 * "delete". A POST may be a read too: a query whose input is too big for a URL (an area drawn on
 * the map, to average the points inside).
 */
const ACTIONS_BY_METHOD: Record<string, Action[]> = {
  get: ['query', 'get', 'export'],
  post: ['add', 'edit', 'import', 'enable', 'disable', 'export', 'query'],
  put: ['edit', 'enable', 'disable'],
  patch: ['edit', 'enable', 'disable'],
  delete: ['delete'],
};

const USER_OF_ROLE: Record<Role, string> = { admin: 'admin', member: 'member', viewer: 'viewer' };

describe('permissions', () => {
  /**
   * ROLE_PERMISSIONS is the one table: every route of the OpenAPI document states the permission
   * it needs (x-access), the action fits the method, and each role of the water utility is let
   * through exactly where the table allows it.
   */
  it('every route follows ROLE_PERMISSIONS for every role', async () => {
    const doc = (await demo.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const callers = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, as(demo.app, await login(demo.app, USER_OF_ROLE[role]), demo.ids.water)] as const)));
    let checked = 0;
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { 'x-access'?: Access }>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const route = `${method.toUpperCase()} ${path}`;
        const access = operation['x-access'];
        expect(access, route).toBeDefined();
        if (access!.auth !== 'enterprise') continue;
        const [permissionId, action] = access!.permission as [PermissionId, Action];
        expect(ACTIONS_BY_METHOD[method], `${route} needs ${permissionId}.${action}`).toContain(action);
        for (const role of ROLES) {
          const allowed = isActionAllowed(ROLE_PERMISSIONS[role], permissionId, action);
          // Ids that name nothing: a refused call stops at the permission, an allowed one at 404 or 400.
          const url = path.replace(/\{[^}]+\}/g, '999999');
          // A live stream never ends: its answer is read up to its headers.
          const live = url.endsWith('/live');
          const response = await callers[role]({ method: method.toUpperCase() as 'GET', url, payload: method === 'get' ? undefined : {}, payloadAsStream: live });
          if (live) response.stream().destroy();
          if (allowed) expect(response.statusCode, `${role} ${route}: ${live ? '' : response.body}`).not.toBe(403);
          else expect(response.statusCode, `${role} ${route}`).toBe(403);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
