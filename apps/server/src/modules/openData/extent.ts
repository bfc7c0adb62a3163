import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import type { CollectionSource } from './collections.ts';

export interface Extent {
  bbox: [number, number, number, number] | null;
  start: string | null;
  end: string | null;
}

/**
 * Where a collection's features lie and the period they span: a settlement dataset's kept
 * figures, else measured over its rows (the routes keep the answer until the enterprise's data
 * changes: a million pipes are read once per change, not per request).
 */
export async function extentOf(db: Db, source: CollectionSource): Promise<Extent> {
  if (source.kind === 'settlementPoints' && source.summary) {
    const [row] = await queryRows<{ minx: number | null; miny: number; maxx: number; maxy: number }>(db, source.summary());
    return { bbox: row && row.minx !== null ? [row.minx, row.miny, row.maxx, row.maxy] : null, start: null, end: null };
  }
  return measure(db, source);
}

async function measure(db: Db, source: CollectionSource): Promise<Extent> {
  const iso = (value: SQL) =>
    source.time?.type === 'date' ? sql`to_char(${value}, 'YYYY-MM-DD"T00:00:00Z"')` : sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  const time = source.time
    ? sql`${iso(sql`min(${source.time.start})`)} as t0, ${iso(sql`max(coalesce(${source.time.end ?? source.time.start}, ${source.time.start}))`)} as t1`
    : sql`null::text as t0, null::text as t1`;
  const [row] = await queryRows<{ x0: number | null; y0: number; x1: number; y1: number; t0: string | null; t1: string | null }>(
    db,
    sql`select ${source.bounds}, ${time} from ${source.from} where ${source.where}`,
  );
  return { bbox: row && row.x0 !== null ? [Number(row.x0), Number(row.y0), Number(row.x1), Number(row.y1)] : null, start: row?.t0 ?? null, end: row?.t1 ?? null };
}
