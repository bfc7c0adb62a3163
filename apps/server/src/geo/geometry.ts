import type { AreaGeometry, BBox, LineGeometry } from '@console/contract';
import { metresPerDegree } from './local.ts';

type Geometry = LineGeometry | AreaGeometry;

/**
 * Distance in metres between two WGS 84 positions on the ellipsoid: the step on the plane tangent
 * at its middle latitude, scaled by the ellipsoid's radii of curvature there (geo/local.ts). For a
 * pipe's segments (metres to a few kilometres) this is the geodesic length to well under a
 * millimetre per kilometre; it is the one length of a pipe everywhere (the list, the tiles'
 * figures, the settlement profile, sums by network).
 */
export function distanceM(a: number[], b: number[]): number {
  const [mx, my] = metresPerDegree((a[1] + b[1]) / 2);
  return Math.hypot((b[0] - a[0]) * mx, (b[1] - a[1]) * my);
}

/** The lines of a line geometry as a list of position lists. */
export function linesOf(geometry: LineGeometry): number[][][] {
  return geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates;
}

/** Length of a line geometry in metres. */
export function lengthM(geometry: LineGeometry): number {
  let total = 0;
  for (const line of linesOf(geometry)) for (let i = 1; i < line.length; i++) total += distanceM(line[i - 1], line[i]);
  return total;
}

/** Every position list of a geometry: its lines, or its polygons' rings. */
function positionListsOf(geometry: Geometry): number[][][] {
  switch (geometry.type) {
    case 'LineString':
      return [geometry.coordinates];
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates;
    case 'MultiPolygon':
      return geometry.coordinates.flat();
  }
}

export function bboxOf(geometry: Geometry): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const positions of positionListsOf(geometry)) {
    for (const p of positions) {
      if (p[0] < box[0]) box[0] = p[0];
      if (p[1] < box[1]) box[1] = p[1];
      if (p[0] > box[2]) box[2] = p[0];
      if (p[1] > box[3]) box[3] = p[1];
    }
  }
  return box;
}

export const bboxColumns = (box: BBox) => ({ minx: box[0], miny: box[1], maxx: box[2], maxy: box[3] });

/**
 * Is the point inside the area? The even-odd rule over every ring with the half-open boundary
 * rule, exactly as the database decides it (geo/sql.ts pointInAreaSql): an edge counts when
 * min(y1, y2) <= y < max(y1, y2) and x lies west of it; holes are out.
 */
export function pointInArea(point: number[], area: AreaGeometry): boolean {
  const [x, y] = point;
  let inside = false;
  for (const ring of ringsOf(area)) for (let i = 0; i < ring.length; i++) {
    // The closing edge too, for a ring whose last position does not repeat its first.
    let [x1, y1] = ring[i], [x2, y2] = ring[(i + 1) % ring.length];
    if (y1 === y2) continue;
    if (y1 > y2) [x1, y1, x2, y2] = [x2, y2, x1, y1];
    if (y >= y1 && y < y2 && x < x1 + (y - y1) * ((x2 - x1) / (y2 - y1))) inside = !inside;
  }
  return inside;
}

/** The point halfway along a line geometry's first line (by vertex distance). */
export function midpointOf(geometry: LineGeometry): number[] {
  const line = linesOf(geometry)[0];
  const half = lengthM({ type: 'LineString', coordinates: line }) / 2;
  let walked = 0;
  for (let i = 1; i < line.length; i++) {
    const step = distanceM(line[i - 1], line[i]);
    if (walked + step >= half && step > 0) {
      const f = (half - walked) / step;
      return [line[i - 1][0] + f * (line[i][0] - line[i - 1][0]), line[i - 1][1] + f * (line[i][1] - line[i - 1][1])];
    }
    walked += step;
  }
  return line[0];
}

export const bboxIntersects = (a: BBox, b: BBox) => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];

/** A circle of `radiusM` metres around [lon, lat] as a 64-sided polygon (how a POI or a point site is drawn and stored). */
export function circlePolygon(center: number[], radiusM: number, sides = 64): AreaGeometry {
  const [mPerDegLon, mPerDegLat] = metresPerDegree(center[1]);
  const ring: number[][] = [];
  for (let i = 0; i < sides; i++) {
    const a = (2 * Math.PI * i) / sides;
    ring.push([round7(center[0] + (Math.cos(a) * radiusM) / mPerDegLon), round7(center[1] + (Math.sin(a) * radiusM) / mPerDegLat)]);
  }
  ring.push(ring[0]);
  return { type: 'Polygon', coordinates: [ring] };
}

const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

/** Where segment p-q crosses segment a-b, as a fraction along p-q, or null. */
function crossing(p: number[], q: number[], a: number[], b: number[]): number | null {
  const rx = q[0] - p[0], ry = q[1] - p[1], sx = b[0] - a[0], sy = b[1] - a[1];
  const denominator = rx * sy - ry * sx;
  if (denominator === 0) return null;
  const t = ((a[0] - p[0]) * sy - (a[1] - p[1]) * sx) / denominator;
  const u = ((a[0] - p[0]) * ry - (a[1] - p[1]) * rx) / denominator;
  return t > 0 && t < 1 && u >= 0 && u <= 1 ? t : null;
}

/**
 * Metres of a line that lie inside an area: each segment is cut where it crosses the area's
 * rings, and the pieces whose middle is inside count. (What a crew walks inside a POI.)
 */
export function lengthInside(geometry: LineGeometry, area: AreaGeometry): number {
  const rings = (area.type === 'Polygon' ? [area.coordinates] : area.coordinates).flat();
  let total = 0;
  for (const line of linesOf(geometry)) {
    for (let i = 1; i < line.length; i++) {
      const p = line[i - 1], q = line[i];
      const cuts = [0, 1];
      for (const ring of rings) for (let j = 1; j < ring.length; j++) {
        const t = crossing(p, q, ring[j - 1], ring[j]);
        if (t !== null) cuts.push(t);
      }
      cuts.sort((x, y) => x - y);
      const step = distanceM(p, q);
      for (let k = 1; k < cuts.length; k++) {
        const mid = (cuts[k - 1] + cuts[k]) / 2;
        if (pointInArea([p[0] + mid * (q[0] - p[0]), p[1] + mid * (q[1] - p[1])], area)) total += (cuts[k] - cuts[k - 1]) * step;
      }
    }
  }
  return total;
}

function ringsOf(area: AreaGeometry): number[][][] {
  return (area.type === 'Polygon' ? [area.coordinates] : area.coordinates).flat();
}

/** Do two areas overlap (an edge crosses, or one holds a corner of the other)? */
export function areasIntersect(a: AreaGeometry, b: AreaGeometry): boolean {
  if (!bboxIntersects(bboxOf(a), bboxOf(b))) return false;
  const ra = ringsOf(a), rb = ringsOf(b);
  if (ra.some((ring) => pointInArea(ring[0], b)) || rb.some((ring) => pointInArea(ring[0], a))) return true;
  for (const r of ra) for (let i = 1; i < r.length; i++) for (const s of rb) for (let j = 1; j < s.length; j++) {
    if (crossing(r[i - 1], r[i], s[j - 1], s[j]) !== null) return true;
  }
  return false;
}
