/**
 * Values kept in localStorage with an optional expiry, under the spec's keys
 * (Access-Token, Login_Userinfo, app_language). Stored as {value, expire}.
 */
export const STORAGE_KEYS = {
  token: 'Access-Token',
  userInfo: 'Login_Userinfo',
  language: 'app_language',
  settings: 'app_settings',
  /** Current enterprise id, also kept in session storage for the tab (see session store). */
  enterpriseId: 'current_enterprise_id',
} as const;

/** The spec's token lifetime: 7 days. */
export const TOKEN_TTL_MS = 604_800_000;

export const localStore = {
  get<T>(key: string): T | null {
    const raw = localStorage.getItem(key);
    if (raw === null) return null;
    try {
      const { value, expire } = JSON.parse(raw) as { value: T; expire: number | null };
      if (expire !== null && expire !== undefined && Date.now() > expire) {
        localStorage.removeItem(key);
        return null;
      }
      return value;
    } catch {
      return null;
    }
  },
  set(key: string, value: unknown, ttlMs: number | null = null) {
    localStorage.setItem(key, JSON.stringify({ value, expire: ttlMs === null ? null : Date.now() + ttlMs }));
  },
  remove(key: string) {
    localStorage.removeItem(key);
  },
};

/** Keys of session storage: current enterprise id, enterprise role and project id (spec section 3). */
export const SESSION_KEYS = {
  enterpriseId: 'enterpriseID',
  enterpriseRole: 'enterpriseRole',
  projectId: 'projectID',
} as const;

export const sessionStore = {
  get: (key: string) => sessionStorage.getItem(key),
  set: (key: string, value: string | number | null) =>
    value === null ? sessionStorage.removeItem(key) : sessionStorage.setItem(key, String(value)),
};

export const getToken = () => localStore.get<string>(STORAGE_KEYS.token);
