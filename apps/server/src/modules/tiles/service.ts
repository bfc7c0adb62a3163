import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { BBox } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { basemapFeatures, enterprises, pipeRisks, pipes, type StoredGeometry } from '../../db/schema.ts';
import { scaleConditionAt } from '../../geo/pipeScales.ts';
import { encodeTile, tileBBox, tileFeatures, type TileGrid, type TileSourceFeature } from '../../geo/tiles.ts';
import { pipeBboxIntersects } from '../pipelines/queries.ts';

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

/**
 * Trunk mains at overview zooms as one feature per network type and diameter, without the single
 * pipe's attributes: a line one pixel wide cannot be picked out anyway, and a zoom-10 tile over a
 * dense city shrinks to a fraction (per-pipe ids and names were most of its bytes).
 */
function overviewFeatures(rows: { networkType: string; diameterMm: number | null; riskLevel: string | null; geometry: StoredGeometry }[]): TileSourceFeature[] {
  const groups = new Map<string, TileSourceFeature & { geometry: { type: 'MultiLineString'; coordinates: number[][][] } }>();
  for (const { networkType, diameterMm, riskLevel, geometry } of rows) {
    const key = `${networkType}:${diameterMm}:${riskLevel}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { geometry: { type: 'MultiLineString', coordinates: [] }, properties: { networkType, diameterMm, riskLevel } }));
    if (geometry.type === 'LineString') group.geometry.coordinates.push(geometry.coordinates);
    else if (geometry.type === 'MultiLineString') group.geometry.coordinates.push(...geometry.coordinates);
  }
  return [...groups.values()];
}

const pipeTileKey = (enterpriseId: number, version: number, grid: TileGrid, z: number, x: number, y: number) => `${enterpriseId}:${version}:${grid}/${z}/${x}/${y}`;

/** The tile if it was made already for this pipes version (no database work at all). */
export function madePipeTile(enterpriseId: number, version: number, grid: TileGrid, z: number, x: number, y: number): Uint8Array | undefined {
  return cache.get(pipeTileKey(enterpriseId, version, grid, z, x, y));
}

/** The enterprise's pipes in tile z/x/y as an MVT layer "pipes" (version: the pipes version, when the caller knows it). */
export async function pipeTile(db: Db, enterpriseId: number, grid: TileGrid, z: number, x: number, y: number, version?: number): Promise<Uint8Array> {
  version ??= await pipesVersion(db, enterpriseId);
  const key = pipeTileKey(enterpriseId, version, grid, z, x, y);
  const cached = cache.get(key);
  if (cached) return cached;
  const scales = scaleConditionAt(z);
  if (scales === 'none') {
    const empty = encodeTile({ pipes: [] });
    cache.set(key, empty);
    return empty;
  }
  const box: BBox = tileBBox(grid, z, x, y);
  const where = [eq(pipes.enterpriseId, enterpriseId), pipeBboxIntersects(box)];
  // The literal condition is the partial index's own, so the planner can use that index.
  if (scales) where.push(sql.raw(`"pipes"."scale_class" ${scales}`));
  const rows = await db
    .select({
      id: pipes.id,
      pipeId: pipes.pipeId,
      networkType: pipes.networkType,
      material: pipes.material,
      diameterMm: pipes.diameterMm,
      installYear: pipes.installYear,
      // The four-colour risk map colours by it (null: not assessed yet).
      riskLevel: pipeRisks.level,
      geometry: pipes.geometry,
    })
    .from(pipes)
    .leftJoin(pipeRisks, eq(pipeRisks.pipeRowId, pipes.id))
    .where(and(...where));
  const overview = scales === '= 0'; // trunk mains only
  const features = overview ? overviewFeatures(rows) : rows.map(({ id, geometry, ...properties }) => ({ id, geometry, properties: { id, ...properties } }));
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
