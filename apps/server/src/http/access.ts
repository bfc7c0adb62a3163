import type { FastifyRequest } from 'fastify';
import { HEADERS, isActionAllowed, PERSONAL_TOKEN_PREFIX, PERSONAL_TOKEN_QUERY_KEY, ROLE_PERMISSIONS } from '@console/contract';
import { sha256 } from '../modules/auth/crypto.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/client.ts';
import { resolveToken } from '../modules/auth/service.ts';
import { resolvePersonalToken, type PersonalTokenHolder } from '../modules/openData/tokens.ts';
import { pickEnterprise, verifiedEnterprises } from '../modules/enterprises/service.ts';
import { TtlCache } from './cache.ts';
import type { Access, EnterpriseContext, SessionUser } from '../requestContext.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';

/** How long a token's user and a user's memberships are reused before the database is asked again. */
export const ACCESS_CACHE_MS = 1_000;

/**
 * Who a token is and which enterprises the user works in, read once a second at most instead of
 * on every request. A change of accounts, tokens or memberships anywhere (a logout, a password,
 * a role change, a removed member, on this server or another: see db/changes.ts) drops it at
 * once, so a revoked token or a removed member is refused from the next request on.
 */
export class AccessCache {
  private readonly users = new TtlCache<string, (SessionUser & { expiresAt: Date }) | null>(ACCESS_CACHE_MS);
  private readonly enterprises = new TtlCache<number, EnterpriseContext[]>(ACCESS_CACHE_MS);
  private readonly personalTokens = new TtlCache<string, PersonalTokenHolder | null>(ACCESS_CACHE_MS);

  constructor(
    private readonly db: Db,
    changes: ChangeFeed,
  ) {
    // Only a change of accounts, tokens or memberships: an enterprise's data changing (a pipe, a
    // setting) leaves who a token is alone, and 64 writers at once must not re-read every token.
    changes.on(({ enterpriseId, access }) => {
      if (enterpriseId !== null && !access) return;
      this.users.clear();
      this.enterprises.clear();
      this.personalTokens.clear();
    });
  }

  /** The token's user (tokenHash: its SHA-256); a token that expired since it was read is refused at once. */
  async user(token: string, tokenHash: string): Promise<SessionUser | null> {
    const found = await this.users.get(tokenHash, () => resolveToken(this.db, token));
    if (!found || found.expiresAt.getTime() <= Date.now()) return null;
    const { expiresAt: _, ...user } = found;
    return user;
  }

  async currentEnterprise(userId: number, header: string | string[] | undefined) {
    return pickEnterprise(await this.memberships(userId), header);
  }

  /** A personal token's user and enterprise, while the user is still a verified member of it (with the role held now). */
  async personal(tokenHash: string): Promise<{ user: SessionUser; enterprise: EnterpriseContext } | null> {
    const found = await this.personalTokens.get(tokenHash, () => resolvePersonalToken(this.db, tokenHash));
    if (!found || (found.expiresAt && found.expiresAt.getTime() <= Date.now())) return null;
    const enterprise = (await this.memberships(found.user.id)).find((e) => e.id === found.enterpriseId);
    return enterprise ? { user: found.user, enterprise } : null;
  }

  private memberships(userId: number) {
    return this.enterprises.get(userId, () => verifiedEnterprises(this.db, userId));
  }
}

/** API routes say who may call them in config.access; without it a signed-in user is required. */
const DEFAULT_API_ACCESS: Access = { auth: 'user' };
const PUBLIC: Access = { auth: 'public' };

/** Who may call a route: its own config, else a signed-in user for the API and anyone for console files. */
export function routeAccess(url: string, access: Access | undefined): Access {
  // Console files and the history-mode fallback are public; the console signs in through the API.
  return access ?? (url.startsWith('/api/') ? DEFAULT_API_ACCESS : PUBLIC);
}

/**
 * A token's SHA-256, remembered for the tokens seen last: every request of a signed-in console
 * carries the same token, and hashing it each time was a few percent of a cached read's work.
 */
const recentHashes = new Map<string, string>();
function tokenHashOf(token: string): string {
  let hash = recentHashes.get(token);
  if (hash === undefined) {
    hash = sha256(token);
    if (recentHashes.size >= 1_000) recentHashes.delete(recentHashes.keys().next().value!);
    recentHashes.set(token, hash);
  }
  return hash;
}

/**
 * Runs before every route: resolves the token, then the current enterprise (Enterprise-Id
 * header, checked against the caller's memberships) and the route's permission.
 */
export async function accessHook(request: FastifyRequest) {
  const access = routeAccess(request.routeOptions.url ?? '', request.routeOptions.config?.access);
  if (access.auth === 'public') return;

  const personalRoute = access.auth === 'enterprise' && access.personal === true;
  const token = personalRoute ? dataServiceToken(request) : request.headers[HEADERS.token.toLowerCase()];
  if (typeof token !== 'string' || token === '') throw unauthorized();
  const tokenHash = tokenHashOf(token);
  const { user, enterprise } = token.startsWith(PERSONAL_TOKEN_PREFIX)
    ? await personalHolder(request, personalRoute, tokenHash)
    : await signedIn(request, access, token, tokenHash);
  if (access.auth !== 'enterprise') return;
  if (!enterprise) throw new AppError(403, 'enterprise.none');
  const [permissionId, action] = access.permission;
  if (!isActionAllowed(ROLE_PERMISSIONS[enterprise.role], permissionId, action)) throw forbidden();
  request.user = user;
  request.enterprise = enterprise;
}

/** A console sign-in token's user, and on enterprise routes the enterprise its Enterprise-Id header names. */
async function signedIn(request: FastifyRequest, access: Access, token: string, tokenHash: string) {
  const user = await request.server.access.user(token, tokenHash);
  if (!user) throw unauthorized();
  request.user = user;
  request.tokenHash = tokenHash;
  if (access.auth === 'platformAdmin' && !user.isPlatformAdmin) throw forbidden('auth.platformAdminOnly');
  const enterprise = access.auth === 'enterprise' ? await request.server.access.currentEnterprise(user.id, request.headers[HEADERS.enterprise.toLowerCase()]) : null;
  return { user, enterprise };
}

/** A personal token's owner and its one enterprise (with the owner's role there now); taken by the data services only. */
async function personalHolder(request: FastifyRequest, personalRoute: boolean, tokenHash: string) {
  if (!personalRoute) throw forbidden('openData.readOnly');
  const holder = await request.server.access.personal(tokenHash);
  if (!holder) throw new AppError(401, 'openData.tokenInvalid', {}, { isLogin: false });
  return holder;
}

/**
 * The token of a data service request: the console's header, a bearer token (what GDAL and QGIS
 * set as a header), or the query key (for clients that set none; a personal token only).
 */
export function dataServiceToken(request: FastifyRequest): string | undefined {
  const header = request.headers[HEADERS.token.toLowerCase()];
  if (typeof header === 'string' && header !== '') return header;
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (bearer) return bearer[1];
  // Only a personal token is taken from the URL: a console sign-in token there would reach logs,
  // histories and other sites' referrers, and is not for desktop clients.
  const key = (request.query as Record<string, unknown> | undefined)?.[PERSONAL_TOKEN_QUERY_KEY];
  return typeof key === 'string' && key.startsWith(PERSONAL_TOKEN_PREFIX) ? key : undefined;
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
