import { sql, eq } from 'drizzle-orm';
import type { PipeImportField, PipeImportStart } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { copyBinaryInto } from '../../db/copy.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { buildIndexesLike, createLoadTable, dropLoadTable, swapPartition, swapPatiently } from '../../db/partitions.ts';
import { importJobs, pipeCounts, pipeIdRuns, pipeImportRows, type ImportProblemRecord } from '../../db/schema.ts';
import { cutRuns, insertRuns, type IdRun } from './idRuns.ts';
import { badRequest } from '../../http/errors.ts';
import {
  MAX_PROBLEMS,
  assertNoRunningJob,
  markFailed,
  markStarted,
  markMeasured,
  markWritten,
  onJobFailed,
  problem,
  reportProgress,
  runImportJob,
  type ImportJob,
  type ImportLimits,
} from '../imports/jobs.ts';
import { JobInterrupted, type JobRunner } from '../imports/runner.ts';
import type { Source, SourceFeature } from '../imports/sources/index.ts';
import type { DetectedCrs, Reproject } from '../imports/crs.ts';
import { WorkerPool } from '../imports/workers.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { bumpPipesVersion } from '../tiles/service.ts';
import { keptPipeCount } from './service.ts';
import type { PipeWorkerBatch, PipeWorkerInit } from './import-worker.ts';
import { ATTRIBUTE_COLUMNS, checkPipes, NETWORK_COLUMNS, STAGED_COLUMNS, type CheckedPipes, type PipeTarget } from './rows.ts';

/** Field names utilities use for our attributes (English, Chinese, and pinyin initials of Chinese surveys). */
const FIELD_NAMES: Record<PipeImportField, string[]> = {
  pipeId: ['pipeid', 'pipe_id', 'id', 'gid', 'code', 'segmentid', '编号', '管线编号', '管段编号', '管道编号', 'gxbh', 'gdbh', 'bh'],
  networkType: ['networktype', 'network_type', 'network', 'type', 'pipetype', '类型', '管线类型', '管网类型', '管线类别', 'gxlx', 'lx'],
  material: ['material', 'mat', 'pipematerial', '材质', '管材', 'cz', 'gc'],
  diameterMm: ['diametermm', 'diameter_mm', 'diameter', 'dn', 'dia', 'size', '管径', '直径', 'gj'],
  pressureClass: ['pressureclass', 'pressure_class', 'pressure', '压力', '压力级制', '压力等级', 'yl', 'yljz'],
  installYear: ['installyear', 'install_year', 'installdate', 'year', 'yearbuilt', '建设年代', '敷设年代', '安装年份', '埋设年代', '埋设时间', '建设时间', '敷设时间', '安装时间', 'jsnd', 'msnd', 'fsnd', 'mssj', 'jssj', 'fssj'],
  depthM: ['depthm', 'depth_m', 'depth', 'cover', '埋深', 'ms'],
  owner: ['owner', 'ownership', '权属', '权属单位', 'qsdw'],
};

/** Our attributes matched to the file's fields by name, for the mapping step to start from. */
export const suggestPipeMapping = (fieldNames: string[]) => suggestMapping(fieldNames, FIELD_NAMES);

const PROGRESS_EVERY_MS = 500;
/** Features checked together (in a worker thread, for a big file), and how many batches may wait ahead. */
const BATCH_ROWS = 2000;
const BATCHES_AHEAD = 4;
const ANALYZE_AFTER_ROWS = 10_000;

const columnList = sql.raw(ATTRIBUTE_COLUMNS.map((name) => `"${name}"`).join(', '));
const updateList = sql.raw([...ATTRIBUTE_COLUMNS.filter((name) => name !== 'pipe_id').map((name) => `"${name}" = excluded."${name}"`), 'updated_at = now()'].join(', '));

type Counted = { rows: { count: number }[] };

