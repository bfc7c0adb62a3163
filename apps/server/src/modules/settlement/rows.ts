import type { Geometry } from 'geojson';
import type { MessageKey, SettlementImportField, SettlementImportStart, SettlementPoint } from '@console/contract';
import type { ImportProblemRecord } from '../../db/schema.ts';
import { BinaryRows } from '../../db/copy.ts';
import { isSinglePoint, pointOf } from '../imports/areas.ts';
import type { Reproject } from '../imports/crs.ts';
import { MAX_PROBLEMS, problem } from '../imports/problems.ts';
import type { SourceFeature } from '../imports/sources/index.ts';

/*
 * A settlement delivery's rows turned into COPY lines, checked: free of the database, so the same
 * code runs in the import job and in its worker threads (import-worker.ts).
 */

/** The columns a dataset's point table is written in, by COPY. */
export const POINT_COLUMNS = ['dataset_id', 'point_id', 'lon', 'lat', 'velocity', 'velocity_std', 'coherence', 'height', 'acceleration', 'cumulative', 'displacement_hundredth_mm'];

/** A measured point as it is written (the displacement series beside it). */
export type PointRecord = Pick<SettlementPoint, 'pointId' | 'lon' | 'lat' | 'velocity' | 'velocityStd' | 'coherence' | 'height' | 'acceleration'> & { cumulative: number };

/**
 * One point as a binary COPY row in POINT_COLUMNS order: its displacements (hundredths of a
 * millimetre, `count` of them; `gaps[i]` 1 where a date has none) go as an int4[]'s bytes.
 */
export function encodePoint(rows: BinaryRows, datasetId: number, point: PointRecord, displacements: Int32Array, gaps: Uint8Array, count: number) {
  rows.row(POINT_COLUMNS.length);
  rows.int4(datasetId);
  rows.text(point.pointId);
  rows.float8(point.lon);
  rows.float8(point.lat);
  rows.float4(point.velocity);
  rows.float4(point.velocityStd);
  rows.float4(point.coherence);
  rows.float4(point.height);
  rows.float4(point.acceleration);
  rows.float4(point.cumulative);
  rows.int4Array(displacements, gaps, count);
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());

/** A number as a file gives it: null when empty (a gap), NaN when it is not a number. */
function measure(raw: unknown): number | null {
  if (typeof raw === 'string') {
    // Strings first: a CSV delivery gives a hundred or more per row.
    if (raw === '') return null;
    const value = +raw;
    if (value - value === 0) return value === 0 && raw.trim() === '' ? null : value;
    return NaN;
  }
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : NaN;
  if (raw === null || raw === undefined) return null;
  return measure(String(raw));
}

type Access = (feature: SourceFeature) => unknown;

/**
 * How each mapped field is read, decided once per import: by position in a CSV row (a delivery
 * has a column per date, a hundred or more), else by name.
 */
export function readingPlan(columns: readonly string[] | undefined, options: SettlementImportStart, dateNames: string[]) {
  const position = new Map((columns ?? []).map((name, index) => [name.trim(), index]));
  const access = (name: string | undefined): Access | null => {
    if (!name) return null;
    const index = position.get(name);
    return index === undefined ? (f) => f.properties[name] : (f) => (f.values ? f.values[index] : f.properties[name]);
  };
  const field = (target: SettlementImportField) => ({ target, name: options.mapping[target], read: access(options.mapping[target]) });
  return {
    pointId: access(options.mapping.pointId),
    velocity: field('velocity'),
    optional: (['velocityStd', 'coherence', 'height', 'acceleration'] as const).map(field),
    dates: dateNames.map((name) => ({ name, read: access(name)! })),
    /** The date columns' positions in a CSV row, when every one has a position. */
    datePositions: dateNames.every((name) => position.has(name)) ? Int32Array.from(dateNames, (name) => position.get(name)!) : null,
    /** A row's displacements and gaps, filled for each row in turn. */
    displacements: new Int32Array(dateNames.length),
    gaps: new Uint8Array(dateNames.length),
  };
}
export type ReadingPlan = ReturnType<typeof readingPlan>;

type Problems = ImportProblemRecord[];

/** Notes a row's problem (at most 20 a row). Module functions, not closures made per row: a delivery has millions. */
function note(problems: Problems, feature: SourceFeature, pointId: string, field: string, key: MessageKey, params = {}) {
  if (problems.length < 20) problems.push(problem(feature.row, pointId, field, key, params));
}

/** A mapped measure of the row: a number, null when empty (a problem when required), NaN with a problem when not a number. */
function measured(feature: SourceFeature, { target, name, read }: ReadingPlan['velocity'], required: boolean, problems: Problems, pointId: string): number | null {
  const raw = read?.(feature);
  const value = measure(raw);
  if (value === null) {
    if (required) note(problems, feature, pointId, `${target}${name ? ` (${name})` : ''}`, 'settlement.velocityMissing');
  } else if (Number.isNaN(value)) note(problems, feature, pointId, `${target} (${name})`, 'settlement.notNumber', { value: text(raw).slice(0, 30) });
  return value;
}

