import { z } from 'zod';
import { NETWORK_TYPES } from './projects.ts';
import { optionalNumber, optionalText } from './fields.ts';
import { fieldMapping, importSrid } from './imports.ts';
import { RISK_LEVELS, type RiskLevel } from './riskAreas.ts';

/**
 * Composite pipe risk (DOMAIN: risk levels): likelihood and consequence factors each scored 1-5,
 * weighted per enterprise, R = likelihood x consequence placed on the 5x5 matrix.
 */
export const LIKELIHOOD_FACTORS = ['ageMaterial', 'diameter', 'leaks', 'settlement', 'construction', 'riskAreas', 'weather'] as const;
export type LikelihoodFactor = (typeof LIKELIHOOD_FACTORS)[number];
export const CONSEQUENCE_FACTORS = ['medium', 'size', 'sensitive'] as const;
export type ConsequenceFactor = (typeof CONSEQUENCE_FACTORS)[number];
export type RiskFactor = LikelihoodFactor | ConsequenceFactor;

export interface RiskWeights {
  likelihood: Record<LikelihoodFactor, number>;
  consequence: Record<ConsequenceFactor, number>;
}

/**
 * Defaults after the index models' emphasis: what damages pipes from outside (works, ground,
 * leaks already found) outweighs the pipe's own age; the medium carries most of the consequence.
 */
export const DEFAULT_RISK_WEIGHTS: RiskWeights = {
  likelihood: { ageMaterial: 0.2, diameter: 0.1, leaks: 0.2, settlement: 0.15, construction: 0.15, riskAreas: 0.1, weather: 0.1 },
  consequence: { medium: 0.5, size: 0.3, sensitive: 0.2 },
};

/**
 * Sensitive sites (schools, hospitals, stations...): a segment near one has the graver
 * consequence. Distances (m) that score 5, 4, 3 and 2; further away 1.
 */
export const SENSITIVE_KINDS = ['school', 'kindergarten', 'hospital', 'station', 'market', 'government', 'other'] as const;
export type SensitiveKind = (typeof SENSITIVE_KINDS)[number];
export const SENSITIVE_BANDS_M = [50, 100, 200, 500] as const;
export const SENSITIVE_IMPORT_FIELDS = ['name', 'kind'] as const;
export type SensitiveImportField = (typeof SENSITIVE_IMPORT_FIELDS)[number];
export const sensitiveImportStartBody = z.object({
  mapping: fieldMapping(SENSITIVE_IMPORT_FIELDS),
  /** For rows whose kind the file does not give. */
  kind: z.enum(SENSITIVE_KINDS).default('other'),
  srid: importSrid.optional(),
});
export type SensitiveImportStart = z.infer<typeof sensitiveImportStartBody>;
export interface SensitiveSite {
  id: number;
  name: string;
  kind: SensitiveKind;
  lon: number;
  lat: number;
}

/** The matrix: R = likelihood x consequence, 20-25 I (major), 9-16 II, 4-8 III, 1-3 IV. */
export function riskLevelOf(score: number): RiskLevel {
  if (score >= 20) return 'I';
  if (score >= 9) return 'II';
  if (score >= 4) return 'III';
  return 'IV';
}

/** A weighted mean of 1-5 scores, rounded to a whole 1-5 (weights need not sum to 1). */
export function weightedScore<K extends string>(scores: Record<K, number>, weights: Record<K, number>): number {
  let sum = 0;
  let total = 0;
  for (const key of Object.keys(weights) as K[]) {
    sum += scores[key] * weights[key];
    total += weights[key];
  }
  return total > 0 ? Math.min(5, Math.max(1, Math.round(sum / total))) : 1;
}

const weight = z.coerce.number().min(0).max(1);
export const riskWeightsBody = z
  .object({
    likelihood: z.object(Object.fromEntries(LIKELIHOOD_FACTORS.map((f) => [f, weight])) as Record<LikelihoodFactor, typeof weight>),
    consequence: z.object(Object.fromEntries(CONSEQUENCE_FACTORS.map((f) => [f, weight])) as Record<ConsequenceFactor, typeof weight>),
  })
  .refine((w) => Object.values(w.likelihood).some((v) => v > 0), { message: 'pipeRisk.weightsZero', path: ['likelihood'] })
  .refine((w) => Object.values(w.consequence).some((v) => v > 0), { message: 'pipeRisk.weightsZero', path: ['consequence'] });

export const pipeRiskListQuery = z.object({
  level: z.enum(RISK_LEVELS).optional(),
  networkType: z.enum(NETWORK_TYPES).optional(),
  /** Only segments with a factor at its maximum (what a sum may mask). */
  masked: z.enum(['true', 'false']).optional(),
  projectId: optionalNumber(z.number().int().positive()),
  keyword: optionalText(60),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type PipeRiskListQuery = z.infer<typeof pipeRiskListQuery>;

export const PIPE_RISK_EXPORT_FORMATS = ['csv', 'geojson', 'xlsx'] as const;

/** One segment's assessment as the list shows it. */
export interface PipeRiskRow {
  pipeRowId: number;
  pipeId: string;
  networkType: string;
  material: string | null;
  diameterMm: number | null;
  installYear: number | null;
  lengthM: number;
  factors: Record<RiskFactor, number>;
  likelihood: number;
  consequence: number;
  score: number;
  /** L × C of the unrounded means (1-25): where the segment stands within its R. */
  riskIndex: number;
  /** The share (%) of the enterprise's segments of its level it ranks above. */
  percentile: number;
  level: RiskLevel;
  masked: boolean;
  assessedOn: string;
  /** The day the segment reached its current level. */
  since: string;
}
