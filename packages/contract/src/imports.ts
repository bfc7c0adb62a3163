import { z } from 'zod';
import type { Language } from './envelope.ts';
import { NETWORK_TYPES } from './projects.ts';

/** File formats an import reads; a .zip holds a Shapefile (or a KML/GeoJSON/CSV), a .kmz a KML. */
export const IMPORT_FORMATS = ['geojson', 'shapefile', 'kml', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export const IMPORT_EXTENSIONS = ['.geojson', '.json', '.zip', '.kml', '.kmz', '.csv'] as const;

/**
 * analysed: the file was read, its fields wait for the mapping step; validating: every feature is
 * being checked and staged; writing: the staged rows go in, in one transaction; succeeded /
 * failed: finished (failed jobs wrote nothing).
 */
/**
 * A job's course: analysed (waiting for the mapping) -> validating -> writing -> measuring (a pipe
 * network is in; what depends on it, site distances, area pipes and composite risk, is measured
 * again) -> succeeded, or failed.
 */
export const IMPORT_STATUSES = ['analysed', 'validating', 'writing', 'measuring', 'succeeded', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const RUNNING_IMPORT_STATUSES: readonly ImportStatus[] = ['validating', 'writing', 'measuring'];

/** append: new pipes only (an id already in the network is an error); upsert: add or update by id; replace: the file becomes the whole network. */
export const IMPORT_MODES = ['append', 'upsert', 'replace'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** Our pipe attributes a file's fields can be matched to; pipeId is required. */
export const PIPE_IMPORT_FIELDS = ['pipeId', 'networkType', 'material', 'diameterMm', 'pressureClass', 'installYear', 'depthM', 'owner'] as const;
export type PipeImportField = (typeof PIPE_IMPORT_FIELDS)[number];

/**
 * Coordinate systems an import can read, by EPSG code: WGS 84, CGCS2000, Web Mercator, ETRS89-LAEA
 * (EGMS ortho products), the UTM
 * zones, and the CGCS2000 Gauss-Kruger zones Chinese surveys use (3 and 6 degree, with and
 * without the zone number in the easting).
 */
export function crsName(srid: number): string | null {
  if (srid === 4326) return 'WGS 84';
  if (srid === 4490) return 'CGCS2000';
  if (srid === 3857) return 'WGS 84 / Pseudo-Mercator';
  if (srid === 3035) return 'ETRS89-extended / LAEA Europe';
  if (srid >= 32601 && srid <= 32660) return `WGS 84 / UTM zone ${srid - 32600}N`;
  if (srid >= 32701 && srid <= 32760) return `WGS 84 / UTM zone ${srid - 32700}S`;
  if (srid >= 4491 && srid <= 4501) return `CGCS2000 / Gauss-Kruger zone ${srid - 4491 + 13}`;
  if (srid >= 4502 && srid <= 4512) return `CGCS2000 / Gauss-Kruger CM ${75 + (srid - 4502) * 6}E`;
  if (srid >= 4513 && srid <= 4533) return `CGCS2000 / 3-degree Gauss-Kruger zone ${srid - 4513 + 25}`;
  if (srid >= 4534 && srid <= 4554) return `CGCS2000 / 3-degree Gauss-Kruger CM ${75 + (srid - 4534) * 3}E`;
  return null;
}

/** Every EPSG code crsName knows, for the coordinate system picker. */
export const IMPORT_SRIDS: number[] = [4326, 4490, 3857, 3035, ...range(4534, 4554), ...range(4513, 4533), ...range(4502, 4512), ...range(4491, 4501), ...range(32601, 32660), ...range(32701, 32760)];

function range(from: number, to: number) {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export const importSrid = z.coerce.number().int().refine((srid) => crsName(srid) !== null, { message: 'import.srid' });

/** The mapping step's body: for each of our attributes, the file field that fills it (optional). */
export const fieldMapping = <F extends string>(fields: readonly F[]) =>
  z.object(Object.fromEntries(fields.map((f) => [f, z.string().max(200).optional()])) as Record<F, z.ZodOptional<z.ZodString>>);

/** The mapping step: which file field fills which pipe attribute, and how to write. */
export const pipeImportStartBody = z.object({
  mapping: fieldMapping(PIPE_IMPORT_FIELDS),
  /** For rows whose network type is not mapped or empty. */
  networkType: z.enum(NETWORK_TYPES).optional(),
  mode: z.enum(IMPORT_MODES).default('append'),
  /** Overrides the file's coordinate system (required when the file does not say it). */
  srid: importSrid.optional(),
});
export type PipeImportStart = z.infer<typeof pipeImportStartBody>;

/** One problem of a failed import: the feature (1-based row of the file) and why, in both languages. */
export interface ImportProblem {
  row: number | null;
  featureId: string | null;
  field: string | null;
  reason: Record<Language, string>;
}

export interface ImportFieldInfo {
  name: string;
  /** The first non-empty values seen, to help the mapping. */
  samples: string[];
}

export interface ImportJobView {
  id: number;
  kind: string;
  status: ImportStatus;
  fileName: string;
  fileSize: number;
  format: ImportFormat;
  /** What the file says of its coordinate system; null when it does not say. */
  detectedSrid: number | null;
  detectedCrs: string | null;
  fields: ImportFieldInfo[];
  geometryTypes: string[];
  suggestedMapping: Partial<Record<string, string>>;
  options: Record<string, unknown> | null;
  /** 0..1 of the file read while validating. */
  progress: number;
  rowsRead: number;
  rowsWritten: number;
  problemCount: number;
  /** Words of the file nothing knew yet: the job is back at the mapping step until they are answered. */
  unknownWords: UnknownWord[];
  /** Up to the first 500 problems, in the request's language. */
  problems: { row: number | null; featureId: string | null; field: string | null; reason: string }[];
  /** extent: [minLon, minLat, maxLon, maxLat] of the rows written. */
  result: { inserted: number; updated: number; deleted: number; extent: [number, number, number, number] | null; deliveryId?: number; datasetId?: number } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export const importJobParams = z.object({ id: z.coerce.number().int().positive() });

/**
 * Words a register may use that no table knows (vocabulary.ts): the import asks once, and the
 * enterprise's answer is remembered for every later import (per field).
 */
export const WORD_FIELDS = ['buildType', 'riskKind', 'riskLevel', 'sensorKind'] as const;
export type WordField = (typeof WORD_FIELDS)[number];

/** A word of the file the import did not know, how often it came, and the first row it came on. */
export interface UnknownWord {
  field: WordField;
  word: string;
  count: number;
  row: number;
}

/** The user's answers for unknown words, sent with the import's start (and remembered). */
export const wordAnswers = z.array(z.object({ field: z.enum(WORD_FIELDS), word: z.string().trim().min(1).max(60), value: z.string().trim().min(1).max(20) })).max(200).optional();
export type WordAnswers = NonNullable<z.infer<typeof wordAnswers>>;
