import type {
  AreaGeometry,
  ImportJobView,
  LineGeometry,
  NetworkType,
  SettlementAverage,
  SettlementBands,
  SettlementDataset,
  SettlementImportStart,
  SettlementLevel,
  SettlementPoint,
  SettlementResult,
  SettlementResultDetail,
  SettlementRunProfile,
  SettlementThresholds,
  SettlementWindow,
} from '@console/contract';
import { del, get, getBlob, post, postJson, putJson, upload } from './http.ts';

export interface ResultFilters {
  level?: SettlementLevel;
  projectId?: number;
  networkType?: NetworkType;
  keyword?: string;
}

export interface WindowQuery {
  bbox: string;
  resolution: number;
  velocityMin?: number;
  velocityMax?: number;
  coherenceMin?: number;
  from?: number;
  to?: number;
}

const dataset = (id: number) => `/settlement/datasets/${id}`;

export const settlementApi = {
  datasets: () => get<SettlementDataset[]>('/settlement/datasets'),
  remove: (id: number) => del<null>(dataset(id)),
  analyse: (id: number) => post<SettlementDataset>(`${dataset(id)}/analyse`),
  window: (id: number, query: WindowQuery, signal?: AbortSignal) => get<SettlementWindow>(`${dataset(id)}/window`, { ...query }, signal),
  point: (id: number, pointId: number) => get<SettlementPoint>(`${dataset(id)}/points/${pointId}`),
  average: (id: number, area: AreaGeometry) => postJson<SettlementAverage>(`${dataset(id)}/average`, { area }),
  results: (id: number, query: ResultFilters & { page: number; pageSize: number }) => get<{ list: SettlementResult[]; total: number; totalExact: boolean; page: number; pageSize: number }>(`${dataset(id)}/results`, { ...query }),
  result: (id: number, pipeRowId: number) => get<SettlementResultDetail>(`${dataset(id)}/results/${pipeRowId}`),
  run: (id: number, pipeRowId: number) => get<SettlementRunProfile>(`${dataset(id)}/results/${pipeRowId}/run`),
  flagged: (id: number) => get<{ pipeRowId: number; pipeId: string; level: SettlementLevel; geometry: LineGeometry }[]>(`${dataset(id)}/results/flagged`),
  exportResults: (id: number, filters: ResultFilters, format: string) => getBlob(`${dataset(id)}/results/export`, { ...filters, format }),
  bands: () => get<SettlementBands>('/settlement/bands'),
  saveBands: (bands: SettlementBands) => putJson<SettlementBands>('/settlement/bands', bands),
  thresholds: (projectId: number) => get<SettlementThresholds & { projectId: number; own: boolean }>('/settlement/thresholds', { projectId }),
  saveThresholds: (values: SettlementThresholds & { projectId: number }) => putJson<SettlementThresholds & { projectId: number; own: boolean }>('/settlement/thresholds', values),
  importUpload: (file: File, onProgress: (share: number) => void) => upload<ImportJobView>('/settlement/imports', file, onProgress),
  importStart: (id: number, options: SettlementImportStart) => postJson<ImportJobView>(`/settlement/imports/${id}/start`, options),
  importJob: (id: number) => get<ImportJobView>(`/settlement/imports/${id}`),
  imports: () => get<ImportJobView[]>('/settlement/imports'),
};
