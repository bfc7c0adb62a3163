// Types for the small tile packages that ship none.
declare module '@mapbox/vector-tile' {
  export class VectorTile {
    constructor(pbf: unknown);
    layers: Record<string, { length: number; extent: number; feature(i: number): { id?: number; type: number; properties: Record<string, unknown>; loadGeometry(): { x: number; y: number }[][]; toGeoJSON(x: number, y: number, z: number): { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> } } }>;
  }
}
declare module 'pbf' {
  export default class Pbf {
    constructor(data?: Uint8Array);
  }
}
declare module 'monotone-convex-hull-2d' {
  /** The indexes of the points on the hull, counter-clockwise. */
  export default function convexHull(points: number[][]): number[];
}