/**
 * A plain decimal's value in hundredths ("-1.5" -> -150), or NaN when the text is anything else
 * (more decimals, an exponent, spaces, too many digits...) and must go the long way. Most of a
 * delivery is such values; this skips a float parse and a rounding for each.
 */
function hundredths(raw: string): number {
  const n = raw.length;
  let i = raw.charCodeAt(0) === 45 ? 1 : 0; // '-'
  const negative = i === 1;
  let value = 0;
  let digits = 0;
  let decimals = -1;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
      if (decimals >= 0) decimals++;
    } else if (c === 46 && decimals < 0) decimals = 0;
    else return NaN;
  }
  if (digits === 0 || digits > 9 || decimals > 2) return NaN;
  if (decimals <= 0) value *= 100;
  else if (decimals === 1) value *= 10;
  return negative ? -value : value;
}

const INT4_MAX = 2_147_483_647;

/** One checked point (its displacements left in the plan's scratch arrays), or its problems. */
function pointFromFeature(feature: SourceFeature, plan: ReadingPlan, reproject: Reproject): PointRecord | { problems: Problems } {
  const pointId = text(plan.pointId?.(feature)) || `P${feature.row}`;
  const problems: Problems = [];
  const velocity = measured(feature, plan.velocity, true, problems, pointId);
  const [velocityStd, coherence, height, acceleration] = plan.optional.map((field) => measured(feature, field, false, problems, pointId));
  // Displacements, in hundredths of a millimetre: an empty value is a gap; anything else must be
  // a number. The hot loop of a delivery (a hundred or more a row): CSV text read by position
  // takes the short way.
  const { displacements, gaps } = plan;
  let last: number | null = null;
  const row = plan.datePositions && feature.values;
  for (let i = 0; i < plan.dates.length; i++) {
    const raw = row ? row[plan.datePositions![i]] : plan.dates[i].read(feature);
    const short = typeof raw === 'string' && raw !== '' ? hundredths(raw) : NaN;
    gaps[i] = 0;
    if (short === short) {
      displacements[i] = short;
      last = short / 100;
      continue;
    }
    const value = measure(raw);
    if (value === null) gaps[i] = 1;
    else if (Number.isNaN(value) || Math.abs(value * 100) > INT4_MAX) note(problems, feature, pointId, plan.dates[i].name, 'settlement.notNumber', { value: text(raw).slice(0, 30) });
    else {
      displacements[i] = Math.round(value * 100);
      last = value;
    }
  }
  let position: [number, number] | null = null;
  const geometry = feature.geometry;
  if (feature.problem) note(problems, feature, pointId, 'geometry', feature.problem);
  else if (!geometry) note(problems, feature, pointId, 'geometry', 'import.geometryMissing');
  else if (isSinglePoint(geometry)) {
    const point = pointOf(geometry as Geometry & { type: 'Point' | 'MultiPoint' }, reproject);
    if ('key' in point) note(problems, feature, pointId, 'geometry', point.key);
    else position = point.position;
  } else note(problems, feature, pointId, 'geometry', 'settlement.pointType', { type: geometry.type });
  if (problems.length || !position || velocity === null) return { problems };
  return { pointId, lon: position[0], lat: position[1], velocity, velocityStd, coherence, height, acceleration, cumulative: last ?? 0 };
}

/** A batch of points as the job writes them: binary COPY rows, ids for the duplicate check, and problems (at most MAX_PROBLEMS kept). */
export interface PointBatch {
  encoded: BinaryRows;
  pointIds: string[];
  /** The file row of each of pointIds. */
  rows: number[];
  problems: ImportProblemRecord[];
  problemCount: number;
}

/** A batch as it crosses from a worker thread: its rows as bytes. */
export type SealedPointBatch = Omit<PointBatch, 'encoded'> & { bytes: Uint8Array };

export const emptyPointBatch = (): PointBatch => ({ encoded: new BinaryRows(), pointIds: [], rows: [], problems: [], problemCount: 0 });

export const sealPointBatch = ({ encoded, ...batch }: PointBatch): SealedPointBatch => ({ ...batch, bytes: batch.problemCount ? new Uint8Array(0) : encoded.take() });

/**
 * Checks and encodes one feature into the batch (as a row of the dataset `datasetId`). Features
 * are taken one by one so that a row's fields die young (a batch of held rows would be promoted
 * and collected at many times the cost).
 */
export function addPoint(batch: PointBatch, feature: SourceFeature, plan: ReadingPlan, reproject: Reproject, datasetId: number) {
  const result = pointFromFeature(feature, plan, reproject);
  if ('problems' in result) {
    batch.problemCount += result.problems.length;
    if (batch.problems.length < MAX_PROBLEMS) batch.problems.push(...result.problems);
    return;
  }
  batch.pointIds.push(result.pointId);
  batch.rows.push(feature.row);
  // Nothing of a batch with a bad row is written.
  if (!batch.problemCount) encodePoint(batch.encoded, datasetId, result, plan.displacements, plan.gaps, plan.dates.length);
}
