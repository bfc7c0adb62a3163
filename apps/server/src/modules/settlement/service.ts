import { and, desc, eq, sql } from 'drizzle-orm';
import {
  DEFAULT_SETTLEMENT_BANDS,
  DEFAULT_SETTLEMENT_THRESHOLDS,
  SETTLEMENT_CELL_LEVELS_M,
  SETTLEMENT_POINT_RESOLUTION_M,
  type AreaGeometry,
  type SettlementAverage,
  type SettlementBands,
  type SettlementDataset,
  type SettlementPoint,
  type SettlementThresholds,
  type SettlementWindow,
  type SettlementWindowQuery,
} from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { settlementBands, settlementCells, settlementDatasets, settlementPoints, settlementThresholds } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { bboxOf } from '../../geo/geometry.ts';
import { boxSql, pointInAreaSql } from '../../geo/sql.ts';
import { cellDegrees, dropPointTable } from './points.ts';

export type DatasetRow = typeof settlementDatasets.$inferSelect;

/** Points sent for one map window at most; past it the answer says "zoom in". */
export const MAX_WINDOW_POINTS = 60_000;
/** Points averaged for a drawn area at most. */
const MAX_AVERAGE_POINTS = 200_000;

export function datasetView(d: DatasetRow): SettlementDataset {
  return {
    id: d.id,
    name: d.name,
    projectId: d.projectId,
    provider: d.provider,
    sensor: d.sensor,
    track: d.track,
    orbit: d.orbit,
    direction: d.direction,
    dates: d.dates,
    referenceDate: d.dates[0],
    referencePoint: d.referencePoint,
    pointCount: d.pointCount,
    velocity: { min: d.velocityMin, max: d.velocityMax, mean: d.velocityMean, std: d.velocityStd },
    bbox: [d.minx, d.miny, d.maxx, d.maxy],
    fileName: d.fileName,
    createdAt: d.createdAt.toISOString(),
    analysis: { status: d.analysisStatus, analysedAt: d.analysedAt?.toISOString() ?? null, summary: d.analysisSummary },
  };
}

/** The enterprise's complete datasets, newest first (an import in progress is not one yet). */
export async function listDatasets(db: Db, enterpriseId: number): Promise<DatasetRow[]> {
  return db
    .select()
    .from(settlementDatasets)
    .where(and(eq(settlementDatasets.enterpriseId, enterpriseId), eq(settlementDatasets.status, 'ready')))
    .orderBy(desc(settlementDatasets.id));
}

export async function getDataset(db: Db, enterpriseId: number, id: number): Promise<DatasetRow> {
  const [row] = await db
    .select()
    .from(settlementDatasets)
    .where(and(eq(settlementDatasets.id, id), eq(settlementDatasets.enterpriseId, enterpriseId), eq(settlementDatasets.status, 'ready')));
  if (!row) throw notFound('notFound.dataset');
  return row;
}

/** Deletes the dataset with all of it: its point table, cells and results. */
export async function deleteDataset(db: Db, enterpriseId: number, id: number) {
  await getDataset(db, enterpriseId, id);
  await db.transaction(async (tx) => {
    await dropPointTable(tx as unknown as Db, id);
    await tx.delete(settlementDatasets).where(eq(settlementDatasets.id, id));
  });
}

export async function getBands(db: Db, enterpriseId: number): Promise<SettlementBands> {
  const [row] = await db.select({ breaks: settlementBands.breaks, colors: settlementBands.colors }).from(settlementBands).where(eq(settlementBands.enterpriseId, enterpriseId));
  return row ?? DEFAULT_SETTLEMENT_BANDS;
}

export async function saveBands(db: Db, enterpriseId: number, bands: SettlementBands): Promise<SettlementBands> {
  await db
    .insert(settlementBands)
    .values({ enterpriseId, ...bands })
    .onConflictDoUpdate({ target: settlementBands.enterpriseId, set: { breaks: bands.breaks, colors: bands.colors, updatedAt: new Date() } });
  return bands;
}

