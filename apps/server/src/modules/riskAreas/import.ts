import type { Geometry } from 'geojson';
import { type AreaGeometry, type RiskAreaImportField, type RiskAreaImportStart, type RiskAreaInput, type RiskAreaKind, type RiskLevel } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { riskAreaEvents, riskAreas, type ImportProblemRecord } from '../../db/schema.ts';
import type { Place } from '../../geo/proximity.ts';
import { grownBox } from '../../geo/proximity.ts';
import type { Reproject } from '../imports/crs.ts';
import { areaOf, isSinglePoint, pointOf } from '../imports/areas.ts';
import { assertNoRunningJob, extentOf, markStarted, markSucceeded, problem, runImportJob, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import { readRegister } from '../imports/register.ts';
import type { JobRunner } from '../imports/runner.ts';
import type { SourceFeature } from '../imports/sources/index.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { rememberWords, WordReader } from '../imports/words.ts';
import { assertProject } from '../projects/service.ts';
import { formColumns, measureAreas, writeAreaPipes } from './service.ts';

const FIELD_NAMES: Record<RiskAreaImportField, string[]> = {
  name: ['name', 'title', 'location', '名称', '隐患点名称', '易涝点名称', '位置'],
  kind: ['kind', 'type', 'category', '类型', '隐患类型'],
  level: ['level', 'grade', 'risk', 'susceptibility', '等级', '风险等级', '易发程度'],
  cause: ['cause', 'reason', 'description', '成因', '原因', '描述'],
  triggerRainMm: ['rainmm', 'trigger', 'triggerrain', 'rainfall', '降雨阈值', '积水降雨量', '触发雨量'],
  triggerHours: ['hours', 'triggerhours', 'duration', '时长', '降雨时长'],
  voidAreaM2: ['area', 'aream2', 'voidarea', '面积', '空洞面积'],
  burialDepthM: ['depth', 'burialdepth', '埋深', '顶板埋深'],
  clearHeightM: ['height', 'clearheight', '净高', '空洞净高'],
  responsibleUnit: ['unit', 'responsibleunit', 'department', '责任单位'],
  responsiblePerson: ['person', 'responsible', 'contact', '责任人'],
};
export const suggestRiskAreaMapping = (fieldNames: string[]) => suggestMapping(fieldNames, FIELD_NAMES);

/** An area from a feature, or the problems. */
function areaFromFeature(feature: SourceFeature, options: RiskAreaImportStart, reproject: Reproject, words: WordReader): { input: RiskAreaInput; place: Place } | { problems: ImportProblemRecord[] } {
  const value = (target: RiskAreaImportField) => {
    const v = options.mapping[target] ? feature.properties[options.mapping[target]!] : undefined;
    return v === null || v === undefined ? '' : String(v).trim();
  };
  const name = value('name') || `#${feature.row}`;
  const problems: ImportProblemRecord[] = [];
  const here = (field: RiskAreaImportField | 'geometry', key: Parameters<typeof problem>[3], params = {}) =>
    problems.push(problem(feature.row, name, field === 'geometry' ? field : `${field} (${options.mapping[field]})`, key, params));
  const kindText = value('kind');
  const kind = kindText ? words.read<RiskAreaKind>('riskKind', kindText, feature.row) : options.kind;
  if (!kind) here('kind', 'riskArea.kindValue', { value: kindText });
  const levelText = value('level');
  const level = levelText ? words.read<RiskLevel>('riskLevel', levelText, feature.row) : options.level;
  if (!level) here('level', 'riskArea.levelValue', { value: levelText });
  const number = (field: 'triggerRainMm' | 'triggerHours' | 'voidAreaM2' | 'burialDepthM' | 'clearHeightM', max: number) => {
    const text = value(field);
    if (!text) return undefined;
    const n = Number(text);
    if (!(n >= 0 && n <= max)) here(field, 'import.numberRange', { min: 0, max });
    return n;
  };
  const numbers = { triggerRainMm: number('triggerRainMm', 1000), triggerHours: number('triggerHours', 72), voidAreaM2: number('voidAreaM2', 100_000), burialDepthM: number('burialDepthM', 100), clearHeightM: number('clearHeightM', 50) };

  const geometry = feature.geometry as Geometry | null;
  let place: Place | null = null;
  if (feature.problem) here('geometry', feature.problem);
  else if (!geometry) here('geometry', 'import.geometryMissing');
  else if (isSinglePoint(geometry)) {
    const point = pointOf(geometry as Geometry & { type: 'Point' | 'MultiPoint' }, reproject);
    if ('key' in point) here('geometry', point.key);
    else place = { type: 'Point', coordinates: point.position };
  } else if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') {
    const polygon = areaOf(geometry, reproject);
    if ('key' in polygon) here('geometry', polygon.key);
    else place = polygon.area;
  } else here('geometry', 'riskArea.geometryType', { type: geometry.type });
  if (problems.length || !place) return { problems };
  const input: RiskAreaInput = {
    name,
    kind: kind!,
    level: level!,
    ...(place.type === 'Point' ? { point: place.coordinates } : { geometry: place as AreaGeometry }),
    bufferM: 50,
    projectId: options.projectId,
    cause: value('cause') || undefined,
    ...numbers,
    source: options.source,
    responsibleUnit: value('responsibleUnit') || undefined,
    responsiblePerson: value('responsiblePerson') || undefined,
  };
  return { input, place };
}

/** Reads the whole list; any bad feature fails it with the report and nothing is written. Each area is measured against the pipes. */
function runAreaImport(db: Db, limits: ImportLimits, job: ImportJob, userId: number, options: RiskAreaImportStart, signal: AbortSignal) {
  return runImportJob(db, limits, job, options.srid, async (source, reproject) => {
    const words = await WordReader.load(db, job.enterpriseId);
    const rows = await readRegister(db, job, source, signal, words, { read: (feature) => areaFromFeature(feature, options, reproject, words) });
    if (!rows) return;
    const measured = await measureAreas(db, job.enterpriseId, rows.map((r) => ({ place: r.place, bufferM: r.input.bufferM })));
    await db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 500) {
        const inserted = await tx
          .insert(riskAreas)
          .values(rows.slice(i, i + 500).map((r, j) => ({ enterpriseId: job.enterpriseId, ...formColumns(r.input, r.place, measured[i + j]), createdBy: userId })))
          .returning({ id: riskAreas.id });
        await tx.insert(riskAreaEvents).values(inserted.map((a) => ({ areaId: a.id, userId, action: 'imported' as const, toStatus: 'identified', details: { file: job.fileName } })));
        await writeAreaPipes(tx, job.enterpriseId, inserted.map((a, j) => ({ id: a.id, measured: measured[i + j] })));
      }
      await markSucceeded(tx, job.id, rows.length, { inserted: rows.length, updated: 0, deleted: 0, extent: extentOf(rows.map((r) => grownBox(r.place, 0))) });
    });
  });
}

export async function startRiskAreaImport(db: Db, limits: ImportLimits, runner: JobRunner, job: ImportJob, userId: number, options: RiskAreaImportStart, onError: (error: unknown) => void) {
  if (options.projectId !== undefined) await assertProject(db, job.enterpriseId, options.projectId);
  assertMappingFields(job, options.mapping);
  await rememberWords(db, job.enterpriseId, options.words);
  await assertNoRunningJob(db, job.enterpriseId, 'riskAreas');
  await markStarted(db, job, options);
  runner.run(job, (signal) => runAreaImport(db, limits, job, userId, options, signal).catch(onError));
}
