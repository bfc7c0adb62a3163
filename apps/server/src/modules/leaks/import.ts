import { and, eq } from 'drizzle-orm';
import type { Geometry } from 'geojson';
import { type AreaGeometry, type LineGeometry, type PoiImportField, type PoiImportStart, type PoiPriority } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { acquisitions, deliveries, pipes, poiEvents, pois, type ImportProblemRecord, type PoiPipes } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { bboxColumns, bboxOf, circlePolygon, lengthInside } from '../../geo/geometry.ts';
import type { Reproject } from '../imports/crs.ts';
import { areaOf, isSinglePoint, pointOf } from '../imports/areas.ts';
import { assertNoRunningJob, extentOf, markFailed, markStarted, markSucceeded, MAX_PROBLEMS, problem, reportProgress, runImportJob, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import { JobInterrupted, type JobRunner } from '../imports/runner.ts';
import type { SourceFeature } from '../imports/sources/index.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { pipeBboxIntersects } from '../pipelines/queries.ts';
import { assertProject } from '../projects/service.ts';

const FIELD_NAMES: Record<PoiImportField, string[]> = {
  poiNo: ['poino', 'poi_no', 'poi', 'poiid', 'poi_id', 'id', 'name', 'no', '编号', '兴趣点编号'],
  radiusM: ['radius', 'radiusm', 'radius_m', 'r', '半径'],
  priority: ['priority', 'level', 'rank', '优先级', '等级'],
  estimatedLeakM3h: ['estimatedleak', 'estimatedleakm3h', 'leak', 'leaksize', 'flow', 'estflow', 'estimatedflow', 'leak_m3h', '估计漏量', '漏量', '估计流量'],
};
export const suggestPoiMapping = (fieldNames: string[]) => suggestMapping(fieldNames, FIELD_NAMES);

const PRIORITY_NAMES: Record<string, PoiPriority> = { high: 'high', h: 'high', '1': 'high', 高: 'high', medium: 'medium', m: 'medium', '2': 'medium', 中: 'medium', low: 'low', l: 'low', '3': 'low', 低: 'low' };

interface PoiRow {
  row: number;
  poiNo: string;
  geometry: AreaGeometry;
  center: number[];
  radiusM: number | null;
  priority: PoiPriority;
  estimatedLeakM3h: number | null;
}


/** A POI from a feature: a point becomes a circle of its radius, a polygon stays; or the problems. */
function poiFromFeature(feature: SourceFeature, options: PoiImportStart, reproject: Reproject): { row: PoiRow } | { problems: ImportProblemRecord[] } {
  const value = (target: PoiImportField) => (options.mapping[target] ? feature.properties[options.mapping[target]!] : undefined);
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());
  const poiNo = text(value('poiNo')) || `P-${String(feature.row).padStart(4, '0')}`;
  const problems: ImportProblemRecord[] = [];
  const here = (field: string, key: Parameters<typeof problem>[3], params = {}) => problems.push(problem(feature.row, poiNo, field, key, params));

  const radiusText = text(value('radiusM'));
  const radius = radiusText ? Number(radiusText) : options.defaultRadiusM;
  if (!(radius >= 10 && radius <= 1000)) here(`radiusM (${options.mapping.radiusM})`, 'import.numberRange', { min: 10, max: 1000 });
  const priorityText = text(value('priority')).toLowerCase();
  const priority = priorityText ? PRIORITY_NAMES[priorityText] : 'medium';
  if (!priority) here(`priority (${options.mapping.priority})`, 'import.priorityValue', { value: priorityText });
  const leakText = text(value('estimatedLeakM3h'));
  const leak = leakText ? Number(leakText) : null;
  if (leak !== null && !(leak >= 0)) here(`estimatedLeakM3h (${options.mapping.estimatedLeakM3h})`, 'import.numberRange', { min: 0, max: 10000 });

  const geometry = feature.geometry as Geometry | null;
  let area: AreaGeometry | null = null;
  let center: number[] | null = null;
  if (feature.problem) here('geometry', feature.problem);
  else if (!geometry) here('geometry', 'import.geometryMissing');
  else if (isSinglePoint(geometry)) {
    const point = pointOf(geometry as Geometry & { type: 'Point' | 'MultiPoint' }, reproject);
    if ('key' in point) here('geometry', point.key);
    else {
      center = point.position;
      if (problems.length === 0) area = circlePolygon(center, radius);
    }
  } else if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') {
    const polygon = areaOf(geometry, reproject);
    if ('key' in polygon) here('geometry', polygon.key);
    else {
      area = polygon.area;
      const box = bboxOf(area);
      center = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
    }
  } else here('geometry', 'poi.geometryType', { type: geometry.type });

  if (problems.length || !area || !center) return { problems };
  return { row: { row: feature.row, poiNo, geometry: area, center, radiusM: geometry!.type.endsWith('Point') ? radius : null, priority: priority!, estimatedLeakM3h: leak } };
}

