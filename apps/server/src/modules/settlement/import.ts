import { and, eq } from 'drizzle-orm';
import { dateOfField, type MessageKey, type SettlementImportField, type SettlementImportStart } from '@console/contract';
import type { Db } from '../../db/client.ts';
import type { CopyWriter } from '../../db/copy.ts';
import { importJobs, settlementDatasets, type ImportProblemRecord } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import type { Geometry } from 'geojson';
import { isSinglePoint, pointOf } from '../imports/areas.ts';
import type { Reproject } from '../imports/crs.ts';
import { MAX_PROBLEMS, assertNoRunningJob, markFailed, markStarted, onJobFailed, problem, reportProgress, runImportJob, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { JobInterrupted, type JobRunner } from '../imports/runner.ts';
import type { SourceFeature } from '../imports/sources/index.ts';
import { getProject } from '../projects/service.ts';
import { createPointTable, dropPointTable, finishDataset } from './points.ts';

/** Names providers give the point attributes, in English and Chinese (EGMS first). */
const FIELD_NAMES: Record<SettlementImportField, string[]> = {
  pointId: ['pid', 'point_id', 'pointid', 'id', 'code', 'name', 'ps_id', '点号', '点编号', '编号'],
  velocity: ['mean_velocity', 'velocity', 'vel', 'v', 'rate', 'velocity_mm_yr', 'vel_mm_yr', 'los_velocity', 'vertical_velocity', '速率', '形变速率', '沉降速率', '年均形变速率', '平均速率'],
  velocityStd: ['mean_velocity_std', 'velocity_std', 'vel_std', 'v_stdev', 'std', 'sigma', '速率标准差', '标准差'],
  coherence: ['temporal_coherence', 'coherence', 'coh', 'tcoh', '相干性', '时间相干性', '相干系数'],
  height: ['height', 'h', 'elevation', 'dem', 'height_wgs84', '高程', '高度'],
  acceleration: ['acceleration', 'acc', '加速度'],
};
export const suggestSettlementMapping = (fieldNames: string[]) => suggestMapping(fieldNames, FIELD_NAMES);

/** The file's displacement fields in date order, or why they cannot be read. */
export function dateFields(fieldNames: string[]): { names: string[]; dates: string[] } | { key: MessageKey; params: Record<string, string> } {
  const found: { name: string; date: string }[] = [];
  for (const name of fieldNames) {
    const date = dateOfField(name);
    if (date === '') return { key: 'settlement.badDateField', params: { name } };
    if (date && !found.some((f) => f.date === date)) found.push({ name, date });
  }
  if (!found.length) return { key: 'settlement.noDates', params: {} };
  found.sort((a, b) => a.date.localeCompare(b.date));
  return { names: found.map((f) => f.name), dates: found.map((f) => f.date) };
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
function readingPlan(columns: readonly string[] | undefined, options: SettlementImportStart, dateNames: string[]) {
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
  };
}
type ReadingPlan = ReturnType<typeof readingPlan>;

/** One checked point as COPY values (POINT_COLUMNS after dataset_id), or its problems. */
function pointFromFeature(feature: SourceFeature, plan: ReadingPlan, reproject: Reproject): { pointId: string; values: unknown[] } | { problems: ImportProblemRecord[] } {
  const pointId = text(plan.pointId?.(feature)) || `P${feature.row}`;
  const problems: ImportProblemRecord[] = [];
  const here = (name: string, key: MessageKey, params = {}) => problems.length < 20 && problems.push(problem(feature.row, pointId, name, key, params));
  const number = ({ target, name, read }: ReadingPlan['velocity'], required: boolean): number | null => {
    const raw = read?.(feature);
    const value = measure(raw);
    if (value === null) {
      if (required) here(`${target}${name ? ` (${name})` : ''}`, 'settlement.velocityMissing');
    } else if (Number.isNaN(value)) here(`${target} (${name})`, 'settlement.notNumber', { value: text(raw).slice(0, 30) });
    return value;
  };
  const velocity = number(plan.velocity, true);
  const [velocityStd, coherence, height, acceleration] = plan.optional.map((f) => number(f, false));

  // Displacements, in hundredths of a millimetre: an empty value is a gap; anything else must be a number.
  let array = '{';
  let cumulative = 0;
  for (let i = 0; i < plan.dates.length; i++) {
    const raw = plan.dates[i].read(feature);
    const value = measure(raw);
    if (i) array += ',';
    if (value === null) array += 'NULL';
    else if (Number.isNaN(value)) here(plan.dates[i].name, 'settlement.notNumber', { value: text(raw).slice(0, 30) });
    else {
      array += Math.round(value * 100);
      cumulative = value;
    }
  }
  array += '}';

  let position: [number, number] | null = null;
  const geometry = feature.geometry;
  if (feature.problem) here('geometry', feature.problem);
  else if (!geometry) here('geometry', 'import.geometryMissing');
  else if (isSinglePoint(geometry)) {
    const point = pointOf(geometry as Geometry & { type: 'Point' | 'MultiPoint' }, reproject);
    if ('key' in point) here('geometry', point.key);
    else position = point.position;
  } else here('geometry', 'settlement.pointType', { type: geometry.type });

  if (problems.length || !position || velocity === null) return { problems };
  return { pointId, values: [pointId, position[0], position[1], velocity, velocityStd, coherence, height, acceleration, cumulative, array] };
}

const PROGRESS_EVERY_MS = 500;

// A failed or interrupted import leaves no dataset behind: its row and its point table go.
onJobFailed(async (db, jobId) => {
  const staged = await db
    .select({ id: settlementDatasets.id })
    .from(settlementDatasets)
    .where(and(eq(settlementDatasets.importJobId, jobId), eq(settlementDatasets.status, 'importing')));
  for (const { id } of staged) {
    await dropPointTable(db, id);
    await db.delete(settlementDatasets).where(eq(settlementDatasets.id, id));
  }
});

/**
 * Reads every point, checking it, and streams the good ones by COPY into a table of the dataset's
 * own; the dataset stays invisible ("importing") until that table is attached with its indexes
 * built in bulk, its grid cells made and its figures taken. Any bad row fails the import, with
 * the report, and the dataset and its table go.
 */
function runSettlementImport(db: Db, limits: ImportLimits, job: ImportJob, userId: number, options: SettlementImportStart, signal: AbortSignal, analyse: (datasetId: number) => void) {
  return runImportJob(db, limits, job, options.srid, async (source, reproject) => {
    const columns = dateFields(job.fields.map((f) => f.name));
    if ('key' in columns) return await markFailed(db, job, [problem(null, null, 'file', columns.key, columns.params)]);
    const [dataset] = await db
      .insert(settlementDatasets)
      .values({
        enterpriseId: job.enterpriseId,
        projectId: options.projectId ?? null,
        name: options.name,
        provider: options.provider ?? null,
        sensor: options.sensor ?? null,
        track: options.track ?? null,
        orbit: options.orbit ?? null,
        direction: options.direction,
        referencePoint: options.referencePoint ?? null,
        dates: columns.dates,
        minx: 0,
        miny: 0,
        maxx: 0,
        maxy: 0,
        fileName: job.fileName,
        importJobId: job.id,
        createdBy: userId,
      })
      .returning({ id: settlementDatasets.id });
    let writer: CopyWriter | null = await createPointTable(db, dataset.id);
    const problems: ImportProblemRecord[] = [];
    let problemCount = 0;
    const seen = new Set<string>();
    let rowsRead = 0;
    let reportedAt = Date.now();
    const plan = readingPlan(source.columns, options, columns.names);
    try {
      for await (const feature of source.features()) {
        rowsRead++;
        const result = pointFromFeature(feature, plan, reproject);
        let found: ImportProblemRecord[] = 'problems' in result ? result.problems : [];
        if ('pointId' in result) {
          if (seen.has(result.pointId)) found = [problem(feature.row, result.pointId, 'pointId', 'settlement.duplicatePoint', { pointId: result.pointId })];
          seen.add(result.pointId);
        }
        if (found.length) {
          problemCount += found.length;
          if (problems.length < MAX_PROBLEMS) problems.push(...found);
          // Nothing more is written once the import has failed; the rest is read for the report.
          if (writer) await writer.abort(), (writer = null);
        } else if (writer) await writer.write([dataset.id, ...(result as { values: unknown[] }).values]);
        if (Date.now() - reportedAt > PROGRESS_EVERY_MS) {
          if (signal.aborted) throw new JobInterrupted();
          reportedAt = Date.now();
          await reportProgress(db, job.id, { progress: Math.min(source.progress(), 0.99), rowsRead });
        }
      }
      if (rowsRead === 0) problems.push(problem(null, null, null, 'import.noFeatures')), problemCount++;
      if (problemCount > 0) return await markFailed(db, job, problems, problemCount);
      await writer!.end();
      writer = null;
    } finally {
      if (writer) await writer.abort();
    }

    await reportProgress(db, job.id, { status: 'writing', progress: 1, rowsRead });
    const figures = await finishDataset(db, dataset.id);
    await db
      .update(importJobs)
      .set({ status: 'succeeded', progress: 1, rowsWritten: figures.count, result: { inserted: figures.count, updated: 0, deleted: 0, extent: figures.bbox, datasetId: dataset.id }, finishedAt: new Date(), heartbeatAt: new Date() })
      .where(eq(importJobs.id, job.id));
    analyse(dataset.id);
  });
}

/** The mapping step's answer for a settlement dataset: checks it and starts the job in the background. */
export async function startSettlementImport(
  db: Db,
  limits: ImportLimits,
  runner: JobRunner,
  job: ImportJob,
  userId: number,
  options: SettlementImportStart,
  analyse: (datasetId: number) => void,
  onError: (error: unknown) => void,
) {
  if (options.projectId !== undefined) await getProject(db, job.enterpriseId, options.projectId);
  if (!options.mapping.velocity) throw badRequest('import.mappingRequired', { target: 'velocity' });
  assertMappingFields(job, options.mapping);
  await assertNoRunningJob(db, job.enterpriseId, 'settlement');
  await markStarted(db, job, options);
  runner.run(job, (signal) => runSettlementImport(db, limits, job, userId, options, signal, analyse).catch(onError));
}
