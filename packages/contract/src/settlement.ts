import { z } from 'zod';
import { id, optionalText, requiredText } from './fields.ts';
import { areaGeometry, type LineGeometry } from './geo.ts';
import { importSrid, fieldMapping } from './imports.ts';
import { ORBIT_DIRECTIONS } from './leaks.ts';
import { NETWORK_TYPES, type NetworkType } from './projects.ts';
import { EXACT_LIST_LIMIT } from './lists.ts';

/** What a dataset's velocities measure: along the satellite's line of sight, or decomposed. */
export const SETTLEMENT_DIRECTIONS = ['los', 'vertical', 'eastWest'] as const;
export type SettlementDirection = (typeof SETTLEMENT_DIRECTIONS)[number];

/** Point attributes a file's fields can be matched to; velocity is required. */
export const SETTLEMENT_IMPORT_FIELDS = ['pointId', 'velocity', 'velocityStd', 'coherence', 'height', 'acceleration'] as const;
export type SettlementImportField = (typeof SETTLEMENT_IMPORT_FIELDS)[number];

/**
 * A file field holding one acquisition's displacement: named by its date, YYYYMMDD (EGMS) or
 * YYYY-MM-DD, optionally prefixed by a letter or "D_" as some tools write them. The date is the
 * first capture.
 */
export const DATE_FIELD = /^(?:[A-Za-z]_?)?(\d{4})-?(\d{2})-?(\d{2})$/;

/** The date a field name stands for (YYYY-MM-DD), '' when the name looks like a date but is none, null when it is no date field. */
export function dateOfField(name: string): string | null {
  const m = DATE_FIELD.exec(name.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1990 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return '';
  return `${m[1]}-${m[2]}-${m[3]}`;
}

export const settlementImportStartBody = z.object({
  mapping: fieldMapping(SETTLEMENT_IMPORT_FIELDS),
  name: requiredText(100),
  projectId: id.optional(),
  provider: optionalText(100),
  sensor: optionalText(60),
  track: optionalText(20),
  orbit: z.enum(ORBIT_DIRECTIONS).optional(),
  direction: z.enum(SETTLEMENT_DIRECTIONS).default('los'),
  /** What the displacements are relative to: a reference point's id or a place. */
  referencePoint: optionalText(100),
  /** Overrides the file's coordinate system (EGMS L3 is EPSG:3035, said by the file's layout). */
  srid: importSrid.optional(),
});
export type SettlementImportStart = z.infer<typeof settlementImportStartBody>;

export interface SettlementDataset {
  id: number;
  name: string;
  projectId: number | null;
  provider: string | null;
  sensor: string | null;
  track: string | null;
  orbit: (typeof ORBIT_DIRECTIONS)[number] | null;
  direction: SettlementDirection;
  /** Acquisition dates, YYYY-MM-DD, ascending; displacement series follow this order. */
  dates: string[];
  /** The date displacements are relative to (the first one). */
  referenceDate: string;
  /** The reference point or area the provider measured against, as delivered. */
  referencePoint: string | null;
  pointCount: number;
  velocity: { min: number; max: number; mean: number; std: number };
  bbox: [number, number, number, number];
  fileName: string;
  createdAt: string;
  analysis: SettlementAnalysisState;
}

/** What the last analysis of a dataset found, and by which thresholds. */
export interface SettlementAnalysisSummary {
  segments: number;
  warn: number;
  alarm: number;
  thresholds: SettlementThresholds;
}

export interface SettlementAnalysisState {
  status: 'none' | 'running' | 'done' | 'failed';
  analysedAt: string | null;
  summary: SettlementAnalysisSummary | null;
}

/**
 * Velocity bands (mm/yr): `breaks` ascending, `colors` one more than breaks; band i holds
 * velocities from breaks[i-1] (inclusive) below breaks[i]. Red for subsidence, blue for uplift.
 */
export const DEFAULT_SETTLEMENT_BANDS = {
  breaks: [-10, -5, -2, 2],
  colors: ['#a50026', '#f46d43', '#fdae61', '#1a9850', '#4575b4'],
};
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'field.color' });
export const settlementBandsBody = z
  .object({
    breaks: z.array(z.number().finite().min(-1000).max(1000)).min(1).max(12),
    colors: z.array(hexColor).min(2).max(13),
  })
  .superRefine((b, ctx) => {
    if (b.breaks.some((v, i) => i > 0 && v <= b.breaks[i - 1])) ctx.addIssue({ code: 'custom', path: ['breaks'], message: 'field.breaks.ascending' });
    if (b.colors.length !== b.breaks.length + 1) ctx.addIssue({ code: 'custom', path: ['colors'], message: 'field.colors.count' });
  });
