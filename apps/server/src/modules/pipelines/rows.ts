// The rows of a pipe import: each feature of a file checked and made into the row it stages, in
// whichever thread reads it (import.ts, import-worker.ts).
import { getTableColumns } from 'drizzle-orm';
import type { Geometry, Position } from 'geojson';
import { inLonLatRange, MIN_LINE_POSITIONS, pipeAttributes, readNetworkType, type LineGeometry, type PipeAttributes, type PipeImportField, type PipeImportStart } from '@console/contract';
import { BinaryRows } from '../../db/copy.ts';
import { pipeImportRows, type ImportProblemRecord } from '../../db/schema.ts';
import { describeIssue } from '../../http/validation.ts';
import { keepLonLat, type Reproject } from '../imports/crs.ts';
import { isValidPosition } from '../imports/areas.ts';
import { MAX_PROBLEMS, problem } from '../imports/problems.ts';
import type { SourceFeature } from '../imports/sources/index.ts';
import { bboxOf, lengthM } from '../../geo/geometry.ts';
import { encodeTileLine } from '../../geo/tileLine.ts';

/** A network type from a file's word (contract vocabulary: 给水, 燃气管线, RQ ...). */
const networkTypeOf = readNetworkType;

/** Material names in files to the codes the demo and the console's labels use; others stay as written. */
const MATERIAL_NAMES: Record<string, string> = {
  球墨铸铁: 'ductile iron', 球墨铸铁管: 'ductile iron', di: 'ductile iron', qt: 'ductile iron',
  灰口铸铁: 'cast iron', 铸铁: 'cast iron', ci: 'cast iron', zt: 'cast iron',
  钢: 'steel', 钢管: 'steel', 镀锌钢管: 'steel', st: 'steel', g: 'steel',
  聚乙烯: 'PE', pe: 'PE', hdpe: 'HDPE', 高密度聚乙烯: 'HDPE',
  pvc: 'PVC', upvc: 'PVC', 聚氯乙烯: 'PVC',
  混凝土: 'concrete', 钢筋混凝土: 'concrete', 砼: 'concrete', rc: 'concrete', tt: 'concrete',
};

const materialOf = (value: string) => MATERIAL_NAMES[value.trim().toLowerCase()] ?? value.trim();

const text = (value: unknown) => (value === null || value === undefined ? undefined : typeof value === 'string' ? value : String(value));

/** A number as it is (the schema reads numbers and numeric text alike), anything else as text. */
const numberOrText = (value: unknown) => (typeof value === 'number' ? value : text(value));

/** "DN300", "300mm", "Φ300" → 300; numbers pass. */
const diameterOf = (value: unknown) => {
  if (typeof value === 'number') return value;
  const t = text(value)?.trim();
  const m = t ? /^(?:dn|de|φ|Φ|ø)?\s*(\d+(?:\.\d+)?)\s*(?:mm)?$/i.exec(t) : null;
  return m ? Number(m[1]) : t;
};

/** "2005", "2005-06-01", "2005年" → 2005; numbers pass. */
const yearOf = (value: unknown) => {
  if (typeof value === 'number') return value;
  const t = text(value)?.trim();
  const m = t ? /^(\d{4})(?:[-/.年].*)?$/.exec(t) : null;
  return m ? Number(m[1]) : t;
};

/**
 * The stored row of a pipe: its attributes with computed length and bounding box. Written out
 * property by property: object spreads here cost an import more than the geometry's checks.
 */
export function pipeRow(input: PipeAttributes, geometry: LineGeometry) {
  const box = bboxOf(geometry);
  return {
    pipeId: input.pipeId,
    networkType: input.networkType,
    material: input.material ?? null,
    diameterMm: input.diameterMm ?? null,
    pressureClass: input.pressureClass ?? null,
    installYear: input.installYear ?? null,
    depthM: input.depthM ?? null,
    owner: input.owner ?? null,
    geometry,
    tileLine: encodeTileLine(geometry),
    lengthM: Math.round(lengthM(geometry) * 100) / 100,
    minx: box[0],
    miny: box[1],
    maxx: box[2],
    maxy: box[3],
  };
}

export type StagedRow = ReturnType<typeof pipeRow> & { row: number };

/**
 * A line in WGS 84 from whatever the file holds, or the reason it is not one: the rules of the
 * contract's lineGeometry, checked in one plain pass (a network's million lines through zod, position
 * by position, cost more than everything else of the import's check together).
 */
