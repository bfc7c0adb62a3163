import { sql } from 'drizzle-orm';
import type { LineGeometry, NetworkType, PipeSetPage } from '@console/contract';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { areaPipes, pipes, sitePipes } from '../../db/schema.ts';

/**
 * The whole set of pipes a place threatens or holds (a site's corridor, a risk-prone area with its
 * buffer), kept as rows with their distance: what composite risk, the alert rules and the drawers'
 * paged lists read. The tables are fixed here, never named by a request.
 */
const SETS = { site: sitePipes, area: areaPipes } as const;
export type PipeSetKind = keyof typeof SETS;

export interface PipeSetMember {
  pipeRowId: number;
  distanceM: number;
}

/** Replaces the pipe sets of the given places in one delete and one insert (arrays, not a row per statement). */
export async function replacePipeSets(db: Db | Tx, kind: PipeSetKind, enterpriseId: number, sets: { ownerId: number; pipes: PipeSetMember[] }[]) {
  if (!sets.length) return;
  const table = SETS[kind];
  const ids = `{${sets.map((s) => s.ownerId).join(',')}}`;
  await db.execute(sql`delete from ${table} where ${table.ownerId} = any(${ids}::int[])`);
  const members = sets.flatMap((s) => s.pipes.map((p) => [s.ownerId, p.pipeRowId, p.distanceM] as const));
  // Three array parameters a statement, 20,000 rows each: a statement's text stays a few hundred KB.
  for (let start = 0; start < members.length; start += 20_000) {
    const chunk = members.slice(start, start + 20_000);
    const column = (i: 0 | 1 | 2) => `{${chunk.map((m) => m[i]).join(',')}}`;
    await db.execute(sql`insert into ${table} (${sql.identifier(table.ownerId.name)}, enterprise_id, pipe_row_id, distance_m)
      select o, ${enterpriseId}::int, p, d from unnest(${column(0)}::int[], ${column(1)}::bigint[], ${column(2)}::float8[]) as m(o, p, d)`);
  }
}

/** One page of a place's pipe set, nearest first, with each pipe's attributes. */
export async function pipeSetPage(db: Db, kind: PipeSetKind, enterpriseId: number, ownerId: number, page: number, pageSize: number): Promise<PipeSetPage> {
  const table = SETS[kind];
  const mine = sql`s.${sql.identifier(table.ownerId.name)} = ${ownerId} and s.enterprise_id = ${enterpriseId}`;
  const [[{ total }], list] = await Promise.all([
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from ${table} s where ${mine}`),
    queryRows<PipeSetPage['list'][number]>(
      db,
      sql`select s.pipe_row_id::float8 as "pipeRowId", round(s.distance_m::numeric, 3)::float8 as "distanceM", p.pipe_id as "pipeId", p.network_type as "networkType",
            p.diameter_mm as "diameterMm", p.material, p.pressure_class as "pressureClass", round(p.length_m::numeric, 1)::float8 as "lengthM"
          from ${table} s join ${pipes} p on p.id = s.pipe_row_id and p.enterprise_id = ${enterpriseId}
          where ${mine} order by s.distance_m, s.pipe_row_id limit ${pageSize} offset ${(page - 1) * pageSize}`,
    ),
  ]);
  return { list, total: Number(total), page, pageSize };
}

/** Lines drawn on the map for a place's pipe set: the nearest `limit` (a map, not a figure). */
export async function pipeSetLines(db: Db, kind: PipeSetKind, enterpriseId: number, ownerId: number, limit: number) {
  const table = SETS[kind];
  return queryRows<{ pipeRowId: number; networkType: NetworkType; geometry: LineGeometry }>(
    db,
    sql`select s.pipe_row_id::float8 as "pipeRowId", p.network_type as "networkType", p.geometry
        from ${table} s join ${pipes} p on p.id = s.pipe_row_id and p.enterprise_id = ${enterpriseId}
        where s.${sql.identifier(table.ownerId.name)} = ${ownerId} and s.enterprise_id = ${enterpriseId}
        order by s.distance_m, s.pipe_row_id limit ${limit}`,
  );
}
