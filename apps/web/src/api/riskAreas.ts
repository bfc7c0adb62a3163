import type { AreaGeometry, ImportJobView, LineGeometry, NetworkType, PipeSetPage, RiskAreaKind, RiskAreaPipes, RiskAreaStatus, RiskLevel } from '@console/contract';
import { del, get, getBlob, postJson, putJson, upload } from './http.ts';

export interface RiskArea {
  id: number;
  projectId: number | null;
  name: string;
  kind: RiskAreaKind;
  level: RiskLevel;
  geometry: AreaGeometry | { type: 'Point'; coordinates: number[] };
  minx: number;
  miny: number;
  maxx: number;
  maxy: number;
  bufferM: number;
  cause: string | null;
  triggerRainMm: number | null;
  triggerHours: number | null;
  voidAreaM2: number | null;
  burialDepthM: number | null;
  clearHeightM: number | null;
  source: 'survey' | 'report' | 'insar' | 'manual';
  responsibleUnit: string | null;
  responsiblePerson: string | null;
  responsiblePhone: string | null;
  notes: string | null;
  status: RiskAreaStatus;
  pipes: RiskAreaPipes | null;
  updatedAt: string;
}

export interface RiskAreaDetail extends RiskArea {
  history: { id: number; action: string; fromStatus: RiskAreaStatus | null; toStatus: RiskAreaStatus; details: Record<string, unknown> | null; at: string; userName: string | null }[];
  files: { id: number; fileName: string; mimetype: string; size: number; uploadedAt: string }[];
  pipeLines: { pipeRowId: number; networkType: NetworkType; geometry: LineGeometry }[];
}

export interface RiskAreaSummary {
  total: number;
  open: number;
  byLevel: Record<RiskLevel, number>;
  byKind: Partial<Record<RiskAreaKind, number>>;
  byStatus: Partial<Record<RiskAreaStatus, number>>;
}

export const riskAreaApi = {
  areas: (params: Record<string, unknown>) => get<{ list: RiskArea[]; total: number }>('/risk-areas/areas', params),
  area: (id: number) => get<RiskAreaDetail>(`/risk-areas/areas/${id}`),
  pipes: (id: number, page: number, pageSize: number) => get<PipeSetPage>(`/risk-areas/areas/${id}/pipes`, { page, pageSize }),
  summary: () => get<RiskAreaSummary>('/risk-areas/summary'),
  save: (input: Record<string, unknown>, id?: number) => (id === undefined ? postJson<RiskAreaDetail>('/risk-areas/areas', input) : putJson<RiskAreaDetail>(`/risk-areas/areas/${id}`, input)),
  fromSettlement: (datasetId: number, pipeRowId: number) => postJson<RiskAreaDetail>('/risk-areas/areas/from-settlement', { datasetId, pipeRowId }),
  remove: (id: number) => del<null>(`/risk-areas/areas/${id}`),
  step: (id: number, action: 'start' | 'finish' | 'reopen', input: Record<string, unknown>) => postJson<RiskAreaDetail>(`/risk-areas/areas/${id}/${action}`, input),
  addFile: (id: number, file: File) => upload<{ id: number }>(`/risk-areas/areas/${id}/files`, file),
  fileBlob: (fileId: number) => getBlob(`/risk-areas/files/${fileId}`),
  exportFile: (params: Record<string, unknown>, format: 'geojson' | 'csv' | 'xlsx') => getBlob('/risk-areas/areas/export', { ...params, format }),
  importUpload: (file: File, onProgress: (share: number) => void) => upload<ImportJobView>('/risk-areas/imports', file, onProgress),
  importStart: (id: number, values: Record<string, unknown>) => postJson<ImportJobView>(`/risk-areas/imports/${id}/start`, values),
  importJob: (id: number) => get<ImportJobView>(`/risk-areas/imports/${id}`),
};
