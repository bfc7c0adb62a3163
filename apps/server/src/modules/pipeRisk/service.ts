import { and, asc, desc, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AreaGeometry, PipeRiskListQuery, PipeRiskRow, RiskLevel, RiskWeights } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { areaPipes, constructionSites, sitePipes, pipeRiskChanges, pipeRiskRuns, pipeRiskSettings, pipeRisks, pipes, pois, riskAreas, settlementDatasets, settlementResults, weatherWarnings } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { pointInArea } from '../../geo/geometry.ts';
import { EXPORT_PAGE, keysetPages } from '../exports/features.ts';
import { pipeIdContains, pipeInsideArea, pipeWithRowId } from '../pipelines/queries.ts';
import { projectArea } from '../projects/service.ts';
import { SHALLOW_M } from '../weather/touches.ts';
import { sitesNearPipe } from './sensitive.ts';

/** R's range for each level: a level filter is a range of the list's index. */
const SCORE_RANGE: Record<RiskLevel, [number, number]> = { I: [20, 25], II: [9, 16], III: [4, 8], IV: [1, 3] };

const ROW = {
  pipeRowId: pipeRisks.pipeRowId,
  pipeId: pipes.pipeId,
  networkType: pipes.networkType,
  material: pipes.material,
  diameterMm: pipes.diameterMm,
  installYear: pipes.installYear,
  lengthM: pipes.lengthM,
  ageMaterial: pipeRisks.ageMaterial,
  diameter: pipeRisks.diameter,
  leaks: pipeRisks.leaks,
  settlement: pipeRisks.settlement,
  construction: pipeRisks.construction,
  riskAreas: pipeRisks.riskAreas,
  weather: pipeRisks.weather,
  medium: pipeRisks.medium,
  size: pipeRisks.size,
  sensitive: pipeRisks.sensitive,
  likelihood: pipeRisks.likelihood,
  consequence: pipeRisks.consequence,
  score: pipeRisks.score,
  riskIndex: pipeRisks.riskIndex,
  percentile: pipeRisks.percentile,
  level: pipeRisks.level,
  masked: pipeRisks.masked,
  assessedOn: pipeRisks.assessedOn,
  since: pipeRisks.since,
};
type Selected = Omit<PipeRiskRow, 'factors'> & PipeRiskRow['factors'];
/** The list's order: R, then the index within R (the score index's order), then the row. */
const WORST_FIRST = [desc(pipeRisks.score), desc(pipeRisks.riskIndex), desc(pipeRisks.pipeRowId)];

/** A selected row with its factor scores gathered. */
function toRow(r: Selected): PipeRiskRow {
  const { ageMaterial, diameter, leaks, settlement, construction, riskAreas: areas, weather, medium, size, sensitive, ...rest } = r;
  return { ...rest, factors: { ageMaterial, diameter, leaks, settlement, construction, riskAreas: areas, weather, medium, size, sensitive } };
}

async function conditions(db: Db, enterpriseId: number, q: Omit<PipeRiskListQuery, 'page' | 'pageSize'>): Promise<SQL[]> {
  const where: SQL[] = [eq(pipeRisks.enterpriseId, enterpriseId)];
  if (q.level) where.push(gte(pipeRisks.score, SCORE_RANGE[q.level][0]), lte(pipeRisks.score, SCORE_RANGE[q.level][1]));
  if (q.networkType) where.push(eq(pipes.networkType, q.networkType));
  if (q.masked) where.push(eq(pipeRisks.masked, q.masked === 'true'));
  if (q.keyword) where.push(pipeIdContains(q.keyword));
  if (q.projectId !== undefined) where.push(pipeInsideArea(await projectArea(db, enterpriseId, q.projectId)));
  return where;
}

/** The latest finished assessment's figures (kept with the run, so no list counts a million rows). */
export async function latestRun(db: Db, enterpriseId: number) {
  const [run] = await db
    .select()
    .from(pipeRiskRuns)
    .where(and(eq(pipeRiskRuns.enterpriseId, enterpriseId), eq(pipeRiskRuns.status, 'succeeded')))
    .orderBy(desc(pipeRiskRuns.startedAt), desc(pipeRiskRuns.id))
    .limit(1);
  return run ?? null;
}

