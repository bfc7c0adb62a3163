import { encodeMvt, TileGeometry, type MvtFeature, type PropertyValue } from './mvt.ts';
import { WORLD_UNITS } from './tileLine.ts';
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

/**
 * Cuts polylines (flat tile coordinates) to the box [min, max] on both axes (Liang-Barsky per
 * segment), keeping runs; rounds them to whole tile units and drops repeated points (what a
 * screen pixel cannot show). Parts of fewer than two points are dropped. One per tile, reused:
 * the parts go into `geometry`, cleared for each feature.
 */
class LineClipper {
  readonly geometry = new TileGeometry();
  /** Where the part being cut starts in the geometry. */
  private partStart = 0;

  constructor(
    private readonly min: number,
    private readonly max: number,
  ) {}

  private add(x: number, y: number) {
    const rx = Math.round(x);
    const ry = Math.round(y);
    const g = this.geometry;
    if (g.size === this.partStart || g.xy[g.size - 2] !== rx || g.xy[g.size - 1] !== ry) g.push(rx, ry);
  }

  private close() {
    const g = this.geometry;
    if (g.size - this.partStart >= 4) {
      g.endPart();
      this.partStart = g.size;
    } else g.size = this.partStart;
  }

  /** Starts the next feature's parts. */
  clear() {
    this.geometry.clear();
    this.partStart = 0;
  }

  /** Adds the cut parts of a line of `count` points to the geometry. */
  clip(points: ArrayLike<number>, count: number) {
    const { min, max } = this;
    const g = this.geometry;
    for (let i = 1; i < count; i++) {
      const x0 = points[2 * i - 2];
      const y0 = points[2 * i - 1];
      const x1 = points[2 * i];
      const y1 = points[2 * i + 1];
      // Both ends inside: the segment is kept whole (most segments of a tile).
      if (x0 >= min && x0 <= max && y0 >= min && y0 <= max && x1 >= min && x1 <= max && y1 >= min && y1 <= max) {
        if (g.size === this.partStart) this.add(x0, y0);
        this.add(x1, y1);
        continue;
      }
      const dx = x1 - x0;
      const dy = y1 - y0;
      // The four edges as (p, q) pairs: left, right, top, bottom (no closure: this runs per segment).
      let t0 = 0;
      let t1 = 1;
      let visible = true;
      for (let e = 0; e < 4; e++) {
        const p = e === 0 ? -dx : e === 1 ? dx : e === 2 ? -dy : dy;
        const q = e === 0 ? x0 - min : e === 1 ? max - x0 : e === 2 ? y0 - min : max - y0;
        if (p === 0) {
          if (q < 0) visible = false;
        } else if (p < 0) t0 = Math.max(t0, q / p);
        else t1 = Math.min(t1, q / p);
      }
      if (!visible || t0 > t1) {
        this.close();
        continue;
      }
      if (g.size === this.partStart) this.add(x0 + t0 * dx, y0 + t0 * dy);
      this.add(x0 + t1 * dx, y0 + t1 * dy);
      if (t1 < 1) this.close();
    }
    this.close();
  }
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

/** Rounds a ring to whole tile units and drops repeated points. */
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
  properties: Record<string, PropertyValue>;
}

/** [lon, lat] to tile coordinates of tile z/x/y on the grid. */
function toTileOf(grid: TileGrid, z: number, x: number, y: number) {
  const [nx, ny] = tilesAt(grid, z);
  return (lon: number, lat: number): Point => {
    const [fx, fy] = project(grid, lon, lat);
    return [(fx * nx - x) * TILE_EXTENT, (fy * ny - y) * TILE_EXTENT];
  };
}

/** Features of one layer cut and scaled to tile z/x/y of the grid. */
export function tileFeatures(grid: TileGrid, z: number, x: number, y: number, features: TileSourceFeature[]): MvtFeature[] {
  const toTile = toTileOf(grid, z, x, y);
  const out: MvtFeature[] = [];
  for (const f of features) {
    const g = f.geometry;
    if (g.type === 'LineString' || g.type === 'MultiLineString') {
      const lines = (g.type === 'LineString' ? [g.coordinates] : g.coordinates) as number[][][];
      const clipper = new LineClipper(-BUFFER, TILE_EXTENT + BUFFER);
      for (const line of lines) clipper.clip(line.flatMap((p) => toTile(p[0], p[1])), line.length);
      const parts = clipper.geometry.parts();
      if (parts.length) out.push({ id: f.id, type: 2, parts, properties: f.properties });
    } else if (g.type === 'Polygon' || g.type === 'MultiPolygon') {
      const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as number[][][][];
      const rings: number[][] = [];
      for (const polygon of polygons) {
        polygon.forEach((ring, index) => {
          const clipped = snap(clipRing(ring.slice(0, -1).map((p) => toTile(p[0], p[1])), -BUFFER, TILE_EXTENT + BUFFER));
          if (clipped.length < 3) return;
          // MVT: outer rings clockwise in tile coordinates (y down), holes counter-clockwise.
          const clockwise = signedArea(clipped) > 0;
          if ((index === 0) !== clockwise) clipped.reverse();
          rings.push(clipped.flat());
        });
      }
      if (rings.length) out.push({ id: f.id, type: 3, parts: rings, properties: f.properties });
    }
  }
  return out;
}

/**
 * Cuts pipes' tile lines (geo/tileLine.ts) to tile z/x/y: whole tile coordinates by scaling the
 * integers on the Web Mercator grid (the WGS84 grid takes the latitude back first). One per tile.
 */
export class TileLineCutter {
  private readonly clipper = new LineClipper(-BUFFER, TILE_EXTENT + BUFFER);
  private points = new Float64Array(256);
  private bytes: Uint8Array | null = null;
  private view: DataView | null = null;
  private readonly scale: number;
  private readonly rows: number;

  constructor(
    private readonly grid: TileGrid,
    z: number,
    private readonly x: number,
    private readonly y: number,
  ) {
    const [nx, ny] = tilesAt(grid, z);
    this.scale = (TILE_EXTENT * nx) / WORLD_UNITS;
    this.rows = ny;
  }

  /** The parts of the line held in `bytes` from `offset` for `length` bytes (the geometry is reused by the next cut). */
  cut(bytes: Uint8Array, offset = 0, length = bytes.byteLength - offset): TileGeometry {
    // One view for all the lines of a tile's packed rows.
    if (bytes !== this.bytes) this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.bytes = bytes;
    const view = this.view!;
    this.clipper.clear();
    const { scale, grid } = this;
    const left = this.x * TILE_EXTENT;
    const top = this.y * TILE_EXTENT;
    for (let at = offset, stop = offset + length; at + 4 <= stop; ) {
      const count = view.getUint32(at);
      at += 4;
      if (this.points.length < count * 2) this.points = new Float64Array(count * 4);
      const points = this.points;
      for (let i = 0; i < count * 2; i += 2, at += 8) {
        points[i] = view.getUint32(at) * scale - left;
        const wy = view.getUint32(at + 4);
        if (grid === 3857) points[i + 1] = wy * scale - top;
        else {
          const lat = Math.atan(Math.sinh(Math.PI * (1 - (2 * wy) / WORLD_UNITS)));
          points[i + 1] = ((0.5 - lat / Math.PI) * this.rows - this.y) * TILE_EXTENT;
        }
      }
      this.clipper.clip(points, count);
    }
    return this.clipper.geometry;
  }
}

/** Encodes layers of tile features as a Mapbox vector tile (version 2). */
export function encodeTile(layers: Record<string, MvtFeature[]>): Uint8Array {
  return encodeMvt(layers, TILE_EXTENT);
}
