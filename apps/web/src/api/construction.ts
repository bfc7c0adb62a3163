import type { AreaGeometry, BuildType, CaseStatus, Criticality, CriticalitySettings, ImportJobView, LineGeometry, NetworkType, PipeSetPage, SiteMeasure } from '@console/contract';
import { del, get, getBlob, postJson, putJson, upload } from './http.ts';

export interface SiteEvent {
  id: number;
  action: 'created' | 'imported' | 'edited' | 'redetected' | 'judge' | 'brief' | 'guard' | 'watch' | 'close' | 'reopen' | 'file';
  fromStatus: CaseStatus | null;
  toStatus: CaseStatus;
  details: Record<string, unknown> | null;
  at: string;
  userName: string | null;
}

export interface WatchLogEntry {
  id: number;
  at: string;
  person: string;
  remark: string;
}

export interface SiteFile {
  id: number;
  watchLogId: number | null;
  kind: 'plan' | 'agreement' | 'photo';
  fileName: string;
  mimetype: string;
  size: number;
  uploadedAt: string;
}

export interface Site {
  id: number;
  projectId: number | null;
  siteNo: string;
  name: string;
  buildType: BuildType;
  geometry: AreaGeometry;
  centerLon: number;
  centerLat: number;
  radiusM: number | null;
  minx: number;
  miny: number;
  maxx: number;
  maxy: number;
  address: string | null;
  district: string | null;
  plannedStart: string | null;
  plannedEnd: string | null;
  actualStart: string | null;
  actualEnd: string | null;
  constructionUnit: string | null;
  constructionContact: string | null;
  constructionPhone: string | null;
  supervisingUnit: string | null;
  supervisingContact: string | null;
  supervisingPhone: string | null;
  source: 'satellite' | 'patrol' | 'report' | 'manual';
  detectedAt: string | null;
  changeType: string | null;
  buildState: 'notStarted' | 'inProgress' | 'completed';
  status: CaseStatus;
  briefedBy: string | null;
  briefedAt: string | null;
  guard: string | null;
  measure: SiteMeasure | null;
  nearestM: number | null;
  criticality: Criticality;
  insideGasProtection: boolean;
  updatedAt: string;
}

export interface SiteDetail extends Site {
  history: SiteEvent[];
  watchLog: WatchLogEntry[];
  files: SiteFile[];
  pipes: { pipeRowId: number; networkType: NetworkType; geometry: LineGeometry }[];
  merged?: boolean;
}

export interface SiteSummary {
  total: number;
  openThreats: number;
  insideGasProtection: number;
  toReview: number;
  byCriticality: Record<Criticality, number>;
  byStatus: Partial<Record<CaseStatus, number>>;
}

export const constructionApi = {
  sites: (params: Record<string, unknown>) => get<{ list: Site[]; total: number }>('/construction/sites', params),
  site: (id: number) => get<SiteDetail>(`/construction/sites/${id}`),
  pipes: (id: number, page: number, pageSize: number) => get<PipeSetPage>(`/construction/sites/${id}/pipes`, { page, pageSize }),
  summary: (projectId?: number) => get<SiteSummary>('/construction/summary', { projectId }),
  save: (input: Record<string, unknown>, id?: number) => (id === undefined ? postJson<SiteDetail>('/construction/sites', input) : putJson<SiteDetail>(`/construction/sites/${id}`, input)),
  remove: (id: number) => del<null>(`/construction/sites/${id}`),
  step: (id: number, action: 'judge' | 'brief' | 'guard' | 'close' | 'reopen', input: Record<string, unknown>) => postJson<SiteDetail>(`/construction/sites/${id}/${action}`, input),
  watch: (id: number, input: { person: string; remark: string; at?: string }) => postJson<{ site: SiteDetail; logId: number }>(`/construction/sites/${id}/watch`, input),
  addWatchPhoto: (id: number, logId: number, file: File) => upload<SiteFile>(`/construction/sites/${id}/watch/${logId}/photos`, file),
  addFile: (id: number, kind: SiteFile['kind'], file: File) => upload<SiteFile>(`/construction/sites/${id}/files`, file, undefined, { kind }),
  fileBlob: (fileId: number) => getBlob(`/construction/files/${fileId}`),
  removeFile: (fileId: number) => del<null>(`/construction/files/${fileId}`),
  exportFile: (params: Record<string, unknown>, format: 'geojson' | 'csv' | 'xlsx') => getBlob('/construction/sites/export', { ...params, format }),
  settings: () => get<CriticalitySettings>('/construction/settings'),
  saveSettings: (settings: CriticalitySettings) => putJson<CriticalitySettings>('/construction/settings', settings),
  importUpload: (file: File, onProgress: (share: number) => void) => upload<ImportJobView>('/construction/imports', file, onProgress),
  importStart: (id: number, values: Record<string, unknown>) => postJson<ImportJobView>(`/construction/imports/${id}/start`, values),
  importJob: (id: number) => get<ImportJobView>(`/construction/imports/${id}`),
};