/**
 * Assessed segments, worst first (R, the index within R, then the row), with filters. The total of a list filtered by
 * level and network at most is read from the latest run's figures; other filters are counted.
 */
export async function listPipeRisks(db: Db, enterpriseId: number, q: PipeRiskListQuery) {
  const where = await conditions(db, enterpriseId, q);
  const [rows, total] = await Promise.all([
    db
      .select(ROW)
      .from(pipeRisks)
      .innerJoin(pipes, pipeWithRowId(pipeRisks.pipeRowId, enterpriseId))
      .where(and(...where))
      .orderBy(...WORST_FIRST)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    countOf(db, enterpriseId, q, where),
  ]);
  return { list: rows.map(toRow), total, page: q.page, pageSize: q.pageSize };
}

async function countOf(db: Db, enterpriseId: number, q: PipeRiskListQuery, where: SQL[]) {
  if (!q.masked && !q.keyword && q.projectId === undefined) {
    const run = await latestRun(db, enterpriseId);
    if (run?.levels && run.byNetwork) {
      const levels = q.networkType ? (run.byNetwork[q.networkType] ?? { I: 0, II: 0, III: 0, IV: 0 }) : run.levels;
      return q.level ? levels[q.level] : Object.values(levels).reduce((a, b) => a + b, 0);
    }
  }
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(pipeRisks).innerJoin(pipes, pipeWithRowId(pipeRisks.pipeRowId, enterpriseId)).where(and(...where));
  return Number(count);
}

/** The list's rows a page at a time by the same order, for exports. */
export async function pipeRiskPages(db: Db, enterpriseId: number, q: Omit<PipeRiskListQuery, 'page' | 'pageSize'>) {
  const where = await conditions(db, enterpriseId, q);
  type Key = { score: number; riskIndex: number; id: number };
  const page = async (after: Key | null) => {
    const rows = await db
      .select({ ...ROW, geometry: pipes.geometry })
      .from(pipeRisks)
      .innerJoin(pipes, pipeWithRowId(pipeRisks.pipeRowId, enterpriseId))
      .where(and(...where, after ? sql`(${pipeRisks.score}, ${pipeRisks.riskIndex}, ${pipeRisks.pipeRowId}) < (${after.score}, ${after.riskIndex}::real, ${after.id})` : undefined))
      .orderBy(...WORST_FIRST)
      .limit(EXPORT_PAGE);
    return rows.map(({ geometry, ...r }) => ({ row: toRow(r), geometry }));
  };
  return keysetPages(page, (r): Key => ({ score: r.row.score, riskIndex: r.row.riskIndex, id: r.row.pipeRowId }));
}

/**
 * One segment's assessment explained: each factor's score with what set it (the leaks found on
 * it, the settlement judgement, the works and areas near it, the warnings over it) and the
 * changes of its level over time.
 */
