import type { FastifyRequest } from 'fastify';
import { HEADERS, isActionAllowed, ROLE_PERMISSIONS } from '@console/contract';
import { sha256 } from '../modules/auth/crypto.ts';
import { resolveToken } from '../modules/auth/service.ts';
import { currentEnterprise } from '../modules/enterprises/service.ts';
import type { Access } from './context.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';

/** API routes say who may call them in config.access; without it a signed-in user is required. */
const DEFAULT_API_ACCESS: Access = { auth: 'user' };
const PUBLIC: Access = { auth: 'public' };

/** Who may call a route: its own config, else a signed-in user for the API and anyone for console files. */
export function routeAccess(url: string, access: Access | undefined): Access {
  // Console files and the history-mode fallback are public; the console signs in through the API.
  return access ?? (url.startsWith('/api/') ? DEFAULT_API_ACCESS : PUBLIC);
}

/**
 * Runs before every route: resolves the token, then the current enterprise (Enterprise-Id
 * header, checked against the caller's memberships) and the route's permission.
 */
export async function accessHook(request: FastifyRequest) {
  const access = routeAccess(request.routeOptions.url ?? '', request.routeOptions.config?.access);
  if (access.auth === 'public') return;

  const token = request.headers[HEADERS.token.toLowerCase()];
  if (typeof token !== 'string' || token === '') throw unauthorized();
  const user = await resolveToken(request.server.db, token);
  if (!user) throw unauthorized();
  request.user = user;
  request.tokenHash = sha256(token);

  if (access.auth === 'platformAdmin' && !user.isPlatformAdmin) throw forbidden('auth.platformAdminOnly');
  if (access.auth !== 'enterprise') return;

  const enterprise = await currentEnterprise(request.server.db, user.id, request.headers[HEADERS.enterprise.toLowerCase()]);
  if (!enterprise) throw new AppError(403, 'enterprise.none');
  const [permissionId, action] = access.permission;
  if (!isActionAllowed(ROLE_PERMISSIONS[enterprise.role], permissionId, action)) throw forbidden();
  request.enterprise = enterprise;
}

/** The signed-in user of a route that requires one. */
export function requireUser(request: FastifyRequest) {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The checked current enterprise of a route with enterprise access. */
export function requireEnterprise(request: FastifyRequest) {
  if (!request.enterprise) throw new AppError(403, 'enterprise.none');
  return request.enterprise;
}
