import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { notification } from 'antd';
import { HEADERS, type Envelope } from '@console/contract';
import i18n, { currentLanguage } from '../locales/index.ts';
import { getToken, sessionStore, SESSION_KEYS } from '../utils/storage.ts';

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

/** Form-encodes plain objects (what the spec's client sends); FormData goes as multipart. */
function formEncode(data: unknown): unknown {
  if (data === undefined || data === null || data instanceof FormData || typeof data !== 'object') return data;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params;
}

export const http = axios.create({
  baseURL: '/api',
  timeout: REQUEST_TIMEOUT_MS,
  withCredentials: true,
  transformRequest: [(data) => formEncode(data), ...(axios.defaults.transformRequest as never[])],
});

http.interceptors.request.use((config) => {
  const token = getToken();
  if (token) config.headers.set(HEADERS.token, token);
  const enterpriseId = sessionStore.get(SESSION_KEYS.enterpriseId);
  if (enterpriseId && !config.headers.has(HEADERS.enterprise)) config.headers.set(HEADERS.enterprise, enterpriseId);
  config.headers.set(HEADERS.language, currentLanguage());
  return config;
});

http.interceptors.response.use(
  // The response handler returns the body.
  (response) => response.data,
  (error: AxiosError<Envelope>) => {
    const status = error.response?.status;
    const body = error.response?.data;
    const t = i18n.t.bind(i18n);
    if (status === 403) {
      notification.error({ key: `forbidden:${body?.message}`, message: t('http.forbidden'), description: body?.message });
    } else if (status === 401 && !getToken()) {
      // Signed out meanwhile (a page's request refired after logout): the guard takes the user to
      // sign-in; a notice would only say what they just did.
    } else if (status === 401 && !(body?.result as { isLogin?: boolean } | null)?.isLogin) {
      // Several requests may fail at once: one notice, one logout, one reload.
      notification.error({ key: 'unauthorized', message: t('http.unauthorized'), description: t('http.unauthorizedDescription') });
      if (getToken() && !reloadScheduled) {
        reloadScheduled = true;
        void onUnauthorized().finally(() => setTimeout(() => window.location.reload(), RELOAD_AFTER_401_MS));
      }
    }
    return Promise.reject(error);
  },
);

/** The body of an answer; the interceptor already unwrapped axios' response. */
export const request = <T>(config: AxiosRequestConfig) => http.request<Envelope<T>, Envelope<T>>(config);

/** Generic helpers of the spec: POST with a JSON body, GET with query params, GET a blob. */
export const postJson = <T>(url: string, data: unknown) =>
  request<T>({ url, method: 'post', data: JSON.stringify(data), headers: { 'content-type': 'application/json' } });
export const putJson = <T>(url: string, data: unknown) =>
  request<T>({ url, method: 'put', data: JSON.stringify(data), headers: { 'content-type': 'application/json' } });
export const get = <T>(url: string, params?: Record<string, unknown>) => request<T>({ url, method: 'get', params });
export const post = <T>(url: string, data?: Record<string, unknown> | FormData) => request<T>({ url, method: 'post', data });
export const put = <T>(url: string, data?: Record<string, unknown>) => request<T>({ url, method: 'put', data });
export const del = <T>(url: string) => request<T>({ url, method: 'delete' });
export const getBlob = (url: string, params?: Record<string, unknown>) =>
  http.request<Blob, Blob>({ url, method: 'get', params, responseType: 'blob' });

/** The message of a failed request: the server's (already in the user's language) or a generic one. */
export function errorMessage(error: unknown): string {
  const body = (error as AxiosError<Envelope>)?.response?.data;
  if (body && typeof body.message === 'string') return body.message;
  if ((error as AxiosError)?.response === undefined) return i18n.t('http.networkDescription');
  return i18n.t('http.requestFailed');
}

/** A file as multipart field "file", with upload progress (0..1) for big files. */
export function upload<T>(url: string, file: File, onProgress?: (share: number) => void) {
  const data = new FormData();
  data.append('file', file);
  return request<T>({ url, method: 'post', data, onUploadProgress: (e) => onProgress?.(e.total ? e.loaded / e.total : 0) });
}
