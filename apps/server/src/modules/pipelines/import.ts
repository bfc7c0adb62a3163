import { getTableColumns, sql, eq } from 'drizzle-orm';
import type { Geometry, Position } from 'geojson';
import {
  NETWORK_TYPES,
  pipeBody,
  type NetworkType,
  type PipeImportField,
  type PipeImportStart,
} from '@console/contract';
import type { Db } from '../../db/client.ts';
import { copyInto } from '../../db/copy.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { importJobs, pipeImportRows, type ImportProblemRecord } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { describeIssue } from '../../http/validation.ts';
import type { Reproject } from '../imports/crs.ts';
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
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { bumpPipesVersion } from '../tiles/service.ts';
import { pipeRow } from './service.ts';

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

/** Network type names in files, Chinese and English, to our codes. */
const NETWORK_NAMES: Record<string, NetworkType> = {
  给水: 'water', 供水: 'water', 自来水: 'water', 上水: 'water', js: 'water', ws: 'water',
  燃气: 'gas', 天然气: 'gas', 煤气: 'gas', rq: 'gas',
  排水: 'drainage', 污水: 'drainage', 雨水: 'drainage', 雨污合流: 'drainage', 下水: 'drainage', ps: 'drainage', sewer: 'drainage', sewage: 'drainage', stormwater: 'drainage',
  热力: 'heat', 供热: 'heat', 暖气: 'heat', rl: 'heat', heating: 'heat',
  电力: 'power', 供电: 'power', dl: 'power', electric: 'power', electricity: 'power',
  通信: 'telecom', 电信: 'telecom', 通讯: 'telecom', tx: 'telecom', communication: 'telecom',
};

function networkTypeOf(value: string): NetworkType | null {
  const name = value.trim().toLowerCase().replace(/(管线|管网|管道)$/, '');
  if ((NETWORK_TYPES as readonly string[]).includes(name)) return name as NetworkType;
  return NETWORK_NAMES[name] ?? null;
}

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

/** "DN300", "300mm", "Φ300" → 300; numbers pass. */
const diameterOf = (value: unknown) => {
  const t = text(value)?.trim();
  const m = t ? /^(?:dn|de|φ|Φ|ø)?\s*(\d+(?:\.\d+)?)\s*(?:mm)?$/i.exec(t) : null;
  return m ? Number(m[1]) : t;
};

/** "2005", "2005-06-01", "2005年" → 2005. */
const yearOf = (value: unknown) => {
  const t = text(value)?.trim();
  const m = t ? /^(\d{4})(?:[-/.年].*)?$/.exec(t) : null;
  return m ? Number(m[1]) : t;
};

type StagedRow = ReturnType<typeof pipeRow> & { row: number };

/** A line in WGS 84 from whatever the file holds, or the reason it is not one. */
function lineOf(geometry: Geometry | null, reproject: Reproject): { geometry: unknown } | { key: 'import.geometryMissing' | 'import.geometryType' | 'import.coordinates'; type?: string } {
  if (!geometry) return { key: 'import.geometryMissing' };
  let lines: Position[][];
  if (geometry.type === 'LineString') lines = [geometry.coordinates];
  else if (geometry.type === 'MultiLineString') lines = geometry.coordinates;
  else if (geometry.type === 'GeometryCollection' && geometry.geometries.length && geometry.geometries.every((g) => g.type === 'LineString')) {
    lines = geometry.geometries.map((g) => (g as { coordinates: Position[] }).coordinates);
  } else return { key: 'import.geometryType', type: geometry.type };
  const projected: number[][][] = [];
  for (const line of lines) {
    if (!Array.isArray(line)) return { key: 'import.coordinates' };
    const points: number[][] = [];
    for (const p of line) {
      if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number' || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) return { key: 'import.coordinates' };
      points.push(reproject(p[0], p[1]));
    }
    projected.push(points);
  }
  return { geometry: projected.length === 1 ? { type: 'LineString', coordinates: projected[0] } : { type: 'MultiLineString', coordinates: projected } };
}

