import { getTableColumns, sql, eq } from 'drizzle-orm';
import type { PipeImportField, PipeImportStart } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { copyBinaryInto } from '../../db/copy.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { importJobs, pipeImportRows, type ImportProblemRecord } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import {
  MAX_PROBLEMS,
  assertNoRunningJob,
  markFailed,
  markStarted,
  problem,
  reportProgress,
  runImportJob,
  type ImportJob,
  type ImportLimits,
} from '../imports/jobs.ts';
import { JobInterrupted, type JobRunner } from '../imports/runner.ts';
import type { SourceFeature } from '../imports/sources/index.ts';
import { WorkerPool } from '../imports/workers.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { bumpPipesVersion } from '../tiles/service.ts';
import type { PipeWorkerBatch, PipeWorkerInit } from './import-worker.ts';
import { checkPipes, STAGED_COLUMNS, type CheckedPipes } from './rows.ts';

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

const attributeColumns = Object.values(getTableColumns(pipeImportRows))
  .map((column) => column.name)
  .filter((name) => name !== 'job_id' && name !== 'row');
const columnList = sql.raw(attributeColumns.map((name) => `"${name}"`).join(', '));
const updateList = sql.raw([...attributeColumns.filter((name) => name !== 'pipe_id').map((name) => `"${name}" = excluded."${name}"`), 'updated_at = now()'].join(', '));

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

/** Moves the staged rows into the network in one transaction: all of them, or none. */
async function writeStaged(db: Db, job: ImportJob, mode: PipeImportStart['mode']) {
  await db.transaction(async (tx) => {
    let deleted = 0;
    if (mode === 'replace') {
      const gone = (await tx.execute(sql`with gone as (delete from pipes where enterprise_id = ${job.enterpriseId} returning 1) select count(*)::int as count from gone`)) as unknown as Counted;
      deleted = gone.rows[0].count;
    }
    const conflict = mode === 'upsert' ? sql`on conflict (enterprise_id, pipe_id) do update set ${updateList}` : sql``;
    const moved = (await tx.execute(sql`
      with moved as (
        insert into pipes (enterprise_id, ${columnList})
        select ${job.enterpriseId}, ${columnList} from pipe_import_rows where job_id = ${job.id}
        -- In id order the indexes led by (enterprise, pipe id) grow at their end: a file in
        -- any order then writes as fast as a sorted one (1,000,000 rows: 41 s shuffled, 25 s sorted).
        order by pipe_id
        ${conflict}
        returning (xmax = 0) as inserted
      )
      select count(*) filter (where inserted)::int as inserted, count(*)::int as count from moved`)) as unknown as { rows: { inserted: number; count: number }[] };
    const { inserted, count } = moved.rows[0];
    const bounds = (await tx.execute(sql`select min(minx) as minx, min(miny) as miny, max(maxx) as maxx, max(maxy) as maxy from pipe_import_rows where job_id = ${job.id}`)) as unknown as {
      rows: { minx: number | null; miny: number; maxx: number; maxy: number }[];
    };
    const b = bounds.rows[0];
    const extent: [number, number, number, number] | null = b.minx === null ? null : [Number(b.minx), Number(b.miny), Number(b.maxx), Number(b.maxy)];
    await bumpPipesVersion(tx as unknown as Db, job.enterpriseId);
    await tx
      .update(importJobs)
      .set({ status: 'succeeded', progress: 1, rowsWritten: count, result: { inserted, updated: count - inserted, deleted, extent }, finishedAt: new Date(), heartbeatAt: new Date() })
      .where(eq(importJobs.id, job.id));
  });
}

async function clearStaged(db: Db, jobId: number) {
  await db.delete(pipeImportRows).where(eq(pipeImportRows.jobId, jobId));
}

/**
 * Reads the whole file, checks every feature and stages the good ones; any problem fails the job
 * with its report and nothing is written; otherwise the staged rows go in together.
 */
