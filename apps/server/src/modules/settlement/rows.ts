import type { Geometry } from 'geojson';
import type { MessageKey, SettlementImportField, SettlementImportStart } from '@console/contract';
import type { ImportProblemRecord } from '../../db/schema.ts';
import { copyField } from '../../db/copy.ts';
import { isSinglePoint, pointOf } from '../imports/areas.ts';
import type { Reproject } from '../imports/crs.ts';
import { MAX_PROBLEMS, problem } from '../imports/problems.ts';
import type { SourceFeature } from '../imports/sources/index.ts';

/*
 * A settlement delivery's rows turned into COPY lines, checked: free of the database, so the same
 * code runs in the import job and in its worker threads (import-worker.ts).
 */

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
 * A plain decimal's value in hundredths, as text ("-1.5" -> "-150"), or null when the text is
 * anything else (more decimals, an exponent, spaces...) and must go the long way. Most of a
 * delivery is such values; this skips a parse and a print for each.
 */
function hundredths(raw: string): string | null {
  const n = raw.length;
  const start = raw.charCodeAt(0) === 45 ? 1 : 0; // '-'
  let dot = -1;
  for (let i = start; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c === 46 && dot < 0) dot = i;
    else if (c < 48 || c > 57) return null;
  }
  if (dot < 0) return n > start ? `${raw}00` : null;
  if (dot === start) return null;
  const decimals = n - dot - 1;
  if (decimals === 2) return raw.slice(0, dot) + raw.slice(dot + 1);
  if (decimals === 1) return `${raw.slice(0, dot)}${raw.slice(dot + 1)}0`;
  if (decimals === 0) return `${raw.slice(0, dot)}00`;
  return null;
}

const copyNumber = (value: number | null) => (value === null ? '' : String(value));

/** One checked point as its COPY line (POINT_COLUMNS after dataset_id), or its problems. */
function pointFromFeature(feature: SourceFeature, plan: ReadingPlan, reproject: Reproject): { pointId: string; line: string } | { problems: Problems } {
  const pointId = text(plan.pointId?.(feature)) || `P${feature.row}`;
  const problems: Problems = [];
  const velocity = measured(feature, plan.velocity, true, problems, pointId);
  const [velocityStd, coherence, height, acceleration] = plan.optional.map((field) => measured(feature, field, false, problems, pointId));

  // Displacements, in hundredths of a millimetre: an empty value is a gap; anything else must be
  // a number. The hot loop of a delivery (a hundred or more a row): CSV text read by position
  // takes the short way.
  // Pieces joined once: appended one by one they would make a chain of small strings that a
  // batch keeps alive (and the collector copies, many times over).
  const parts: string[] = new Array(plan.dates.length);
  let last: string | number | null = null;
  const row = plan.datePositions && feature.values;
  for (let i = 0; i < plan.dates.length; i++) {
    const raw = row ? row[plan.datePositions![i]] : plan.dates[i].read(feature);
    const short = typeof raw === 'string' && raw !== '' ? hundredths(raw) : null;
    if (short !== null) {
      parts[i] = short;
      last = raw as string;
      continue;
    }
    const value = measure(raw);
    if (value === null) parts[i] = 'NULL';
    else if (Number.isNaN(value)) note(problems, feature, pointId, plan.dates[i].name, 'settlement.notNumber', { value: text(raw).slice(0, 30) });
    else {
      parts[i] = String(Math.round(value * 100));
      last = value;
    }
  }
  const cumulative = last === null ? 0 : +last;

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
  const line = `${copyField(pointId)},${position[0]},${position[1]},${velocity},${copyNumber(velocityStd)},${copyNumber(coherence)},${copyNumber(height)},${copyNumber(acceleration)},${cumulative},"{${parts.join(',')}}"\n`;
  return { pointId, line };
}

/** A batch of points as the job writes them: COPY lines (dataset id first), ids for the duplicate check, and problems (at most MAX_PROBLEMS kept). */
export interface PointBatch {
  /** One string per row: appended to one string, the rows would stay linked in a long chain (and promoted, at a high GC cost). */
  lines: string[];
  pointIds: string[];
  /** The file row of each of pointIds. */
  rows: number[];
  problems: ImportProblemRecord[];
  problemCount: number;
}

export const emptyPointBatch = (): PointBatch => ({ lines: [], pointIds: [], rows: [], problems: [], problemCount: 0 });

/**
 * Checks and encodes one feature into the batch; `prefix` starts every COPY line (the dataset
 * id). Features are taken one by one so that a row's fields die young (a batch of held rows
 * would be promoted and collected at many times the cost).
 */
export function addPoint(batch: PointBatch, feature: SourceFeature, plan: ReadingPlan, reproject: Reproject, prefix: string) {
  const result = pointFromFeature(feature, plan, reproject);
  if ('problems' in result) {
    batch.problemCount += result.problems.length;
    if (batch.problems.length < MAX_PROBLEMS) batch.problems.push(...result.problems);
    // Nothing of a batch with a bad row is written: its lines are not needed.
    batch.lines = [];
    return;
  }
  batch.pointIds.push(result.pointId);
  batch.rows.push(feature.row);
  if (!batch.problemCount) batch.lines.push(prefix + result.line);
}
