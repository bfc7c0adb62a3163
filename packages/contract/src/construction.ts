import { z } from 'zod';
import { id, optionalDate, optionalDateTime, optionalNumber, optionalText, requiredText } from './fields.ts';
import { areaGeometry, jsonText, position } from './geo.ts';
import { importSrid, fieldMapping, wordAnswers } from './imports.ts';
import { NETWORK_TYPES, type NetworkType } from './projects.ts';

/** Third-party construction near the pipes (DOMAIN: construction risk). */
export const BUILD_TYPES = ['metro', 'road', 'municipalRoad', 'stormSewer', 'building', 'other'] as const;
export type BuildType = (typeof BUILD_TYPES)[number];
export const SITE_SOURCES = ['satellite', 'patrol', 'report', 'manual'] as const;
export type SiteSource = (typeof SITE_SOURCES)[number];
export const BUILD_STATES = ['notStarted', 'inProgress', 'completed'] as const;
export const CRITICALITIES = ['high', 'medium', 'low', 'none'] as const;
export type Criticality = (typeof CRITICALITIES)[number];

/**
 * A site's case: to review -> threat / no threat -> (threat) briefed -> guarded -> closed; a case
 * judged no threat is closed from there. A closed case is reopened (with a reason, or by a new
 * detection within SITE_MERGE_M) to review.
 */
export const CASE_STATUSES = ['review', 'threat', 'noThreat', 'briefed', 'guarded', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
/** Cases still threatening a pipe: judged a threat and not closed. */
export const THREAT_STATUSES: readonly CaseStatus[] = ['threat', 'briefed', 'guarded'];
export const CASE_ACTIONS = ['judge', 'brief', 'guard', 'watch', 'close', 'reopen'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];
export const CASE_ACTION_FROM: Record<CaseAction, readonly CaseStatus[]> = {
  judge: ['review', 'threat', 'noThreat'],
  brief: ['threat'],
  guard: ['briefed'],
  watch: ['guarded'],
  close: ['threat', 'noThreat', 'briefed', 'guarded'],
  reopen: ['closed'],
};

/** A detection this close (metres, edge to edge) to a case belongs to it instead of making a new one. */
export const SITE_MERGE_M = 30;
/** Nearest pipes are looked for this far (metres) from a site's edge. */
export const SITE_SEARCH_M = 100;
/** Photos a watch log entry may carry. */
export const WATCH_PHOTOS_MAX = 3;

/**
 * Gas pipe protection and control ranges by pressure class (metres from the pipe; DOMAIN and
 * CJJ 51): works inside the protection range need the operator's agreement and supervision.
 */
export const GAS_PRESSURES = ['lowMedium', 'subHigh', 'high'] as const;
export type GasPressure = (typeof GAS_PRESSURES)[number];
export const GAS_RANGES_M: Record<GasPressure, { protection: number; control: number }> = {
  lowMedium: { protection: 0.5, control: 5 },
  subHigh: { protection: 1.5, control: 15 },
  high: { protection: 5, control: 50 },
};

/**
 * How critical a site is: its distance to the nearest pipe falls in a band (metres, from the
 * site's edge), and its build type gives the level for each band; beyond the last band it is
 * 'none'. Defaults after LiveEO (0-5 m high, 5-10 m medium, 10-15 m low for construction).
 */
export interface CriticalitySettings {
  corridorM: number;
  bandsM: [number, number, number];
  matrix: Record<BuildType, [Criticality, Criticality, Criticality]>;
}
export const DEFAULT_CRITICALITY: CriticalitySettings = {
  corridorM: 30,
  bandsM: [5, 10, 15],
  matrix: {
    metro: ['high', 'high', 'medium'],
    road: ['high', 'medium', 'low'],
    municipalRoad: ['high', 'medium', 'low'],
    stormSewer: ['high', 'medium', 'low'],
    building: ['high', 'medium', 'low'],
    other: ['medium', 'low', 'low'],
  },
};
const criticality = z.enum(CRITICALITIES);
export const criticalitySettingsBody = z
  .object({
    corridorM: z.coerce.number().min(1).max(SITE_SEARCH_M),
    bandsM: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]),
    matrix: z.object(Object.fromEntries(BUILD_TYPES.map((t) => [t, z.tuple([criticality, criticality, criticality])])) as Record<BuildType, z.ZodTuple<[typeof criticality, typeof criticality, typeof criticality]>>),
  })
  .superRefine((s, ctx) => {
    if (!(s.bandsM[0] < s.bandsM[1] && s.bandsM[1] < s.bandsM[2])) ctx.addIssue({ code: 'custom', path: ['bandsM'], message: 'field.breaks.ascending' });
    if (s.bandsM[2] > s.corridorM) ctx.addIssue({ code: 'custom', path: ['bandsM'], message: 'construction.bandsInCorridor' });
  });

/** Where a site is: an area, or a point with a radius (drawn as a circle). */
const siteShape = {
  geometry: jsonText(areaGeometry).optional(),
  point: jsonText(position).optional(),
  radiusM: optionalNumber(z.number().min(1).max(2000)),
};

