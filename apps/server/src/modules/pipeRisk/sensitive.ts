import type { Geometry } from 'geojson';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { SENSITIVE_BANDS_M, SENSITIVE_KINDS, type SensitiveImportField, type SensitiveImportStart, type SensitiveKind, type SensitiveSite } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { sensitiveSites, type ImportProblemRecord } from '../../db/schema.ts';
import type { Reproject } from '../imports/crs.ts';
import { isSinglePoint, pointOf } from '../imports/areas.ts';
import { assertNoRunningJob, extentOf, markFailed, markStarted, markSucceeded, MAX_PROBLEMS, problem, reportProgress, runImportJob, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import { JobInterrupted, type JobRunner } from '../imports/runner.ts';
import type { SourceFeature } from '../imports/sources/index.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';

/** How far a sensitive site is looked for around a segment (the widest band). */
export const SENSITIVE_REACH_M = SENSITIVE_BANDS_M[SENSITIVE_BANDS_M.length - 1];
/** Metres per degree of latitude, and of longitude at the equator (the bands need metres, not millimetres). */
const M_LAT = 110_574;
const M_LON = 111_320;

/**
 * Metres from a site `k` (lon, lat) to the nearest point of pipe `p`'s line, in SQL: each pair of
 * consecutive vertices is a segment on a plane through the site (scaled by the cosine of its
 * latitude), the foot of the perpendicular clamped to the segment. Within the 500 m looked at,
 * this is within a few metres of the ellipsoidal distance, well inside the 50-500 m bands.
 */
export function siteDistanceSql(p: string, k: string): SQL {
  const P = sql.raw(p);
  const K = sql.raw(k);
  return sql`(select min(sqrt(power(ax + t * (bx - ax), 2) + power(ay + t * (by - ay), 2))) from (
      select ax, ay, bx, by, greatest(0, least(1, case when (bx - ax) ^ 2 + (by - ay) ^ 2 = 0 then 0 else -(ax * (bx - ax) + ay * (by - ay)) / ((bx - ax) ^ 2 + (by - ay) ^ 2) end)) as t
      from (
        select ((a.c ->> 0)::float8 - ${K}.lon) * ${M_LON} * cos(radians(${K}.lat)) as ax, ((a.c ->> 1)::float8 - ${K}.lat) * ${M_LAT} as ay,
               ((b.c ->> 0)::float8 - ${K}.lon) * ${M_LON} * cos(radians(${K}.lat)) as bx, ((b.c ->> 1)::float8 - ${K}.lat) * ${M_LAT} as by
        from jsonb_array_elements(case when ${P}.geometry ->> 'type' = 'LineString' then jsonb_build_array(${P}.geometry -> 'coordinates') else ${P}.geometry -> 'coordinates' end) as line(l)
        cross join lateral jsonb_array_elements(line.l) with ordinality as a(c, i)
        join lateral jsonb_array_elements(line.l) with ordinality as b(c, j) on b.j = a.i + 1) v) s)`;
}

/** The site's box grown by the reach, for the GiST index of the pipes. */
const reachBox = (k: string) => {
  const K = sql.raw(k);
  return sql`box(point(${K}.lon - ${SENSITIVE_REACH_M} / (${M_LON} * cos(radians(${K}.lat))), ${K}.lat - ${SENSITIVE_REACH_M}::float8 / ${M_LAT}),
                 point(${K}.lon + ${SENSITIVE_REACH_M} / (${M_LON} * cos(radians(${K}.lat))), ${K}.lat + ${SENSITIVE_REACH_M}::float8 / ${M_LAT}))`;
};

/** Per segment within reach of a sensitive site (of those `sites` picks): the metres to the nearest one (the assessment's factor table). */
export const nearestSiteSql = (enterpriseId: number, sites: SQL = sql`true`) => sql`
  select pipe_row_id, min(m) as m from (
    select p.id as pipe_row_id, ${siteDistanceSql('p', 'k')} as m
    from sensitive_sites k
    -- Per site, the pipes in its reach by the GiST box index (the sites are few, the pipes many);
    -- OFFSET 0 keeps the planner from flattening, so each distance is measured once.
    cross join lateral (select id, geometry from pipes where enterprise_id = ${enterpriseId} and box(point(minx, miny), point(maxx, maxy)) && ${reachBox('k')} offset 0) p
    where k.enterprise_id = ${enterpriseId} and ${sites}
    offset 0) d
  where m <= ${SENSITIVE_REACH_M} group by pipe_row_id`;

/** The 1-5 score from the metres to the nearest site (null: none within reach). */
export const sensitiveScoreSql = (metres: SQL) =>
  sql`case ${sql.join(SENSITIVE_BANDS_M.map((m, i) => sql`when ${metres} <= ${sql.raw(String(m))} then ${sql.raw(String(5 - i))}`), sql` `)} else 1 end`;

/** The sites within reach of one segment, nearest first, for its explanation. */
export async function sitesNearPipe(db: Db, enterpriseId: number, pipeRowId: number) {
  const { rows } = (await db.execute(sql`
    select k.id, k.name, k.kind, round(${siteDistanceSql('p', 'k')}::numeric, 1)::float8 as distance_m
    from pipes p join sensitive_sites k on k.enterprise_id = ${enterpriseId} and box(point(p.minx, p.miny), point(p.maxx, p.maxy)) && ${reachBox('k')}
    where p.id = ${pipeRowId} and p.enterprise_id = ${enterpriseId}
    order by 4 limit 20`)) as unknown as { rows: { id: number; name: string; kind: SensitiveKind; distance_m: number }[] };
  return rows.filter((r) => r.distance_m <= SENSITIVE_REACH_M).map((r) => ({ id: r.id, name: r.name, kind: r.kind, distanceM: r.distance_m }));
}

export async function listSensitiveSites(db: Db, enterpriseId: number): Promise<SensitiveSite[]> {
  return db
    .select({ id: sensitiveSites.id, name: sensitiveSites.name, kind: sensitiveSites.kind, lon: sensitiveSites.lon, lat: sensitiveSites.lat })
    .from(sensitiveSites)
    .where(eq(sensitiveSites.enterpriseId, enterpriseId))
    .orderBy(asc(sensitiveSites.kind), asc(sensitiveSites.name))
    .limit(5000);
}

const FIELD_NAMES: Record<SensitiveImportField, string[]> = {
  name: ['name', 'title', 'site', '名称', '单位名称', '场所名称'],
  kind: ['kind', 'type', 'category', 'amenity', '类型', '类别', '场所类型'],
};
export const suggestSensitiveMapping = (fieldNames: string[]) => suggestMapping(fieldNames, FIELD_NAMES);

const KIND_NAMES: Record<string, SensitiveKind> = {
  ...Object.fromEntries(SENSITIVE_KINDS.map((k) => [k, k])),
  学校: 'school', 中学: 'school', 小学: 'school', 大学: 'school', university: 'school', college: 'school',
  幼儿园: 'kindergarten', 托儿所: 'kindergarten',
  医院: 'hospital', 卫生院: 'hospital', clinic: 'hospital',
  车站: 'station', 地铁站: 'station', 火车站: 'station', 汽车站: 'station', bus_station: 'station', train_station: 'station', subway: 'station',
  商场: 'market', 市场: 'market', 超市: 'market', marketplace: 'market', mall: 'market',
  政府: 'government', 机关: 'government', townhall: 'government',
  其他: 'other',
};

/** A site from a feature, or the problems. */
function siteFromFeature(feature: SourceFeature, options: SensitiveImportStart, reproject: Reproject): { row: { name: string; kind: SensitiveKind; lon: number; lat: number } } | { problems: ImportProblemRecord[] } {
  const value = (target: SensitiveImportField) => {
    const v = options.mapping[target] ? feature.properties[options.mapping[target]!] : undefined;
    return v === null || v === undefined ? '' : String(v).trim();
  };
  const name = value('name');
  const problems: ImportProblemRecord[] = [];
  const here = (field: SensitiveImportField | 'geometry', key: Parameters<typeof problem>[3], params = {}) =>
    problems.push(problem(feature.row, name || null, field === 'geometry' ? field : `${field} (${options.mapping[field]})`, key, params));
  if (!name) here('name', 'field.required');
  const kindText = value('kind');
  const kind = kindText ? KIND_NAMES[kindText.toLowerCase().replace(/\s/g, '')] : options.kind;
  if (!kind) here('kind', 'pipeRisk.sensitiveKind', { value: kindText });
  const geometry = feature.geometry as Geometry | null;
  let position: number[] | null = null;
  if (feature.problem) here('geometry', feature.problem);
  else if (!geometry) here('geometry', 'import.geometryMissing');
  else if (!isSinglePoint(geometry)) here('geometry', 'pipeRisk.sensitivePoint', { type: geometry.type });
  else {
    const point = pointOf(geometry as Geometry & { type: 'Point' | 'MultiPoint' }, reproject);
    if ('key' in point) here('geometry', point.key);
    else position = point.position;
  }
  if (problems.length || !position) return { problems };
  return { row: { name, kind: kind!, lon: position[0], lat: position[1] } };
}

/** Reads the whole layer; any bad feature fails it with the report and nothing is written; a good one replaces the layer. */
function runSensitiveImport(db: Db, limits: ImportLimits, job: ImportJob, options: SensitiveImportStart, signal: AbortSignal) {
  return runImportJob(db, limits, job, options.srid, async (source, reproject) => {
    const rows: { name: string; kind: SensitiveKind; lon: number; lat: number }[] = [];
    const problems: ImportProblemRecord[] = [];
    let problemCount = 0;
    for await (const feature of source.features()) {
      const result = siteFromFeature(feature, options, reproject);
      if ('problems' in result) {
        problemCount += result.problems.length;
        if (problems.length < MAX_PROBLEMS) problems.push(...result.problems);
      } else if (problemCount === 0) rows.push(result.row);
      if (signal.aborted) throw new JobInterrupted();
    }
    if (rows.length + problemCount === 0) problems.push(problem(null, null, null, 'import.noFeatures')), problemCount++;
    if (problemCount > 0) return await markFailed(db, job, problems, problemCount);
    await reportProgress(db, job.id, { status: 'writing', progress: 1, rowsRead: rows.length });
    await db.transaction(async (tx) => {
      const removed = await tx.delete(sensitiveSites).where(eq(sensitiveSites.enterpriseId, job.enterpriseId)).returning({ id: sensitiveSites.id });
      for (let i = 0; i < rows.length; i += 1000) {
        await tx.insert(sensitiveSites).values(rows.slice(i, i + 1000).map((r) => ({ enterpriseId: job.enterpriseId, ...r, minx: r.lon, miny: r.lat, maxx: r.lon, maxy: r.lat })));
      }
      await markSucceeded(tx, job.id, rows.length, { inserted: rows.length, updated: 0, deleted: removed.length, extent: extentOf(rows.map((r) => [r.lon, r.lat, r.lon, r.lat])) });
    });
  });
}

export async function startSensitiveImport(db: Db, limits: ImportLimits, runner: JobRunner, job: ImportJob, options: SensitiveImportStart, onError: (error: unknown) => void) {
  assertMappingFields(job, options.mapping);
  await assertNoRunningJob(db, job.enterpriseId, 'sensitiveSites');
  await markStarted(db, job, options);
  runner.run(job, (signal) => runSensitiveImport(db, limits, job, options, signal).catch(onError));
}
