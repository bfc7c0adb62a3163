import { z } from 'zod';
import { optionalNumber, optionalText, requiredText } from './fields.ts';
import { areaGeometry, jsonText, position } from './geo.ts';
import { importSrid, fieldMapping, wordAnswers } from './imports.ts';
import { NETWORK_TYPES, type NetworkType } from './projects.ts';

/** Where pipes fail next (DOMAIN: risk-prone areas). */
export const RISK_AREA_KINDS = ['waterlogging', 'void', 'collapse', 'geoHazard', 'subsidence'] as const;
export type RiskAreaKind = (typeof RISK_AREA_KINDS)[number];
/** Level I (highest, red) to IV (blue); for a geological hazard zone, its susceptibility. */
export const RISK_LEVELS = ['I', 'II', 'III', 'IV'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const RISK_LEVEL_COLORS: Record<RiskLevel, string> = { I: '#f5222d', II: '#fa8c16', III: '#fadb14', IV: '#1677ff' };
export const RISK_AREA_SOURCES = ['survey', 'report', 'insar', 'manual'] as const;

/** identified -> under remediation -> remediated; a remediated area is reopened (with a reason) to identified. */
export const RISK_AREA_STATUSES = ['identified', 'remediating', 'remediated'] as const;
export type RiskAreaStatus = (typeof RISK_AREA_STATUSES)[number];
export const RISK_AREA_ACTIONS = ['start', 'finish', 'reopen'] as const;
export type RiskAreaAction = (typeof RISK_AREA_ACTIONS)[number];
export const RISK_AREA_ACTION_FROM: Record<RiskAreaAction, readonly RiskAreaStatus[]> = {
  start: ['identified'],
  finish: ['remediating'],
  reopen: ['remediated'],
};
/** Pipes this close (metres) to an area count as its pipes unless the area says otherwise. */
export const DEFAULT_RISK_BUFFER_M = 50;
export const MAX_RISK_BUFFER_M = 500;

export const riskAreaBody = z
  .object({
    name: requiredText(100),
    kind: z.enum(RISK_AREA_KINDS),
    level: z.enum(RISK_LEVELS),
    geometry: jsonText(areaGeometry).optional(),
    point: jsonText(position).optional(),
    bufferM: z.coerce.number().min(0).max(MAX_RISK_BUFFER_M).default(DEFAULT_RISK_BUFFER_M),
    projectId: optionalNumber(z.number().int().positive()),
    cause: optionalText(500),
    /** Waterlogging: the rain that floods it (mm within hours). */
    triggerRainMm: optionalNumber(z.number().positive().max(1000)),
    triggerHours: optionalNumber(z.number().positive().max(72)),
    /** Underground void (ground-penetrating radar): its size and depth. */
    voidAreaM2: optionalNumber(z.number().positive().max(100_000)),
    burialDepthM: optionalNumber(z.number().min(0).max(100)),
    clearHeightM: optionalNumber(z.number().positive().max(50)),
    source: z.enum(RISK_AREA_SOURCES).default('manual'),
    responsibleUnit: optionalText(120),
    responsiblePerson: optionalText(40),
    responsiblePhone: optionalText(30),
    notes: optionalText(2000),
  })
  .superRefine((a, ctx) => {
    if (!a.geometry && !a.point) ctx.addIssue({ code: 'custom', path: ['geometry'], message: 'field.required' });
    if ((a.triggerRainMm === undefined) !== (a.triggerHours === undefined)) ctx.addIssue({ code: 'custom', path: [a.triggerRainMm === undefined ? 'triggerRainMm' : 'triggerHours'], message: 'field.required' });
  });
export type RiskAreaInput = z.infer<typeof riskAreaBody>;

export const riskAreaStepBody = z.object({ notes: optionalText(2000), reason: optionalText(500) });

export const riskAreaListQuery = z.object({
  kind: z.enum(RISK_AREA_KINDS).optional(),
  level: z.enum(RISK_LEVELS).optional(),
  status: z.enum(RISK_AREA_STATUSES).optional(),
  /** Areas with a pipe of this network inside or within their buffer. */
  networkType: z.enum(NETWORK_TYPES).optional(),
  projectId: optionalNumber(z.number().int().positive()),
  keyword: optionalText(60),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type RiskAreaListQuery = z.infer<typeof riskAreaListQuery>;

/** A subsidence zone from a settlement result: the segment's measured ground. */
export const subsidenceZoneBody = z.object({ datasetId: z.coerce.number().int().positive(), pipeRowId: z.coerce.number().int().positive(), name: optionalText(100) });

/** The pipes an area holds or has within its buffer: per network, how many and how long. */
export interface RiskAreaPipes {
  bufferM: number;
  count: Partial<Record<NetworkType, number>>;
  lengthM: Partial<Record<NetworkType, number>>;
  inside: number;
  /** The pipes themselves: GET /areas/{id}/pipes. */
  measuredAt: string;
}

/** The mapping step of a risk-area list (survey results, a waterlogging register). */
export const RISK_AREA_IMPORT_FIELDS = ['name', 'kind', 'level', 'cause', 'triggerRainMm', 'triggerHours', 'voidAreaM2', 'burialDepthM', 'clearHeightM', 'responsibleUnit', 'responsiblePerson'] as const;
export type RiskAreaImportField = (typeof RISK_AREA_IMPORT_FIELDS)[number];
export const riskAreaImportStartBody = z.object({
  mapping: fieldMapping(RISK_AREA_IMPORT_FIELDS),
  kind: z.enum(RISK_AREA_KINDS).default('waterlogging'),
  level: z.enum(RISK_LEVELS).default('III'),
  source: z.enum(RISK_AREA_SOURCES).default('survey'),
  projectId: optionalNumber(z.number().int().positive()),
  srid: importSrid.optional(),
  /** Answers for words of the file the import asked about (remembered for the enterprise). */
  words: wordAnswers,
});
export type RiskAreaImportStart = z.infer<typeof riskAreaImportStartBody>;
