import { eq, sql } from 'drizzle-orm';
import { SETTLEMENT_CELL_LEVELS_M } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { copyBinaryInto, type BinaryCopyWriter } from '../../db/copy.ts';
import { POINT_COLUMNS } from './rows.ts';
import { settlementCells, settlementDatasets } from '../../db/schema.ts';
import { metresPerDegree } from '../../geo/local.ts';

/** The table holding one dataset's points (a partition of settlement_points); the id is ours, never a request's text. */
export const pointTable = (datasetId: number) => `settlement_points_d${Math.trunc(datasetId)}`;

export async function dropPointTable(db: Db, datasetId: number) {
  await db.execute(sql.raw(`drop table if exists ${pointTable(datasetId)}`));
}

/** A grid cell's size in degrees [lon, lat] for a dataset, at the middle latitude of its extent. */
export function cellDegrees(sizeM: number, bbox: readonly number[]): [number, number] {
  const [mLon, mLat] = metresPerDegree((bbox[1] + bbox[3]) / 2);
  return [sizeM / mLon, sizeM / mLat];
}

/** A new, unindexed table for the dataset's points and a binary COPY writer into it (rows made by encodePoint). */
export async function createPointTable(db: Db, datasetId: number): Promise<BinaryCopyWriter> {
  const table = pointTable(datasetId);
  await db.execute(sql.raw(`create table ${table} (like settlement_points including defaults)`));
  // No statistics of the series' elements: nothing filters on them, and they made ANALYZE slow.
  await db.execute(sql.raw(`alter table ${table} alter column displacement_hundredth_mm set statistics 0`));
  return copyBinaryInto(db, table, POINT_COLUMNS);
}

/**
 * Makes a written dataset readable: its table's indexes built (while its figures are taken and
 * its grid cells made: on a PostgreSQL server these run side by side on separate connections,
 * CREATE INDEX letting reads go on), the table attached as settlement_points' partition (which
 * finds the indexes and builds nothing), and its status set ready.
 */
export async function finishDataset(db: Db, datasetId: number) {
  const table = pointTable(datasetId);
  const [figures] = await Promise.all([
    datasetFigures(db, datasetId),
    db.execute(sql.raw(`create index ${table}_position_idx on ${table} using gist (point(lon, lat))`)),
    db.execute(sql.raw(`create unique index ${table}_pkey on ${table} (dataset_id, id)`)),
  ]);
  await db.execute(sql.raw(`alter table ${table} add constraint ${table}_pkey primary key using index ${table}_pkey`));
  await db.execute(sql.raw(`alter table settlement_points attach partition ${table} for values in (${Math.trunc(datasetId)})`));
  const { f, bbox } = figures;
  await db
    .update(settlementDatasets)
    .set({ status: 'ready', pointCount: f.count, velocityMin: Number(f.vmin), velocityMax: Number(f.vmax), velocityMean: Number(f.vmean), velocityStd: Number(f.vstd), minx: bbox[0], miny: bbox[1], maxx: bbox[2], maxy: bbox[3] })
    .where(eq(settlementDatasets.id, datasetId));
  await db.execute(sql.raw(`analyze ${table}`));
  return { count: Number(f.count), bbox };
}

/** The dataset's figures (count, velocity statistics, extent) and its grid cells at every level. */
async function datasetFigures(db: Db, datasetId: number) {
  const table = pointTable(datasetId);
  const [f] = await queryRows<Record<'count' | 'vmin' | 'vmax' | 'vmean' | 'vstd' | 'minx' | 'miny' | 'maxx' | 'maxy', number>>(
    db,
    sql.raw(`select count(*)::int as count, min(velocity) as vmin, max(velocity) as vmax, avg(velocity) as vmean, coalesce(stddev_pop(velocity), 0) as vstd,
      min(lon) as minx, min(lat) as miny, max(lon) as maxx, max(lat) as maxy from ${table}`),
  );
  const bbox = [Number(f.minx), Number(f.miny), Number(f.maxx), Number(f.maxy)] as [number, number, number, number];
  for (const sizeM of SETTLEMENT_CELL_LEVELS_M) {
    const [dLon, dLat] = cellDegrees(sizeM, bbox);
    await db.execute(sql`
      insert into ${settlementCells} (dataset_id, size_m, cx, cy, lon, lat, count, mean_velocity)
      select ${datasetId}, ${sizeM}, floor(lon / ${dLon})::int as cx, floor(lat / ${dLat})::int as cy, avg(lon), avg(lat), count(*), avg(velocity)
      from ${sql.raw(table)} group by 3, 4`);
  }
  return { f, bbox };
}