/** Pipe length by network type inside a POI, with the count and the first 50 pipe ids. */
async function pipesInside(db: Db, enterpriseId: number, area: AreaGeometry): Promise<PoiPipes> {
  const candidates = await db
    .select({ pipeId: pipes.pipeId, networkType: pipes.networkType, geometry: pipes.geometry })
    .from(pipes)
    .where(and(eq(pipes.enterpriseId, enterpriseId), pipeBboxIntersects(bboxOf(area))));
  const result: PoiPipes = { lengthM: {}, count: 0, pipeIds: [] };
  for (const c of candidates) {
    const inside = lengthInside(c.geometry as LineGeometry, area);
    if (inside <= 0) continue;
    result.lengthM[c.networkType] = Math.round(((result.lengthM[c.networkType] ?? 0) + inside) * 10) / 10;
    result.count++;
    if (result.pipeIds.length < 50) result.pipeIds.push(c.pipeId);
  }
  return result;
}

const PROGRESS_EVERY_MS = 500;

/** Reads the whole delivery; any bad feature fails it with the report and nothing is written. */
function runPoiImport(db: Db, limits: ImportLimits, job: ImportJob, userId: number, options: PoiImportStart, signal: AbortSignal) {
  return runImportJob(db, limits, job, options.srid, async (source, reproject) => {
    const rows: (PoiRow & { pipes: PoiPipes })[] = [];
    const problems: ImportProblemRecord[] = [];
    let problemCount = 0;
    let reportedAt = Date.now();
    const seen = new Map<string, number>();
    for await (const feature of source.features()) {
      const result = poiFromFeature(feature, options, reproject);
      if ('problems' in result) {
        problemCount += result.problems.length;
        if (problems.length < MAX_PROBLEMS) problems.push(...result.problems);
      } else if (seen.has(result.row.poiNo)) {
        problemCount++;
        if (problems.length < MAX_PROBLEMS) problems.push(problem(feature.row, result.row.poiNo, 'poiNo', 'import.duplicatePoi', { poiNo: result.row.poiNo }));
      } else {
        seen.set(result.row.poiNo, feature.row);
        if (problemCount === 0) rows.push({ ...result.row, pipes: await pipesInside(db, job.enterpriseId, result.row.geometry) });
      }
      if (Date.now() - reportedAt > PROGRESS_EVERY_MS) {
        if (signal.aborted) throw new JobInterrupted();
        reportedAt = Date.now();
        await reportProgress(db, job.id, { progress: Math.min(source.progress(), 0.99), rowsRead: seen.size + problemCount });
      }
    }
    if (seen.size + problemCount === 0) problems.push(problem(null, null, null, 'import.noFeatures')), problemCount++;
    if (problemCount > 0) return await markFailed(db, job, problems, problemCount);
    await reportProgress(db, job.id, { status: 'writing', progress: 1, rowsRead: rows.length });
    await db.transaction(async (tx) => {
      const [delivery] = await tx
        .insert(deliveries)
        .values({ enterpriseId: job.enterpriseId, projectId: options.projectId, acquisitionId: options.acquisitionId ?? null, name: options.name, fileName: job.fileName, poiCount: rows.length, createdBy: userId })
        .returning({ id: deliveries.id });
      for (let i = 0; i < rows.length; i += 500) {
        const inserted = await tx
          .insert(pois)
          .values(
            rows.slice(i, i + 500).map((r) => ({
              enterpriseId: job.enterpriseId,
              deliveryId: delivery.id,
              projectId: options.projectId,
              poiNo: r.poiNo,
              geometry: r.geometry,
              centerLon: r.center[0],
              centerLat: r.center[1],
              radiusM: r.radiusM,
              ...bboxColumns(bboxOf(r.geometry)),
              priority: r.priority,
              estimatedLeakM3h: r.estimatedLeakM3h,
              pipes: r.pipes,
            })),
          )
          .returning({ id: pois.id });
        await tx.insert(poiEvents).values(inserted.map((p) => ({ poiId: p.id, userId, action: 'imported' as const, toStatus: 'new', details: { delivery: options.name } })));
      }
      await markSucceeded(tx, job.id, rows.length, { inserted: rows.length, updated: 0, deleted: 0, extent: extentOf(rows.map((r) => bboxOf(r.geometry))), deliveryId: delivery.id });
    });
  });
}

/** The mapping step's answer for a POI delivery: checks it and starts the job in the background. */
export async function startPoiImport(db: Db, limits: ImportLimits, runner: JobRunner, job: ImportJob, userId: number, options: PoiImportStart, onError: (error: unknown) => void) {
  await assertProject(db, job.enterpriseId, options.projectId);
  if (options.acquisitionId !== undefined) {
    const [acquisition] = await db.select({ id: acquisitions.id }).from(acquisitions).where(and(eq(acquisitions.id, options.acquisitionId), eq(acquisitions.enterpriseId, job.enterpriseId)));
    if (!acquisition) throw notFound('notFound.acquisition');
  }
  assertMappingFields(job, options.mapping);
  await assertNoRunningJob(db, job.enterpriseId, 'pois');
  await markStarted(db, job, options);
  runner.run(job, (signal) => runPoiImport(db, limits, job, userId, options, signal).catch(onError));
}