/** A project's thresholds (project 0: the enterprise's own), else the enterprise's, else the defaults. */
export async function getThresholds(db: Db, enterpriseId: number, projectId: number | null): Promise<SettlementThresholds & { projectId: number; own: boolean }> {
  const rows = await db
    .select()
    .from(settlementThresholds)
    .where(and(eq(settlementThresholds.enterpriseId, enterpriseId), sql`${settlementThresholds.projectId} in (0, ${projectId ?? 0})`));
  const row = rows.find((r) => r.projectId === (projectId ?? 0)) ?? rows.find((r) => r.projectId === 0);
  const values = row ? { velocityAlarm: row.velocityAlarm, cumulativeAlarm: row.cumulativeAlarm, differentialAlarm: row.differentialAlarm, warnRatio: row.warnRatio, bufferM: row.bufferM } : DEFAULT_SETTLEMENT_THRESHOLDS;
  return { ...values, projectId: projectId ?? 0, own: row?.projectId === (projectId ?? 0) };
}

export async function saveThresholds(db: Db, enterpriseId: number, projectId: number, values: SettlementThresholds) {
  await db
    .insert(settlementThresholds)
    .values({ enterpriseId, projectId, ...values })
    .onConflictDoUpdate({ target: [settlementThresholds.enterpriseId, settlementThresholds.projectId], set: { ...values, updatedAt: new Date() } });
  return getThresholds(db, enterpriseId, projectId);
}

/** The cell size for a view resolution (metres per pixel): cells of at least 4 pixels, null for single points. */
export function cellSizeFor(resolution: number): number | null {
  if (resolution <= SETTLEMENT_POINT_RESOLUTION_M) return null;
  return SETTLEMENT_CELL_LEVELS_M.find((size) => size / resolution >= 4) ?? SETTLEMENT_CELL_LEVELS_M[SETTLEMENT_CELL_LEVELS_M.length - 1];
}

/** A value to `digits` decimals, as the API sends measures (no float noise in the JSON). */
export const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function assertDateIndexes(dataset: DatasetRow, query: SettlementWindowQuery) {
  const max = dataset.dates.length - 1;
  if ((query.from !== undefined && query.from > max) || (query.to !== undefined && query.to > max) || (query.from === undefined) !== (query.to === undefined)) {
    throw badRequest('settlement.dateIndex', { max });
  }
}

/**
 * What the map draws in a window: single points (velocity, or displacement between two dates)
 * when zoomed in, else the kept grid cells' mean velocity. Both are index reads of the window.
 */
export async function pointWindow(db: Db, dataset: DatasetRow, query: SettlementWindowQuery, limit = MAX_WINDOW_POINTS): Promise<SettlementWindow> {
  assertDateIndexes(dataset, query);
  const [minx, miny, maxx, maxy] = query.bbox;
  const cellM = cellSizeFor(query.resolution);
  if (cellM !== null) {
    const [dLon, dLat] = cellDegrees(cellM, [dataset.minx, dataset.miny, dataset.maxx, dataset.maxy]);
    const where = [
      eq(settlementCells.datasetId, dataset.id),
      eq(settlementCells.sizeM, cellM),
      sql`${settlementCells.cx} between ${Math.floor(minx / dLon)} and ${Math.floor(maxx / dLon)}`,
      sql`${settlementCells.cy} between ${Math.floor(miny / dLat)} and ${Math.floor(maxy / dLat)}`,
    ];
    if (query.velocityMin !== undefined) where.push(sql`${settlementCells.meanVelocity} >= ${query.velocityMin}`);
    if (query.velocityMax !== undefined) where.push(sql`${settlementCells.meanVelocity} <= ${query.velocityMax}`);
    const cells = await db.select({ lon: settlementCells.lon, lat: settlementCells.lat, value: settlementCells.meanVelocity, count: settlementCells.count }).from(settlementCells).where(and(...where));
    return {
      kind: 'cells',
      cellM,
      truncated: false,
      every: 1,
      ids: [],
      lon: cells.map((c) => round(c.lon, 6)),
      lat: cells.map((c) => round(c.lat, 6)),
      value: cells.map((c) => round(c.value, 2)),
      count: cells.map((c) => c.count),
    };
  }
  const series = settlementPoints.displacementHundredthMm;
  // A window with more points than are sent shows an even share of them: one point in `every`
  // (ids run in file order), counted from the 100 m cells rather than the points.
  const [dLon, dLat] = cellDegrees(SETTLEMENT_CELL_LEVELS_M[0], [dataset.minx, dataset.miny, dataset.maxx, dataset.maxy]);
  const [{ inWindow }] = await db
    .select({ inWindow: sql<number>`coalesce(sum(${settlementCells.count}), 0)::int` })
    .from(settlementCells)
    .where(
      and(
        eq(settlementCells.datasetId, dataset.id),
        eq(settlementCells.sizeM, SETTLEMENT_CELL_LEVELS_M[0]),
        sql`${settlementCells.cx} between ${Math.floor(minx / dLon)} and ${Math.floor(maxx / dLon)}`,
        sql`${settlementCells.cy} between ${Math.floor(miny / dLat)} and ${Math.floor(maxy / dLat)}`,
      ),
    );
  const every = Math.max(1, Math.ceil(Number(inWindow) / limit));
  const value = query.from !== undefined ? sql`((${series}[${query.to! + 1}] - ${series}[${query.from + 1}]) / 100.0)` : sql`${settlementPoints.velocity}`;
  const where = [eq(settlementPoints.datasetId, dataset.id), sql`point(${settlementPoints.lon}, ${settlementPoints.lat}) <@ ${boxSql(query.bbox)}`, sql`${value} is not null`];
  if (query.velocityMin !== undefined) where.push(sql`${settlementPoints.velocity} >= ${query.velocityMin}`);
  if (query.velocityMax !== undefined) where.push(sql`${settlementPoints.velocity} <= ${query.velocityMax}`);
  if (query.coherenceMin !== undefined) where.push(sql`${settlementPoints.coherence} >= ${query.coherenceMin}`);
  if (every > 1) where.push(sql`${settlementPoints.id} % ${every} = 0`);
  const rows = await db
    .select({ id: settlementPoints.id, lon: settlementPoints.lon, lat: settlementPoints.lat, value: sql<number>`${value}` })
    .from(settlementPoints)
    .where(and(...where))
    .limit(limit + 1);
  const truncated = every > 1 || rows.length > limit;
  if (rows.length > limit) rows.length = limit;
  return {
    kind: 'points',
    cellM: null,
    truncated,
    every,
    ids: rows.map((r) => r.id),
    lon: rows.map((r) => round(r.lon, 6)),
    lat: rows.map((r) => round(r.lat, 6)),
    value: rows.map((r) => round(Number(r.value), 2)),
    count: [],
  };
}