/** Pipe ids the file holds more than once, and (when adding) ids already in the network. */
async function idProblems(db: Db, job: ImportJob, mode: PipeImportStart['mode']): Promise<{ problems: ImportProblemRecord[]; count: number }> {
  const duplicates = (await db.execute(sql`
    select pipe_id as "pipeId", min("row") as "row", count(*) over ()::int as "count" from pipe_import_rows
    where job_id = ${job.id} group by pipe_id having count(*) > 1 order by min("row") limit ${MAX_PROBLEMS}`)) as unknown as { rows: { pipeId: string; row: number; count: number }[] };
  const found = duplicates.rows.map((d) => problem(d.row, d.pipeId, 'pipeId', 'import.duplicateInFile', { pipeId: d.pipeId }));
  let count = duplicates.rows[0]?.count ?? 0;
  if (mode === 'append') {
    const existing = (await db.execute(sql`
      select s.pipe_id as "pipeId", s."row" as "row", count(*) over ()::int as "count" from pipe_import_rows s
      join pipes p on p.enterprise_id = ${job.enterpriseId} and p.pipe_id = s.pipe_id
      where s.job_id = ${job.id} order by s."row" limit ${MAX_PROBLEMS}`)) as unknown as { rows: { pipeId: string; row: number; count: number }[] };
    found.push(...existing.rows.map((e) => problem(e.row, e.pipeId, 'pipeId', 'import.exists', { pipeId: e.pipeId })));
    count += existing.rows[0]?.count ?? 0;
  }
  return { problems: found, count };
}

/** Moves the staged rows into the network (adding or updating) in one transaction: all of them, or none. */
async function writeStaged(db: Db, job: ImportJob, mode: PipeImportStart['mode']) {
  await db.transaction(async (tx) => {
    // Updated: the file's ids the network holds already (a partitioned table's RETURNING cannot
    // tell an insert from an update by its row version).
    const existing =
      mode === 'upsert'
        ? ((await tx.execute(sql`select count(*)::int as count from pipe_import_rows s
            join pipes p on p.enterprise_id = ${job.enterpriseId} and p.pipe_id = s.pipe_id where s.job_id = ${job.id}`)) as unknown as Counted).rows[0].count
        : 0;
    const conflict = mode === 'upsert' ? sql`on conflict (enterprise_id, pipe_id) do update set ${updateList}` : sql``;
    const moved = (await tx.execute(sql`
      with moved as (
        insert into pipes (enterprise_id, ${columnList})
        select ${job.enterpriseId}, ${columnList} from pipe_import_rows where job_id = ${job.id}
        -- In id order the indexes led by (enterprise, pipe id) grow at their end: a file in
        -- any order then writes as fast as a sorted one (1,000,000 rows: 41 s shuffled, 25 s sorted).
        order by pipe_id
        ${conflict}
        returning 1
      )
      select count(*)::int as count from moved`)) as unknown as Counted;
    const count = moved.rows[0].count;
    const inserted = count - existing;
    const bounds = (await tx.execute(sql`select min(minx) as minx, min(miny) as miny, max(maxx) as maxx, max(maxy) as maxy from pipe_import_rows where job_id = ${job.id}`)) as unknown as {
      rows: { minx: number | null; miny: number; maxx: number; maxy: number }[];
    };
    const b = bounds.rows[0];
    const extent: [number, number, number, number] | null = b.minx === null ? null : [Number(b.minx), Number(b.miny), Number(b.maxx), Number(b.maxy)];
    await bumpPipesVersion(tx as unknown as Db, job.enterpriseId);
    await tx
      .update(importJobs)
      .set({ status: 'measuring', progress: 0, rowsWritten: count, result: { inserted, updated: count - inserted, deleted: 0, extent }, heartbeatAt: new Date() })
      .where(eq(importJobs.id, job.id));
  });
}

async function clearStaged(db: Db, jobId: number) {
  await db.delete(pipeImportRows).where(eq(pipeImportRows.jobId, jobId));
}

/** What reading a file has found so far: rows read, problems; progress reported as it goes. */
class Reading {
  rowsRead = 0;
  problems: ImportProblemRecord[] = [];
  problemCount = 0;
  private reportedAt = Date.now();

  constructor(
    private readonly db: Db,
    private readonly job: ImportJob,
    private readonly source: Source,
    private readonly signal: AbortSignal,
  ) {}

  add(problems: ImportProblemRecord[], count: number) {
    this.problemCount += count;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(...problems.slice(0, MAX_PROBLEMS - this.problems.length));
  }

