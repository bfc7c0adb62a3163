import type { MapSettings } from '@console/contract';
import { get } from './http.ts';

export const mapApi = {
  settings: () => get<MapSettings>('/enterprise/mapSettings'),
};