export async function getPoint(db: Db, dataset: DatasetRow, id: number): Promise<SettlementPoint> {
  const [row] = await db.select().from(settlementPoints).where(and(eq(settlementPoints.datasetId, dataset.id), eq(settlementPoints.id, id)));
  if (!row) throw notFound('notFound.settlementPoint');
  return {
    id: row.id,
    datasetId: row.datasetId,
    pointId: row.pointId,
    lon: row.lon,
    lat: row.lat,
    velocity: row.velocity,
    velocityStd: row.velocityStd,
    coherence: row.coherence,
    height: row.height,
    acceleration: row.acceleration,
    dates: dataset.dates,
    displacement: row.displacementHundredthMm.map((v) => (v === null ? (null as never) : v / 100)),
  };
}

/** The mean series and velocity of the points inside an area, averaged per date in SQL. */
export async function averageInArea(db: Db, dataset: DatasetRow, area: AreaGeometry): Promise<SettlementAverage> {
  const position = sql`point(${settlementPoints.lon}, ${settlementPoints.lat})`;
  const [row] = await queryRows<{ count: number; velocity: number | null; series: (number | string | null)[] | string | null }>(
    db,
    sql`with inside as (
      select ${settlementPoints.velocity} as velocity, ${settlementPoints.displacementHundredthMm} as displacement from ${settlementPoints}
      where ${settlementPoints.datasetId} = ${dataset.id} and ${position} <@ ${boxSql(bboxOf(area))} and ${pointInAreaSql(sql`${settlementPoints.lon}`, sql`${settlementPoints.lat}`, area)}
      limit ${MAX_AVERAGE_POINTS})
    select (select count(*)::int from inside) as count, (select avg(velocity) from inside) as velocity,
      array(select round(avg(d) / 100, 2)::float8 from inside, unnest(displacement) with ordinality as u(d, i) group by i order by i) as series`,
  );
  const series = typeof row.series === 'string' ? parsePgArray(row.series) : (row.series ?? []).map((v) => (v === null ? NaN : Number(v)));
  return { count: Number(row.count), meanVelocity: row.velocity === null ? null : round(Number(row.velocity), 2), dates: dataset.dates, displacement: series.map((v) => (Number.isNaN(v) ? (null as never) : v)) };
}

/** A float8[] as text ("{1.5,NULL,2}") for a driver that does not parse it. */
function parsePgArray(text: string): number[] {
  const inner = text.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map((v) => (v === 'NULL' ? NaN : Number(v))) : [];
}
