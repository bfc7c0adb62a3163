import { notify } from '../utils/notify.ts';
import { HEADERS, type Envelope } from '@console/contract';
import i18n, { currentLanguage } from '../locales/index.ts';
import { getToken, sessionStore, SESSION_KEYS } from '../utils/storage.ts';
import { databaseDown } from './databaseState.ts';

/** The spec's request timeout: 600000 ms. */
export const REQUEST_TIMEOUT_MS = 600_000;
/** Reload this long after a 401 forced a logout. */
export const RELOAD_AFTER_401_MS = 1_500;

let reloadScheduled = false;

/** Called on a 401 with a token present; the session store sets it (it owns logout). */
let onUnauthorized: () => Promise<void> = async () => {};
export function setUnauthorizedHandler(handler: () => Promise<void>) {
  onUnauthorized = handler;
}

/** A request that got no answer (status undefined) or an answer other than 2xx, with its envelope when there is one. */
export class HttpError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly body: Envelope | undefined,
  ) {
    super(body?.message ?? (status === undefined ? 'network error' : `HTTP ${status}`));
    this.name = 'HttpError';
  }
}

const BASE = '/api';

// A page being left aborts its requests; such a "failure" must not act (the guard would clear
// the session on a failed user-info call). Those calls simply never settle.
let leaving = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => (leaving = true));
  window.addEventListener('pagehide', () => (leaving = true));
  window.addEventListener('pageshow', () => (leaving = false));
}
const never = <T>() => new Promise<T>(() => {});

/** Query or form parameters: undefined and null left out, lists comma-separated (what the server reads). */
function params(data: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    out.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return out;
}

/** The headers every call carries: token, current enterprise (unless given), language. */
function headersFor(extra: Record<string, string> = {}): Headers {
  const headers = new Headers(extra);
  const token = getToken();
  if (token) headers.set(HEADERS.token, token);
  const enterpriseId = sessionStore.get(SESSION_KEYS.enterpriseId);
  if (enterpriseId && !headers.has(HEADERS.enterprise)) headers.set(HEADERS.enterprise, enterpriseId);
  headers.set(HEADERS.language, currentLanguage());
  return headers;
}

/** What a refused answer means for the whole console: 403 and 401 notices, the logout a lost session needs. */
function refused(status: number | undefined, body: Envelope | undefined): HttpError {
  const t = i18n.t.bind(i18n);
  // The server's database is away: one banner says so (components/DatabaseBanner), not a notice per request.
  if (status === 503 && (body?.result as { retryAfter?: number } | null)?.retryAfter) databaseDown();
  if (status === 403) {
    notify.error({ key: `forbidden:${body?.message}`, message: t('http.forbidden'), description: body?.message });
  } else if (status === 401 && !getToken()) {
    // Signed out meanwhile (a page's request refired after logout): the guard takes the user to
    // sign-in; a notice would only say what they just did.
  } else if (status === 401 && !(body?.result as { isLogin?: boolean } | null)?.isLogin) {
    // Several requests may fail at once: one notice, one logout, one reload.
    notify.error({ key: 'unauthorized', message: t('http.unauthorized'), description: t('http.unauthorizedDescription') });
    if (getToken() && !reloadScheduled) {
      reloadScheduled = true;
      void onUnauthorized().finally(() => setTimeout(() => window.location.reload(), RELOAD_AFTER_401_MS));
    }
  }
  return new HttpError(status, body);
}

const envelopeOf = async (response: Response): Promise<Envelope | undefined> => (response.headers.get('content-type')?.includes('json') ? response.json().catch(() => undefined) : undefined);

async function send(method: string, url: string, init: { query?: Record<string, unknown>; body?: BodyInit; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  const search = init.query ? params(init.query).toString() : '';
  let response: Response;
  try {
    response = await fetch(`${BASE}${url}${search ? `?${search}` : ''}`, {
      method,
      body: init.body,
      headers: headersFor(init.headers),
      credentials: 'same-origin',
      signal: init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    if (leaving) return never();
    throw refused(undefined, undefined);
  }
  if (!response.ok) throw refused(response.status, await envelopeOf(response));
  return response;
}

async function json<T>(response: Promise<Response>): Promise<Envelope<T>> {
  const answer = await response;
  try {
    return (await answer.json()) as Envelope<T>;
  } catch {
    if (leaving) return never();
    throw refused(undefined, undefined);
  }
}
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_BODY = { 'content-type': 'application/json' };

/** The spec's helpers: GET with query params, POST/PUT form-encoded or JSON, DELETE, GET a blob. */
/** GET; `signal` cancels it (a map window the user has already panned away from). */
export const get = <T>(url: string, query?: Record<string, unknown>, signal?: AbortSignal) => json<T>(send('GET', url, { query, signal }));
export const post = <T>(url: string, data?: Record<string, unknown>) => json<T>(send('POST', url, { body: data && params(data), headers: FORM }));
export const put = <T>(url: string, data?: Record<string, unknown>) => json<T>(send('PUT', url, { body: data && params(data), headers: FORM }));
export const postJson = <T>(url: string, data: unknown) => json<T>(send('POST', url, { body: JSON.stringify(data), headers: JSON_BODY }));
export const putJson = <T>(url: string, data: unknown) => json<T>(send('PUT', url, { body: JSON.stringify(data), headers: JSON_BODY }));
export const del = <T>(url: string) => json<T>(send('DELETE', url));
export const getBlob = async (url: string, query?: Record<string, unknown>) => (await send('GET', url, { query })).blob();

/**
 * A long-lived GET (a server-sent event stream) with the same headers as every call and no time
 * limit; answers the response (its body is read as it comes) or null when refused or unreachable.
 */
export async function openStream(url: string, signal: AbortSignal): Promise<Response | null> {
  try {
    const response = await fetch(`${BASE}${url}`, { headers: headersFor({ accept: 'text/event-stream' }), credentials: 'same-origin', signal });
    return response.ok && response.body ? response : null;
  } catch {
    return null;
  }
}

/** The message of a failed request: the server's (already in the user's language) or a generic one. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof HttpError)) return i18n.t('http.requestFailed');
  if (error.body && typeof error.body.message === 'string') return error.body.message;
  if (error.status === undefined) return i18n.t('http.networkDescription');
  return i18n.t('http.requestFailed');
}

/**
 * A file as multipart field "file" (after any text `fields`), with upload progress (0..1) for big
 * files (XMLHttpRequest: fetch has none).
 */
export function upload<T>(url: string, file: File, onProgress?: (share: number) => void, fields: Record<string, string> = {}): Promise<Envelope<T>> {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append('file', file);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${BASE}${url}`);
    xhr.timeout = REQUEST_TIMEOUT_MS;
    headersFor().forEach((value, key) => xhr.setRequestHeader(key, value));
    xhr.upload.onprogress = (e) => onProgress?.(e.total ? e.loaded / e.total : 0);
    xhr.onload = () => {
      let body: Envelope<T> | undefined;
      try {
        body = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) resolve(body);
      else reject(refused(xhr.status, body));
    };
    xhr.onerror = xhr.ontimeout = () => !leaving && reject(refused(undefined, undefined));
    xhr.send(data);
  });
}
