import { readFile } from 'node:fs/promises';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from '../db/client.ts';
import { encodeMvt } from './mvt.ts';
import { encodeTileLine } from './tileLine.ts';
import { tileFeatures, TileLineCutter, type TileGrid } from './tiles.ts';

const street = { type: 'LineString', coordinates: [[120.1852461, 30.183058], [120.1854928, 30.1848203], [120.19, 30.19]] };
const crossing = { type: 'MultiLineString', coordinates: [[[-0.5, 51.5], [0.25, 51.4]], [[179.9, -85.2], [-179.9, 85.2], [10, 0]]] };

describe('tile lines', () => {
  it("are the bytes migration 0022's SQL made for the pipes written before it", async () => {
    const migration = await readFile(`${MIGRATIONS_FOLDER}/0022_pipe_tile_line.sql`, 'utf8');
    const createFunction = migration.split('--> statement-breakpoint')[0];
    const database = await openDatabase({ dataDir: null });
    try {
      await database.db.execute(sql.raw(createFunction));
      for (const geometry of [street, crossing]) {
        const { rows } = (await database.db.execute(sql`select pipe_tile_line(${JSON.stringify(geometry)}::jsonb) as line`)) as unknown as { rows: { line: Uint8Array }[] };
        const fromSql = new DataView(rows[0].line.buffer, rows[0].line.byteOffset, rows[0].line.byteLength);
        const ours = encodeTileLine(geometry);
        const fromJs = new DataView(ours.buffer);
        expect(rows[0].line.byteLength).toBe(ours.byteLength);
        // Counts equal; coordinates within one unit (a centimetre) of each other.
        for (let i = 0; i < ours.byteLength; i += 4) expect(Math.abs(fromSql.getUint32(i) - fromJs.getUint32(i))).toBeLessThanOrEqual(1);
      }
    } finally {
      await database.close();
    }
  });

  it('cut to a tile give the parts the degrees would, on both grids', () => {
    // The tile holding the street's middle point, on each grid and a few zooms.
    const [lon, lat] = street.coordinates[1];
    const tileOf = (grid: TileGrid, z: number): [TileGrid, number, number, number] => {
      if (grid === 4326) return [grid, z, Math.floor(((lon + 180) / 360) * 2 ** (z + 1)), Math.floor(((90 - lat) / 180) * 2 ** z)];
      const r = (lat * Math.PI) / 180;
      return [grid, z, Math.floor(((lon + 180) / 360) * 2 ** z), Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z)];
    };
    for (const [grid, z, x, y] of [tileOf(3857, 17), tileOf(3857, 13), tileOf(4326, 16), tileOf(4326, 10)]) {
      const fromDegrees = tileFeatures(grid, z, x, y, [{ geometry: street, properties: {} }])[0]?.parts ?? [];
      const fromLine = new TileLineCutter(grid, z, x, y).cut(encodeTileLine(street)).parts();
      expect(fromLine.length).toBe(fromDegrees.length);
      expect(fromLine.length).toBeGreaterThan(0);
      fromLine.forEach((part, i) => part.forEach((v, j) => expect(Math.abs(v - fromDegrees[i][j])).toBeLessThanOrEqual(1)));
    }
  });
});

describe('vector tile writer', () => {
  it('writes what a standard reader reads back: lines, polygons with holes, every kind of value', () => {
    const bytes = encodeMvt(
      {
        pipes: [
          { id: 7, type: 2, parts: [[0, 0, 10, 10, 20, 0], [100, 100, 90, 80]], properties: { name: 'W-1', diameterMm: 300, depthM: 1.25, below: -3, checked: true, missing: null } },
          { id: 300000, type: 2, parts: [[5, 5, 6, 6]], properties: { name: 'W-1', diameterMm: 300 } },
        ],
        parks: [{ type: 3, parts: [[0, 0, 200, 0, 200, 200, 0, 200], [50, 50, 50, 150, 150, 150, 150, 50]], properties: { kind: 'park' } }],
        empty: [],
      },
      4096,
    );
    const tile = new VectorTile(new Pbf(bytes));
    expect(Object.keys(tile.layers).sort()).toEqual(['parks', 'pipes']);
    const pipes = tile.layers.pipes;
    expect(pipes.extent).toBe(4096);
    expect(pipes.length).toBe(2);
    const first = pipes.feature(0);
    expect(first.type).toBe(2);
    expect(first.properties).toEqual({ name: 'W-1', diameterMm: 300, depthM: 1.25, below: -3, checked: true });
    expect(first.loadGeometry().map((ring) => ring.map((p) => [p.x, p.y]))).toEqual([[[0, 0], [10, 10], [20, 0]], [[100, 100], [90, 80]]]);
    expect((pipes.feature(1) as unknown as { id: number }).id).toBe(300000);
    const park = tile.layers.parks.feature(0);
    expect(park.type).toBe(3);
    expect(park.loadGeometry().map((ring) => ring.length)).toEqual([5, 5]);
  });
});
