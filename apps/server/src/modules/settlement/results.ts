import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Geometry } from 'geojson';
import { EXACT_LIST_LIMIT, SETTLEMENT_LEVELS, type LineGeometry, type SettlementLevel, type SettlementResult, type SettlementResultDetail, type SettlementResultQuery } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { pipes, settlementResults } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { EXPORT_PAGE, exportFeatures, keysetPages, type ExportFormat } from '../exports/features.ts';
import { pipeIdContains, pipeInsideArea, pipeWithRowId } from '../pipelines/queries.ts';
import { projectArea } from '../projects/service.ts';
import type { DatasetRow } from './service.ts';

const columns = {
  pipeRowId: settlementResults.pipeRowId,
  pipeId: pipes.pipeId,
  networkType: pipes.networkType,
  diameterMm: pipes.diameterMm,
  material: pipes.material,
  lengthM: pipes.lengthM,
  pointCount: settlementResults.pointCount,
  meanVelocity: settlementResults.meanVelocity,
  minVelocity: settlementResults.minVelocity,
  maxCumulative: settlementResults.maxCumulative,
  differential: settlementResults.differential,
  level: settlementResults.level,
  crossed: settlementResults.crossed,
};
type Row = Omit<SettlementResult, 'level' | 'asOf'> & { level: number };

const view = (dataset: DatasetRow) => (r: Row): SettlementResult => ({
  ...r,
  lengthM: Math.round(r.lengthM * 10) / 10,
  level: SETTLEMENT_LEVELS[r.level] as SettlementLevel,
  asOf: dataset.dates[dataset.dates.length - 1],
});

type Filters = Omit<SettlementResultQuery, 'page' | 'pageSize'>;

/** The filters as SQL; a project narrows to the segments inside its area (checked to be the enterprise's). */
async function conditions(db: Db, dataset: DatasetRow, query: Filters): Promise<SQL> {
  const where = [eq(settlementResults.datasetId, dataset.id), eq(settlementResults.run, dataset.analysisRun)];
  if (query.projectId) where.push(pipeInsideArea(await projectArea(db, dataset.enterpriseId, query.projectId)));
  if (query.level) where.push(eq(settlementResults.level, SETTLEMENT_LEVELS.indexOf(query.level)));
  if (query.networkType) where.push(eq(pipes.networkType, query.networkType));
  if (query.keyword) where.push(pipeIdContains(query.keyword));
  return and(...where)!;
}

const worstFirst = [desc(settlementResults.level), asc(settlementResults.minVelocity), asc(settlementResults.pipeRowId)];

/**
 * The segments on moving ground, worst first (level, then lowest velocity), a page at a time. The
 * total is the last analysis's kept count when nothing narrows the list, else counted up to
 * EXACT_LIST_LIMIT + 1 ("more than"): no request counts a million results.
 */
export async function listResults(db: Db, dataset: DatasetRow, query: SettlementResultQuery) {
  const where = await conditions(db, dataset, query);
  const narrowed = query.level || query.networkType || query.keyword || query.projectId;
  const [rows, total] = await Promise.all([
    db.select(columns).from(settlementResults).innerJoin(pipes, pipeWithRowId(settlementResults.pipeRowId, dataset.enterpriseId)).where(where).orderBy(...worstFirst).limit(query.pageSize).offset((query.page - 1) * query.pageSize),
    narrowed || !dataset.analysisSummary
      ? queryRows<{ count: number }>(db, sql`select count(*)::int as count from (select 1 from ${settlementResults} inner join ${pipes} on ${pipeWithRowId(settlementResults.pipeRowId, dataset.enterpriseId)} where ${where} limit ${EXACT_LIST_LIMIT + 1}) matching`).then(([r]) => Number(r.count))
      : dataset.analysisSummary.segments,
  ]);
  return { list: rows.map(view(dataset)), total: Math.min(total, narrowed ? EXACT_LIST_LIMIT : total), totalExact: !narrowed || total <= EXACT_LIST_LIMIT, page: query.page, pageSize: query.pageSize };
}