export type SettlementBands = z.infer<typeof settlementBandsBody>;

/** The band a velocity falls in. */
export function bandIndex(breaks: readonly number[], value: number): number {
  let i = 0;
  while (i < breaks.length && value >= breaks[i]) i++;
  return i;
}

/**
 * When a segment is on moving ground (all negative = subsidence): alarm at these values, warning at
 * `warnRatio` of them. Defaults from Chinese practice for buried pipes (warning at 70 % of the
 * alarm value); no national limit exists for differential settlement, so every value is the
 * project's to set.
 */
export const DEFAULT_SETTLEMENT_THRESHOLDS = {
  /** Mean velocity of the points near the segment, mm/yr. */
  velocityAlarm: -10,
  /** Largest cumulative subsidence of a point near the segment, mm. */
  cumulativeAlarm: -30,
  /** Velocity difference between neighbouring stretches along the segment, mm/yr per 100 m. */
  differentialAlarm: 5,
  warnRatio: 0.7,
  /** Points within this distance of the pipe count for it, metres. */
  bufferM: 20,
};
export const settlementThresholdsBody = z.object({
  velocityAlarm: z.number().finite().min(-500).max(-0.1),
  cumulativeAlarm: z.number().finite().min(-5000).max(-0.1),
  differentialAlarm: z.number().finite().min(0.1).max(500),
  warnRatio: z.number().min(0.1).max(1),
  bufferM: z.number().min(1).max(200),
});
export type SettlementThresholds = z.infer<typeof settlementThresholdsBody>;

export const SETTLEMENT_LEVELS = ['none', 'warn', 'alarm'] as const;
export type SettlementLevel = (typeof SETTLEMENT_LEVELS)[number];
export const SETTLEMENT_METRICS = ['velocity', 'cumulative', 'differential'] as const;
export type SettlementMetric = (typeof SETTLEMENT_METRICS)[number];

/** A threshold a segment crossed: its value, the threshold and how far past it (same unit). */
export interface SettlementCrossing {
  metric: SettlementMetric;
  level: Exclude<SettlementLevel, 'none'>;
  value: number;
  threshold: number;
  by: number;
}

/** Points near a segment at distance d along it: median and quartiles per stretch. */
export interface SettlementProfileBin {
  fromM: number;
  toM: number;
  count: number;
  median: number;
  q25: number;
  q75: number;
}

export interface SettlementResult {
  pipeRowId: number;
  pipeId: string;
  networkType: NetworkType;
  diameterMm: number | null;
  material: string | null;
  lengthM: number;
  pointCount: number;
  meanVelocity: number;
  minVelocity: number;
  /** Largest cumulative subsidence (most negative last displacement), mm. */
  maxCumulative: number;
  /** mm/yr per 100 m; null with points in fewer than two stretches. */
  differential: number | null;
  level: SettlementLevel;
  crossed: SettlementCrossing[];
  /** The last acquisition date of the dataset: what the level is as of. */
  asOf: string;
}

export interface SettlementResultDetail extends SettlementResult {
  geometry: LineGeometry;
  profile: SettlementProfileBin[];
  /** The points near the segment (up to 50, nearest first): id, distance along and from the pipe. */
  points: { id: number; pointId: string; alongM: number; offsetM: number; velocity: number }[];
}

