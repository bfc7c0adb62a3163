import type { AlertBatchStep, AlertDetail, AlertListQuery, AlertRow, AlertSettings, AlertStep, AlertSummary, ChannelInput, ChannelRow, ChannelSend, IncidentDetail, IncidentKind, IncidentRow, ManualAlertInput, RiskLevel } from '@console/contract';
import { del, get, getBlob, postJson, putJson, upload } from './http.ts';

export type AlertFilters = Partial<Omit<AlertListQuery, 'page' | 'pageSize'>>;
/** An open incident on the map. */
export interface IncidentPlace {
  id: number;
  code: string;
  kind: IncidentKind;
  subject: string;
  level: RiskLevel;
  state: IncidentRow['state'];
  memberCount: number;
  pipeCount: number;
  lon: number;
  lat: number;
}

export const alertApi = {
  /** Incidents: the alerts of one cause, worked as one. */
  incidents: (params: AlertFilters & { page: number; pageSize: number }) => get<{ list: IncidentRow[]; total: number }>('/alerts/incidents', params),
  incident: (id: number) => get<IncidentDetail>(`/alerts/incidents/${id}`),
  /** Every alert, each naming its incident. */
  list: (params: AlertFilters & { page: number; pageSize: number }) => get<{ list: AlertRow[]; total: number }>('/alerts/alerts', params),
  get: (id: number) => get<AlertDetail>(`/alerts/alerts/${id}`),
  summary: () => get<AlertSummary>('/alerts/summary'),
  places: () => get<IncidentPlace[]>('/alerts/places'),
  raise: (input: ManualAlertInput) => postJson<IncidentDetail>('/alerts/alerts', input),
  step: (id: number, step: AlertStep, body: Record<string, unknown>) => postJson<IncidentDetail>(`/alerts/incidents/${id}/${step}`, body),
  /** The same step on many incidents, all or none. */
  batch: (step: AlertBatchStep, ids: number[], note?: string) => postJson<{ count: number }>(`/alerts/steps/${step}`, { ids, note }),
  addPhoto: (id: number, eventId: number, file: File) => upload<{ id: number; fileName: string }>(`/alerts/incidents/${id}/events/${eventId}/photos`, file),
  photoBlob: (photoId: number) => getBlob(`/alerts/photos/${photoId}`),
  settings: () => get<AlertSettings>('/alerts/settings'),
  saveSettings: (settings: AlertSettings) => putJson<AlertSettings>('/alerts/settings', settings),
};

/** Group robots and e-mail announcing incidents (administrators). */
export const channelApi = {
  list: () => get<ChannelRow[]>('/alerts/channels'),
  create: (input: ChannelInput) => postJson<{ id: number }>('/alerts/channels', input),
  update: (id: number, input: ChannelInput) => putJson<{ id: number }>(`/alerts/channels/${id}`, input),
  remove: (id: number) => del<null>(`/alerts/channels/${id}`),
  test: (id: number) => postJson<ChannelSend>(`/alerts/channels/${id}/test`, {}),
  sends: () => get<ChannelSend[]>('/alerts/sends'),
};
