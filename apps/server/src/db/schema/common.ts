/** Column helpers and stored shapes shared by every domain's tables. */
import { sql } from 'drizzle-orm';
import { customType, doublePrecision, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Bytes (PostgreSQL bytea): a Buffer from the server, a Uint8Array from PGlite. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** GeoJSON geometry as stored: WGS84 (EPSG:4326) coordinates. */
export type StoredGeometry =
  | { type: 'LineString'; coordinates: number[][] }
  | { type: 'MultiLineString'; coordinates: number[][][] }
  | { type: 'Polygon'; coordinates: number[][][] }
  | { type: 'MultiPolygon'; coordinates: number[][][][] };

/**
 * The bounding box columns as a PostgreSQL box: GiST-indexed (core PostgreSQL, no PostGIS), so a
 * map window finds its rows among millions without scanning. Queries must use this same expression.
 */
export const bboxBox = (t: { minx: AnyPgColumn; miny: AnyPgColumn; maxx: AnyPgColumn; maxy: AnyPgColumn }) =>
  sql`box(point(${t.minx}, ${t.miny}), point(${t.maxx}, ${t.maxy}))`;

/** Bounding box columns beside every geometry, indexed for window queries on both databases. */
export const bbox = () => ({
  minx: doublePrecision('minx').notNull(),
  miny: doublePrecision('miny').notNull(),
  maxx: doublePrecision('maxx').notNull(),
  maxy: doublePrecision('maxy').notNull(),
});
