import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  ACQUISITION_IMPORT_FIELDS,
  ACQUISITION_MODES,
  ACQUISITION_STATUSES,
  ORBIT_DIRECTIONS,
  POLARISATIONS,
  acquisitionBody,
  type AcquisitionImportField,
  type AcquisitionImportStart,
  type AcquisitionInput,
} from '@console/contract';
import type { Db } from '../../db/client.ts';
import { acquisitions, type ImportProblemRecord } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { describeIssue } from '../../http/validation.ts';
import { bboxColumns, bboxOf } from '../../geo/geometry.ts';
import { areaOf } from '../imports/areas.ts';
import type { Reproject } from '../imports/crs.ts';
import { assertNoRunningJob, extentOf, markFailed, markStarted, markSucceeded, MAX_PROBLEMS, problem, reportProgress, runImportJob, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { JobInterrupted, type JobRunner } from '../imports/runner.ts';
import type { SourceFeature } from '../imports/sources/index.ts';

/** Names scene catalogues (ESA/CONAE exports, Chinese survey sheets) give these attributes. */
const FIELD_NAMES: Record<AcquisitionImportField, string[]> = {
  productId: ['productid', 'product', 'productname', 'sceneid', 'scene', 'granule', 'id', 'name', '产品编号', '产品号', '景号', '编号'],
  satellite: ['satellite', 'sat', 'platform', 'mission', 'sensor', '卫星', '卫星名称'],
  acquiredAt: ['acquiredat', 'acquisitiontime', 'acquisitiondate', 'sensingtime', 'sensingstart', 'starttime', 'datetime', 'date', 'time', '成像时间', '采集时间', '获取时间', '时间'],
  orbitDirection: ['orbitdirection', 'orbit', 'pass', 'passdirection', 'direction', 'flightdirection', '轨道方向', '升降轨'],
  mode: ['mode', 'acquisitionmode', 'beammode', 'beam', 'imagingmode', '成像模式', '模式'],
  polarisation: ['polarisation', 'polarization', 'pol', 'polarisations', '极化', '极化方式'],
  status: ['status', 'state', 'processingstatus', '状态', '处理状态'],
};
export const suggestAcquisitionMapping = (fieldNames: string[]) => suggestMapping(fieldNames, FIELD_NAMES);

const key = (value: string) => value.toLowerCase().replace(/[^a-z0-9\u4e00-\u9fff]/g, '');
const valuesOf = <T extends string>(known: readonly T[], names: Record<T, string[]>) => {
  const map = new Map<string, T>();
  for (const value of known) for (const name of [value, ...names[value]]) map.set(key(name), value);
  return map;
};
const ORBITS = valuesOf(ORBIT_DIRECTIONS, { ascending: ['asc', 'a', '升轨', '升'], descending: ['desc', 'dsc', 'd', '降轨', '降'] });
const MODES = valuesOf(ACQUISITION_MODES, { StripMap: ['sm', 's', 'strip', '条带'], 'TOPSAR Narrow': ['tn', 'topsarn', 'narrow'], 'TOPSAR Wide': ['tw', 'topsarw', 'wide'] });
const POLS = valuesOf(POLARISATIONS, {
  single: ['sp', 'hh', 'vv', 'hv', 'vh', '单极化'],
  dual: ['dp', 'hhhv', 'vvvh', 'hhvv', '双极化'],
  quad: ['qp', 'quadpol', 'full', 'fullpol', 'hhhvvhvv', '全极化', '四极化'],
});
const STATUSES = valuesOf(ACQUISITION_STATUSES, { planned: ['plan', '计划', '已计划'], acquired: ['taken', '已采集', '已获取'], processing: ['处理中'], delivered: ['已交付', '交付'], failed: ['fail', 'error', '失败'] });

/** A date with a time and no zone is read as UTC (catalogues give UTC); one with a zone as given. */
function isoTime(text: string): string | null {
  const local = text.match(/^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?$/);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = local;
    const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, frac ? Math.round(Number(frac) * 1000) : 0));
    return date.getUTCDate() === +d ? date.toISOString() : null;
  }
  const parsed = Date.parse(text);
  return /[zZ]|[+-]\d{2}:?\d{2}$/.test(text) && !Number.isNaN(parsed) ? new Date(parsed).toISOString() : null;
}

interface SceneRow extends AcquisitionInput {
  row: number;
}