/** One feature of the file as a pipe row, or what is wrong with it (every problem, by field). */
export function pipeFromFeature(feature: SourceFeature, options: PipeImportStart, reproject: Reproject): { row: StagedRow } | { problems: ImportProblemRecord[] } {
  const value = (target: PipeImportField) => (options.mapping[target] ? feature.properties[options.mapping[target]!] : undefined);
  const featureId = text(value('pipeId'))?.trim() || null;
  const problems: ImportProblemRecord[] = [];
  const where = (target: string) => (options.mapping[target as PipeImportField] ? `${target} (${options.mapping[target as PipeImportField]})` : target);

  let networkType: string | undefined = options.networkType;
  const typeText = text(value('networkType'))?.trim();
  if (typeText) {
    const known = networkTypeOf(typeText);
    if (known) networkType = known;
    else problems.push(problem(feature.row, featureId, where('networkType'), 'import.networkTypeValue', { value: typeText }));
  }
  const line = feature.problem ? { key: feature.problem } : lineOf(feature.geometry, reproject);
  if ('key' in line) problems.push(problem(feature.row, featureId, 'geometry', line.key, { type: 'type' in line ? line.type ?? '' : '' }));

  const parsed = pipeBody.safeParse(
    {
      pipeId: featureId ?? undefined,
      networkType,
      material: text(value('material')) === undefined ? undefined : materialOf(text(value('material'))!),
      diameterMm: diameterOf(value('diameterMm')),
      pressureClass: text(value('pressureClass')),
      installYear: yearOf(value('installYear')),
      depthM: text(value('depthM')),
      owner: text(value('owner')),
      geometry: 'geometry' in line ? line.geometry : { type: 'LineString', coordinates: [[0, 0], [0, 0]] },
    },
    { reportInput: true },
  );
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const target = String(issue.path[0] ?? '');
      if (target === 'networkType' && typeText) continue; // already said, with the value
      problems.push({
        row: feature.row,
        featureId,
        field: target === 'geometry' ? 'geometry' : where(target),
        reason: { 'zh-CN': describeIssue(issue, 'zh-CN'), 'en-US': describeIssue(issue, 'en-US') },
      });
    }
  }
  if (problems.length || !parsed.success) return { problems };
  return { row: { ...pipeRow(parsed.data), row: feature.row } };
}

const PROGRESS_EVERY_MS = 500;
const ANALYZE_AFTER_ROWS = 10_000;

const attributeColumns = Object.values(getTableColumns(pipeImportRows))
  .map((column) => column.name)
  .filter((name) => name !== 'job_id' && name !== 'row');
const columnList = sql.raw(attributeColumns.map((name) => `"${name}"`).join(', '));
const updateList = sql.raw([...attributeColumns.filter((name) => name !== 'pipe_id').map((name) => `"${name}" = excluded."${name}"`), 'updated_at = now()'].join(', '));

type Counted = { rows: { count: number }[] };

const stagedColumns = Object.entries(getTableColumns(pipeImportRows)).map(([key, column]) => [key, column.name] as const);

/** The checked rows go into the staging table by COPY as they are read (db/copy.ts). */
async function stagingWriter(db: Db, jobId: number) {
  const writer = await copyInto(db, 'pipe_import_rows', stagedColumns.map(([, name]) => name));
  return {
    write: (row: StagedRow) => writer.write(stagedColumns.map(([key]) => (key === 'jobId' ? jobId : row[key as keyof StagedRow]))),
    end: () => writer.end(),
    abort: () => writer.abort(),
  };
}

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
    await runImportJob(db, limits, job, options.srid, async (source, reproject) => {
      const staging = await stagingWriter(db, job.id);
      let rowsRead = 0;
      let reportedAt = Date.now();
      try {
        for await (const feature of source.features()) {
          rowsRead++;
          const result = pipeFromFeature(feature, options, reproject);
          if ('problems' in result) {
            problemCount += result.problems.length;
            if (problems.length < MAX_PROBLEMS) problems.push(...result.problems);
          } else if (problemCount === 0) await staging.write(result.row); // once the job fails, staging is wasted work
          if (Date.now() - reportedAt > PROGRESS_EVERY_MS) {
            if (signal.aborted) throw new JobInterrupted();
            reportedAt = Date.now();
            await reportProgress(db, job.id, { progress: Math.min(source.progress(), 0.99), rowsRead });
          }
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
