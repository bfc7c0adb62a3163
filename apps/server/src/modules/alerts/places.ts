import { and, eq, gte, inArray, lte } from 'drizzle-orm';
import type { AreaGeometry, LineGeometry } from '@console/contract';
import type { Tx } from '../../db/client.ts';
import { basemapFeatures, projects } from '../../db/schema.ts';
import { pointInArea } from '../../geo/geometry.ts';
import { closest, grownBox, localFrame } from '../../geo/proximity.ts';

/** A street names an incident's place when it runs this close to its centre. */
const STREET_REACH_M = 300;

/**
 * What a duty officer calls the place of a point: the nearest named street of the map within
 * STREET_REACH_M, else the enterprise's project whose area holds it (with its district), else
 * nothing (the title then says the pipe's code alone).
 */
export async function nameOfPlace(tx: Tx, enterpriseId: number, lon: number, lat: number): Promise<string | null> {
  const point = { type: 'Point' as const, coordinates: [lon, lat] };
  const [minx, miny, maxx, maxy] = grownBox(point, STREET_REACH_M);
  const streets = await tx
    .select({ name: basemapFeatures.name, geometry: basemapFeatures.geometry })
    .from(basemapFeatures)
    .where(and(inArray(basemapFeatures.kind, ['street', 'mainStreet']), lte(basemapFeatures.minx, maxx), gte(basemapFeatures.maxx, minx), lte(basemapFeatures.miny, maxy), gte(basemapFeatures.maxy, miny)))
    .limit(200);
  const frame = localFrame([lon, lat]);
  let nearest: { name: string; distanceM: number } | null = null;
  for (const street of streets) {
    const { distanceM } = closest(point, street.geometry as LineGeometry, frame);
    if (distanceM <= STREET_REACH_M && (!nearest || distanceM < nearest.distanceM)) nearest = { name: street.name, distanceM };
  }
  if (nearest) return nearest.name;
  const holding = await tx
    .select({ name: projects.name, district: projects.district, area: projects.area })
    .from(projects)
    .where(and(eq(projects.enterpriseId, enterpriseId), lte(projects.minx, lon), gte(projects.maxx, lon), lte(projects.miny, lat), gte(projects.maxy, lat)))
    .limit(20);
  const project = holding.find((p) => pointInArea([lon, lat], p.area as AreaGeometry));
  return project ? [project.name, project.district].filter(Boolean).join(' · ') : null;
}
