import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AreaGeometry, BBox, PipeLengthByType } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { bboxBox, pipes } from '../../db/schema.ts';
import { bboxOf } from '../../geo/geometry.ts';

/** SQL condition: the pipe's bbox intersects `box` (the GiST box index answers it). */
export function pipeBboxIntersects(box: BBox): SQL {
  return sql`${bboxBox(pipes)} && box(point(${box[0]}::float8, ${box[1]}::float8), point(${box[2]}::float8, ${box[3]}::float8))`;
}

/** A ring as a core PostgreSQL polygon literal: "((x1,y1),(x2,y2),...)". */
const polygonLiteral = (ring: number[][]) => `(${ring.map(([x, y]) => `(${x},${y})`).join(',')})`;

/**
 * SQL condition: the pipe lies in the area. A segment counts when the centre of its bounding box
 * (for a straight street-block segment, its midpoint) lies in the area: segments are short, so
 * this is what a user would measure by hand. The bbox test lets the GiST index narrow first;
 * core polygon containment (no PostGIS) decides, holes excluded.
 */
export function pipeInsideArea(area: AreaGeometry): SQL {
  const centre = sql`point((${pipes.minx} + ${pipes.maxx}) / 2, (${pipes.miny} + ${pipes.maxy}) / 2)`;
  const polygons = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
  const inPolygon = polygons.map(([outer, ...holes]) => {
    const parts = [sql`${centre} <@ ${polygonLiteral(outer)}::polygon`, ...holes.map((hole) => sql`not (${centre} <@ ${polygonLiteral(hole)}::polygon)`)];
    return sql`(${sql.join(parts, sql` and `)})`;
  });
  return sql`(${pipeBboxIntersects(bboxOf(area))} and (${sql.join(inPolygon, sql` or `)}))`;
}

/** Pipe length by network type inside an area, added up in SQL. */
export async function pipeLengthInArea(db: Db, enterpriseId: number, area: AreaGeometry): Promise<PipeLengthByType> {
  const rows = await db
    .select({ networkType: pipes.networkType, lengthM: sql<number>`round(sum(${pipes.lengthM}))::float8` })
    .from(pipes)
    .where(and(eq(pipes.enterpriseId, enterpriseId), pipeInsideArea(area)))
    .groupBy(pipes.networkType);
  return Object.fromEntries(rows.map((row) => [row.networkType, Number(row.lengthM)]));
}
