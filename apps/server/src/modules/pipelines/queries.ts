import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AreaGeometry, BBox, LineGeometry, PipeLengthByType } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { bboxBox, pipes } from '../../db/schema.ts';
import { bboxOf, midpointOf, pointInArea } from '../../geo/geometry.ts';

/** SQL condition: the pipe's bbox intersects `box` (the GiST box index answers it). */
export function pipeBboxIntersects(box: BBox): SQL {
  return sql`${bboxBox(pipes)} && box(point(${box[0]}::float8, ${box[1]}::float8), point(${box[2]}::float8, ${box[3]}::float8))`;
}

/**
 * Pipe length by network type inside an area. A segment counts when its midpoint lies in the
 * area: segments are short (one street block), so this is what a user would measure by hand.
 */
export async function pipeLengthInArea(db: Db, enterpriseId: number, area: AreaGeometry): Promise<PipeLengthByType> {
  const rows = await db
    .select({ networkType: pipes.networkType, geometry: pipes.geometry, lengthM: pipes.lengthM })
    .from(pipes)
    .where(and(eq(pipes.enterpriseId, enterpriseId), pipeBboxIntersects(bboxOf(area))));
  const totals: PipeLengthByType = {};
  for (const row of rows) {
    if (!pointInArea(midpointOf(row.geometry as LineGeometry), area)) continue;
    totals[row.networkType] = (totals[row.networkType] ?? 0) + row.lengthM;
  }
  for (const key of Object.keys(totals) as (keyof PipeLengthByType)[]) totals[key] = Math.round(totals[key]!);
  return totals;
}
