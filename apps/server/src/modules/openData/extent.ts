import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { pipesVersion } from '../tiles/service.ts';
import type { CollectionSource } from './collections.ts';

export interface Extent {
  bbox: [number, number, number, number] | null;
  start: string | null;
  end: string | null;
}

/**
 * Extents of pipe layers, kept per enterprise and pipes version (a million segments are read once
 * per change of the network, not per request); the other layers are small and read as asked.
 */
const pipeExtents = new Map<string, Extent>();

/** Where a collection's features lie and the period they span. */
export async function extentOf(db: Db, enterpriseId: number, source: CollectionSource): Promise<Extent> {
  if (source.kind === 'pipes') {
    const key = `${enterpriseId}:${await pipesVersion(db, enterpriseId)}:${source.id}`;
    let extent = pipeExtents.get(key);
    if (!extent) {
      extent = await measure(db, source);
      for (const old of pipeExtents.keys()) if (old.startsWith(`${enterpriseId}:`)) pipeExtents.delete(old);
      pipeExtents.set(key, extent);
    }
    return extent;
  }
  if (source.kind === 'settlementPoints' && source.summary) {
    const [row] = await queryRows<{ minx: number | null; miny: number; maxx: number; maxy: number }>(db, source.summary());
    return { bbox: row && row.minx !== null ? [row.minx, row.miny, row.maxx, row.maxy] : null, start: null, end: null };
  }
  return measure(db, source);
}

async function measure(db: Db, source: CollectionSource): Promise<Extent> {
  // The bbox columns of the source's main table, or the points' own position.
  const box =
    source.kind === 'settlementPoints'
      ? sql`min(t.lon) as x0, min(t.lat) as y0, max(t.lon) as x1, max(t.lat) as y1`
      : source.kind === 'settlementResults'
        ? sql`min(pp.minx) as x0, min(pp.miny) as y0, max(pp.maxx) as x1, max(pp.maxy) as y1`
        : sql`min(t.minx) as x0, min(t.miny) as y0, max(t.maxx) as x1, max(t.maxy) as y1`;
  const iso = (value: SQL) =>
    source.time?.type === 'date' ? sql`to_char(${value}, 'YYYY-MM-DD"T00:00:00Z"')` : sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  const time = source.time
    ? sql`${iso(sql`min(${source.time.start})`)} as t0, ${iso(sql`max(coalesce(${source.time.end ?? source.time.start}, ${source.time.start}))`)} as t1`
    : sql`null::text as t0, null::text as t1`;
  const [row] = await queryRows<{ x0: number | null; y0: number; x1: number; y1: number; t0: string | null; t1: string | null }>(
    db,
    sql`select ${box}, ${time} from ${source.from} where ${source.where}`,
  );
  return { bbox: row && row.x0 !== null ? [Number(row.x0), Number(row.y0), Number(row.x1), Number(row.y1)] : null, start: row?.t0 ?? null, end: row?.t1 ?? null };
}