  async take(batch: CheckedPipes) {
    this.rowsRead += batch.rowsRead;
    this.add(batch.problems, batch.problemCount);
    if (Date.now() - this.reportedAt > PROGRESS_EVERY_MS) {
      if (this.signal.aborted) throw new JobInterrupted();
      this.reportedAt = Date.now();
      await reportProgress(this.db, this.job.id, { progress: Math.min(this.source.progress(), 0.99), rowsRead: this.rowsRead });
    }
  }
}

/**
 * The file's features checked in batches, in file order: by worker threads for a big file (this
 * thread only splits it), else here. `failed` says whether rows are still worth encoding.
 */
async function* checkedBatches(source: Source, options: PipeImportStart, reproject: Reproject, crs: DetectedCrs, target: PipeTarget, big: boolean, failed: () => boolean): AsyncGenerator<CheckedPipes> {
  const parallel = source.recordBatches && (source.format === 'geojson' || (source.format === 'csv' && source.layout));
  if (parallel && big) {
    const init: PipeWorkerInit = { format: source.format as 'csv' | 'geojson', layout: source.layout, options, crs, target };
    const pool = new WorkerPool<PipeWorkerBatch, CheckedPipes>(new URL('./import-worker.ts', import.meta.url), init);
    try {
      const ahead: Promise<CheckedPipes>[] = [];
      for await (const { firstRow, records } of source.recordBatches!(BATCH_ROWS)) {
        ahead.push(pool.run({ firstRow, records, failed: failed() }));
        if (ahead.length > BATCHES_AHEAD) yield await ahead.shift()!;
      }
      while (ahead.length) yield await ahead.shift()!;
    } finally {
      await pool.close();
    }
    return;
  }
  let features: SourceFeature[] = [];
  for await (const feature of source.features()) {
    features.push(feature);
    if (features.length === BATCH_ROWS) yield checkPipes(features, options, reproject, target, failed()), (features = []);
  }
  yield checkPipes(features, options, reproject, target, failed());
}

/**
 * Staged: every checked row goes into the staging table as it is read; when the whole file is
 * good (ids too: twice in the file, or already in the network when adding), the staged rows go in
 * together (writeStaged).
 */
async function importStaged(db: Db, job: ImportJob, options: PipeImportStart, reading: Reading, batches: (target: PipeTarget, failed: () => boolean) => AsyncGenerator<CheckedPipes>, signal: AbortSignal) {
  const staging = await copyBinaryInto(db, 'pipe_import_rows', STAGED_COLUMNS);
  try {
    for await (const batch of batches({ jobId: job.id }, () => reading.problemCount > 0)) {
      await reading.take(batch);
      // Once the job fails, staging is wasted work.
      if (reading.problemCount === 0 && batch.rows.length) await staging.writeRows(batch.rows);
    }
  } catch (error) {
    await staging.abort();
    throw error;
  }
  if (reading.problemCount === 0) await staging.end();
  else await staging.abort();
  if (reading.rowsRead === 0) reading.add([problem(null, null, null, 'import.noFeatures')], 1);
  if (reading.problemCount === 0) {
    const ids = await idProblems(db, job, options.mode);
    reading.add(ids.problems, ids.count);
  }
  if (reading.problemCount > 0) return await markFailed(db, job, reading.problems, reading.problemCount);
  if (signal.aborted) throw new JobInterrupted();
  await reportProgress(db, job.id, { status: 'writing', progress: 1, rowsRead: reading.rowsRead });
  await writeStaged(db, job, options.mode);
}

/** The table a job loads a network into before it becomes the enterprise's partition (migration 0026). */
const loadTable = (jobId: number) => `pipes_load_${Math.trunc(jobId)}`;
/** An enterprise's partition of the network, as pipes_partition_add (migration 0026) names it. */
export const pipePartition = (enterpriseId: number) => `pipes_of_${Math.trunc(enterpriseId)}`;

// A job that fails, or whose server died, leaves no loaded table behind.
onJobFailed((db, jobId) => dropLoadTable(db, loadTable(jobId)));

/**
 * Straight into a partition of its own (replacing a network or adding to an empty one;
 * db/partitions.ts): the rows go by COPY, as they are read, into a table without indexes; ids
 * twice in the file are found here as they come. When every row is good the table is
 * indexed whole and takes the enterprise's partition's place in one short transaction; any problem
 * drops it, the rest of the file still read for the report. The network is untouched until then.
 */
