import type { ImportJobView, LineGeometry, PipeRiskRow, RiskLevel, RiskWeights, SensitiveKind, SensitiveSite } from '@console/contract';
import { get, getBlob, post, postJson, putJson, upload } from './http.ts';

export interface PipeRiskRun {
  id: number;
  status: 'running' | 'succeeded' | 'failed';
  reason: string;
  startedAt: string;
  finishedAt: string | null;
  segments: number | null;
  levels: Record<RiskLevel, number> | null;
  byNetwork: Record<string, Record<RiskLevel, number>> | null;
  masked: number | null;
  changed: number | null;
}

/** One segment explained: what set each factor, and its changes of level. */
export interface PipeRiskDetail extends PipeRiskRow {
  geometry: LineGeometry;
  depthM: number | null;
  pressureClass: string | null;
  sources: {
    leaks: { id: number; poiNo: string; status: string }[];
    settlement: { datasetId: number; name: string; level: number; minVelocity: number }[];
    construction: { id: number; siteNo: string; name: string; criticality: string; status: string }[];
    riskAreas: { id: number; name: string; kind: string; level: RiskLevel }[];
    weather: { id: number; type: string; level: RiskLevel | null; source: string; end: string }[];
    sensitive: { id: number; name: string; kind: SensitiveKind; distanceM: number }[];
  };
  history: { changedOn: string; fromLevel: RiskLevel; toLevel: RiskLevel }[];
}

export type PipeRiskFilters = { level?: RiskLevel; networkType?: string; masked?: 'true'; keyword?: string; projectId?: number };

export const pipeRiskApi = {
  list: (params: PipeRiskFilters & { page: number; pageSize: number }) => get<{ list: PipeRiskRow[]; total: number }>('/pipe-risk/pipes', params),
  get: (pipeRowId: number) => get<PipeRiskDetail>(`/pipe-risk/pipes/${pipeRowId}`),
  summary: () => get<PipeRiskRun | null>('/pipe-risk/summary'),
  runs: () => get<PipeRiskRun[]>('/pipe-risk/runs'),
  assess: () => post<PipeRiskRun>('/pipe-risk/runs'),
  weights: () => get<RiskWeights>('/pipe-risk/weights'),
  saveWeights: (weights: RiskWeights) => putJson<RiskWeights>('/pipe-risk/weights', weights),
  sensitiveSites: () => get<SensitiveSite[]>('/pipe-risk/sensitive-sites'),
  sensitiveUpload: (file: File, onProgress: (share: number) => void) => upload<ImportJobView>('/pipe-risk/sensitive-sites/imports', file, onProgress),
  sensitiveStart: (id: number, values: Record<string, unknown>) => postJson<ImportJobView>(`/pipe-risk/sensitive-sites/imports/${id}/start`, values),
  sensitiveJob: (id: number) => get<ImportJobView>(`/pipe-risk/sensitive-sites/imports/${id}`),
  exportFile: (params: PipeRiskFilters, format: 'geojson' | 'csv' | 'xlsx') => getBlob('/pipe-risk/pipes/export', { ...params, format }),
};