function lineOf(
  geometry: Geometry | null,
  reproject: Reproject,
): { geometry: LineGeometry } | { key: 'import.geometryMissing' | 'import.geometryType' | 'import.coordinates' | 'field.geometry.outOfRange' | 'field.geometry.lineTooShort'; type?: string } {
  if (!geometry) return { key: 'import.geometryMissing' };
  let lines: Position[][];
  if (geometry.type === 'LineString') lines = [geometry.coordinates];
  else if (geometry.type === 'MultiLineString') lines = geometry.coordinates;
  else if (geometry.type === 'GeometryCollection' && geometry.geometries.length && geometry.geometries.every((g) => g.type === 'LineString')) {
    lines = geometry.geometries.map((g) => (g as { coordinates: Position[] }).coordinates);
  } else return { key: 'import.geometryType', type: geometry.type };
  if (!Array.isArray(lines) || lines.length === 0) return { key: 'field.geometry.lineTooShort' };
  // A line in longitude/latitude whose positions are all 2-D is kept as the file gave it, not
  // copied position by position (ten million small arrays for a million segments).
  const keep = reproject === keepLonLat;
  const projected: Position[][] = [];
  for (const line of lines) {
    if (!Array.isArray(line)) return { key: 'import.coordinates' };
    if (line.length < MIN_LINE_POSITIONS) return { key: 'field.geometry.lineTooShort' };
    let points: Position[] | null = keep ? line : null;
    for (let i = 0; i < line.length; i++) {
      const p = line[i];
      if (!isValidPosition(p)) return { key: 'import.coordinates' };
      const point = keep && p.length === 2 ? p : reproject(p[0], p[1]);
      if (!inLonLatRange(point)) return { key: 'field.geometry.outOfRange' };
      // The first position that changed (a height dropped): the line is copied from here on.
      if (points === line && point !== p) points = line.slice(0, i);
      if (points !== line) (points ??= []).push(point);
    }
    projected.push(points!);
  }
  return { geometry: projected.length === 1 ? { type: 'LineString', coordinates: projected[0] } : { type: 'MultiLineString', coordinates: projected } };
}

type AttributeInput = Record<keyof PipeAttributes, unknown>;
const ATTRIBUTE_KEYS = Object.keys(pipeAttributes.shape) as (keyof PipeAttributes)[];
type FieldCheck = { ok: true; value: unknown } | { ok: false };
/** Each field's answers by raw value, for one batch of features (a batch's types, materials, sizes and years repeat). */
type FieldChecks = Map<keyof PipeAttributes, Map<unknown, FieldCheck>>;
/** Only short values are remembered, and no pipe id (each is new): the memory a batch holds stays small whatever a file says. */
const REMEMBERED_LENGTH = 64;

/**
 * The attributes as the contract's pipeAttributes reads them, field by field with each field's own
 * schema (the object has no rule across fields), the answer remembered per distinct value within
 * the batch: 2,000 rows of a few materials, sizes and years are not checked 2,000 times each.
 * Undefined when a field is bad; pipeAttributes then says what is wrong, as for a request.
 */
function checkedAttributes(input: AttributeInput, checks: FieldChecks): PipeAttributes | undefined {
  const out: Record<string, unknown> = {};
  for (const key of ATTRIBUTE_KEYS) {
    const raw = input[key];
    let seen = checks.get(key);
    if (!seen) checks.set(key, (seen = new Map()));
    let check = seen.get(raw);
    if (!check) {
      const parsed = pipeAttributes.shape[key].safeParse(raw);
      check = parsed.success ? { ok: true, value: parsed.data } : { ok: false };
      if (key !== 'pipeId' && (typeof raw !== 'string' || raw.length <= REMEMBERED_LENGTH)) seen.set(raw, check);
    }
    if (!check.ok) return undefined;
    out[key] = check.value;
  }
  return out as PipeAttributes;
}

/** A feature's value for one of our attributes, through the mapping. */
const valueOf = (feature: SourceFeature, options: PipeImportStart, target: PipeImportField) => (options.mapping[target] ? feature.properties[options.mapping[target]!] : undefined);
/** A problem's field: our attribute with the file's field it was read from. */
const fieldName = (options: PipeImportStart, target: string) => (options.mapping[target as PipeImportField] ? `${target} (${options.mapping[target as PipeImportField]})` : target);

/** One feature of the file as a pipe row, or what is wrong with it (every problem, by field). */
function pipeFromFeature(feature: SourceFeature, options: PipeImportStart, reproject: Reproject, checks: FieldChecks): { row: StagedRow } | { problems: ImportProblemRecord[] } {
  const featureId = text(valueOf(feature, options, 'pipeId'))?.trim() || null;
  const problems: ImportProblemRecord[] = [];

  let networkType: string | undefined = options.networkType;
  const typeText = text(valueOf(feature, options, 'networkType'))?.trim();
  if (typeText) {
    const known = networkTypeOf(typeText);
    if (known) networkType = known;
    else problems.push(problem(feature.row, featureId, fieldName(options, 'networkType'), 'import.networkTypeValue', { value: typeText }));
  }
  const line = feature.problem ? { key: feature.problem } : lineOf(feature.geometry, reproject);
  if ('key' in line) problems.push(problem(feature.row, featureId, 'geometry', line.key, { type: 'type' in line ? line.type ?? '' : '' }));

  const material = text(valueOf(feature, options, 'material'));
  const input: AttributeInput = {
    pipeId: featureId ?? undefined,
    networkType,
    material: material === undefined ? undefined : materialOf(material),
    diameterMm: diameterOf(valueOf(feature, options, 'diameterMm')),
    pressureClass: text(valueOf(feature, options, 'pressureClass')),
    installYear: yearOf(valueOf(feature, options, 'installYear')),
    depthM: numberOrText(valueOf(feature, options, 'depthM')),
    owner: text(valueOf(feature, options, 'owner')),
  };
  const checked = checkedAttributes(input, checks);
  const parsed = checked ? { success: true as const, data: checked } : pipeAttributes.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const target = String(issue.path[0] ?? '');
      if (target === 'networkType' && typeText) continue; // already said, with the value
      problems.push({
        row: feature.row,
        featureId,
        field: fieldName(options, target),
        reason: { 'zh-CN': describeIssue(issue, 'zh-CN'), 'en-US': describeIssue(issue, 'en-US') },
      });
    }
  }
  if (problems.length || !parsed.success || !('geometry' in line)) return { problems };
  const row = pipeRow(parsed.data, line.geometry) as StagedRow;
  row.row = feature.row;
  return { row };
}