async function importDirect(db: Db, job: ImportJob, options: PipeImportStart, reading: Reading, batches: (target: PipeTarget, failed: () => boolean) => AsyncGenerator<CheckedPipes>, signal: AbortSignal) {
  const firstRows = new Map<string, number>();
  const duplicates: ImportProblemRecord[] = [];
  let duplicateCount = 0;
  const failed = () => reading.problemCount + duplicateCount > 0;
  let extent: [number, number, number, number] | null = null;
  let count = 0;
  const table = loadTable(job.id);
  await createLoadTable(db, 'pipes', table, 'enterprise_id', job.enterpriseId);
  try {
    const copy = await copyBinaryInto(db, table, NETWORK_COLUMNS);
    let writing = true;
    const stop = async () => {
      if (writing) await copy.abort();
      writing = false;
    };
    try {
      for await (const batch of batches({ enterpriseId: job.enterpriseId }, failed)) {
        await reading.take(batch);
        batch.pipeIds.forEach((pipeId, i) => {
          const first = firstRows.get(pipeId);
          if (first === undefined) firstRows.set(pipeId, batch.rowNumbers[i]);
          else if (first > 0) {
            // Said once per id, at its first row (a negative row: said already).
            duplicateCount++;
            if (duplicates.length < MAX_PROBLEMS) duplicates.push(problem(first, pipeId, 'pipeId', 'import.duplicateInFile', { pipeId }));
            firstRows.set(pipeId, -first);
          }
        });
        count += batch.pipeIds.length;
        if (batch.bounds) extent = extent ? [Math.min(extent[0], batch.bounds[0]), Math.min(extent[1], batch.bounds[1]), Math.max(extent[2], batch.bounds[2]), Math.max(extent[3], batch.bounds[3])] : batch.bounds;
        if (failed()) await stop();
        else if (batch.rows.length) await copy.writeRows(batch.rows);
      }
    } catch (error) {
      await stop();
      throw error;
    }
    if (reading.rowsRead === 0) reading.add([problem(null, null, null, 'import.noFeatures')], 1);
    // As staged: the ids are judged once every row is good.
    if (reading.problemCount === 0) reading.add(duplicates.sort((a, b) => a.row! - b.row!), duplicateCount);
    if (reading.problemCount > 0) return await stop(), await markFailed(db, job, reading.problems, reading.problemCount);
    await copy.end();
    if (signal.aborted) throw new JobInterrupted();
    await reportProgress(db, job.id, { status: 'writing', progress: 1, rowsRead: reading.rowsRead });
    // Swapped in settled: frozen and visible to index-only scans (no index yet, so the pass reads
    // the rows once), so the first lists after an import do not each set hint bits and wait for
    // autovacuum; and its statistics taken with its indexes, before any list plans against it.
    await db.execute(sql`vacuum (freeze) ${sql.identifier(table)}`);
    await buildIndexesLike(db, 'pipes', table);
    await db.execute(sql`analyze ${sql.identifier(table)}`);
    // The network's kept counts, made from the loaded rows before the swap (which fires no
    // statement trigger), so the swap holds the network no longer than it takes to swap.
    const counts = await queryRows<{ network_type: string; material: string; pipes: number; length_m: number }>(
      db,
      sql`select network_type, coalesce(material, '') as material, count(*)::int as pipes, sum(length_m)::float8 as length_m from ${sql.identifier(table)} group by 1, 2 order by 1, 2`,
    );
    // Its id runs (idRuns.ts) the same way: cut from the loaded rows, written in the swap.
    const runs = await queryRows<IdRun>(db, cutRuns(sql`${sql.identifier(table)}`));
    if (signal.aborted) throw new JobInterrupted();
    // Swapping waits for every reader of the network (any enterprise's) and holds new ones back
    // while it waits: a long reader is let by and the swap tried again; the last try waits.
    await swapPatiently(db, async (tx) => {
      const [{ deleted }] = await tx
        .select({ deleted: sql<number>`coalesce(sum(${pipeCounts.pipes}), 0)::int` })
        .from(pipeCounts)
        .where(eq(pipeCounts.enterpriseId, job.enterpriseId));
      await swapPartition(tx, 'pipes', pipePartition(job.enterpriseId), table, job.enterpriseId);
      await tx.delete(pipeCounts).where(eq(pipeCounts.enterpriseId, job.enterpriseId));
      if (counts.length)
        await tx.insert(pipeCounts).values(counts.map((c) => ({ enterpriseId: job.enterpriseId, networkType: c.network_type, material: c.material, pipes: Number(c.pipes), lengthM: Number(c.length_m) })));
      await tx.delete(pipeIdRuns).where(eq(pipeIdRuns.enterpriseId, job.enterpriseId));
      await insertRuns(tx as unknown as Db, runs);
      await bumpPipesVersion(tx as unknown as Db, job.enterpriseId);
      await markWritten(tx, job.id, count, { inserted: count, updated: 0, deleted, extent });
    });
    // The runs' statistics too (a few hundred rows, at once), so the first keyword lists after the
    // import are planned on them rather than on the empty table's guesses.
    await db.execute(sql`analyze ${pipeIdRuns}`);
  } finally {
    await dropLoadTable(db, table);
  }
}