export async function explainPipeRisk(db: Db, enterpriseId: number, pipeRowId: number) {
  const [row] = await db
    .select({ ...ROW, geometry: pipes.geometry, depthM: pipes.depthM, pressureClass: pipes.pressureClass, minx: pipes.minx, miny: pipes.miny, maxx: pipes.maxx, maxy: pipes.maxy })
    .from(pipeRisks)
    .innerJoin(pipes, pipeWithRowId(pipeRisks.pipeRowId, enterpriseId))
    .where(and(eq(pipeRisks.pipeRowId, pipeRowId), eq(pipeRisks.enterpriseId, enterpriseId)));
  if (!row) throw notFound('notFound.pipeRisk');
  const now = new Date();
  const [leaks, settlement, works, areas, warnings, history, sensitive] = await Promise.all([
    db.select({ id: pois.id, poiNo: pois.poiNo, status: pois.status }).from(pois).where(and(eq(pois.enterpriseId, enterpriseId), sql`${pois.pipes} -> 'pipeIds' ? ${row.pipeId}`)).orderBy(asc(pois.id)).limit(20),
    queryRows<{ dataset_id: number; name: string; level: number; min_velocity: number }>(
      db,
      sql`select d.id as dataset_id, d.name, r.level, r.min_velocity from ${settlementResults} r join ${settlementDatasets} d on d.id = r.dataset_id and r.run = d.analysis_run
          where d.enterprise_id = ${enterpriseId} and r.pipe_row_id = ${pipeRowId} order by r.level desc`,
    ),
    db
      .select({ id: constructionSites.id, siteNo: constructionSites.siteNo, name: constructionSites.name, criticality: constructionSites.criticality, status: constructionSites.status })
      .from(constructionSites)
      .where(
        and(
          eq(constructionSites.enterpriseId, enterpriseId),
          sql`${constructionSites.status} not in ('closed', 'noThreat')`,
          or(
            sql`exists (select 1 from ${sitePipes} sp where sp.site_id = ${constructionSites.id} and sp.enterprise_id = ${enterpriseId} and sp.pipe_row_id = ${pipeRowId})`,
            sql`(${constructionSites.measure} -> 'gas' -> 'pipe' ->> 'pipeRowId')::bigint = ${pipeRowId}`,
          ),
        ),
      )
      .orderBy(asc(constructionSites.id)),
    db
      .select({ id: riskAreas.id, name: riskAreas.name, kind: riskAreas.kind, level: riskAreas.level })
      .from(riskAreas)
      .innerJoin(areaPipes, and(eq(areaPipes.ownerId, riskAreas.id), eq(areaPipes.enterpriseId, enterpriseId), eq(areaPipes.pipeRowId, pipeRowId)))
      .where(and(eq(riskAreas.enterpriseId, enterpriseId), sql`${riskAreas.status} <> 'remediated'`))
      .orderBy(asc(riskAreas.id)),
    db
      .select({ id: weatherWarnings.id, type: weatherWarnings.type, level: weatherWarnings.level, source: weatherWarnings.source, area: weatherWarnings.area, end: weatherWarnings.end })
      .from(weatherWarnings)
      .where(and(eq(weatherWarnings.enterpriseId, enterpriseId), lte(weatherWarnings.start, now), gte(weatherWarnings.end, now), isNull(weatherWarnings.cancelledAt))),
    db.select({ changedOn: pipeRiskChanges.changedOn, fromLevel: pipeRiskChanges.fromLevel, toLevel: pipeRiskChanges.toLevel }).from(pipeRiskChanges).where(and(eq(pipeRiskChanges.pipeRowId, pipeRowId), eq(pipeRiskChanges.enterpriseId, enterpriseId))).orderBy(desc(pipeRiskChanges.changedOn), desc(pipeRiskChanges.id)),
    sitesNearPipe(db, enterpriseId, pipeRowId),
  ]);
  const centre = [(row.minx + row.maxx) / 2, (row.miny + row.maxy) / 2];
  const over = warnings.filter(
    (w) => pointInArea(centre, w.area as AreaGeometry) && ((w.type === 'rainstorm' && row.networkType === 'drainage') || (w.type === 'coldWave' && row.networkType === 'water' && row.depthM !== null && row.depthM < SHALLOW_M)),
  );
  const { geometry, depthM, pressureClass, minx, miny, maxx, maxy, ...rest } = row;
  void minx, miny, maxx, maxy;
  return {
    ...toRow(rest),
    geometry,
    depthM,
    pressureClass,
    sources: {
      leaks,
      settlement: settlement.map((s) => ({ datasetId: s.dataset_id, name: s.name, level: Number(s.level), minVelocity: Number(s.min_velocity) })),
      construction: works,
      riskAreas: areas,
      weather: over.map(({ area, ...w }) => w),
      sensitive,
    },
    history,
  };
}

export async function saveRiskWeights(db: Db, enterpriseId: number, weights: RiskWeights) {
  await db.insert(pipeRiskSettings).values({ enterpriseId, weights }).onConflictDoUpdate({ target: pipeRiskSettings.enterpriseId, set: { weights, updatedAt: new Date() } });
}