/** How each staged column goes into a binary COPY, by its SQL type. */
const FIELD_WRITERS: Record<string, (rows: BinaryRows, value: unknown) => void> = {
  integer: (rows, value) => rows.int4(value as number),
  text: (rows, value) => rows.text(value as string),
  'double precision': (rows, value) => rows.float8(value as number),
  jsonb: (rows, value) => rows.jsonb(JSON.stringify(value)),
  bytea: (rows, value) => rows.bytea(value as Uint8Array),
};
const stagedFields = Object.entries(getTableColumns(pipeImportRows)).map(([key, column]) => {
  const write = FIELD_WRITERS[column.getSQLType()];
  if (!write) throw new Error(`no binary COPY writer for ${column.name} (${column.getSQLType()})`);
  return { key, name: column.name, write };
});
const attributeFields = stagedFields.filter((field) => field.key !== 'jobId' && field.key !== 'row');
/** The staging table's columns, in the order copyRow writes them for staging. */
export const STAGED_COLUMNS = stagedFields.map((field) => field.name);
/** A pipe's own columns (what a file gives, and what is made from it). */
export const ATTRIBUTE_COLUMNS = attributeFields.map((field) => field.name);
/** The network's columns a new pipe is written with (the rest are made by the database), in the order copyRow writes them for the network. */
export const NETWORK_COLUMNS = ['enterprise_id', ...ATTRIBUTE_COLUMNS];

/** Where checked rows go: the staging table (with their job) or straight into an enterprise's network. */
export type PipeTarget = { jobId: number } | { enterpriseId: number };

/** A checked row as a row of a binary COPY into its target. */
function copyRow(rows: BinaryRows, target: PipeTarget, row: StagedRow) {
  const fields = 'jobId' in target ? stagedFields : attributeFields;
  rows.row(fields.length + ('jobId' in target ? 0 : 1));
  if ('enterpriseId' in target) rows.int4(target.enterpriseId);
  for (const { key, write } of fields) {
    const value = key === 'jobId' ? (target as { jobId: number }).jobId : row[key as keyof StagedRow];
    if (value === null || value === undefined) rows.nothing();
    else write(rows, value);
  }
}

/**
 * A batch of features checked: the good rows as binary COPY rows for the target (none once a
 * problem was found), their pipe ids and row numbers, their bounds, and the problems.
 */
export interface CheckedPipes {
  rows: Uint8Array;
  pipeIds: string[];
  rowNumbers: number[];
  bounds: [number, number, number, number] | null;
  rowsRead: number;
  problems: ImportProblemRecord[];
  problemCount: number;
}

/** Checks features of a file as pipes; `failed` says the import has failed already (its rows are no longer written). */
export function checkPipes(features: SourceFeature[], options: PipeImportStart, reproject: Reproject, target: PipeTarget, failed: boolean): CheckedPipes {
  const written = new BinaryRows();
  const checks: FieldChecks = new Map();
  const checked: CheckedPipes = { rows: new Uint8Array(0), pipeIds: [], rowNumbers: [], bounds: null, rowsRead: features.length, problems: [], problemCount: 0 };
  for (const feature of features) {
    const result = pipeFromFeature(feature, options, reproject, checks);
    if ('problems' in result) {
      checked.problemCount += result.problems.length;
      if (checked.problems.length < MAX_PROBLEMS) checked.problems.push(...result.problems);
      continue;
    }
    const { row } = result;
    checked.pipeIds.push(row.pipeId);
    checked.rowNumbers.push(row.row);
    const b = (checked.bounds ??= [row.minx, row.miny, row.maxx, row.maxy]);
    if (row.minx < b[0]) b[0] = row.minx;
    if (row.miny < b[1]) b[1] = row.miny;
    if (row.maxx > b[2]) b[2] = row.maxx;
    if (row.maxy > b[3]) b[3] = row.maxy;
    if (!failed && checked.problemCount === 0) copyRow(written, target, row);
  }
  if (checked.problemCount === 0) checked.rows = written.take();
  return checked;
}
