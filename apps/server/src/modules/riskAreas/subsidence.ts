import type { AreaGeometry, LineGeometry, RiskLevel, SettlementLevel } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { linesOf } from '../../geo/geometry.ts';
import { metresPerDegree } from '../../geo/local.ts';
import { badRequest } from '../../http/errors.ts';
import { getResult } from '../settlement/results.ts';
import { getDataset } from '../settlement/service.ts';
import { createArea } from './service.ts';

const LEVEL_OF: Record<SettlementLevel, RiskLevel> = { alarm: 'II', warn: 'III', none: 'IV' };

/** A band `halfWidthM` either side of a line (its first part), as a polygon: the ground along the pipe. */
export function bandAround(line: LineGeometry, halfWidthM: number): AreaGeometry {
  const path = linesOf(line)[0];
  const [mx, my] = metresPerDegree(path[0][1]);
  const normals = path.map((_, i) => {
    const a = path[Math.max(0, i - 1)], b = path[Math.min(path.length - 1, i + 1)];
    const dx = (b[0] - a[0]) * mx, dy = (b[1] - a[1]) * my, length = Math.hypot(dx, dy) || 1;
    return [-dy / length, dx / length];
  });
  const side = (sign: number) => path.map((p, i) => [Math.round((p[0] + (sign * normals[i][0] * halfWidthM) / mx) * 1e7) / 1e7, Math.round((p[1] + (sign * normals[i][1] * halfWidthM) / my) * 1e7) / 1e7]);
  const ring = [...side(1), ...side(-1).reverse()];
  ring.push(ring[0]);
  return { type: 'Polygon', coordinates: [ring] };
}

/**
 * A subsidence zone from a pipe's settlement result: the band along the segment as wide as its
 * measured points lie from it (at least 10 m), at the level its settlement reached, with the
 * figures as its cause.
 */
export async function subsidenceZoneFromResult(db: Db, enterpriseId: number, userId: number, input: { datasetId: number; pipeRowId: number; name?: string }) {
  const dataset = await getDataset(db, enterpriseId, input.datasetId);
  const result = await getResult(db, dataset, input.pipeRowId);
  if (!result.points.length) throw badRequest('riskArea.noPoints');
  const halfWidth = Math.max(10, ...result.points.map((p) => p.offsetM));
  return createArea(db, enterpriseId, userId, {
    name: input.name ?? `${result.pipeId} 沉降区`,
    kind: 'subsidence',
    level: LEVEL_OF[result.level],
    geometry: bandAround(result.geometry, Math.round(halfWidth * 10) / 10),
    bufferM: 0,
    cause: `InSAR ${dataset.name}: ${result.pointCount} points, mean ${result.meanVelocity} mm/yr, lowest ${result.minVelocity} mm/yr`,
    source: 'insar',
  });
}