/**
 * Reads the whole file and checks every feature; any problem fails the job with its report and
 * nothing is written; otherwise all of its pipes go in together.
 */
async function runPipeImport(db: Db, limits: ImportLimits, job: ImportJob, options: PipeImportStart, signal: AbortSignal) {
  try {
    await runImportJob(db, limits, job, options.srid, async (source, reproject, crs) => {
      const reading = new Reading(db, job, source, signal);
      const batches = (target: PipeTarget, failed: () => boolean) => checkedBatches(source, options, reproject, crs, target, job.fileSize >= limits.parallelFromBytes, failed);
      try {
        const direct = options.mode === 'replace' || (options.mode === 'append' && (await keptPipeCount(db, job.enterpriseId)) === 0);
        await (direct ? importDirect : importStaged)(db, job, options, reading, batches, signal);
        // Rows merged into the network: fresh statistics at once, so the list and the tiles plan
        // for its new size (a loaded partition comes with its own).
        const [ended] = await db.select({ status: importJobs.status }).from(importJobs).where(eq(importJobs.id, job.id));
        if (!direct && ended?.status === 'measuring' && reading.rowsRead >= ANALYZE_AFTER_ROWS) await db.execute(sql`analyze ${sql.identifier(pipePartition(job.enterpriseId))}`);
      } catch (error) {
        // Another writer added one of these ids since they were checked.
        if (!uniqueViolation(error)) throw error;
        await markFailed(db, job, [problem(null, null, 'pipeId', 'conflict.pipeId')]);
      }
    });
  } finally {
    await clearStaged(db, job.id).catch(() => {});
  }
}

/** What follows a pipe import that wrote its pipes. */
export interface AfterPipeImport {
  /** What depends on the network measured again, as the job's last phase (its share done reported; stopped with the job); the job succeeds after. */
  measure(enterpriseId: number, progress: (share: number) => Promise<void>, signal: AbortSignal): Promise<void>;
}

/** The mapping step's answer: checks it against the file's fields and starts the job in the background. */
export async function startPipeImport(
  db: Db,
  limits: ImportLimits,
  runner: JobRunner,
  job: ImportJob,
  options: PipeImportStart,
  onError: (error: unknown) => void,
  afterImport?: AfterPipeImport,
) {
  if (!options.mapping.pipeId) throw badRequest('import.mappingPipeId');
  assertMappingFields(job, options.mapping);
  await assertNoRunningJob(db, job.enterpriseId, 'pipes');
  await markStarted(db, job, options);
  runner.run(job, (signal) =>
    runPipeImport(db, limits, job, options, signal)
      .then(async () => {
        const [ended] = await db.select({ status: importJobs.status }).from(importJobs).where(eq(importJobs.id, job.id));
        if (ended?.status !== 'measuring') return;
        try {
          await afterImport?.measure(job.enterpriseId, (share) => reportProgress(db, job.id, { progress: Math.min(0.99, share) }), signal);
        } finally {
          // The network is in whatever the measuring met (a failure is logged by it): the job has succeeded.
          await markMeasured(db, job.id);
        }
      })
      .catch(onError),
  );
}
