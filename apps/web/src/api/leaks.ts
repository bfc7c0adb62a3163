import type { AreaGeometry, FindingInput, ImportJobView, PoiPriority, PoiStatus } from '@console/contract';
import { del, get, getBlob, post, postJson, putJson, upload } from './http.ts';

export interface PoiEvent {
  id: number;
  action: 'imported' | 'assign' | 'start' | 'finding' | 'repair' | 'reopen' | 'photo';
  fromStatus: PoiStatus | null;
  toStatus: PoiStatus;
  details: Record<string, unknown> | null;
  at: string;
  userName: string | null;
}

export interface Poi {
  id: number;
  deliveryId: number;
  projectId: number;
  poiNo: string;
  geometry: AreaGeometry;
  centerLon: number;
  centerLat: number;
  radiusM: number | null;
  priority: PoiPriority;
  estimatedLeakM3h: number | null;
  pipes: { lengthM: Record<string, number>; count: number; pipeIds: string[] };
  status: PoiStatus;
  assigneeId: number | null;
  assigneeName: string | null;
  dueDate: string | null;
  finding: { leakType?: string; surfacing?: boolean; pipeMaterial?: string; pipeDiameterMm?: number; flowM3h?: number; depthM?: number; notes?: string } | null;
  investigatedAt: string | null;
  foundAt: string | null;
  repairedAt: string | null;
  createdAt: string;
  updatedAt: string;
  history?: PoiEvent[];
}

export interface Delivery {
  id: number;
  projectId: number;
  acquisitionId: number | null;
  name: string;
  fileName: string | null;
  poiCount: number;
  deliveredAt: string;
}

export interface PoiPhoto {
  id: number;
  fileName: string;
  mimetype: string;
  size: number;
  uploadedAt: string;
}

export interface LeakMetrics {
  delivered: number;
  investigated: number;
  confirmed: number;
  confirmationRate: number | null;
  crewDays: number;
  leaksPerCrewDay: number | null;
  surveyedKm: number;
  leaksPerKm: number | null;
  nonSurfacingShare: number | null;
  byType: Record<string, number>;
  byMaterial: Record<string, number>;
  byDiameterClass: Record<string, number>;
  waterSavedM3PerDay: number;
  waterSavedM3PerYear: number;
  daysToInvestigation: number | null;
  daysToRepair: number | null;
  byStatus: Record<string, number>;
}

export interface Acquisition {
  id: number;
  satellite: string;
  productId: string;
  acquiredAt: string;
  orbitDirection: 'ascending' | 'descending';
  mode: string;
  polarisation: string;
  footprint: AreaGeometry;
  status: 'planned' | 'acquired' | 'processing' | 'delivered' | 'failed';
  projects: { id: number; name: string }[];
}

export interface ProjectCoverage {
  projectId: number;
  name: string;
  code: string;
  coveredShare: number;
  acquisitions: number;
  last: { id: number; acquiredAt: string; satellite: string } | null;
  next: { id: number; acquiredAt: string; satellite: string } | null;
}

export const leakApi = {
  /** Uploads a POI delivery file; the answer is the analysed job for the mapping step. */
  importUpload: (file: File, onProgress: (share: number) => void) => upload<ImportJobView>('/leaks/imports', file, onProgress),
  importStart: (id: number, values: Record<string, unknown>) => postJson<ImportJobView>(`/leaks/imports/${id}/start`, values),
  importJob: (id: number) => get<ImportJobView>(`/leaks/imports/${id}`),
  acquisitions: (projectId?: number) => get<Acquisition[]>('/acquisitions', { projectId }),
  acquisitionImportUpload: (file: File, onProgress: (share: number) => void) => upload<ImportJobView>('/acquisitions/imports', file, onProgress),
  acquisitionImportStart: (id: number, values: Record<string, unknown>) => postJson<ImportJobView>(`/acquisitions/imports/${id}/start`, values),
  acquisitionImportJob: (id: number) => get<ImportJobView>(`/acquisitions/imports/${id}`),
  acquisitionImports: () => get<ImportJobView[]>('/acquisitions/imports'),
  coverage: () => get<ProjectCoverage[]>('/acquisitions/coverage'),
  saveAcquisition: (input: Record<string, unknown>, id?: number) =>
    id === undefined ? postJson<Acquisition>('/acquisitions', input) : putJson<Acquisition>(`/acquisitions/${id}`, input),
  pois: (params: Record<string, unknown>) => get<{ list: Poi[]; total: number }>('/leaks/pois', params),
  exportFile: (params: Record<string, unknown>, format: 'geojson' | 'csv' | 'xlsx') => getBlob('/leaks/pois/export', { ...params, format }),
  poi: (id: number) => get<Poi>(`/leaks/pois/${id}`),
  deliveries: (projectId?: number) => get<Delivery[]>('/leaks/deliveries', { projectId }),
  metrics: (params: Record<string, unknown>) => get<LeakMetrics>('/leaks/metrics', params),
  assign: (poiIds: number[], assigneeId: number, dueDate?: string) => postJson<null>('/leaks/pois/assign', { poiIds, assigneeId, dueDate }),
  start: (id: number) => post<Poi>(`/leaks/pois/${id}/start`),
  finding: (id: number, input: FindingInput) => postJson<Poi>(`/leaks/pois/${id}/finding`, input),
  repair: (id: number, notes?: string) => postJson<Poi>(`/leaks/pois/${id}/repair`, { notes }),
  reopen: (id: number, reason: string) => postJson<Poi>(`/leaks/pois/${id}/reopen`, { reason }),
  photos: (id: number) => get<PoiPhoto[]>(`/leaks/pois/${id}/photos`),
  addPhoto: (id: number, file: File) => upload<PoiPhoto>(`/leaks/pois/${id}/photos`, file),
  /** The image as a blob (photos need the token, so no plain <img src>). */
  photoBlob: (photoId: number) => getBlob(`/leaks/photos/${photoId}`),
  removePhoto: (photoId: number) => del<null>(`/leaks/photos/${photoId}`),
};
