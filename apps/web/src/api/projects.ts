import type { AreaGeometry, NetworkType, PipeLengthByType, PoiStatus, ProjectInput } from '@console/contract';
import { del, get, post, put } from './http.ts';

export interface Project {
  id: number;
  name: string;
  code: string;
  city: string;
  district: string | null;
  area: AreaGeometry;
  bbox: [number, number, number, number];
  networkTypes: NetworkType[];
  startDate: string | null;
  endDate: string | null;
  status: 'planned' | 'active' | 'closed';
  description: string | null;
  pipeLengthM: PipeLengthByType;
  /** POIs delivered on the project, by status. */
  poiCounts: Partial<Record<PoiStatus, number>>;
}

/** Bodies go as JSON text fields in the form encoding: the area as GeoJSON text. */
const encode = (input: ProjectInput) => ({ ...input, area: JSON.stringify(input.area), networkTypes: input.networkTypes.join(',') });

export const projectApi = {
  list: (params: { keyword?: string; status?: string }) => get<Project[]>('/projects', params),
  get: (id: number) => get<Project>(`/projects/${id}`),
  create: (input: ProjectInput) => post<Project>('/projects', encode(input)),
  update: (id: number, input: ProjectInput) => put<Project>(`/projects/${id}`, encode(input)),
  remove: (id: number) => del<null>(`/projects/${id}`),
};
