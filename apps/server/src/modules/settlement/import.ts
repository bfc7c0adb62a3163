import { and, eq } from 'drizzle-orm';
import { dateOfField, type MessageKey, type SettlementImportField, type SettlementImportStart } from '@console/contract';
import type { Db } from '../../db/client.ts';
import type { BinaryCopyWriter } from '../../db/copy.ts';
import { importJobs, settlementDatasets, type ImportProblemRecord } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { MAX_PROBLEMS, assertNoRunningJob, markFailed, markStarted, onJobFailed, problem, reportProgress, runImportJob, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { JobInterrupted, type JobRunner } from '../imports/runner.ts';
import { WorkerPool } from '../imports/workers.ts';
import { assertProject } from '../projects/service.ts';
import type { PointWorkerInit } from './import-worker.ts';
import { createPointTable, dropPointTable, finishDataset } from './points.ts';
import { addPoint, emptyPointBatch, readingPlan, sealPointBatch, type SealedPointBatch } from './rows.ts';

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

/**
 * What analysis asks of a settlement file's fields: its date columns readable (refused with 400
 * at upload, not at start), and their names kept without samples (the mapping step shows the
 * point attributes' samples and the count of dates).
 */
export const settlementFields = {
  check: (names: readonly string[]) => {
    const columns = dateFields(names);
    return 'key' in columns ? columns : null;
  },
  sampled: (name: string) => !dateOfField(name),
};

/** Dates a dataset may have: a decade of 6-day revisits is about 600; EGMS's longest series fewer than 400. */
export const MAX_DATES = 2_000;

/** The file's displacement fields in date order, or why they cannot be read (two fields of one date are named, never one dropped). */
export function dateFields(fieldNames: readonly string[]): { names: string[]; dates: string[] } | { key: MessageKey; params: Record<string, string | number> } {
  const found: { name: string; date: string }[] = [];
  const byDate = new Map<string, string>();
  for (const name of fieldNames) {
    const date = dateOfField(name);
    if (date === '') return { key: 'settlement.badDateField', params: { name } };
    if (!date) continue;
    const first = byDate.get(date);
    if (first !== undefined) return { key: 'settlement.duplicateDate', params: { first, second: name } };
    byDate.set(date, name);
    found.push({ name, date });
  }
  if (found.length > MAX_DATES) return { key: 'settlement.tooManyDates', params: { count: found.length, max: MAX_DATES } };
  if (!found.length) return { key: 'settlement.noDates', params: {} };
  found.sort((a, b) => a.date.localeCompare(b.date));
  return { names: found.map((f) => f.name), dates: found.map((f) => f.date) };
}

const PROGRESS_EVERY_MS = 500;
/** Rows checked and written together. */
const BATCH_ROWS = 2_000;
/** Batches sent to the worker threads before the first answer is awaited. */
const BATCHES_AHEAD = 4;

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
  return runImportJob(db, limits, job, options.srid, async (source, reproject, crs) => {
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
    let writer: BinaryCopyWriter | null = await createPointTable(db, dataset.id);
    const problems: ImportProblemRecord[] = [];
    let problemCount = 0;
    const seen = new Set<string>();
    let rowsRead = 0;
    let reportedAt = Date.now();
    const plan = readingPlan(source.columns, options, columns.names);
    const take = async (batch: SealedPointBatch) => {
      rowsRead += batch.rows.length + batch.problemCount;
      problemCount += batch.problemCount;
      problems.push(...batch.problems.slice(0, MAX_PROBLEMS - problems.length));
      for (let i = 0; i < batch.pointIds.length; i++) {
        const pointId = batch.pointIds[i];
        if (seen.has(pointId)) {
          problemCount++;
          if (problems.length < MAX_PROBLEMS) problems.push(problem(batch.rows[i], pointId, 'pointId', 'settlement.duplicatePoint', { pointId }));
        }
        seen.add(pointId);
      }
      // Nothing more is written once the import has failed; the rest is read for the report.
      if (problemCount && writer) await writer.abort(), (writer = null);
      else if (writer && batch.bytes.length) await writer.writeRows(batch.bytes);
      if (Date.now() - reportedAt > PROGRESS_EVERY_MS) {
        if (signal.aborted) throw new JobInterrupted();
        reportedAt = Date.now();
        await reportProgress(db, job.id, { progress: Math.min(source.progress(), 0.99), rowsRead });
      }
    };
    try {
      if (source.recordBatches && source.layout && job.fileSize >= limits.parallelFromBytes) {
        // A big CSV delivery: worker threads check and encode its rows, in order, a few batches ahead.
        const init: PointWorkerInit = { columns: [...source.columns!], layout: source.layout, options, dateNames: columns.names, crs, datasetId: dataset.id };
        const pool = new WorkerPool<{ firstRow: number; records: string[] }, SealedPointBatch>(new URL('./import-worker.ts', import.meta.url), init);
        try {
          const ahead: Promise<SealedPointBatch>[] = [];
          for await (const records of source.recordBatches(BATCH_ROWS)) {
            ahead.push(pool.run(records));
            if (ahead.length > BATCHES_AHEAD) await take(await ahead.shift()!);
          }
          while (ahead.length) await take(await ahead.shift()!);
        } finally {
          await pool.close();
        }
      } else {
        let batch = emptyPointBatch();
        for await (const feature of source.features()) {
          addPoint(batch, feature, plan, reproject, dataset.id);
          if (batch.rows.length + batch.problemCount >= BATCH_ROWS) await take(sealPointBatch(batch)), (batch = emptyPointBatch());
        }
        await take(sealPointBatch(batch));
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
  if (options.projectId !== undefined) await assertProject(db, job.enterpriseId, options.projectId);
  if (!options.mapping.velocity) throw badRequest('import.mappingRequired', { target: 'velocity' });
  assertMappingFields(job, options.mapping);
  await assertNoRunningJob(db, job.enterpriseId, 'settlement');
  await markStarted(db, job, options);
  runner.run(job, (signal) => runSettlementImport(db, limits, job, userId, options, signal, analyse).catch(onError));
}
