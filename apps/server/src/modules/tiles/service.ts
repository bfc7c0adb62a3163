import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { BBox } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { intBytes, packedBytes, PackedRows, textBytes, withLength } from '../../db/packed.ts';
import { basemapFeatures, enterprises, pipeRisks, pipes } from '../../db/schema.ts';
import { scaleConditionAt } from '../../geo/pipeScales.ts';
import { encodeTile, TILE_EXTENT, tileBBox, tileFeatures, TileLineCutter, type TileGrid } from '../../geo/tiles.ts';
import { MvtWriter } from '../../geo/mvt.ts';
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
    const empty = new MvtWriter(TILE_EXTENT).bytes();
    cache.set(key, empty);
    return empty;
  }
  const box: BBox = tileBBox(grid, z, x, y);
  const where = [eq(pipes.enterpriseId, enterpriseId), pipeBboxIntersects(box)];
  // The literal condition is the partial index's own, so the planner can use that index.
  if (scales) where.push(sql.raw(`"pipes"."scale_class" ${scales}`));
  const window = and(...where);
  const cutter = new TileLineCutter(grid, z, x, y);
  const writer = new MvtWriter(TILE_EXTENT);
  const layer = writer.layer('pipes');
  // The four-colour risk map colours by the risk level (null: not assessed yet).
  if (scales === '= 0') {
    // Trunk mains only, at overview zooms: one feature per network type, diameter and risk level
    // without the single pipe's attributes (a line one pixel wide cannot be picked out anyway,
    // and per-pipe ids were most of a zoom-10 tile's bytes); their lines joined in SQL.
    const packed = await db.execute(sql`
      select string_agg(${textBytes(sql`network_type`)} || ${intBytes(sql`diameter_mm`)} || ${textBytes(sql`level`)} || ${withLength(sql`lines`)}, ''::bytea) as "rows"
      from (
        select ${pipes.networkType} as network_type, ${pipes.diameterMm} as diameter_mm, ${pipeRisks.level} as level, string_agg(${pipes.tileLine}, ''::bytea) as lines
        from ${pipes} left join ${pipeRisks} on ${pipeRisks.pipeRowId} = ${pipes.id}
        where ${window}
        group by 1, 2, 3
      ) groups`);
    const rows = new PackedRows(packedBytes(packed));
    while (!rows.done) {
      const networkType = rows.string();
      const diameterMm = rows.int();
      const riskLevel = rows.string();
      const parts = cutter.cut(rows.bytes, ...rows.span());
      if (parts.length) layer.add({ type: 2, parts, properties: { networkType, diameterMm, riskLevel } });
    }
  } else {
    const packed = await db.execute(sql`
      select string_agg(
        int8send(${pipes.id}) || ${textBytes(sql`${pipes.pipeId}`)} || ${textBytes(sql`${pipes.networkType}`)} || ${textBytes(sql`${pipes.material}`)}
          || ${intBytes(sql`${pipes.diameterMm}`)} || ${intBytes(sql`${pipes.installYear}`)} || ${textBytes(sql`${pipeRisks.level}`)} || ${withLength(sql`${pipes.tileLine}`)},
        ''::bytea) as "rows"
      from ${pipes} left join ${pipeRisks} on ${pipeRisks.pipeRowId} = ${pipes.id}
      where ${window}`);
    const rows = new PackedRows(packedBytes(packed));
    while (!rows.done) {
      const id = rows.bigint();
      const properties = { id, pipeId: rows.string(), networkType: rows.string(), material: rows.string(), diameterMm: rows.int(), installYear: rows.int(), riskLevel: rows.string() };
      const parts = cutter.cut(rows.bytes, ...rows.span());
      if (parts.length) layer.add({ id, type: 2, parts, properties });
    }
  }
  layer.finish();
  const tile = writer.bytes();
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
