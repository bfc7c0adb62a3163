import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { PackedQuery, PackedRows } from '../../db/packed.ts';
import { intBytes, textBytes, withLength } from '../../db/packedSql.ts';
import { basemapFeatures, bboxBox, enterprises, pipeRisks, pipes } from '../../db/schema.ts';
import { PIPE_SCALE_CLASS, scaleConditionAt } from '../../geo/pipeScales.ts';
import { encodeTile, TILE_EXTENT, tileBBox, tileFeatures, TileLineCutter, type TileGrid } from '../../geo/tiles.ts';
import { MvtWriter, type MvtLayer, type TileGeometry } from '../../geo/mvt.ts';

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

/**
 * A pipe feature's properties as the layer's key and value indexes, filled field by field from
 * the packed rows (no object per feature; a null value leaves its property out).
 */
class PipeTags {
  private readonly tags: number[] = [];
  private count = 0;

  constructor(private readonly layer: MvtLayer) {}

  clear() {
    this.count = 0;
  }

  private push(key: string, value: number) {
    this.tags[this.count++] = this.layer.key(key);
    this.tags[this.count++] = value;
  }

  text(key: string, value: string | null) {
    if (value !== null) this.push(key, this.layer.value(value));
  }

  number(key: string, value: number | null) {
    if (value !== null) this.push(key, this.layer.value(value));
  }

  /** A number no other pipe of the tile has (its row id). */
  uniqueNumber(key: string, value: number) {
    this.push(key, this.layer.uniqueNumber(value));
  }

  /** The next text of the rows, which no other pipe of the tile has (its own id), as its bytes. */
  uniqueText(key: string, rows: PackedRows) {
    const [start, length] = rows.span();
    if (start >= 0) this.push(key, this.layer.uniqueText(rows.bytes, start, length));
  }

  addTo(id: number | undefined, geometry: TileGeometry) {
    this.layer.addFeature(id, 2, this.tags, this.count, geometry);
  }
}

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

type TileWindow = 'enterprise' | 'minx' | 'miny' | 'maxx' | 'maxy';

/**
 * SQL: a pipe's risk level, found by its key in the tile's enterprise's partition. Joined instead, the planner (which takes every box
 * window for 5,000 pipes) hashes the whole risk table per tile: over a million assessed pipes a
 * z16 tile took 5 ms instead of 0.6 (pipe_tile_pipes does the same, migration 0026).
 */
const riskLevel = sql`select ${pipeRisks.level} from ${pipeRisks} where ${pipeRisks.enterpriseId} = ${sql.placeholder('enterprise')} and ${pipeRisks.pipeRowId} = ${pipes.id}`;

/**
 * SQL: the enterprise's trunk mains whose box meets the tile's (placeholders; the literal scale
 * condition is the partial index's own, so the planner can use that index). The enterprise picks
 * its partition (migration 0026), in which no index led by the enterprise narrows anything, so the
 * box index alone narrows a tile.
 */
const trunkWindow = sql`${pipes.enterpriseId} = ${sql.placeholder('enterprise')} and "pipes"."scale_class" = ${sql.raw(String(PIPE_SCALE_CLASS.trunk))}
  and ${bboxBox(pipes)} && box(point(${sql.placeholder('minx')}::float8, ${sql.placeholder('miny')}::float8), point(${sql.placeholder('maxx')}::float8, ${sql.placeholder('maxy')}::float8))`;

/**
 * Single pipes with their attributes: each pipe's packed head (schema/pipelines.ts), its line and
 * its risk level (the four-colour risk map colours by it; null: not assessed yet), by the database
 * function pipe_tile_pipes (migrations 0025, 0026: it runs without bitmap scans, which cost a small tile
 * a third of its time).
 */
const singlePipes = (name: string, mainsOnly: boolean) =>
  new PackedQuery<TileWindow>(
    name,
    sql`select pipe_tile_pipes(${sql.placeholder('enterprise')}::int, ${sql.placeholder('minx')}::float8, ${sql.placeholder('miny')}::float8, ${sql.placeholder('maxx')}::float8, ${sql.placeholder('maxy')}::float8, ${sql.raw(String(mainsOnly))}) as "rows"`,
  );

/**
 * Trunk mains only, at overview zooms: one feature per network type, diameter and risk level
 * without the single pipe's attributes (a line one pixel wide cannot be picked out anyway, and
 * per-pipe ids were most of a zoom-10 tile's bytes); their lines joined in SQL.
 */
const trunkGroups = new PackedQuery<TileWindow>(
  'pipe-tile-trunks',
  sql`select string_agg(${textBytes(sql`network_type`)} || ${intBytes(sql`diameter_mm`)} || ${textBytes(sql`level`)} || ${withLength(sql`lines`)}, ''::bytea) as "rows"
    from (
      select ${pipes.networkType} as network_type, ${pipes.diameterMm} as diameter_mm, (${riskLevel}) as level, string_agg(${pipes.tileLine}, ''::bytea) as lines
      from ${pipes}
      where ${trunkWindow}
      group by 1, 2, 3
    ) groups`,
);
const mainPipes = singlePipes('pipe-tile-mains', true);
const allPipes = singlePipes('pipe-tile-all', false);

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
  const [minx, miny, maxx, maxy] = tileBBox(grid, z, x, y);
  const window = { enterprise: enterpriseId, minx, miny, maxx, maxy };
  const packed = await (scales === '= 0' ? trunkGroups : scales === null ? allPipes : mainPipes).run(db, window);
  const rows = new PackedRows(packed);
  const cutter = new TileLineCutter(grid, z, x, y);
  const writer = new MvtWriter(TILE_EXTENT);
  const layer = writer.layer('pipes');
  const tags = new PipeTags(layer);
  if (scales === '= 0') {
    while (!rows.done) {
      tags.clear();
      tags.text('networkType', rows.string());
      tags.number('diameterMm', rows.int());
      tags.text('riskLevel', rows.string());
      const [start, length] = rows.span();
      tags.addTo(undefined, cutter.cut(rows.bytes, start, length));
    }
  } else {
    while (!rows.done) {
      tags.clear();
      const id = rows.bigint();
      tags.uniqueNumber('id', id);
      tags.uniqueText('pipeId', rows);
      tags.text('networkType', rows.string());
      tags.text('material', rows.string());
      tags.number('diameterMm', rows.int());
      tags.number('installYear', rows.int());
      const [start, length] = rows.span();
      const geometry = cutter.cut(rows.bytes, start, length);
      tags.text('riskLevel', rows.string());
      tags.addTo(id, geometry);
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