/** One feature of the file as a scene, or every problem with it by field. */
function sceneFromFeature(feature: SourceFeature, options: AcquisitionImportStart, reproject: Reproject): { row: SceneRow } | { problems: ImportProblemRecord[] } {
  const text = (target: AcquisitionImportField) => {
    const value = options.mapping[target] ? feature.properties[options.mapping[target]!] : undefined;
    return value === null || value === undefined ? '' : String(value).trim();
  };
  const productId = text('productId');
  const problems: ImportProblemRecord[] = [];
  const where = (target: AcquisitionImportField) => (options.mapping[target] ? `${target} (${options.mapping[target]})` : target);
  const here = (field: string, messageKey: Parameters<typeof problem>[3], params = {}) => problems.push(problem(feature.row, productId || null, field, messageKey, params));

  /** The file's value read through `known`, else the value chosen for every row. */
  const pick = <T extends string>(target: AcquisitionImportField, known: Map<string, T>, allowed: readonly T[], fallback: T | undefined): T | undefined => {
    const value = text(target);
    if (!value) {
      if (!fallback) here(where(target), 'import.valueMissing');
      return fallback;
    }
    const found = known.get(key(value));
    if (!found) here(where(target), 'import.enumValue', { value, allowed: allowed.join(', ') });
    return found;
  };
  const orbitDirection = pick('orbitDirection', ORBITS, ORBIT_DIRECTIONS, options.orbitDirection);
  const mode = pick('mode', MODES, ACQUISITION_MODES, options.mode);
  const polarisation = pick('polarisation', POLS, POLARISATIONS, options.polarisation);
  const status = pick('status', STATUSES, ACQUISITION_STATUSES, options.status);
  const satellite = text('satellite') || options.satellite;
  if (!satellite) here(where('satellite'), 'import.valueMissing');
  const timeText = text('acquiredAt');
  const acquiredAt = timeText ? isoTime(timeText) : null;
  if (!acquiredAt) here(where('acquiredAt'), timeText ? 'field.dateTime' : 'import.valueMissing');

  let footprint: AcquisitionInput['footprint'] | null = null;
  if (feature.problem) here('geometry', feature.problem);
  else if (!feature.geometry) here('geometry', 'import.geometryMissing');
  else {
    const area = areaOf(feature.geometry, reproject);
    if ('key' in area) here('geometry', area.key, { type: area.type ?? '' });
    else footprint = area.area;
  }
  if (problems.length) return { problems };

  const parsed = acquisitionBody.safeParse({ satellite, productId, acquiredAt, orbitDirection, mode, polarisation, status, footprint });
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => {
        const target = String(issue.path[0] ?? '');
        const field = target === 'footprint' ? 'geometry' : (ACQUISITION_IMPORT_FIELDS as readonly string[]).includes(target) ? where(target as AcquisitionImportField) : target;
        return { row: feature.row, featureId: productId || null, field, reason: { 'zh-CN': describeIssue(issue, 'zh-CN'), 'en-US': describeIssue(issue, 'en-US') } };
      }),
    };
  }
  return { row: { ...parsed.data, row: feature.row } };
}

const PROGRESS_EVERY_MS = 500;

/** Reads the whole list; any bad scene fails it with the report and nothing is written. Listed product ids are updated. */
function runAcquisitionImport(db: Db, limits: ImportLimits, job: ImportJob, options: AcquisitionImportStart, signal: AbortSignal) {
  return runImportJob(db, limits, job, options.srid, async (source, reproject) => {
    const rows: SceneRow[] = [];
    const problems: ImportProblemRecord[] = [];
    let problemCount = 0;
    let reportedAt = Date.now();
    const seen = new Set<string>();
    const report = (found: ImportProblemRecord[]) => {
      problemCount += found.length;
      if (problems.length < MAX_PROBLEMS) problems.push(...found);
    };
    for await (const feature of source.features()) {
      const result = sceneFromFeature(feature, options, reproject);
      if ('problems' in result) report(result.problems);
      else if (seen.has(result.row.productId)) report([problem(feature.row, result.row.productId, 'productId', 'import.duplicateProduct', { productId: result.row.productId })]);
      else {
        seen.add(result.row.productId);
        rows.push(result.row);
      }
      if (Date.now() - reportedAt > PROGRESS_EVERY_MS) {
        if (signal.aborted) throw new JobInterrupted();
        reportedAt = Date.now();
        await reportProgress(db, job.id, { progress: Math.min(source.progress(), 0.99), rowsRead: rows.length + problemCount });
      }
    }
    if (rows.length + problemCount === 0) report([problem(null, null, null, 'import.noFeatures')]);
    if (problemCount > 0) return await markFailed(db, job, problems, problemCount);
    await reportProgress(db, job.id, { status: 'writing', progress: 1, rowsRead: rows.length });
    await db.transaction(async (tx) => {
      const listed = new Set<string>();
      for (let i = 0; i < rows.length; i += 1000) {
        const ids = rows.slice(i, i + 1000).map((r) => r.productId);
        const found = await tx.select({ productId: acquisitions.productId }).from(acquisitions).where(and(eq(acquisitions.enterpriseId, job.enterpriseId), inArray(acquisitions.productId, ids)));
        for (const f of found) listed.add(f.productId);
      }
      for (let i = 0; i < rows.length; i += 500) {
        await tx
          .insert(acquisitions)
          .values(rows.slice(i, i + 500).map(({ row: _, ...r }) => ({ ...r, enterpriseId: job.enterpriseId, acquiredAt: new Date(r.acquiredAt), ...bboxColumns(bboxOf(r.footprint)) })))
          .onConflictDoUpdate({
            target: [acquisitions.enterpriseId, acquisitions.productId],
            set: Object.fromEntries(
              ['satellite', 'acquiredAt', 'orbitDirection', 'mode', 'polarisation', 'status', 'footprint', 'minx', 'miny', 'maxx', 'maxy'].map((column) => [
                column,
                sql.raw(`excluded.${acquisitions[column as 'satellite'].name}`),
              ]),
            ),
          });
      }
      await markSucceeded(tx, job.id, rows.length, { inserted: rows.length - listed.size, updated: listed.size, deleted: 0, extent: extentOf(rows.map((r) => bboxOf(r.footprint))) });
    });
  });
}

/** The mapping step's answer for a scene list: checks it and starts the job in the background. */
export async function startAcquisitionImport(db: Db, limits: ImportLimits, runner: JobRunner, job: ImportJob, options: AcquisitionImportStart, onError: (error: unknown) => void) {
  for (const target of ['productId', 'acquiredAt'] as const) if (!options.mapping[target]) throw badRequest('import.mappingRequired', { target });
  assertMappingFields(job, options.mapping);
  await assertNoRunningJob(db, job.enterpriseId, 'acquisitions');
  await markStarted(db, job, options);
  runner.run(job, (signal) => runAcquisitionImport(db, limits, job, options, signal).catch(onError));
}
