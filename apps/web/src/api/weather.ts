import type { AreaGeometry, WarningLevel, WarningType } from '@console/contract';
import { get, upload } from './http.ts';

export interface WeatherPlace {
  id: number;
  projectId: number | null;
  code: string;
  name: string;
  lon: number;
  lat: number;
}

export interface WeatherHourRow {
  time: string;
  precipitation: number | null;
  temperature: number | null;
  windSpeed: number | null;
  windGust: number | null;
}

export interface WeatherWarning {
  id: number;
  placeId: number | null;
  source: 'derived' | 'official';
  basis: 'observed' | 'forecast' | null;
  type: WarningType;
  level: WarningLevel;
  start: string;
  end: string;
  value: number | null;
  rule: string | null;
  levels: { level: WarningLevel; at: string }[];
  area: AreaGeometry;
  touches: {
    pipes: { networkType: string; count: number; lengthM: number; why: 'drainageUnderRain' | 'shallowWater' }[];
    riskAreas: { id: number; name: string; kind: string; why: 'triggerMet' | 'washOut'; rainMm?: number; hours?: number; triggerMm?: number }[];
    sites: { id: number; siteNo: string; name: string }[];
  };
}

export const weatherApi = {
  places: () => get<WeatherPlace[]>('/weather/places'),
  hours: (placeId: number, params: { kind: 'observed' | 'forecast'; from: string; to: string }) => get<WeatherHourRow[]>(`/weather/places/${placeId}/hours`, params),
  warnings: (params: { from?: string; to?: string }) => get<WeatherWarning[]>('/weather/warnings', params),
  upload: (file: File, fields: Record<string, string>) => upload<{ placeId: number; hours: number; warnings: number }>('/weather/uploads', file, undefined, fields),
};
