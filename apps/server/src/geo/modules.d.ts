// Types for the small tile packages that ship none.
declare module 'vt-pbf' {
  export interface TileFeature {
    id?: number;
    /** 1 point, 2 line, 3 polygon */
    type: 1 | 2 | 3;
    geometry: number[][][];
    tags: Record<string, string | number | boolean>;
  }
  export function fromGeojsonVt(layers: Record<string, { features: TileFeature[] }>, options?: { version?: number; extent?: number }): Uint8Array;
}
declare module '@mapbox/vector-tile' {
  export class VectorTile {
    constructor(pbf: unknown);
    layers: Record<string, { length: number; extent: number; feature(i: number): { type: number; properties: Record<string, unknown>; loadGeometry(): { x: number; y: number }[][]; toGeoJSON(x: number, y: number, z: number): { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> } } }>;
  }
}
declare module 'pbf' {
  export default class Pbf {
    constructor(data?: Uint8Array);
  }
}
