import { sql, type SQL } from 'drizzle-orm';
import type { AreaGeometry } from '@console/contract';
import { grownBox } from './proximity.ts';

/** A ring as a core PostgreSQL polygon literal: "((x1,y1),(x2,y2),...)". */
const polygonLiteral = (ring: number[][]) => `(${ring.map(([x, y]) => `(${x},${y})`).join(',')})`;

/** SQL condition: the core PostgreSQL `point` lies in the area (no PostGIS), holes excluded. */
export function pointInAreaSql(point: SQL, area: AreaGeometry): SQL {
  const polygons = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
  const inPolygon = polygons.map(([outer, ...holes]) => {
    const parts = [sql`${point} <@ ${polygonLiteral(outer)}::polygon`, ...holes.map((hole) => sql`not (${point} <@ ${polygonLiteral(hole)}::polygon)`)];
    return sql`(${sql.join(parts, sql` and `)})`;
  });
  return sql`(${sql.join(inPolygon, sql` or `)})`;
}

/** SQL: a core box from [minX, minY, maxX, maxY]. */
export const boxSql = (box: readonly number[]) => sql`box(point(${box[0]}::float8, ${box[1]}::float8), point(${box[2]}::float8, ${box[3]}::float8))`;

/** SQL condition: the row's box comes within `metres` of one of `boxes` (none given: every row). */
export function nearAny(rowBox: SQL, boxes: readonly (readonly number[])[] | undefined, metres: number): SQL | undefined {
  if (!boxes) return undefined;
  if (!boxes.length) return sql`false`;
  return sql`(${sql.join(boxes.map((b) => sql`${rowBox} && ${boxSql(grownBox({ type: 'Polygon', coordinates: [[[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]] }, metres))}`), sql` or `)})`;
}
