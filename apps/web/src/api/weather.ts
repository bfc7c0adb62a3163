import type { AreaGeometry, WarningLevel, WarningType } from '@console/contract';
import { get, post, putJson, upload } from './http.ts';

export interface WeatherPlace {
  id: number;
  projectId: number | null;
  code: string;
  name: string;
  lon: number;
  lat: number;
  /** The latest observed hour: the map's current values. */
  latest: WeatherHourRow | null;
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
  type: WarningType | 'other';
  level: WarningLevel | null;
  start: string;
  end: string;
  value: number | null;
  rule: string | null;
  levels: { level: WarningLevel; at: string }[];
  area: AreaGeometry;
  /** Official warnings: the first issue's words, and every message (issue, updates, cancellation). */
  identifier: string | null;
  senderName: string | null;
  event: string | null;
  headline: string | null;
  description: string | null;
  instruction: string | null;
  areaDesc: string | null;
  updates: { identifier: string; msgType: 'Alert' | 'Update' | 'Cancel'; sent: string; level: WarningLevel | null; expires: string; headline: string | null }[];
  cancelledAt: string | null;
  touches: {
    pipes: { networkType: string; count: number; lengthM: number; why: 'drainageUnderRain' | 'shallowWater' }[];
    riskAreas: { id: number; name: string; kind: string; why: 'triggerMet' | 'washOut'; rainMm?: number; hours?: number; triggerMm?: number }[];
    sites: { id: number; siteNo: string; name: string }[];
  };
}

export interface WeatherSource {
  provider: 'files' | 'openMeteo';
  url: string | null;
  everyMinutes: number;
  lastFetchAt: string | null;
  lastError: string | null;
  fetching: boolean;
}

/** An upload's outcome: hours kept (and warnings derived), or official warnings kept. */
export type WeatherUploadResult =
  | { places: number; placeId: number; hours: number; warnings: number }
  | { issued: number; updated: number; cancelled: number; known: number; skipped: { identifier: string; status: string }[] };

export const weatherApi = {
  places: () => get<WeatherPlace[]>('/weather/places'),
  hours: (placeId: number, params: { kind: 'observed' | 'forecast'; from: string; to: string }) => get<WeatherHourRow[]>(`/weather/places/${placeId}/hours`, params),
  warnings: (params: { from?: string; to?: string }) => get<WeatherWarning[]>('/weather/warnings', params),
  upload: (file: File, fields: Record<string, string>) => upload<WeatherUploadResult>('/weather/uploads', file, undefined, fields),
  source: () => get<WeatherSource>('/weather/source'),
  saveSource: (source: { provider: 'files' | 'openMeteo'; url?: string | null; everyMinutes: number }) => putJson<WeatherSource>('/weather/source', source),
  fetchNow: () => post<{ projects: number; hours: number }>('/weather/source/fetch'),
};
