import { create } from 'zustand';
import type { Permission, UserEnterprise, UserInfo } from '@console/contract';
import { authApi } from '../api/auth.ts';
import { setUnauthorizedHandler } from '../api/http.ts';
import { greetingPeriod, type GreetingPeriod } from '../utils/greeting.ts';
import { localStore, sessionStore, SESSION_KEYS, STORAGE_KEYS, TOKEN_TTL_MS } from '../utils/storage.ts';

export interface Roles {
  permissions: Permission[];
}

/** Session and user state of console-spec section 3. */
export interface SessionState {
  token: string | null;
  name: string;
  welcome: GreetingPeriod;
  avatar: string;
  roles: Roles | null;
  info: UserInfo | null;
  /** Verified enterprises only; null until loaded. */
  enterprises: UserEnterprise[] | null;
  enterpriseID: number | null;
  enterpriseRole: string | null;
  projectID: number | null;
  permissions: Permission[];
  unVerifiedEnterpriseID: number | null;
  unVerifiedEnterpriseName: string | null;
  isPlatformAdmin: boolean;

  login(username: string, password: string): Promise<UserInfo>;
  loadEnterprises(): Promise<UserEnterprise[]>;
  getInfo(): Promise<Roles>;
  selectEnterprise(enterprise: UserEnterprise): void;
  setProject(id: number | null): void;
  /** Forgets token and user info locally (no server call). */
  clearSession(): void;
  logout(): Promise<void>;
}

function storedEnterpriseId(): number | null {
  const value = sessionStore.get(SESSION_KEYS.enterpriseId) ?? localStore.get<string>(STORAGE_KEYS.enterpriseId);
  return value ? Number(value) : null;
}

function rememberEnterprise(id: number | null, role: string | null) {
  sessionStore.set(SESSION_KEYS.enterpriseId, id);
  sessionStore.set(SESSION_KEYS.enterpriseRole, role);
  if (id === null) localStore.remove(STORAGE_KEYS.enterpriseId);
  else localStore.set(STORAGE_KEYS.enterpriseId, String(id));
}

/** The session's two first requests, sent as the console starts (see requestSessionEarly), until the guard takes them. */
let earlyEnterprises: ReturnType<typeof authApi.getUserEnterprises> | null = null;
let earlyInfo: { enterpriseId: number; request: ReturnType<typeof authApi.getUserPermission> } | null = null;

/**
 * Asks for the signed-in user's enterprises and (for the enterprise the browser remembers) their
 * permissions as soon as the console's first script runs: the guard needs both before any page
 * draws, and asked later, one after the other, they wait behind the pages' code for the browser's
 * six connections (about 0.6 s each on a cold load).
 */
export function requestSessionEarly() {
  if (!useSession.getState().token) return;
  earlyEnterprises ??= authApi.getUserEnterprises();
  const enterpriseId = storedEnterpriseId();
  if (enterpriseId === null || earlyInfo) return;
  // The request carries the enterprise from session storage (a new tab has it only in local storage).
  sessionStore.set(SESSION_KEYS.enterpriseId, enterpriseId);
  const request = authApi.getUserPermission();
  // Not taken when the enterprise turns out to be another one: its failure is then nobody's.
  request.catch(() => undefined);
  earlyInfo = { enterpriseId, request };
}

export const useSession = create<SessionState>((set, get) => ({
  token: localStore.get<string>(STORAGE_KEYS.token),
  name: '',
  welcome: greetingPeriod(),
  avatar: '',
  roles: null,
  info: localStore.get<UserInfo>(STORAGE_KEYS.userInfo),
  enterprises: null,
  enterpriseID: storedEnterpriseId(),
  enterpriseRole: sessionStore.get(SESSION_KEYS.enterpriseRole),
  projectID: sessionStore.get(SESSION_KEYS.projectId) ? Number(sessionStore.get(SESSION_KEYS.projectId)) : null,
  permissions: [],
  unVerifiedEnterpriseID: null,
  unVerifiedEnterpriseName: null,
  isPlatformAdmin: false,

  async login(username, password) {
    const { key, iv } = (await authApi.getEncryptedString()).result;
    // The cipher's code loads when someone signs in, not with the sign-in page.
    const { encryptPassword } = await import('../utils/encrypt.ts');
    const response = await authApi.checkLogin(username, encryptPassword(password, key, iv));
    if (!response.success) throw new Error(response.message);
    const { token, userInfo } = response.result;
    localStore.set(STORAGE_KEYS.token, token, TOKEN_TTL_MS);
    localStore.set(STORAGE_KEYS.userInfo, userInfo, TOKEN_TTL_MS);
    set({ token, info: userInfo, name: userInfo.realname, avatar: userInfo.avatar, welcome: greetingPeriod() });
    return userInfo;
  },

  async loadEnterprises() {
    const request = earlyEnterprises ?? authApi.getUserEnterprises();
    earlyEnterprises = null;
    const list = (await request).result;
    if (!Array.isArray(list)) throw new Error('enterprise list is not an array');
    const verified = list.filter((e) => e.isVerified === '1');
    const unverified = list.filter((e) => e.isVerified !== '1');
    let current = verified.find((e) => e.id === get().enterpriseID);
    // The current enterprise is not in the list: the first one and its userType become current.
    if (!current && verified.length > 0) current = verified[0];
    rememberEnterprise(current?.id ?? null, current?.userType ?? null);
    set({
      enterprises: verified,
      unVerifiedEnterpriseID: unverified[0]?.id ?? null,
      unVerifiedEnterpriseName: unverified[0]?.enterpriseName ?? null,
      enterpriseID: current?.id ?? null,
      enterpriseRole: current?.userType ?? null,
    });
    return verified;
  },

  async getInfo() {
    const early = earlyInfo;
    earlyInfo = null;
    const request = early && early.enterpriseId === get().enterpriseID ? early.request : authApi.getUserPermission();
    const result = (await request).result;
    const permissions = result?.role?.permissions;
    if (!result?.role || !Array.isArray(permissions) || permissions.length === 0) {
      throw new Error('roles must be a non-null array');
    }
    const roles = { permissions };
    set({
      roles,
      permissions,
      name: result.name,
      avatar: result.avatar,
      isPlatformAdmin: result.isPlatformAdmin,
      welcome: greetingPeriod(),
    });
    return roles;
  },

  selectEnterprise(enterprise) {
    rememberEnterprise(enterprise.id, enterprise.userType);
    set({ enterpriseID: enterprise.id, enterpriseRole: enterprise.userType, projectID: null });
    sessionStore.set(SESSION_KEYS.projectId, null);
  },

  setProject(id) {
    sessionStore.set(SESSION_KEYS.projectId, id);
    set({ projectID: id });
  },

  clearSession() {
    localStore.remove(STORAGE_KEYS.token);
    localStore.remove(STORAGE_KEYS.userInfo);
    set({ token: null, info: null, roles: null, permissions: [] });
  },

  async logout() {
    try {
      await authApi.logout();
    } catch {
      // Logging out locally matters more than the server's answer.
    } finally {
      rememberEnterprise(null, null);
      localStore.remove(STORAGE_KEYS.token);
      localStore.remove(STORAGE_KEYS.userInfo);
      set({
        token: null,
        roles: null,
        permissions: [],
        enterpriseID: null,
        enterpriseRole: null,
        enterprises: null,
        info: null,
        name: '',
        avatar: '',
      });
    }
  },
}));

setUnauthorizedHandler(() => useSession.getState().logout());
