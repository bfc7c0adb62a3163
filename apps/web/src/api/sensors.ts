import type { ImportJobView, SensorCredentials, SensorDevice, SensorInput, SensorListQuery, SensorPeriod, SensorRefusalCount, SensorSeries, SensorSummary } from '@console/contract';
import { del, get, getBlob, postJson, post, putJson, upload } from './http.ts';

export type Sensor = SensorDevice & { simulated: boolean };
export interface SensorPage {
  list: Sensor[];
  total: number;
  page: number;
  pageSize: number;
}
export interface BrokerState {
  address: string | null;
  embedded: boolean;
  connected: boolean;
}

export const sensorApi = {
  importUpload: (file: File, onProgress: (share: number) => void) => upload<ImportJobView>('/sensors/imports', file, onProgress),
  importStart: (id: number, values: Record<string, unknown>) => postJson<ImportJobView>(`/sensors/imports/${id}/start`, values),
  importJob: (id: number) => get<ImportJobView>(`/sensors/imports/${id}`),
  list: (q: Partial<SensorListQuery>) => get<SensorPage>('/sensors', q),
  places: () => get<Sensor[]>('/sensors/places'),
  summary: () => get<SensorSummary>('/sensors/summary'),
  broker: () => get<BrokerState>('/sensors/broker'),
  refusals: (code?: string) => get<SensorRefusalCount[]>('/sensors/refusals', { code }),
  get: (id: number) => get<Sensor>(`/sensors/${id}`),
  create: (input: SensorInput) => postJson<Sensor>('/sensors', input),
  update: (id: number, input: SensorInput) => putJson<Sensor>(`/sensors/${id}`, input),
  remove: (id: number) => del<null>(`/sensors/${id}`),
  makeCredentials: (id: number) => post<SensorCredentials>(`/sensors/${id}/credentials`),
  revokeCredentials: (id: number) => post<null>(`/sensors/${id}/credentials/revoke`),
  series: (id: number, period: SensorPeriod) => get<SensorSeries>(`/sensors/${id}/series`, { period }),
  readingsCsv: (id: number, from: string, to: string) => getBlob(`/sensors/${id}/readings.csv`, { from, to }),
};
