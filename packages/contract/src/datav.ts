import type { AlertState, AlertSummary, IncidentKind } from './alerts.ts';
import type { RiskLevel } from './riskAreas.ts';
import type { SensorSummary } from './sensors.ts';

/** The big screen's figures (GET /api/datav/overview): every monitor in one answer. */
export interface DatavOverview {
  network: {
    byType: Record<string, { pipes: number; km: number }>;
    byMaterialKm: Record<string, number>;
    byDiameterKm: Record<string, number>;
  };
  leaks: { delivered: number; investigated: number; confirmed: number; repaired: number; waterSavedM3PerDay: number; surveyedKm: number };
  settlement: { datasets: number; points: number; segments: number; warn: number; alarm: number };
  construction: { total: number; openThreats: number; insideGasProtection: number; byStatus: Partial<Record<string, number>> };
  weather: {
    places: { name: string; lon: number; lat: number; latest: { time: string; precipitation: number | null; temperature: number | null; windSpeed: number | null; windGust: number | null } | null }[];
    warnings: { id: number; type: string; level: RiskLevel | null; source: string; headline: string | null; end: string; area: { type: string; coordinates: unknown } }[];
  };
  alerts: AlertSummary;
  /** Devices in the ground by state. */
  sensors: SensorSummary;
  risk: { assessedAt: string; segments: number; levels: Record<RiskLevel, number>; masked: number } | null;
  /** The newest incidents, for the rolling board. */
  board: { id: number; code: string; kind: IncidentKind; subject: string; level: RiskLevel; state: AlertState; memberCount: number; pipeCount: number; raisedAt: string }[];
}
