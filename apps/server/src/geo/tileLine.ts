/**
 * A pipe's line as the tiles read it: Web Mercator coordinates as whole units of a 2^32 grid over
 * the world (about 1 cm at the equator; a z20 tile is 4096 of them, the extent of a vector tile),
 * big-endian, each part its point count then its points. Made once when a pipe is written, so a
 * tile needs neither a JSON parse nor a projection per point: it scales and shifts integers.
 * Migration 0022 made the same bytes in SQL for the pipes written before it (a test compares them).
 */
export const WORLD_UNITS = 2 ** 32;
const MAX_MERCATOR_LAT = 85.0511287798;

/** A fraction of the world's width or height as whole units of the grid. */
const unit = (f: number) => Math.min(WORLD_UNITS - 1, Math.max(0, Math.floor(f * WORLD_UNITS)));
/** A longitude in degrees to the world grid. */
const worldX = (lon: number) => unit((lon + 180) / 360);
/** A latitude in degrees to the world grid (Web Mercator). */
function worldY(lat: number) {
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return unit(0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI));
}

/** The bytes of a LineString or MultiLineString (WGS84). */
export function encodeTileLine(geometry: { type: string; coordinates: unknown }): Uint8Array {
  const parts = (geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates) as number[][][];
  let size = 0;
  for (const part of parts) size += 4 + part.length * 8;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let offset = 0;
  for (const part of parts) {
    view.setUint32(offset, part.length);
    offset += 4;
    for (let i = 0; i < part.length; i++) {
      view.setUint32(offset, worldX(part[i][0]));
      view.setUint32(offset + 4, worldY(part[i][1]));
      offset += 8;
    }
  }
  return bytes;
}
