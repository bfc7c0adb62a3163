import { and, eq, inArray } from 'drizzle-orm';
import type { Geometry } from 'geojson';
import { type AreaGeometry, type BuildType, type SiteImportField, type SiteImportStart } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { constructionEvents, constructionSites, type ImportProblemRecord } from '../../db/schema.ts';
import { bboxColumns, bboxOf, circlePolygon } from '../../geo/geometry.ts';
import { placeCentre } from '../../geo/proximity.ts';
import type { Reproject } from '../imports/crs.ts';
import { areaOf, isSinglePoint, pointOf } from '../imports/areas.ts';
import { assertNoRunningJob, extentOf, markFailed, markStarted, markSucceeded, MAX_PROBLEMS, problem, runImportJob, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import { readRegister } from '../imports/register.ts';
import type { JobRunner } from '../imports/runner.ts';
import type { SourceFeature } from '../imports/sources/index.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import { rememberWords, WordReader } from '../imports/words.ts';
import { assertProject } from '../projects/service.ts';
import { figureColumns, measureSites, writeSitePipes, type SiteFigures } from './measure.ts';
import { caseNear, defaultSiteNo, nextSiteIds, redetect } from './service.ts';

const FIELD_NAMES: Record<SiteImportField, string[]> = {
  siteNo: ['siteno', 'site_no', 'siteid', 'site_id', 'caseid', 'case_id', 'id', 'no', 'code', '编号', '工地编号', '案件编号'],
  name: ['name', 'sitename', 'project', 'projectname', 'title', '名称', '工地名称', '工程名称', '项目名称'],
  buildType: ['buildtype', 'build_type', 'type', 'worktype', 'category', '施工类型', '类型', '工程类型'],
  changeType: ['changetype', 'change_type', 'change', 'interference', 'interferencetype', 'class', '变化类型', '干扰类型'],
  detectedAt: ['detectedat', 'detected_at', 'detectiondate', 'detected', 'date', 'finddate', '发现日期', '检测日期', '发现时间'],
  radiusM: ['radius', 'radiusm', 'radius_m', 'r', '半径'],
  address: ['address', 'location', 'street', '地址', '位置', '施工地址'],
  district: ['district', 'area', 'county', '区县', '行政区', '所属区域'],
  constructionUnit: ['constructionunit', 'contractor', 'builder', 'company', '施工单位'],
  constructionPhone: ['constructionphone', 'phone', 'tel', 'contactphone', '电话', '联系电话'],
  plannedStart: ['plannedstart', 'start', 'startdate', '计划开工', '计划开工日期', '开工日期'],
  plannedEnd: ['plannedend', 'end', 'enddate', '计划完工', '计划完工日期', '完工日期'],
};
export const suggestSiteMapping = (fieldNames: string[]) => suggestMapping(fieldNames, FIELD_NAMES);

/** A calendar day from the ways deliveries write it (2026-03-02, 2026/3/2, 20260302), or null. */
export function dayOf(text: string): string | null {
  const m = /^(\d{4})[-/.]?(\d{1,2})[-/.]?(\d{1,2})(?:[T\s].*)?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? date.toISOString().slice(0, 10) : null;
}

interface SiteRow {
  row: number;
  siteNo: string | null;
  name: string;
  buildType: BuildType;
  geometry: AreaGeometry;
  center: number[];
  radiusM: number | null;
  text: Partial<Record<'changeType' | 'address' | 'district' | 'constructionUnit' | 'constructionPhone', string>>;
  detectedAt: string | null;
  plannedStart: string | null;
  plannedEnd: string | null;
}

/** A site from a feature: a point becomes the circle of its radius, a polygon stays; or the problems. */
function siteFromFeature(feature: SourceFeature, options: SiteImportStart, reproject: Reproject, words: WordReader): { row: SiteRow } | { problems: ImportProblemRecord[] } {
  const value = (target: SiteImportField) => {
    const v = options.mapping[target] ? feature.properties[options.mapping[target]!] : undefined;
    return v === null || v === undefined ? '' : String(v).trim();
  };
  const siteNo = value('siteNo') || null;
  const label = siteNo ?? `#${feature.row}`;
  const problems: ImportProblemRecord[] = [];
  const here = (field: SiteImportField | 'geometry', key: Parameters<typeof problem>[3], params = {}) =>
    problems.push(problem(feature.row, label, field === 'geometry' ? field : `${field} (${options.mapping[field]})`, key, params));

  const radiusText = value('radiusM');
  const radius = radiusText ? Number(radiusText) : options.defaultRadiusM;
  if (!(radius >= 1 && radius <= 2000)) here('radiusM', 'import.numberRange', { min: 1, max: 2000 });
  const typeText = value('buildType');
  const buildType = typeText ? words.read<BuildType>('buildType', typeText, feature.row) : options.buildType;
  if (!buildType) here('buildType', 'construction.buildTypeValue', { value: typeText });
  const day = (field: 'detectedAt' | 'plannedStart' | 'plannedEnd') => {
    const text = value(field);
    if (!text) return null;
    const parsed = dayOf(text);
    if (!parsed) here(field, 'field.date');
    return parsed;
  };
  const detectedAt = day('detectedAt'), plannedStart = day('plannedStart'), plannedEnd = day('plannedEnd');

  const geometry = feature.geometry as Geometry | null;
  let area: AreaGeometry | null = null;
  let center: number[] | null = null;
  if (feature.problem) here('geometry', feature.problem);
  else if (!geometry) here('geometry', 'import.geometryMissing');
  else if (isSinglePoint(geometry)) {
    const point = pointOf(geometry as Geometry & { type: 'Point' | 'MultiPoint' }, reproject);
    if ('key' in point) here('geometry', point.key);
    else if (problems.length === 0) (center = point.position), (area = circlePolygon(center, radius));
  } else if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') {
    const polygon = areaOf(geometry, reproject);
    if ('key' in polygon) here('geometry', polygon.key);
    else (area = polygon.area), (center = placeCentre(area));
  } else here('geometry', 'construction.geometryType', { type: geometry.type });

  if (problems.length || !area || !center) return { problems };
  const text = Object.fromEntries((['changeType', 'address', 'district', 'constructionUnit', 'constructionPhone'] as const).map((f) => [f, value(f) || undefined]));
  return {
    row: {
      row: feature.row,
      siteNo,
      name: value('name') || siteNo || `${feature.row}`,
      buildType: buildType!,
      geometry: area,
      center,
      radiusM: geometry!.type.endsWith('Point') ? radius : null,
      text,
      detectedAt,
      plannedStart,
      plannedEnd,
    },
  };
}

