import type { AlertBatchStep, AlertDetail, AlertListQuery, AlertRow, AlertSettings, AlertStep, AlertSummary, ManualAlertInput, RiskLevel } from '@console/contract';
import { get, getBlob, postJson, putJson, upload } from './http.ts';

export type AlertFilters = Partial<Omit<AlertListQuery, 'page' | 'pageSize'>>;
export interface AlertPlace {
  id: number;
  code: string;
  rule: AlertRow['rule'];
  subject: string;
  level: RiskLevel;
  state: AlertRow['state'];
  lon: number;
  lat: number;
}

export const alertApi = {
  list: (params: AlertFilters & { page: number; pageSize: number }) => get<{ list: AlertRow[]; total: number }>('/alerts/alerts', params),
  get: (id: number) => get<AlertDetail>(`/alerts/alerts/${id}`),
  summary: () => get<AlertSummary>('/alerts/summary'),
  places: () => get<AlertPlace[]>('/alerts/places'),
  raise: (input: ManualAlertInput) => postJson<AlertDetail>('/alerts/alerts', input),
  step: (id: number, step: AlertStep, body: Record<string, unknown>) => postJson<AlertDetail>(`/alerts/alerts/${id}/${step}`, body),
  /** The same step on many alerts, all or none. */
  batch: (step: AlertBatchStep, ids: number[], note?: string) => postJson<{ count: number }>(`/alerts/steps/${step}`, { ids, note }),
  addPhoto: (id: number, eventId: number, file: File) => upload<{ id: number; fileName: string }>(`/alerts/alerts/${id}/events/${eventId}/photos`, file),
  photoBlob: (photoId: number) => getBlob(`/alerts/photos/${photoId}`),
  settings: () => get<AlertSettings>('/alerts/settings'),
  saveSettings: (settings: AlertSettings) => putJson<AlertSettings>('/alerts/settings', settings),
};
