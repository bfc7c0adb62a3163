import { fromGeojsonVt, type TileFeature } from 'vt-pbf';
import type { BBox } from '@console/contract';

/** Tile grids the server makes vector tiles on: Web Mercator XYZ, and WGS84 with two tiles at zoom 0. */
export type TileGrid = 3857 | 4326;

export const TILE_EXTENT = 4096;
/** Clip a little outside the tile so lines join without gaps. */
const BUFFER = 64;

const MAX_MERCATOR_LAT = 85.0511287798;

/** [lon, lat] -> tile-space fraction [0..1] of the whole grid's width (x) and height (y). */
function project(grid: TileGrid, lon: number, lat: number): [number, number] {
  if (grid === 4326) return [(lon + 180) / 360, (90 - lat) / 180];
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return [(lon + 180) / 360, 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)];
}

/** Number of tiles across and down at zoom z. */
function tilesAt(grid: TileGrid, z: number): [number, number] {
  return grid === 4326 ? [2 ** (z + 1), 2 ** z] : [2 ** z, 2 ** z];
}

export function isValidTile(grid: TileGrid, z: number, x: number, y: number): boolean {
  const [nx, ny] = tilesAt(grid, z);
  return z >= 0 && z <= 22 && x >= 0 && y >= 0 && x < nx && y < ny;
}

/** The tile's bounds in WGS84 degrees, with the clipping buffer. */
export function tileBBox(grid: TileGrid, z: number, x: number, y: number): BBox {
  const [nx, ny] = tilesAt(grid, z);
  const pad = BUFFER / TILE_EXTENT;
  const fx0 = (x - pad) / nx;
  const fx1 = (x + 1 + pad) / nx;
  const fy0 = (y - pad) / ny;
  const fy1 = (y + 1 + pad) / ny;
  const lonOf = (f: number) => f * 360 - 180;
  const latOf = (f: number) => (grid === 4326 ? 90 - f * 180 : (Math.atan(Math.sinh(Math.PI * (1 - 2 * f))) * 180) / Math.PI);
  return [lonOf(fx0), latOf(fy1), lonOf(fx1), latOf(fy0)];
}

type Point = [number, number];

/** Cuts a polyline to the box [min, max] on both axes (Liang-Barsky per segment), keeping runs. */
function clipLine(points: Point[], min: number, max: number): Point[][] {
  const parts: Point[][] = [];
  let current: Point[] = [];
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    const dx = x1 - x0;
    const dy = y1 - y0;
    let t0 = 0;
    let t1 = 1;
    const edges: [number, number][] = [
      [-dx, x0 - min],
      [dx, max - x0],
      [-dy, y0 - min],
      [dy, max - y0],
    ];
    let visible = true;
    for (const [p, q] of edges) {
      if (p === 0) {
        if (q < 0) visible = false;
      } else {
        const t = q / p;
        if (p < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    if (!visible || t0 > t1) {
      if (current.length > 1) parts.push(current);
      current = [];
      continue;
    }
    const a: Point = [x0 + t0 * dx, y0 + t0 * dy];
    const b: Point = [x0 + t1 * dx, y0 + t1 * dy];
    if (current.length === 0) current.push(a);
    current.push(b);
    if (t1 < 1) {
      parts.push(current);
      current = [];
    }
  }
  if (current.length > 1) parts.push(current);
  return parts;
}

/** Sutherland-Hodgman clipping of a closed ring to the box. */
function clipRing(ring: Point[], min: number, max: number): Point[] {
  let output = ring;
  const planes: [(p: Point) => boolean, (a: Point, b: Point) => Point][] = [
    [(p) => p[0] >= min, (a, b) => [min, a[1] + ((b[1] - a[1]) * (min - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= max, (a, b) => [max, a[1] + ((b[1] - a[1]) * (max - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= min, (a, b) => [a[0] + ((b[0] - a[0]) * (min - a[1])) / (b[1] - a[1]), min]],
    [(p) => p[1] <= max, (a, b) => [a[0] + ((b[0] - a[0]) * (max - a[1])) / (b[1] - a[1]), max]],
  ];
  for (const [inside, cut] of planes) {
    const input = output;
    output = [];
    for (let i = 0; i < input.length; i++) {
      const current = input[i];
      const previous = input[(i + input.length - 1) % input.length];
      if (inside(current)) {
        if (!inside(previous)) output.push(cut(previous, current));
        output.push(current);
      } else if (inside(previous)) output.push(cut(previous, current));
    }
    if (output.length === 0) break;
  }
  return output;
}

/** Rounds to whole tile units and drops repeated points (what a screen pixel cannot show). */
function snap(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const [x, y] of points) {
    const p: Point = [Math.round(x), Math.round(y)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}

const signedArea = (ring: Point[]) => ring.reduce((sum, p, i) => {
  const q = ring[(i + 1) % ring.length];
  return sum + (p[0] * q[1] - q[0] * p[1]);
}, 0);

export interface TileSourceFeature {
  id?: number;
  /** LineString / MultiLineString / Polygon / MultiPolygon in WGS84. */
  geometry: { type: string; coordinates: unknown };
  properties: Record<string, string | number | boolean | null | undefined>;
}

/** Features of one layer cut and scaled to tile z/x/y of the grid. */
export function tileFeatures(grid: TileGrid, z: number, x: number, y: number, features: TileSourceFeature[]): TileFeature[] {
  const [nx, ny] = tilesAt(grid, z);
  const toTile = (p: number[]): Point => {
    const [fx, fy] = project(grid, p[0], p[1]);
    return [(fx * nx - x) * TILE_EXTENT, (fy * ny - y) * TILE_EXTENT];
  };
  const out: TileFeature[] = [];
  for (const f of features) {
    const tags: TileFeature['tags'] = {};
    for (const [key, value] of Object.entries(f.properties)) if (value !== null && value !== undefined) tags[key] = value;
    const g = f.geometry;
    if (g.type === 'LineString' || g.type === 'MultiLineString') {
      const lines = (g.type === 'LineString' ? [g.coordinates] : g.coordinates) as number[][][];
      const parts = lines.flatMap((line) => clipLine(line.map(toTile), -BUFFER, TILE_EXTENT + BUFFER)).map(snap).filter((p) => p.length > 1);
      if (parts.length) out.push({ id: f.id, type: 2, geometry: parts, tags });
    } else if (g.type === 'Polygon' || g.type === 'MultiPolygon') {
      const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as number[][][][];
      const rings: Point[][] = [];
      for (const polygon of polygons) {
        polygon.forEach((ring, index) => {
          const clipped = snap(clipRing(ring.slice(0, -1).map(toTile), -BUFFER, TILE_EXTENT + BUFFER));
          if (clipped.length < 3) return;
          // MVT: outer rings clockwise in tile coordinates (y down), holes counter-clockwise.
          const clockwise = signedArea(clipped) > 0;
          if ((index === 0) !== clockwise) clipped.reverse();
          clipped.push(clipped[0]);
          rings.push(clipped);
        });
      }
      if (rings.length) out.push({ id: f.id, type: 3, geometry: rings, tags });
    }
  }
  return out;
}

/** Encodes layers of tile features as a Mapbox vector tile (version 2). */
export function encodeTile(layers: Record<string, TileFeature[]>): Uint8Array {
  const input: Record<string, { features: TileFeature[] }> = {};
  for (const [name, features] of Object.entries(layers)) input[name] = { features };
  return fromGeojsonVt(input, { version: 2, extent: TILE_EXTENT });
}