async function runPipeImport(db: Db, limits: ImportLimits, job: ImportJob, options: PipeImportStart, signal: AbortSignal) {
  const problems: ImportProblemRecord[] = [];
  let problemCount = 0;
  try {
    await runImportJob(db, limits, job, options.srid, async (source, reproject, crs) => {
      // The checked rows go into the staging table by binary COPY as they are read (db/copy.ts).
      const staging = await copyBinaryInto(db, 'pipe_import_rows', STAGED_COLUMNS);
      let rowsRead = 0;
      let reportedAt = Date.now();
      const take = async (batch: CheckedPipes) => {
        rowsRead += batch.rowsRead;
        problemCount += batch.problemCount;
        if (problems.length < MAX_PROBLEMS) problems.push(...batch.problems.slice(0, MAX_PROBLEMS - problems.length));
        // Once the job fails, staging is wasted work.
        if (problemCount === 0 && batch.rows.length) await staging.writeRows(batch.rows);
        if (Date.now() - reportedAt > PROGRESS_EVERY_MS) {
          if (signal.aborted) throw new JobInterrupted();
          reportedAt = Date.now();
          await reportProgress(db, job.id, { progress: Math.min(source.progress(), 0.99), rowsRead });
        }
      };
      try {
        const parallel = source.recordBatches && (source.format === 'geojson' || (source.format === 'csv' && source.layout));
        if (parallel && job.fileSize >= limits.parallelFromBytes) {
          // A big file: worker threads parse and check its features, in order, a few batches ahead;
          // this thread splits the file and writes by COPY.
          const init: PipeWorkerInit = { format: source.format as 'csv' | 'geojson', layout: source.layout, options, crs, jobId: job.id };
          const pool = new WorkerPool<PipeWorkerBatch, CheckedPipes>(new URL('./import-worker.ts', import.meta.url), init);
          try {
            const ahead: Promise<CheckedPipes>[] = [];
            for await (const { firstRow, records } of source.recordBatches!(BATCH_ROWS)) {
              ahead.push(pool.run({ firstRow, records, failed: problemCount > 0 }));
              if (ahead.length > BATCHES_AHEAD) await take(await ahead.shift()!);
            }
            while (ahead.length) await take(await ahead.shift()!);
          } finally {
            await pool.close();
          }
        } else {
          let features: SourceFeature[] = [];
          for await (const feature of source.features()) {
            features.push(feature);
            if (features.length === BATCH_ROWS) await take(checkPipes(features, options, reproject, job.id, problemCount > 0)), (features = []);
          }
          await take(checkPipes(features, options, reproject, job.id, problemCount > 0));
        }
      } catch (error) {
        await staging.abort();
        throw error;
      }
      if (problemCount === 0) await staging.end();
      else await staging.abort();
      if (rowsRead === 0) problems.push(problem(null, null, null, 'import.noFeatures')), problemCount++;
      if (problemCount === 0) {
        const ids = await idProblems(db, job, options.mode);
        problems.push(...ids.problems);
        problemCount += ids.count;
      }
      if (problemCount > 0) return await markFailed(db, job, problems, problemCount);
      if (signal.aborted) throw new JobInterrupted();
      await reportProgress(db, job.id, { status: 'writing', progress: 1, rowsRead });
      try {
        await writeStaged(db, job, options.mode);
        // Fresh statistics at once, so the list and the tiles plan for the new network size.
        if (rowsRead >= ANALYZE_AFTER_ROWS) await db.execute(sql`analyze pipes`);
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

/** The mapping step's answer: checks it against the file's fields and starts the job in the background. */
export async function startPipeImport(
  db: Db,
  limits: ImportLimits,
  runner: JobRunner,
  job: ImportJob,
  options: PipeImportStart,
  onError: (error: unknown) => void,
  /** Called once the import wrote its pipes (what depends on the network runs again). */
  afterImport?: (enterpriseId: number) => Promise<void> | void,
) {
  if (!options.mapping.pipeId) throw badRequest('import.mappingPipeId');
  assertMappingFields(job, options.mapping);
  await assertNoRunningJob(db, job.enterpriseId, 'pipes');
  await markStarted(db, job, options);
  runner.run(job, (signal) =>
    runPipeImport(db, limits, job, options, signal)
      .then(async () => {
        const [ended] = await db.select({ status: importJobs.status }).from(importJobs).where(eq(importJobs.id, job.id));
        if (ended?.status === 'succeeded') await afterImport?.(job.enterpriseId);
      })
      .catch(onError),
  );
}