export const siteBody = z
  .object({
    siteNo: optionalText(40),
    name: requiredText(100),
    buildType: z.enum(BUILD_TYPES),
    ...siteShape,
    projectId: optionalNumber(z.number().int().positive()),
    address: optionalText(200),
    district: optionalText(60),
    plannedStart: optionalDate,
    plannedEnd: optionalDate,
    actualStart: optionalDate,
    actualEnd: optionalDate,
    constructionUnit: optionalText(120),
    constructionContact: optionalText(40),
    constructionPhone: optionalText(30),
    supervisingUnit: optionalText(120),
    supervisingContact: optionalText(40),
    supervisingPhone: optionalText(30),
    source: z.enum(SITE_SOURCES).default('manual'),
    detectedAt: optionalDate,
    changeType: optionalText(60),
    buildState: z.enum(BUILD_STATES).default('notStarted'),
  })
  .superRefine((s, ctx) => {
    if (!s.geometry && !s.point) ctx.addIssue({ code: 'custom', path: ['geometry'], message: 'field.required' });
    if (s.point && s.radiusM === undefined) ctx.addIssue({ code: 'custom', path: ['radiusM'], message: 'field.required' });
    if (s.plannedStart && s.plannedEnd && s.plannedEnd < s.plannedStart) ctx.addIssue({ code: 'custom', path: ['plannedEnd'], message: 'field.endDate.beforeStart' });
    if (s.actualStart && s.actualEnd && s.actualEnd < s.actualStart) ctx.addIssue({ code: 'custom', path: ['actualEnd'], message: 'field.endDate.beforeStart' });
  });
export type SiteInput = z.infer<typeof siteBody>;

export const judgeBody = z.object({ result: z.enum(['threat', 'noThreat']), notes: optionalText(2000) });
export const briefBody = z.object({ briefedBy: requiredText(40), briefedAt: optionalDateTime, notes: optionalText(2000) });
export const guardBody = z.object({ guard: requiredText(40), notes: optionalText(2000) });
/** A watch log entry; its photos are uploaded to it afterwards (up to WATCH_PHOTOS_MAX). */
export const watchBody = z.object({ at: optionalDateTime, person: requiredText(40), remark: requiredText(2000) });
export const closeBody = z.object({ notes: optionalText(2000) });

export const siteListQuery = z.object({
  status: z.enum(CASE_STATUSES).optional(),
  criticality: z.enum(CRITICALITIES).optional(),
  buildType: z.enum(BUILD_TYPES).optional(),
  /** Sites with a pipe of this network inside the corridor. */
  networkType: z.enum(NETWORK_TYPES).optional(),
  projectId: optionalNumber(z.number().int().positive()),
  insideGasProtection: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean().optional()),
  keyword: optionalText(60),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type SiteListQuery = z.infer<typeof siteListQuery>;

/** A pipe a site was measured against: which, how far, and the closest points (site, pipe). */
export interface MeasuredPipe {
  pipeRowId: number;
  pipeId: string;
  networkType: NetworkType;
  pressureClass: string | null;
  diameterMm: number | null;
  lengthM: number;
  distanceM: number;
  from: [number, number];
  to: [number, number];
}

/** What a site's measurement against the pipes found (kept with the site, renewed on save and pipe import). */
export interface SiteMeasure {
  /** Nearest pipe of each network within SITE_SEARCH_M. */
  nearest: Partial<Record<NetworkType, MeasuredPipe>>;
  /** Pipes within the corridor: how many of each network (the pipes themselves: GET /sites/{id}/pipes). */
  corridorM: number;
  corridorCount: Partial<Record<NetworkType, number>>;
  /** The gas range the site enters, the tightest first, with the pipe that sets it. */
  gas: { zone: 'protection' | 'control'; pressure: GasPressure; rangeM: number; pipe: MeasuredPipe } | null;
  measuredAt: string;
}

/** The mapping step of a site delivery (satellite change detection or a patrol's list). */
export const SITE_IMPORT_FIELDS = ['siteNo', 'name', 'buildType', 'changeType', 'detectedAt', 'radiusM', 'address', 'district', 'constructionUnit', 'constructionPhone', 'plannedStart', 'plannedEnd'] as const;
export type SiteImportField = (typeof SITE_IMPORT_FIELDS)[number];
export const siteImportStartBody = z.object({
  mapping: fieldMapping(SITE_IMPORT_FIELDS),
  source: z.enum(SITE_SOURCES).default('satellite'),
  buildType: z.enum(BUILD_TYPES).default('other'),
  projectId: optionalNumber(z.number().int().positive()),
  defaultRadiusM: z.coerce.number().min(1).max(2000).default(20),
  srid: importSrid.optional(),
  /** Answers for words of the file the import asked about (remembered for the enterprise). */
  words: wordAnswers,
});
export type SiteImportStart = z.infer<typeof siteImportStartBody>;

export const sitePhotoParams = z.object({ id, logId: id });
