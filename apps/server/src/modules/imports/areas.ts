import type { Geometry, Position } from 'geojson';
import { inLonLatRange, type AreaGeometry } from '@console/contract';
import type { Reproject } from './crs.ts';

export const isValidPosition = (p: unknown): p is number[] => Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1]);

/** A file's polygon in WGS 84, or why it cannot be one (POI circles of polygons, scene footprints). */
export function areaOf(
  geometry: Geometry,
  reproject: Reproject,
): { area: AreaGeometry } | { key: 'import.coordinates' | 'field.geometry.outOfRange' | 'import.polygonType'; type?: string } {
  if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') return { key: 'import.polygonType', type: geometry.type };
  const polygons: Position[][][] = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const projected = polygons.map((rings) => rings.map((ring) => ring.map((p) => (isValidPosition(p) ? reproject(p[0], p[1]) : [NaN, NaN]))));
  const all = projected.flat(2);
  if (all.some((p) => !Number.isFinite(p[0]))) return { key: 'import.coordinates' };
  if (!all.every(inLonLatRange)) return { key: 'field.geometry.outOfRange' };
  return { area: geometry.type === 'Polygon' ? { type: 'Polygon', coordinates: projected[0] } : { type: 'MultiPolygon', coordinates: projected } };
}

/** Is the geometry a single point (a Point, or a MultiPoint of one)? */
export const isSinglePoint = (geometry: Geometry) => geometry.type === 'Point' || (geometry.type === 'MultiPoint' && geometry.coordinates.length === 1);

/** A file's single point in WGS 84, or why it cannot be one (POI centres, InSAR points). */
export function pointOf(geometry: Geometry & { type: 'Point' | 'MultiPoint' }, reproject: Reproject): { position: [number, number] } | { key: 'import.coordinates' | 'field.geometry.outOfRange' } {
  const p = geometry.type === 'Point' ? geometry.coordinates : geometry.coordinates[0];
  if (!isValidPosition(p)) return { key: 'import.coordinates' };
  const position = reproject(p[0], p[1]);
  return inLonLatRange(position) ? { position } : { key: 'field.geometry.outOfRange' };
}
