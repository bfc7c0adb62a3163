import type { AreaGeometry, LineGeometry } from '@console/contract';
import { linesOf, pointInArea } from './geometry.ts';
import { metresPerDegree } from './local.ts';

/**
 * Distances between what stands near the pipes (a construction site, a hazard area) and the pipes,
 * in metres on the ground. Both are put on a plane tangent at the site's centre with the
 * ellipsoid's radii of curvature there: within the few hundred metres these measures look at, that
 * matches the geodesic distance (PostGIS ST_Distance on geography) to a few millimetres.
 */
export interface LocalFrame {
  lon0: number;
  lat0: number;
  mx: number;
  my: number;
}

export function localFrame(center: number[]): LocalFrame {
  const [mx, my] = metresPerDegree(center[1]);
  return { lon0: center[0], lat0: center[1], mx, my };
}

const toLocal = (f: LocalFrame, p: number[]): [number, number] => [(p[0] - f.lon0) * f.mx, (p[1] - f.lat0) * f.my];
const toLonLat = (f: LocalFrame, p: number[]): [number, number] => [f.lon0 + p[0] / f.mx, f.lat0 + p[1] / f.my];

/** A site or hazard: its rings, or a single point, as it is measured from. */
export type Place = AreaGeometry | { type: 'Point'; coordinates: number[] };

/** The shortest distance between two shapes and where it is taken on each (lon/lat). */
export interface Closest {
  distanceM: number;
  from: [number, number];
  to: [number, number];
}

/** Polylines of a shape: a polygon's rings, a line's parts, a point as a one-position line. */
function pathsOf(shape: Place | LineGeometry): number[][][] {
  switch (shape.type) {
    case 'Point':
      return [[shape.coordinates]];
    case 'Polygon':
      return shape.coordinates;
    case 'MultiPolygon':
      return shape.coordinates.flat();
    default:
      return linesOf(shape);
  }
}

/** Closest points of segments a-b and c-d (plane), for segments that do not cross. */
function segmentPoint(p: number[], a: number[], b: number[]): [number, number] {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2)) : 0;
  return [a[0] + t * dx, a[1] + t * dy];
}

/** Where segments a-b and c-d cross (plane), or null. */
function crossingPoint(a: number[], b: number[], c: number[], d: number[]): [number, number] | null {
  const rx = b[0] - a[0], ry = b[1] - a[1], sx = d[0] - c[0], sy = d[1] - c[1];
  const denominator = rx * sy - ry * sx;
  if (denominator === 0) return null;
  const t = ((c[0] - a[0]) * sy - (c[1] - a[1]) * sx) / denominator;
  const u = ((c[0] - a[0]) * ry - (c[1] - a[1]) * rx) / denominator;
  return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? [a[0] + t * rx, a[1] + t * ry] : null;
}

const isArea = (shape: Place | LineGeometry): shape is AreaGeometry => shape.type === 'Polygon' || shape.type === 'MultiPolygon';

/**
 * The shortest distance from a place (its edge; 0 when the other shape is inside or crosses it) to
 * a line or another place, with the two closest points.
 */
export function closest(place: Place, other: LineGeometry | Place, frame: LocalFrame): Closest {
  // Inside: a vertex of one within the other's area.
  if (isArea(place)) {
    for (const path of pathsOf(other)) for (const p of path) if (pointInArea(p, place)) return { distanceM: 0, from: [p[0], p[1]], to: [p[0], p[1]] };
  }
  if (isArea(other)) {
    for (const path of pathsOf(place)) for (const p of path) if (pointInArea(p, other)) return { distanceM: 0, from: [p[0], p[1]], to: [p[0], p[1]] };
  }
  const ours = pathsOf(place).map((path) => path.map((p) => toLocal(frame, p)));
  const theirs = pathsOf(other).map((path) => path.map((p) => toLocal(frame, p)));
  let best = Infinity;
  let from: number[] = [0, 0], to: number[] = [0, 0];
  const consider = (p: number[], q: number[]) => {
    const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
    if (d < best) (best = d), (from = p), (to = q);
  };
  for (const a of ours) for (const b of theirs) {
    // A single position is a path of one: measured to the other's segments (or its position).
    const segmentsA = a.length === 1 ? [[a[0], a[0]]] : a.slice(1).map((p, i) => [a[i], p]);
    const segmentsB = b.length === 1 ? [[b[0], b[0]]] : b.slice(1).map((p, i) => [b[i], p]);
    for (const [p0, p1] of segmentsA) for (const [q0, q1] of segmentsB) {
      const crossing = crossingPoint(p0, p1, q0, q1);
      if (crossing) return { distanceM: 0, from: toLonLat(frame, crossing), to: toLonLat(frame, crossing) };
      consider(p0, segmentPoint(p0, q0, q1));
      consider(p1, segmentPoint(p1, q0, q1));
      consider(segmentPoint(q0, p0, p1), q0);
      consider(segmentPoint(q1, p0, p1), q1);
    }
  }
  return { distanceM: best, from: toLonLat(frame, from), to: toLonLat(frame, to) };
}

/** The centre of a place's bounding box: where its local frame is taken. */
export function placeCentre(place: Place): [number, number] {
  if (place.type === 'Point') return [place.coordinates[0], place.coordinates[1]];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const path of pathsOf(place)) for (const [x, y] of path) (minX = Math.min(minX, x)), (minY = Math.min(minY, y)), (maxX = Math.max(maxX, x)), (maxY = Math.max(maxY, y));
  return [(minX + maxX) / 2, (minY + maxY) / 2];
}

/** A place's bounding box grown by `metres` on every side (lon/lat), for the index to narrow the pipes. */
export function grownBox(place: Place, metres: number): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const path of pathsOf(place)) for (const [x, y] of path) (minX = Math.min(minX, x)), (minY = Math.min(minY, y)), (maxX = Math.max(maxX, x)), (maxY = Math.max(maxY, y));
  // Degrees per metre taken at the box's edge nearer the pole, so the box never falls short.
  const [mx, my] = metresPerDegree(Math.max(Math.abs(minY), Math.abs(maxY)));
  return [minX - metres / mx, minY - metres / my, maxX + metres / mx, maxY + metres / my];
}
