import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { MAIN_DIAMETER_MM, TRUNK_DIAMETER_MM } from '../../geo/pipeScales.ts';
import { as, login, useDemoServer } from '../../testing/app.ts';

const demo = useDemoServer();

/** Tile x/y holding lon/lat at zoom z on the Web Mercator grid. */
function mercatorTile(lon: number, lat: number, z: number) {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return { x, y };
}

const decode = (body: Buffer) => new VectorTile(new Pbf(new Uint8Array(body)));

describe('vector tiles', () => {
  it("serve the enterprise's pipes with their attributes, decoded by a standard MVT reader", async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const { x, y } = mercatorTile(120.205, 30.2, 15);
    const response = await api({ method: 'GET', url: `/api/tiles/pipes/3857/15/${x}/${y}.pbf` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    const layer = decode(response.rawPayload).layers.pipes;
    expect(layer.length).toBeGreaterThan(5);
    const types = new Set<unknown>();
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      expect(f.type).toBe(2);
      types.add(f.properties.networkType);
      const geo = f.toGeoJSON(x, y, 15);
      const coords = (geo.geometry.type === 'LineString' ? [geo.geometry.coordinates] : geo.geometry.coordinates) as number[][][];
      // Decoded back to degrees, the lines sit in the demo city near the tile.
      for (const line of coords) for (const [lon, lat] of line) {
        expect(lon).toBeGreaterThan(120.1);
        expect(lon).toBeLessThan(120.3);
        expect(lat).toBeGreaterThan(30.1);
        expect(lat).toBeLessThan(30.3);
      }
    }
    expect([...types].sort()).toEqual(['drainage', 'water']);
    expect(layer.feature(0).properties).toMatchObject({ pipeId: expect.stringMatching(/^[WD]-/), diameterMm: expect.any(Number) });

    // A browser takes gzip: the same tile, compressed (once, then sent as kept).
    for (let i = 0; i < 2; i++) {
      const zipped = await api({ method: 'GET', url: `/api/tiles/pipes/3857/15/${x}/${y}.pbf`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/accept-encoding/i);
      expect(zipped.rawPayload.length).toBeLessThan(response.rawPayload.length);
      expect(gunzipSync(zipped.rawPayload).equals(response.rawPayload)).toBe(true);
    }
  });

  it('make WGS84 (4326) tiles too, and draw mains, then trunk mains, then nothing as the map zooms out', async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    // 4326 grid: 2 x 1 tiles at zoom 0; at zoom 12 a tile is 180/4096 degrees.
    const size = 180 / 2 ** 12;
    const x = Math.floor((120.205 + 180) / size);
    const y = Math.floor((90 - 30.2) / size);
    // The 16 zoom-14 tiles under the zoom-12 one draw pipes of every size, smaller than the mains zoom 12 keeps.
    const nearSizes: number[] = [];
    for (let i = 0; i < 16; i++) {
      const layer = decode((await api({ method: 'GET', url: `/api/tiles/pipes/4326/14/${x * 4 + (i % 4)}/${y * 4 + Math.floor(i / 4)}.pbf` })).rawPayload).layers.pipes;
      for (let f = 0; f < (layer?.length ?? 0); f++) nearSizes.push((layer.feature(f).properties as { diameterMm: number }).diameterMm);
    }
    expect(nearSizes.length).toBeGreaterThan(0);
    expect(Math.min(...nearSizes)).toBeLessThan(MAIN_DIAMETER_MM.water);
    const out = decode((await api({ method: 'GET', url: `/api/tiles/pipes/4326/12/${x}/${y}.pbf` })).rawPayload).layers.pipes;
    expect(out.length).toBeGreaterThan(0);

    for (let i = 0; i < out.length; i++) {
      const f = out.feature(i).properties as { diameterMm: number; networkType: string };
      expect(f.diameterMm).toBeGreaterThanOrEqual(MAIN_DIAMETER_MM[f.networkType as 'water']);
    }
    // Further out only the trunk mains, and nothing at all below zoom 8.
    const trunks = decode((await api({ method: 'GET', url: `/api/tiles/pipes/4326/9/${x >> 3}/${y >> 3}.pbf` })).rawPayload).layers.pipes;
    expect(trunks.length).toBeGreaterThan(0);
    expect(trunks.length).toBeLessThan(out.length);
    let trunkLines = 0;
    for (let i = 0; i < trunks.length; i++) {
      const feature = trunks.feature(i);
      const f = feature.properties as { diameterMm: number; networkType: string };
      expect(f.diameterMm).toBeGreaterThanOrEqual(TRUNK_DIAMETER_MM[f.networkType as 'water']);
      // Overview tiles carry one feature per network, diameter and risk level, without single pipes' attributes.
      expect(Object.keys(feature.properties).sort()).toEqual(['diameterMm', 'networkType', 'riskLevel']);
      expect(['I', 'II', 'III', 'IV']).toContain(feature.properties.riskLevel);
      trunkLines += feature.loadGeometry().length;
    }
    expect(trunkLines).toBeGreaterThan(trunks.length);
    const none = decode((await api({ method: 'GET', url: `/api/tiles/pipes/4326/7/${x >> 5}/${y >> 5}.pbf` })).rawPayload).layers.pipes;
    expect(none).toBeUndefined();
  });

  it('follow pipe changes at once (the cache is keyed by a version) and never show another enterprise', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const z = 17;
    const { x, y } = mercatorTile(120.30005, 30.30005, z);
    const url = `/api/tiles/pipes/3857/${z}/${x}/${y}.pbf`;
    const before = decode((await admin({ method: 'GET', url })).rawPayload).layers.pipes;
    expect(before).toBeUndefined();
    // Every attribute as the database packs it with the row (a backslash and Chinese included).
    const pipe = { pipeId: 'W-TILE\\1-管', networkType: 'water', material: '球墨铸铁 DN', diameterMm: 100, installYear: 1998, geometry: { type: 'LineString', coordinates: [[120.3, 30.3], [120.3001, 30.3001]] } };
    const created = (await admin({ method: 'POST', url: '/api/pipelines', payload: pipe })).json().result;
    const after = decode((await admin({ method: 'GET', url })).rawPayload).layers.pipes;
    expect(after.length).toBe(1);
    expect(after.feature(0).id).toBe(created.id);
    expect(after.feature(0).properties).toEqual({ id: created.id, pipeId: 'W-TILE\\1-管', networkType: 'water', material: '球墨铸铁 DN', diameterMm: 100, installYear: 1998 });
    // An edit shows at once, its packed attributes made again with the row.
    await admin({ method: 'PUT', url: `/api/pipelines/${created.id}`, payload: { ...pipe, material: null, installYear: null, diameterMm: 150 } });
    const edited = decode((await admin({ method: 'GET', url })).rawPayload).layers.pipes;
    expect(edited.feature(0).properties).toEqual({ id: created.id, pipeId: 'W-TILE\\1-管', networkType: 'water', diameterMm: 150 });
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect(decode((await gas({ method: 'GET', url })).rawPayload).layers.pipes).toBeUndefined();
    await admin({ method: 'DELETE', url: `/api/pipelines/${created.id}` });
    expect(decode((await admin({ method: 'GET', url })).rawPayload).layers.pipes).toBeUndefined();
  });

  it('serve the built-in basemap without sign-in, and refuse tiles outside the grid', async () => {
    const { x, y } = mercatorTile(120.205, 30.2, 13);
    const response = await demo.app.inject({ method: 'GET', url: `/api/tiles/basemap/3857/13/${x}/${y}.pbf` });
    const tile = decode(response.rawPayload);
    expect(tile.layers.streets.length).toBeGreaterThan(3);
    expect(tile.layers.streets.feature(0).properties.kind).toMatch(/street|mainStreet/);
    expect((await demo.app.inject({ method: 'GET', url: '/api/tiles/basemap/3857/2/9/0.pbf' })).statusCode).toBe(400);
    expect((await demo.app.inject({ method: 'GET', url: '/api/tiles/basemap/4326/0/2/0.pbf' })).statusCode).toBe(400);
    expect((await demo.app.inject({ method: 'GET', url: '/api/tiles/basemap/4326/0/1/0.pbf' })).statusCode).toBe(200);
    expect((await demo.app.inject({ method: 'GET', url: `/api/tiles/pipes/3857/13/${x}/${y}.pbf` })).statusCode).toBe(401);
  });
});
