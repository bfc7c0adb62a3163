import type { ImportJobView, LineGeometry, ListPage, NetworkType, PipeImportStart, PipeInput } from '@console/contract';
import { del, get, getBlob, post, postJson, put, upload } from './http.ts';

export interface Pipe {
  id: number;
  pipeId: string;
  networkType: NetworkType;
  material: string | null;
  diameterMm: number | null;
  pressureClass: string | null;
  installYear: number | null;
  depthM: number | null;
  owner: string | null;
  lengthM: number;
  geometry: LineGeometry;
  updatedAt: string;
}

export type PipePage = ListPage<Pipe>;

const encode = (input: PipeInput) => ({ ...input, geometry: JSON.stringify(input.geometry) });

export const pipelineApi = {
  list: (params: Record<string, unknown>) => get<PipePage>('/pipelines', params),
  facets: () => get<{ materials: string[]; networks: NetworkType[] }>('/pipelines/facets'),
  get: (id: number) => get<Pipe>(`/pipelines/${id}`),
  exportFile: (params: Record<string, unknown>, format: 'geojson' | 'csv' | 'xlsx') => getBlob('/pipelines/export', { ...params, format }),
  create: (input: PipeInput) => post<Pipe>('/pipelines', encode(input)),
  update: (id: number, input: PipeInput) => put<Pipe>(`/pipelines/${id}`, encode(input)),
  remove: (id: number) => del<null>(`/pipelines/${id}`),
  /** Uploads a network file; the answer is the analysed job for the mapping step. */
  importUpload: (file: File, onProgress: (share: number) => void) => upload<ImportJobView>('/pipelines/imports', file, onProgress),
  importStart: (id: number, options: PipeImportStart) => postJson<ImportJobView>(`/pipelines/imports/${id}/start`, options),
  importJob: (id: number) => get<ImportJobView>(`/pipelines/imports/${id}`),
  imports: () => get<ImportJobView[]>('/pipelines/imports'),
};
