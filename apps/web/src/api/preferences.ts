import type { PreferenceKey } from '@console/contract';
import { get, putJson } from './http.ts';

export const preferenceApi = {
  get: <T>(key: PreferenceKey) => get<T | null>(`/preferences/${key}`),
  save: <T>(key: PreferenceKey, value: T) => putJson<T>(`/preferences/${key}`, value),
};
