import { and, eq, gte, lte, or, sql } from 'drizzle-orm';
import type { BBox } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { basemapFeatures, enterprises, pipes } from '../../db/schema.ts';
import { encodeTile, tileBBox, tileFeatures, type TileGrid } from '../../geo/tiles.ts';
import { pipeBboxIntersects } from '../pipelines/queries.ts';

/**
 * How much of the network a tile shows at zoom z, as real GIS layers set scale ranges: every pipe
 * from z13, mains (by diameter) from z11, trunk mains from z8, nothing further out. A whole city of
 * distribution pipes is noise at a small scale, and this keeps a tile small at every zoom.
 */
export const PIPE_DETAIL_ZOOMS = { all: 13, mains: 11, trunks: 8 } as const;
type Floors = Record<'water' | 'gas' | 'drainage' | 'other', number>;
/** Mains: water from DN400, gas from DN200, drainage from DN1000, other networks from DN300. */
export const MAIN_DIAMETER_MM: Floors = { water: 400, gas: 200, drainage: 1000, other: 300 };
/** Trunk mains: water from DN800, gas from DN315, drainage from DN1500, other networks from DN600. */
export const TRUNK_DIAMETER_MM: Floors = { water: 800, gas: 315, drainage: 1500, other: 600 };

/** The smallest diameters a tile at zoom z draws: null for every pipe, 'none' for no pipe. */
export function diameterFloorsAt(z: number): Floors | null | 'none' {
  if (z >= PIPE_DETAIL_ZOOMS.all) return null;
  if (z >= PIPE_DETAIL_ZOOMS.mains) return MAIN_DIAMETER_MM;
  if (z >= PIPE_DETAIL_ZOOMS.trunks) return TRUNK_DIAMETER_MM;
  return 'none';
}

const atLeast = (floors: Floors) =>
  or(
    and(eq(pipes.networkType, 'water'), gte(pipes.diameterMm, floors.water)),
    and(eq(pipes.networkType, 'gas'), gte(pipes.diameterMm, floors.gas)),
    and(eq(pipes.networkType, 'drainage'), gte(pipes.diameterMm, floors.drainage)),
    and(sql`${pipes.networkType} not in ('water', 'gas', 'drainage')`, gte(pipes.diameterMm, floors.other)),
  )!;

/**
 * Made tiles, keyed by enterprise, its pipes version and the tile address. A change to the pipes
 * bumps the version, so stale tiles are never served; the oldest entries go first.
 */
class TileCache {
  private entries = new Map<string, Uint8Array>();
  constructor(private readonly limit: number) {}
  get(key: string) {
    const tile = this.entries.get(key);
    if (tile) {
      this.entries.delete(key);
      this.entries.set(key, tile);
    }
    return tile;
  }
  clear() {
    this.entries.clear();
  }
  set(key: string, tile: Uint8Array) {
    this.entries.set(key, tile);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }
}

const cache = new TileCache(5000);

/** Forgets every made tile (benchmarks measure cold tiles). */
export const clearTileCache = () => cache.clear();

export async function pipesVersion(db: Db, enterpriseId: number): Promise<number> {
  const [row] = await db.select({ version: enterprises.pipesVersion }).from(enterprises).where(eq(enterprises.id, enterpriseId));
  return row?.version ?? 0;
}

/** Marks the enterprise's pipe tiles stale; call after any change to its pipes. */
export async function bumpPipesVersion(db: Db, enterpriseId: number) {
  await db.update(enterprises).set({ pipesVersion: sql`${enterprises.pipesVersion} + 1` }).where(eq(enterprises.id, enterpriseId));
}

/** The enterprise's pipes in tile z/x/y as an MVT layer "pipes". */
export async function pipeTile(db: Db, enterpriseId: number, grid: TileGrid, z: number, x: number, y: number): Promise<Uint8Array> {
  const version = await pipesVersion(db, enterpriseId);
  const key = `${enterpriseId}:${version}:${grid}/${z}/${x}/${y}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const floors = diameterFloorsAt(z);
  if (floors === 'none') {
    const empty = encodeTile({ pipes: [] });
    cache.set(key, empty);
    return empty;
  }
  const box: BBox = tileBBox(grid, z, x, y);
  const where = [eq(pipes.enterpriseId, enterpriseId), pipeBboxIntersects(box)];
  if (floors) where.push(atLeast(floors));
  const rows = await db
    .select({
      id: pipes.id,
      pipeId: pipes.pipeId,
      networkType: pipes.networkType,
      material: pipes.material,
      diameterMm: pipes.diameterMm,
      installYear: pipes.installYear,
      geometry: pipes.geometry,
    })
    .from(pipes)
    .where(and(...where));
  const features = rows.map(({ id, geometry, ...properties }) => ({ id, geometry, properties: { id, ...properties } }));
  const tile = encodeTile({ pipes: tileFeatures(grid, z, x, y, features) });
  cache.set(key, tile);
  return tile;
}

/** The built-in basemap (streets, river, parks) in tile z/x/y: layers "water", "parks", "streets". */
export async function basemapTile(db: Db, grid: TileGrid, z: number, x: number, y: number): Promise<Uint8Array> {
  const key = `basemap:${grid}/${z}/${x}/${y}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const box = tileBBox(grid, z, x, y);
  const rows = await db
    .select({ id: basemapFeatures.id, kind: basemapFeatures.kind, name: basemapFeatures.name, geometry: basemapFeatures.geometry })
    .from(basemapFeatures)
    .where(and(lte(basemapFeatures.minx, box[2]), gte(basemapFeatures.maxx, box[0]), lte(basemapFeatures.miny, box[3]), gte(basemapFeatures.maxy, box[1])));
  const of = (kinds: string[]) =>
    tileFeatures(
      grid,
      z,
      x,
      y,
      rows.filter((r) => kinds.includes(r.kind)).map((r) => ({ id: r.id, geometry: r.geometry, properties: { kind: r.kind, name: r.name } })),
    );
  const tile = encodeTile({ water: of(['river']), parks: of(['park']), streets: of(['street', 'mainStreet']) });
  cache.set(key, tile);
  return tile;
}
