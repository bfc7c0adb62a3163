import type { MapSettings } from '@console/contract';
import { get, put } from './http.ts';

export const mapApi = {
  settings: () => get<MapSettings>('/enterprise/mapSettings'),
};

export const saveMapSettings = (settings: Record<string, unknown>) => put<MapSettings>('/enterprise/mapSettings', settings);