/** One segment's result with its line, profile and nearby points. */
export async function getResult(db: Db, dataset: DatasetRow, pipeRowId: number): Promise<SettlementResultDetail> {
  const [row] = await db
    .select({ ...columns, geometry: pipes.geometry, profile: settlementResults.profile, points: settlementResults.points })
    .from(settlementResults)
    .innerJoin(pipes, pipeWithRowId(settlementResults.pipeRowId, dataset.enterpriseId))
    .where(and(eq(settlementResults.datasetId, dataset.id), eq(settlementResults.run, dataset.analysisRun), eq(settlementResults.pipeRowId, pipeRowId)));
  if (!row) throw notFound('notFound.settlementResult');
  const { geometry, profile, points, ...rest } = row;
  return { ...view(dataset)(rest), geometry: geometry as LineGeometry, profile, points };
}

/** Segments at warning or alarm with their lines, for the map (worst first, at most `limit`). */
export async function flaggedSegments(db: Db, dataset: DatasetRow, limit = 5000) {
  return db
    .select({ pipeRowId: settlementResults.pipeRowId, pipeId: pipes.pipeId, level: settlementResults.level, geometry: pipes.geometry })
    .from(settlementResults)
    .innerJoin(pipes, pipeWithRowId(settlementResults.pipeRowId, dataset.enterpriseId))
    .where(and(eq(settlementResults.datasetId, dataset.id), eq(settlementResults.run, dataset.analysisRun), sql`${settlementResults.level} > 0`))
    .orderBy(...worstFirst)
    .limit(limit)
    .then((rows) => rows.map((r) => ({ ...r, level: SETTLEMENT_LEVELS[r.level] as SettlementLevel, geometry: r.geometry as LineGeometry })));
}

const EXPORT_FIELDS = ['pipeId', 'networkType', 'diameterMm', 'material', 'lengthM', 'level', 'pointCount', 'meanVelocity', 'minVelocity', 'maxCumulative', 'differential', 'crossed', 'asOf'] as const;

/** The filtered results as a file, with each crossing written out ("velocity alarm -12.3 <= -10"). */
type ResultKey = { level: number; minVelocity: number; pipeRowId: number };

/** A page of results with their lines for an export: worst first, after `after`. */
function resultExportPage(db: Db, enterpriseId: number, where: SQL, after: ResultKey | null) {
  return db
    .select({ ...columns, geometry: pipes.geometry })
    .from(settlementResults)
    .innerJoin(pipes, pipeWithRowId(settlementResults.pipeRowId, enterpriseId))
    // Worst first is level descending: the key compares the level negated.
    .where(after ? and(where, sql`(-${settlementResults.level}, ${settlementResults.minVelocity}, ${settlementResults.pipeRowId}) > (${-after.level}, ${after.minVelocity}, ${after.pipeRowId})`) : where)
    .orderBy(...worstFirst)
    .limit(EXPORT_PAGE);
}

/** The (filtered) results as a file, streamed a page at a time (the filters are checked first). */
export async function exportResults(db: Db, dataset: DatasetRow, query: Filters, format: ExportFormat, counted: <T>(pages: AsyncIterable<T[]>) => AsyncIterable<T[]> = (pages) => pages) {
  const where = await conditions(db, dataset, query);
  const pages = keysetPages((after: ResultKey | null) => resultExportPage(db, dataset.enterpriseId, where, after), (r): ResultKey => ({ level: r.level, minVelocity: r.minVelocity, pipeRowId: r.pipeRowId }));
  return exportFeatures(
    counted(pages),
    ({ geometry, ...r }) => {
      const result = view(dataset)(r);
      return {
        id: result.pipeId,
        geometry: geometry as Geometry,
        properties: { ...result, crossed: result.crossed.map((c) => `${c.metric} ${c.level} ${c.value} (${c.metric === 'differential' ? '>=' : '<='} ${c.threshold})`).join('; ') },
      };
    },
    EXPORT_FIELDS,
    'settlement',
    format,
  );
}