/** The profile along a run of connected segments: the picked one extended both ways while each end meets exactly one more segment of its network. */
export interface SettlementRunProfile {
  /** In order along the run, with where each lies along it (m). */
  segments: { pipeRowId: number; pipeId: string; fromM: number; toM: number }[];
  lengthM: number;
  pointCount: number;
  profile: SettlementProfileBin[];
  geometry: LineGeometry;
  /** The run stopped at its length or segment limit rather than at a junction or an end. */
  capped: boolean;
}

export const settlementResultFilters = z.object({
  level: z.enum(SETTLEMENT_LEVELS).optional(),
  /** Segments inside this project's area. */
  projectId: id.optional(),
  networkType: z.enum(NETWORK_TYPES).optional(),
  keyword: z.string().trim().max(60).optional(),
});
/** Pages by number within the first EXACT_LIST_LIMIT results (worst first: what a user works through). */
export const settlementResultQuery = settlementResultFilters
  .extend({
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(20),
  })
  .superRefine((q, ctx) => {
    if ((q.page - 1) * q.pageSize > EXACT_LIST_LIMIT) ctx.addIssue({ code: 'custom', path: ['page'], message: 'field.page.tooDeep' });
  });
export type SettlementResultQuery = z.infer<typeof settlementResultQuery>;

/** Points or cells in a map window: columns, so a million numbers travel without keys. */
export const settlementWindowQuery = z.object({
  bbox: z
    .string()
    .transform((s) => s.split(',').map(Number))
    .refine((b) => b.length === 4 && b.every(Number.isFinite) && b[0] <= b[2] && b[1] <= b[3], { message: 'field.bbox' }),
  /** Metres per pixel of the view: decides single points or grid cells. */
  resolution: z.coerce.number().positive(),
  velocityMin: z.coerce.number().optional(),
  velocityMax: z.coerce.number().optional(),
  coherenceMin: z.coerce.number().min(0).max(1).optional(),
  /** Displacement between two dates (indexes into the dataset's dates) instead of velocity. */
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
});
export type SettlementWindowQuery = z.infer<typeof settlementWindowQuery>;

/** Cells of this many metres are drawn below the resolution where single points are legible. */
export const SETTLEMENT_CELL_LEVELS_M = [100, 400, 1600] as const;
/** Coarser than this many metres per pixel the map shows cells (about zoom 14 and out). */
export const SETTLEMENT_POINT_RESOLUTION_M = 10;

export interface SettlementWindow {
  kind: 'points' | 'cells';
  /** Cell size in metres (cells only). */
  cellM: number | null;
  /** true when the window held more points than are sent (zoom in). */
  truncated: boolean;
  /** One point in this many is sent (an even share of a window with too many; 1: all). */
  every: number;
  ids: number[];
  lon: number[];
  lat: number[];
  /** Velocity mm/yr, or displacement mm between the two dates asked. */
  value: number[];
  /** Points per cell (cells only). */
  count: number[];
}

export interface SettlementPoint {
  id: number;
  datasetId: number;
  pointId: string;
  lon: number;
  lat: number;
  velocity: number;
  velocityStd: number | null;
  coherence: number | null;
  height: number | null;
  acceleration: number | null;
  dates: string[];
  displacement: number[];
}

export const settlementAverageBody = z.object({ area: areaGeometry });
export interface SettlementAverage {
  count: number;
  meanVelocity: number | null;
  dates: string[];
  displacement: number[];
}

/** Days from the first date of each date (YYYY-MM-DD). */
export const daysFromFirst = (dates: readonly string[]) => dates.map((d) => (Date.parse(d) - Date.parse(dates[0])) / 86_400_000);

/** The mm/yr of a series' least-squares line over days from the first date; and its intercept. */
export function linearFit(days: readonly number[], values: readonly (number | null)[]): { velocity: number; intercept: number } | null {
  let n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = 0; i < days.length; i++) {
    const y = values[i];
    if (y === null || !Number.isFinite(y)) continue;
    const x = days[i];
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const d = n * sxx - sx * sx;
  if (n < 2 || d === 0) return null;
  const slope = (n * sxy - sx * sy) / d;
  return { velocity: slope * 365.25, intercept: (sy - slope * sx) / n };
}
