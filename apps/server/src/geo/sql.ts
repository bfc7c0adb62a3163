import { sql, type SQL } from 'drizzle-orm';
import type { AreaGeometry } from '@console/contract';
import { grownBox } from './proximity.ts';

/** A double as an SQL literal (finite: every stored coordinate was checked as a number). */
const float = (v: number) => {
  if (!Number.isFinite(v)) throw new Error('a coordinate is not a finite number');
  return sql.raw(`${v}::float8`);
};

/** Terms of the crossing sum a statement may carry: past it the bands are made coarser. */
const TERM_BUDGET = 20_000;

/**
 * SQL condition: the point (x, y) lies in the area, decided exactly on doubles by the even-odd rule
 * over every ring (outer rings and holes alike; a multipolygon's parts do not overlap): a point is
 * inside when a ray towards +x crosses an odd number of edges. An edge counts when
 * min(y1, y2) <= y < max(y1, y2) and x < its x at y (half-open): a point on the boundary is inside
 * on the area's south and west edges and outside on its north and east edges, so two areas that
 * share an edge never both hold a point on it. Core PostgreSQL's polygon containment (`<@`) is not
 * used: its fixed 1e-6 tolerance, applied to lon/lat cross products, counts points tens of metres
 * outside a slanted edge.
 *
 * The y-range is cut into bands at the vertices' y values (fewer for very large areas), chosen by
 * a binary CASE, so a point is compared with the edges crossing its band only.
 */
export function pointInAreaSql(x: SQL, y: SQL, area: AreaGeometry): SQL {
  const edges: [number, number, number, number][] = [];
  for (const ring of ringsOf(area)) for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i], [x2, y2] = ring[(i + 1) % ring.length];
    if (y1 !== y2) edges.push(y1 < y2 ? [x1, y1, x2, y2] : [x2, y2, x1, y1]);
  }
  if (!edges.length) return sql`false`;
  const levels = [...new Set(edges.flatMap((e) => [e[1], e[3]]))].sort((a, b) => a - b);
  let bands = levels.length - 1;
  const termsFor = (cuts: number[]) => {
    let total = 0;
    for (let b = 0; b + 1 < cuts.length; b++) for (const e of edges) if (e[1] < cuts[b + 1] && e[3] > cuts[b]) total++;
    return total;
  };
  let cuts = levels;
  while (bands > 1 && termsFor(cuts) > TERM_BUDGET) {
    bands = Math.ceil(bands / 2);
    cuts = Array.from({ length: bands + 1 }, (_, i) => levels[Math.round((i * (levels.length - 1)) / bands)]);
  }
  // One edge's crossing: inside a band it spans whole, only the x test is left.
  const crossing = (e: [number, number, number, number], low: number, high: number) => {
    const slope = (e[2] - e[0]) / (e[3] - e[1]);
    const xTest = sql`${x} < ${float(e[0])} + (${y} - ${float(e[1])}) * ${float(slope)}`;
    const spans = e[1] <= low && e[3] >= high;
    return sql`(case when ${spans ? xTest : sql`${y} >= ${float(e[1])} and ${y} < ${float(e[3])} and ${xTest}`} then 1 else 0 end)`;
  };
  const band = (from: number, to: number): SQL => {
    if (to - from === 1) {
      const low = cuts[from], high = cuts[to];
      const crossing_ = edges.filter((e) => e[1] < high && e[3] > low).map((e) => crossing(e, low, high));
      return crossing_.length ? sql`(${sql.join(crossing_, sql` + `)})` : sql`0`;
    }
    const middle = (from + to) >> 1;
    return sql`(case when ${y} < ${float(cuts[middle])} then ${band(from, middle)} else ${band(middle, to)} end)`;
  };
  return sql`(${y} >= ${float(cuts[0])} and ${y} < ${float(cuts[cuts.length - 1])} and ${band(0, cuts.length - 1)} % 2 = 1)`;
}

const ringsOf = (area: AreaGeometry) => (area.type === 'Polygon' ? area.coordinates : area.coordinates.flat());

/** SQL: a core box from [minX, minY, maxX, maxY]. */
export const boxSql = (box: readonly number[]) => sql`box(point(${box[0]}::float8, ${box[1]}::float8), point(${box[2]}::float8, ${box[3]}::float8))`;

/** SQL condition: the row's box comes within `metres` of one of `boxes` (none given: every row). */
export function nearAny(rowBox: SQL, boxes: readonly (readonly number[])[] | undefined, metres: number): SQL | undefined {
  if (!boxes) return undefined;
  if (!boxes.length) return sql`false`;
  return sql`(${sql.join(boxes.map((b) => sql`${rowBox} && ${boxSql(grownBox({ type: 'Polygon', coordinates: [[[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]] }, metres))}`), sql` or `)})`;
}