/**
 * Reads the whole delivery; any bad feature fails it with the report and nothing is written. Each
 * site is measured against the pipes. A detection (satellite, patrol) within SITE_MERGE_M of a
 * known case is added to that case (reopening it when closed) instead of making a duplicate; a
 * register's ("report", "manual") sites are each kept with their own number.
 */
function runSiteImport(db: Db, limits: ImportLimits, job: ImportJob, userId: number, options: SiteImportStart, signal: AbortSignal) {
  return runImportJob(db, limits, job, options.srid, async (source, reproject) => {
    const words = await WordReader.load(db, job.enterpriseId);
    const read = await readRegister(db, job, source, signal, words, {
      read: (feature) => siteFromFeature(feature, options, reproject, words),
      unique: { key: (r) => r.row.siteNo, problem: (feature, r) => problem(feature.row, r.row.siteNo, 'siteNo', 'construction.duplicateSite', { siteNo: r.row.siteNo! }) },
    });
    if (!read) return;
    const rows = read.map((r) => r.row);
    const figures = await measureSites(db, job.enterpriseId, rows.map((r) => ({ geometry: r.geometry, buildType: r.buildType })));
    const taken: ImportProblemRecord[] = [];
    await db.transaction(async (tx) => {
      let inserted = 0, updated = 0;
      const ids = await nextSiteIds(tx, rows.length);
      const numbers = rows.map((r) => r.siteNo).filter((n): n is string => n !== null);
      const used = new Set(
        numbers.length
          ? (await tx.select({ siteNo: constructionSites.siteNo }).from(constructionSites).where(and(eq(constructionSites.enterpriseId, job.enterpriseId), inArray(constructionSites.siteNo, numbers)))).map((r) => r.siteNo)
          : [],
      );
      const measured: { id: number; figures: SiteFigures }[] = [];
      // Only detections belong to a case already known near them; a register's sites each keep their number.
      const detections = options.source === 'satellite' || options.source === 'patrol';
      for (const [i, r] of rows.entries()) {
        const known = detections ? await caseNear(tx, job.enterpriseId, r.geometry) : null;
        if (known) {
          await redetect(tx, known, userId, { detectedAt: r.detectedAt, changeType: r.text.changeType, source: options.source, via: job.fileName });
          updated++;
          continue;
        }
        if (r.siteNo && used.has(r.siteNo)) {
          taken.push(problem(r.row, r.siteNo, `siteNo (${options.mapping.siteNo})`, 'construction.siteNoTaken', { siteNo: r.siteNo }));
          continue;
        }
        const id = ids[i];
        await tx.insert(constructionSites).values({
          id,
          enterpriseId: job.enterpriseId,
          projectId: options.projectId ?? null,
          siteNo: r.siteNo ?? defaultSiteNo(id),
          name: r.name,
          buildType: r.buildType,
          geometry: r.geometry,
          centerLon: r.center[0],
          centerLat: r.center[1],
          radiusM: r.radiusM,
          ...bboxColumns(bboxOf(r.geometry)),
          ...r.text,
          source: options.source,
          detectedAt: r.detectedAt,
          plannedStart: r.plannedStart,
          plannedEnd: r.plannedEnd,
          buildState: 'notStarted',
          ...figureColumns(figures[i]),
          createdBy: userId,
        });
        await tx.insert(constructionEvents).values({ siteId: id, userId, action: 'imported', toStatus: 'review', details: { source: options.source, file: job.fileName } });
        measured.push({ id, figures: figures[i] });
        inserted++;
      }
      await writeSitePipes(tx, job.enterpriseId, measured);
      // A number another site already has: nothing of the delivery is written.
      if (taken.length) return tx.rollback();
      await markSucceeded(tx, job.id, rows.length, { inserted, updated, deleted: 0, extent: extentOf(rows.map((r) => bboxOf(r.geometry))) });
    }).catch((error) => {
      if (!taken.length) throw error;
    });
    if (taken.length) await markFailed(db, job, taken.slice(0, MAX_PROBLEMS), taken.length);
  });
}

/** The mapping step's answer for a site delivery: checks it and starts the job in the background. */
export async function startSiteImport(db: Db, limits: ImportLimits, runner: JobRunner, job: ImportJob, userId: number, options: SiteImportStart, onError: (error: unknown) => void) {
  if (options.projectId !== undefined) await assertProject(db, job.enterpriseId, options.projectId);
  assertMappingFields(job, options.mapping);
  await rememberWords(db, job.enterpriseId, options.words);
  await assertNoRunningJob(db, job.enterpriseId, 'sites');
  await markStarted(db, job, options);
  runner.run(job, (signal) => runSiteImport(db, limits, job, userId, options, signal).catch(onError));
}
