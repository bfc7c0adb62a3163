import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import proj4 from 'proj4';
import { NETWORK_MAP_COLOR, PERSONAL_TOKEN_LIMIT } from '@console/contract';
import { Writable } from 'node:stream';
import { as, createTestApp, demoEnterpriseIds, login, useDemoServer } from '../../testing/app.ts';
import { memberships, personalTokens, users } from '../../db/schema.ts';
import { MAX_LIMIT, parseItemsQuery } from './features.ts';
import { queryRows } from '../../db/client.ts';
import { sha256 } from '../auth/crypto.ts';
import { nonEmpty } from '../../testing/lists.ts';

const demo = useDemoServer();
const run = promisify(execFile);

async function makeToken(username: string, enterpriseId: number, days = 30, name = 'QGIS') {
  const api = as(demo.app, await login(demo.app, username));
  const response = await api({ method: 'POST', url: '/api/open-data/tokens', payload: { name, enterpriseId, days } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result as { token: string; item: { id: number; prefix: string; expiresAt: string | null } };
}
/** A data service request with a personal token in the query. */
/** The z14 tile at the middle of the water utility's pipes (Web Mercator XYZ). */
async function middleTile() {
  const [c] = await queryRows<{ lon: number; lat: number }>(demo.database.db, sql`select (min(minx) + max(maxx)) / 2 as lon, (min(miny) + max(maxy)) / 2 as lat from pipes where enterprise_id = ${demo.ids.water}`);
  const n = 2 ** 14;
  const sin = Math.sin((Number(c.lat) * Math.PI) / 180);
  return `14/${Math.floor(((Number(c.lon) + 180) / 360) * n)}/${Math.floor((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * n)}`;
}
const read = (url: string, token: string, headers: Record<string, string> = {}) =>
  demo.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}key=${token}`, headers });
const count = async (query: ReturnType<typeof sql>) => Number((await queryRows<{ n: number }>(demo.database.db, query))[0].n);

describe('personal access tokens', () => {
  it('are shown once, kept hashed, listed by prefix, and revoked by their owner only', async () => {
    const { token, item } = await makeToken('admin', demo.ids.water, 90);
    expect(token).toMatch(/^pcp_[\w-]{43}$/);
    expect(token.startsWith(item.prefix)).toBe(true);
    expect(Date.parse(item.expiresAt!) - Date.now()).toBeGreaterThan(89 * 86_400_000);
    const [stored] = await demo.database.db.select().from(personalTokens).where(eq(personalTokens.id, item.id));
    expect(stored.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    const admin = as(demo.app, await login(demo.app, 'admin'));
    const list = (await admin({ method: 'GET', url: '/api/open-data/tokens' })).json().result;
    expect(list.find((t: { id: number }) => t.id === item.id)).toMatchObject({ name: 'QGIS', prefix: item.prefix, enterpriseName: expect.any(String) });
    expect(JSON.stringify(list)).not.toContain(token);

    // Somebody else's token is not theirs to revoke.
    const member = as(demo.app, await login(demo.app, 'member'));
    expect((await member({ method: 'DELETE', url: `/api/open-data/tokens/${item.id}` })).statusCode).toBe(404);
    expect((await read('/api/ogc/collections', token)).statusCode).toBe(200);
    expect((await admin({ method: 'DELETE', url: `/api/open-data/tokens/${item.id}` })).statusCode).toBe(200);
    const refused = await read('/api/ogc/collections', token, { 'accept-language': 'zh-CN' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('个人访问令牌无效、已撤销或已过期');
  });

  it('are refused for an enterprise the user is not a verified member of, and bad fields are named', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'));
    const foreign = await admin({ method: 'POST', url: '/api/open-data/tokens', payload: { name: 'x', enterpriseId: demo.ids.gas, days: 30 } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('enterpriseId: you are not a verified member of this enterprise');
    const pending = as(demo.app, await login(demo.app, 'newcomer'));
    expect((await pending({ method: 'POST', url: '/api/open-data/tokens', payload: { name: 'x', enterpriseId: demo.ids.drainage, days: 30 } })).statusCode).toBe(400);
    const bad = await admin({ method: 'POST', url: '/api/open-data/tokens', payload: { name: ' ', enterpriseId: demo.ids.water, days: 7 }, headers: { 'accept-language': 'zh-CN' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('name: 不能为空');
    expect(bad.json().message).toContain('days: 只能是 30、90、365 或 0（直至撤销）');
  });

  it(`hold at most ${PERSONAL_TOKEN_LIMIT} at once, even when asked for at once`, async () => {
    const both = as(demo.app, await login(demo.app, 'both'));
    const answers = await Promise.all(
      Array.from({ length: PERSONAL_TOKEN_LIMIT + 10 }, (_, i) => both({ method: 'POST', url: '/api/open-data/tokens', payload: { name: `t${i}`, enterpriseId: demo.ids.gas, days: 0 } })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(PERSONAL_TOKEN_LIMIT);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(10);
    const [{ id }] = await demo.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'both'));
    expect(await count(sql`select count(*)::int as n from personal_tokens where user_id = ${id} and revoked_at is null`)).toBe(PERSONAL_TOKEN_LIMIT);
    // Made without expiry: until revoked.
    expect(answers.find((a) => a.statusCode === 200)!.json().result.item.expiresAt).toBeNull();
    await demo.database.db.update(personalTokens).set({ revokedAt: new Date() }).where(eq(personalTokens.userId, id));
  });

  it('only read the data services, sent as a query key, a bearer token or the console header', async () => {
    const { token } = await makeToken('viewer', demo.ids.water);
    for (const headers of [{ authorization: `Bearer ${token}` }, { 'access-token': token }]) {
      expect((await demo.app.inject({ method: 'GET', url: '/api/ogc/collections', headers })).statusCode).toBe(200);
    }
    expect((await read('/api/ogc/collections', token)).statusCode).toBe(200);
    expect((await read(`/api/tiles/pipes/3857/${await middleTile()}.pbf`, token)).statusCode).toBe(200);
    // Anything else of the console, read or write, is refused.
    const projects = await demo.app.inject({ method: 'GET', url: '/api/projects', headers: { 'access-token': token } });
    expect(projects.statusCode).toBe(403);
    expect(projects.json().message).toMatch(/only reads the data services/);
    const write = await demo.app.inject({ method: 'POST', url: '/api/open-data/tokens', headers: { 'access-token': token }, payload: { name: 'more', enterpriseId: demo.ids.water, days: 30 } });
    expect(write.statusCode).toBe(403);
    // The query key is no way into the console either.
    expect((await read('/api/getUserPermission', token)).statusCode).toBe(401);
    // Nothing is public.
    expect((await demo.app.inject({ method: 'GET', url: '/api/ogc/collections' })).statusCode).toBe(401);
    expect((await read('/api/ogc/collections', 'pcp_not-a-token')).statusCode).toBe(401);
  });

  it("stop working when the owner leaves the enterprise or changes the password", async () => {
    const { token } = await makeToken('member', demo.ids.water);
    expect((await read('/api/ogc/collections', token)).statusCode).toBe(200);
    const [{ id }] = await demo.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'member'));
    await demo.database.db.update(memberships).set({ status: 'rejected' }).where(and(eq(memberships.userId, id), eq(memberships.enterpriseId, demo.ids.water)));
    // Written behind the server's back: the cached membership is read again within a second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await read('/api/ogc/collections', token)).statusCode).toBe(401);
    await demo.database.db.update(memberships).set({ status: 'active' }).where(and(eq(memberships.userId, id), eq(memberships.enterpriseId, demo.ids.water)));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await read('/api/ogc/collections', token)).statusCode).toBe(200);

    const member = as(demo.app, await login(demo.app, 'member'));
    const changed = await member({ method: 'POST', url: '/api/user/changPassword', payload: { passwordOld: 'Demo123456', passwordNew: 'Demo123456' } });
    expect(changed.json().success, changed.body).toBe(true);
    expect((await read('/api/ogc/collections', token)).statusCode).toBe(401);
  });
});

describe('OGC API Features', () => {
  it('lists only the enterprise own layers, each described with its extent and CRS', async () => {
    const { token } = await makeToken('admin', demo.ids.water);
    const landing = (await read('/api/ogc', token)).json();
    expect(landing.links.map((l: { rel: string }) => l.rel)).toEqual(['self', 'service-desc', 'service-doc', 'conformance', 'data']);
    expect(landing.links.find((l: { rel: string }) => l.rel === 'data').href).toContain(`/api/ogc/collections?key=${token}`);
    expect((await read('/api/ogc/conformance', token)).json().conformsTo).toContain('http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs');
    const { collections } = (await read('/api/ogc/collections', token)).json();
    const ids = collections.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['pipes-water', 'projects', 'pois', 'construction-sites', 'risk-areas-points', 'risk-areas-areas', 'alerts-points', 'alerts-lines', 'alerts-areas', 'sensors']));
    // The sensors with their last readings: the enterprise's devices as points, a property asked by name.
    const devices = (await read('/api/ogc/collections/sensors/items?kind=level&limit=100', token)).json();
    expect(devices.features.length).toBeGreaterThan(0);
    expect(devices.features.every((f: { geometry: { type: string }; properties: { kind: string; unit: string } }) => f.geometry.type === 'Point' && f.properties.kind === 'level' && f.properties.unit === 'm')).toBe(true);
    const [{ n }] = await queryRows<{ n: number }>(demo.database.db, sql`select count(*)::int as n from sensor_devices where enterprise_id = ${demo.ids.water} and kind = 'level'`);
    expect(devices.features.length).toBe(Number(n));
    expect(ids.some((id: string) => id.startsWith('settlement-points-'))).toBe(true);
    expect(ids.some((id: string) => id.startsWith('settlement-results-'))).toBe(true);
    const pipes = collections.find((c: { id: string }) => c.id === 'pipes-water');
    expect(pipes.crs).toContain('http://www.opengis.net/def/crs/EPSG/0/4490');
    const [box] = await queryRows<{ x0: number; y1: number }>(demo.database.db, sql`select min(minx) as x0, max(maxy) as y1 from pipes where enterprise_id = ${demo.ids.water} and network_type = 'water'`);
    expect(pipes.extent.spatial.bbox[0][0]).toBeCloseTo(box.x0, 9);
    expect(pipes.extent.spatial.bbox[0][3]).toBeCloseTo(box.y1, 9);
    const alerts = collections.find((c: { id: string }) => c.id === 'alerts-areas');
    expect(alerts.extent.temporal.interval[0][0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // With a slash, as OWSLib asks for it, the landing page too.
    const slashed = await read('/api/ogc/', token);
    expect(slashed.statusCode).toBe(200);
    expect(slashed.json().links.map((l: { rel: string }) => l.rel)).toContain('data');

    // The gas utility's token sees the gas utility's layers; the water utility's settlement dataset is not among them.
    const gas = await makeToken('both', demo.ids.gas);
    const gasIds = (await read('/api/ogc/collections', gas.token)).json().collections.map((c: { id: string }) => c.id);
    const waterDataset = ids.find((id: string) => id.startsWith('settlement-points-'));
    expect(gasIds).not.toContain(waterDataset);
    expect((await read(`/api/ogc/collections/${waterDataset}/items`, gas.token)).statusCode).toBe(404);
    // A water feature's id asked of the gas utility's layer is not found.
    const gasPipe = (await read('/api/ogc/collections/pipes-gas/items?limit=1', gas.token)).json().features[0];
    expect((await read(`/api/ogc/collections/pipes-gas/items/${gasPipe.id}`, token)).statusCode).toBe(404);
    const waterPipe = (await read('/api/ogc/collections/pipes-water/items?limit=1', token)).json().features[0];
    expect((await read(`/api/ogc/collections/pipes-water/items/${waterPipe.id}`, gas.token)).statusCode).toBe(404);
    const own = await read(`/api/ogc/collections/pipes-water/items/${waterPipe.id}`, token);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ type: 'Feature', id: waterPipe.id, properties: { pipeId: waterPipe.properties.pipeId } });
    // f=json as on the items (clients add it to every request).
    const asJson = await read(`/api/ogc/collections/pipes-water/items/${waterPipe.id}?f=json`, token);
    expect(asJson.statusCode, asJson.body).toBe(200);
    expect(asJson.json().id).toBe(waterPipe.id);
  });

  it('pages a layer to its end by key, every feature once, with numberMatched', async () => {
    const { token } = await makeToken('admin', demo.ids.water);
    const total = await count(sql`select count(*)::int as n from pipes where enterprise_id = ${demo.ids.water} and network_type = 'water'`);
    expect(total).toBeGreaterThan(500);
    let url: string | undefined = `/api/ogc/collections/pipes-water/items?limit=150&key=${token}`;
    const seen: number[] = [];
    let pages = 0;
    while (url) {
      const response: { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown } = await demo.app.inject({ method: 'GET', url: url.replace(/^http:\/\/[^/]+/, '') });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/geo+json');
      expect(response.headers['content-crs']).toBe('<http://www.opengis.net/def/crs/OGC/1.3/CRS84>');
      const page = response.json() as { numberMatched: number; numberReturned: number; features: { id: number }[]; links: { rel: string; href: string }[] };
      if (pages === 0) expect(page.numberMatched).toBe(total);
      expect(page.numberReturned).toBe(page.features.length);
      seen.push(...page.features.map((f: { id: number }) => f.id));
      url = page.links.find((l: { rel: string }) => l.rel === 'next')?.href;
      if (url) expect(url).toContain(`key=${token}`);
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(total / 150));
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('pages a layer of 30,000 segments to its end in pages of 10,000, written as they are read', async () => {
    const { token } = await makeToken('both', demo.ids.gas);
    // A district heating network of 30,000 short segments on a grid (one statement: the kept counts follow).
    await demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, diameter_mm, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select ${demo.ids.gas}, 'H-' || lpad(i::text, 6, '0'), 'heat', 'steel', 300,
             jsonb_build_object('type', 'LineString', 'coordinates', jsonb_build_array(jsonb_build_array(x, y), jsonb_build_array(x + 0.0005, y))),
             -- not drawn on tiles here: the layer is read through the features API only
             ''::bytea, 48.1, x, y, x + 0.0005, y
      from (select i, 120.15 + (i % 200) * 0.0006 as x, 30.15 + (i / 200) * 0.0004 as y from generate_series(1, 30000) i) g`);
    const seen = new Set<number>();
    let url: string | undefined = `/api/ogc/collections/pipes-heat/items?limit=10000&key=${token}`;
    let pages = 0;
    while (url) {
      const response = await demo.app.inject({ method: 'GET', url: url.replace(/^http:\/\/[^/]+/, '') });
      expect(response.statusCode).toBe(200);
      const page = response.json() as { numberMatched?: number; numberReturned: number; features: { id: number; properties: { pipeId: string } }[]; links: { rel: string; href: string }[] };
      if (pages === 0) expect(page.numberMatched).toBe(30_000);
      expect(page.numberReturned).toBe(10_000);
      for (const feature of page.features) seen.add(feature.id);
      url = page.links.find((l) => l.rel === 'next')?.href;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen.size).toBe(30_000);
    await demo.database.db.execute(sql`delete from pipes where enterprise_id = ${demo.ids.gas} and network_type = 'heat'`);
  });

  it('filters by bbox, datetime and attributes, and answers in CRS84, EPSG:4490 or EPSG:3857', async () => {
    const { token } = await makeToken('admin', demo.ids.water);
    const items = async (query: string) => {
      const response = await read(`/api/ogc/collections/pipes-water/items?${query.includes('limit=') ? '' : 'limit=10000&'}${query}`, token);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const box = [120.19, 30.19, 120.2, 30.2];
    const inBox = await items(`bbox=${box.join(',')}`);
    const expected = await count(
      sql`select count(*)::int as n from pipes where enterprise_id = ${demo.ids.water} and network_type = 'water' and maxx >= ${box[0]} and minx <= ${box[2]} and maxy >= ${box[1]} and miny <= ${box[3]}`,
    );
    expect(inBox.features.length).toBe(expected);
    expect(inBox.numberMatched).toBe(expected);
    // The same window in Web Mercator metres, and in CGCS2000 (latitude first).
    const [x0, y0] = proj4('EPSG:4326', 'EPSG:3857', [box[0], box[1]]);
    const [x1, y1] = proj4('EPSG:4326', 'EPSG:3857', [box[2], box[3]]);
    expect((await items(`bbox=${[x0, y0, x1, y1].join(',')}&bbox-crs=http://www.opengis.net/def/crs/EPSG/0/3857`)).features.length).toBe(expected);
    expect((await items(`bbox=${[box[1], box[0], box[3], box[2]].join(',')}&bbox-crs=http://www.opengis.net/def/crs/EPSG/0/4490`)).features.length).toBe(expected);

    const pe = await items('material=PE&diameterMm=1000,800');
    expect(pe.features.length).toBe(
      await count(sql`select count(*)::int as n from pipes where enterprise_id = ${demo.ids.water} and network_type = 'water' and material = 'PE' and diameter_mm in (1000, 800)`),
    );
    expect(nonEmpty(pe.features).every((f: { properties: { material: string; diameterMm: number } }) => f.properties.material === 'PE' && [800, 1000].includes(f.properties.diameterMm))).toBe(true);

    const first = (await items('limit=1')).features[0];
    const mercator = (await items(`limit=1&crs=http://www.opengis.net/def/crs/EPSG/0/3857`)).features[0];
    expect(first.geometry.type).toBe('MultiLineString');
    const expectedXY = proj4('EPSG:4326', 'EPSG:3857', first.geometry.coordinates[0][0]);
    expect(mercator.geometry.coordinates[0][0][0]).toBeCloseTo(expectedXY[0], 3);
    expect(mercator.geometry.coordinates[0][0][1]).toBeCloseTo(expectedXY[1], 3);
    const cgcs = await read(`/api/ogc/collections/pipes-water/items?limit=1&crs=http://www.opengis.net/def/crs/EPSG/0/4490`, token);
    expect(cgcs.headers['content-crs']).toBe('<http://www.opengis.net/def/crs/EPSG/0/4490>');
    expect(cgcs.json().features[0].geometry.coordinates[0][0]).toEqual([first.geometry.coordinates[0][0][1], first.geometry.coordinates[0][0][0]]);

    // Alerts raised in a period; an open start.
    const [{ t }] = await queryRows<{ t: string }>(demo.database.db, sql`select to_char(percentile_disc(0.5) within group (order by raised_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as t from alerts where enterprise_id = ${demo.ids.water}`);
    const alertsIn = async (datetime: string) => {
      let total = 0;
      for (const family of ['points', 'lines', 'areas']) total += (await read(`/api/ogc/collections/alerts-${family}/items?limit=10000&datetime=${datetime}`, token)).json().features.length;
      return total;
    };
    expect(await alertsIn(`${t}/..`)).toBe(await count(sql`select count(*)::int as n from alerts where enterprise_id = ${demo.ids.water} and raised_at >= ${t}::timestamptz`));
    // A layer without time answers a period with no features (it offers datetime like every layer).
    const timeless = await read('/api/ogc/collections/pipes-water/items?datetime=2026-01-01/..', token);
    expect(timeless.statusCode).toBe(200);
    expect(timeless.json()).toMatchObject({ numberReturned: 0, numberMatched: 0 });
    expect(await alertsIn(`../${t}`)).toBe(await count(sql`select count(*)::int as n from alerts where enterprise_id = ${demo.ids.water} and raised_at <= ${t}::timestamptz`));

    // Settlement points keep their measures.
    const points = (await read('/api/ogc/collections', token)).json().collections.find((c: { id: string }) => c.id.startsWith('settlement-points-'));
    const point = (await read(`/api/ogc/collections/${points.id}/items?limit=1`, token)).json().features[0];
    expect(point.geometry.type).toBe('Point');
    expect(point.properties).toMatchObject({ pointId: expect.any(String), velocity: expect.any(Number), cumulative: expect.any(Number) });
  });

  it('names the bad parameter and why, in the caller language', async () => {
    const { token } = await makeToken('admin', demo.ids.water);
    const bad = async (query: string, language = 'en-US') => {
      const response = await read(`/api/ogc/collections/pipes-water/items?${query}`, token, { 'accept-language': language });
      expect(response.statusCode, query).toBe(400);
      return response.json().message as string;
    };
    expect(await bad('bbox=1,2,3')).toMatch(/^bbox: four numbers/);
    expect(await bad('bbox=120,31,121,30', 'zh-CN')).toMatch(/^bbox：/);
    expect(await bad('limit=0')).toBe('limit: a whole number of at least 1 (a page holds at most 10000)');
    expect(await bad('limit=ten', 'zh-CN')).toBe('limit：须为不小于 1 的整数（每页最多 10000 条）');
    expect(await bad('crs=EPSG:2000')).toMatch(/^crs: must be one of/);
    expect(await bad('datetime=yesterday')).toMatch(/^datetime:/);
    expect(await bad('diameterMm=wide')).toBe('diameterMm: must be a whole number');
    expect(await bad('color=red')).toMatch(/^color: not a parameter of this collection \(queryables: pipeId, material/);
    expect(await bad('cursor=abc')).toMatch(/^cursor:/);
    // The other resources take no parameters of their own: one they do not know is named, as on items.
    for (const [url, name] of [['/api/ogc/collections?bbox=1,2,3,4', 'bbox'], ['/api/ogc?limit=5', 'limit'], ['/api/ogc/collections/pipes-water?datetime=2026-01-01', 'datetime'], ['/api/ogc/conformance?color=red', 'color']]) {
      const response = await read(url, token);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toBe(`${name}: not a parameter this takes`);
    }
    expect((await read('/api/ogc/collections/pipes-nothing/items', token)).statusCode).toBe(404);
    expect((await read("/api/ogc/collections/pipes;drop table pipes/items", token)).statusCode).toBe(404);
  });

  it('describes the tilesets and styles them as the console does', async () => {
    const { token } = await makeToken('viewer', demo.ids.water);
    const tilejson = (await read('/api/tiles/pipes.json', token)).json();
    expect(tilejson).toMatchObject({ tilejson: '3.0.0', minzoom: 8, vector_layers: [{ id: 'pipes' }] });
    const template: string = tilejson.tiles[0];
    expect(template).toContain(`/api/tiles/pipes/3857/{z}/{x}/{y}.pbf?key=${token}`);
    const tile = await demo.app.inject({ method: 'GET', url: template.replace(/^http:\/\/[^/]+/, '').replace('{z}/{x}/{y}', await middleTile()) });
    expect(tile.statusCode).toBe(200);
    expect(tile.rawPayload.length).toBeGreaterThan(100);
    expect(tile.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    const style = (await read('/api/tiles/pipes/style.json', token)).json();
    expect(style.version).toBe(8);
    expect(style.sources.pipes.url).toContain(`/api/tiles/pipes.json?key=${token}`);
    expect(style.layers.find((l: { id: string }) => l.id === 'pipes-water-trunk').paint['line-color']).toBe(NETWORK_MAP_COLOR.water);
    // The basemap is public map data.
    const basemap = (await demo.app.inject({ method: 'GET', url: '/api/tiles/basemap/style.json' })).json();
    expect(basemap.layers.map((l: { id: string }) => l.id)).toEqual(['background', 'water', 'parks', 'streets', 'main-streets']);
    expect((await demo.app.inject({ method: 'GET', url: '/api/tiles/pipes.json' })).statusCode).toBe(401);
  });
});

describe('OGC API Features for desktop GIS and other sites', () => {
  it('selects by geometry, not envelope, and across the antimeridian', async () => {
    const { token } = await makeToken('both', demo.ids.gas);
    // A diagonal main whose envelope covers the window's corner while the line passes it by, one
    // that crosses the window, and two on either side of the antimeridian (Fiji's date line).
    const line = (id: string, coordinates: number[][]) => sql`(${demo.ids.gas}, ${id}, 'heat', 'steel', 300, ${JSON.stringify({ type: 'LineString', coordinates })}::jsonb, ''::bytea, 100, ${Math.min(...coordinates.map((c) => c[0]))}, ${Math.min(...coordinates.map((c) => c[1]))}, ${Math.max(...coordinates.map((c) => c[0]))}, ${Math.max(...coordinates.map((c) => c[1]))})`;
    await demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, diameter_mm, geometry, tile_line, length_m, minx, miny, maxx, maxy) values
      ${sql.join([line('BY-PASS', [[121.0, 31.0], [121.1, 31.1]]), line('BY-CROSS', [[121.0, 31.1], [121.1, 31.0]]), line('DATE-EAST', [[179.95, -17.8], [179.99, -17.8]]), line('DATE-WEST', [[-179.99, -17.8], [-179.95, -17.8]])], sql`, `)}`);
    try {
      const ids = async (query: string) => ((await read(`/api/ogc/collections/pipes-heat/items?${query}`, token)).json().features as { properties: { pipeId: string } }[]).map((f) => f.properties.pipeId).sort();
      // The window's lower right corner: inside the first main's envelope, away from its line.
      expect(await ids('bbox=121.07,31.0,121.1,31.03')).toEqual(['BY-CROSS']);
      const page = (await read('/api/ogc/collections/pipes-heat/items?bbox=121.07,31.0,121.1,31.03', token)).json();
      expect(page.numberMatched).toBe(1);
      expect(await ids('bbox=179.9,-18,-179.9,-17.5')).toEqual(['DATE-EAST', 'DATE-WEST']);
      expect(await ids('bbox=179.97,-18,-179.97,-17.5')).toEqual(['DATE-EAST', 'DATE-WEST']);
      // The same numbers the ordinary way round: the window between them holds neither.
      expect(await ids('bbox=-179.9,-18,179.9,-17.5')).toEqual([]);
    } finally {
      await demo.database.db.execute(sql`delete from pipes where enterprise_id = ${demo.ids.gas} and network_type = 'heat'`);
    }
  });

  it('serves one geometry type per collection, stated in its metadata and queryables', async () => {
    const { token } = await makeToken('admin', demo.ids.water);
    const { collections } = (await read('/api/ogc/collections', token)).json() as { collections: { id: string; geometryType: string }[] };
    const types = Object.fromEntries(collections.map((c) => [c.id, c.geometryType]));
    expect(types).toMatchObject({ 'pipes-water': 'MultiLineString', projects: 'MultiPolygon', pois: 'MultiPolygon', 'construction-sites': 'MultiPolygon', 'risk-areas-points': 'Point', 'risk-areas-areas': 'MultiPolygon', 'alerts-points': 'Point', 'alerts-lines': 'MultiLineString', 'alerts-areas': 'MultiPolygon' });
    let read_ = 0;
    for (const { id, geometryType } of collections) {
      const page = (await read(`/api/ogc/collections/${id}/items?limit=10000`, token)).json() as { features: { geometry: { type: string } }[] };
      expect(new Set(page.features.map((f) => f.geometry.type)), id).toEqual(new Set(page.features.length ? [geometryType] : []));
      read_ += page.features.length;
      const queryables = (await read(`/api/ogc/collections/${id}/queryables`, token)).json();
      expect(queryables.properties.geometry, id).toEqual({ 'x-ogc-role': 'primary-geometry', format: `geometry-${geometryType.toLowerCase()}` });
    }
    // Every alert and risk-prone area is in exactly one of its family collections.
    const familyTotal = async (prefix: string) => {
      let n = 0;
      for (const { id } of collections.filter((c) => c.id.startsWith(prefix))) n += (await read(`/api/ogc/collections/${id}/items?limit=1`, token)).json().numberMatched;
      return n;
    };
    expect(await familyTotal('alerts-')).toBe(await count(sql`select count(*)::int as n from alerts where enterprise_id = ${demo.ids.water}`));
    expect(await familyTotal('risk-areas-')).toBe(await count(sql`select count(*)::int as n from risk_areas where enterprise_id = ${demo.ids.water}`));
    expect(read_).toBeGreaterThan(0);
  });

  it('clamps a limit past the maximum, documents its parameters and answers, and serves the document as its link says', async () => {
    const { token } = await makeToken('admin', demo.ids.water);
    const page = await read('/api/ogc/collections/pipes-water/items?limit=50000', token);
    expect(page.statusCode).toBe(200);
    expect(page.json().numberReturned).toBe(Math.min(10_000, page.json().numberMatched));
    // The test city holds fewer than 10,000 pipes, so the page above cannot show the clamp: the
    // query's reading can (a limit past the maximum is read as the maximum, not refused).
    expect(parseItemsQuery({ properties: [] } as unknown as Parameters<typeof parseItemsQuery>[0], { limit: '50000' }).limit).toBe(MAX_LIMIT);
    expect(parseItemsQuery({ properties: [] } as unknown as Parameters<typeof parseItemsQuery>[0], { limit: '9999' }).limit).toBe(9999);
    const landing = (await read('/api/ogc', token)).json();
    const desc = landing.links.find((l: { rel: string }) => l.rel === 'service-desc');
    const doc = await demo.app.inject({ method: 'GET', url: desc.href.replace(/^http:\/\/[^/]+/, '') });
    expect(doc.headers['content-type']).toBe(desc.type);
    const items = doc.json().paths['/api/ogc/collections/{collectionId}/items'].get;
    const parameter = (name: string) => items.parameters.find((p: { name: string }) => p.name === name).schema;
    expect(parameter('limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 10000, default: 100 });
    expect(parameter('bbox')).toMatchObject({ type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 6 });
    expect(parameter('datetime')).toMatchObject({ type: 'string' });
    expect(Object.keys(items.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
  });

  it('answers other sites (CORS) for personal tokens on the open data routes only, preflight included', async () => {
    const { token } = await makeToken('admin', demo.ids.water);
    const consoleToken = await login(demo.app, 'admin');
    const origin = 'https://map.example.com';
    const preflight = await demo.app.inject({ method: 'OPTIONS', url: '/api/ogc/collections', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'access-token' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, OPTIONS' });
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Access-Token');
    for (const url of ['/api/ogc/collections', '/api/tiles/pipes.json', '/api/tiles/pipes/style.json', `/api/tiles/pipes/3857/${await middleTile()}.pbf`]) {
      const byKey = await demo.app.inject({ method: 'GET', url: `${url}?key=${token}`, headers: { origin } });
      expect(byKey.statusCode, url).toBe(200);
      expect(byKey.headers['access-control-allow-origin'], url).toBe('*');
      expect(byKey.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
      const byHeader = await demo.app.inject({ method: 'GET', url, headers: { origin, 'access-token': token } });
      expect(byHeader.headers['access-control-allow-origin'], url).toBe('*');
    }
    // A refusal is readable by the page too; a console sign-in token gets no CORS answer.
    const refused = await demo.app.inject({ method: 'GET', url: '/api/ogc/collections?key=pcp_nothing', headers: { origin } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    const signedIn = await demo.app.inject({ method: 'GET', url: '/api/ogc/collections', headers: { origin, 'access-token': consoleToken, 'enterprise-id': String(demo.ids.water) } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['access-control-allow-origin']).toBeUndefined();
    // Nor in the URL, where it is refused: the refusal is not the other site's to read.
    const consoleKey = await demo.app.inject({ method: 'GET', url: `/api/ogc/collections?key=${consoleToken}`, headers: { origin } });
    expect(consoleKey.statusCode).toBe(401);
    expect(consoleKey.headers['access-control-allow-origin']).toBeUndefined();
    // Console routes stay same-origin.
    const projects = await demo.app.inject({ method: 'GET', url: '/api/projects', headers: { origin, 'access-token': consoleToken, 'enterprise-id': String(demo.ids.water) } });
    expect(projects.headers['access-control-allow-origin']).toBeUndefined();
    expect(projects.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect((await demo.app.inject({ method: 'OPTIONS', url: '/api/projects', headers: { origin, 'access-control-request-method': 'GET' } })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers only the configured origins when a list is set', async () => {
    const listed = await createTestApp({ openDataOrigins: ['https://map.example.com'] });
    try {
      const ids = await demoEnterpriseIds(listed.app);
      const personal = (await as(listed.app, await login(listed.app, 'admin'))({ method: 'POST', url: '/api/open-data/tokens', payload: { name: 'web map', enterpriseId: ids.water, days: 30 } })).json().result.token as string;
      const from = (origin: string) => listed.app.inject({ method: 'GET', url: `/api/ogc/collections?key=${personal}`, headers: { origin } });
      const allowed = await from('https://map.example.com');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://map.example.com');
      expect(allowed.headers.vary).toContain('Origin');
      expect((await from('https://elsewhere.example.org')).headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await listed.close();
    }
  });

  it('takes only personal tokens as key, and keeps every token out of the log', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({ logRequests: 'all' }, { level: 'info', stream: new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }) });
    try {
      const ids = await demoEnterpriseIds(logged.app);
      const consoleToken = await login(logged.app, 'admin');
      const api = as(logged.app, consoleToken);
      const personal = (await api({ method: 'POST', url: '/api/open-data/tokens', payload: { name: 'QGIS', enterpriseId: ids.water, days: 30 } })).json().result.token as string;
      // A console sign-in token in the URL is not taken (it is for the console's header only).
      expect((await logged.app.inject({ method: 'GET', url: `/api/ogc/collections?key=${consoleToken}` })).statusCode).toBe(401);
      expect((await logged.app.inject({ method: 'GET', url: `/api/ogc/collections?key=${personal}` })).statusCode).toBe(200);
      // However the name is written, its value is masked.
      for (const name of ['%6Bey', 'KEY', 'k%65y']) await logged.app.inject({ method: 'GET', url: `/api/ogc/collections?${name}=${personal}` });
      const log = lines.join('');
      expect(log).toContain('%6Bey=***');
      expect(log).not.toContain(personal);
      expect(log).not.toContain(consoleToken);
    } finally {
      await logged.close();
    }
  });
});

/** GDAL reads the service as QGIS does (QGIS reads OGC API Features and vector tiles through the same code paths). */
const gdal = await run('ogrinfo', ['--version']).then(
  () => true,
  () => false,
);
// Under CI (.ci/run installs GDAL) a missing GDAL fails the run instead of skipping the test.
if (!gdal && process.env.CI) throw new Error('GDAL (ogrinfo) is not installed: the interoperability test cannot run');
if (!gdal) console.warn('GDAL (ogrinfo) is not installed: the interoperability test is skipped (apt-get install gdal-bin)');

describe.skipIf(!gdal)('GDAL reads the open data', () => {
  it('lists the collections, reads a layer with its count and geometry (OAPIF), and a tile through its TileJSON (MVT)', async () => {
    await demo.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(demo.app.server.address() as AddressInfo).port}/api`;
    const { token } = await makeToken('admin', demo.ids.water);
    const env = { ...process.env, GDAL_HTTP_HEADERS: `Authorization: Bearer ${token}`, CPL_DEBUG: 'OFF' };

    const listing = (await run('ogrinfo', ['-ro', '-q', `OAPIF:${base}/ogc`], { env })).stdout;
    for (const id of ['pipes-water', 'projects', 'pois', 'construction-sites', 'risk-areas-points', 'risk-areas-areas', 'alerts-points', 'alerts-lines', 'alerts-areas']) expect(listing).toContain(id);

    const total = await count(sql`select count(*)::int as n from pipes where enterprise_id = ${demo.ids.water} and network_type = 'water'`);
    const summary = (await run('ogrinfo', ['-ro', '-so', `OAPIF:${base}/ogc`, 'pipes-water'], { env })).stdout;
    expect(summary).toContain(`Feature Count: ${total}`);
    expect(summary).toMatch(/Geometry: Multi Line String/);
    // Every feature read (GDAL follows the next links to the end), the key sent as a query key this time.
    const all = (await run('ogrinfo', ['-ro', '-al', '-geom=SUMMARY', `OAPIF:${base}/ogc?key=${token}`, 'projects'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
    const projects = await count(sql`select count(*)::int as n from projects where enterprise_id = ${demo.ids.water}`);
    expect(all.match(/^OGRFeature\(projects\):/gm)).toHaveLength(projects);
    expect(all).toMatch(/MULTIPOLYGON : 1 geometries:/);

    // A whole network with GDAL's default page size (Debian's GDAL 3.6 asks 10 a page; from 3.8 GDAL
    // takes the maximum the document states for limit): every segment once, as MultiLineStrings.
    const network = await run('ogrinfo', ['-ro', '-al', '-geom=SUMMARY', `OAPIF:${base}/ogc`, 'pipes-water'], { env: { ...env, CPL_DEBUG: 'ON' }, maxBuffer: 256 * 1024 * 1024 });
    expect(network.stdout.match(/^OGRFeature\(pipes-water\):/gm)).toHaveLength(total);
    expect(network.stdout.match(/^ {2}MULTILINESTRING : 1 geometries:/gm)).toHaveLength(total);
    expect(network.stderr).toMatch(/items\?limit=\d+/);
    // A tile through its TileJSON: the template it gives, read by the MVT driver.
    const tilejson = await (await fetch(`${base}/tiles/pipes.json?key=${token}`)).json();
    const tileUrl = tilejson.tiles[0].replace('{z}/{x}/{y}', await middleTile());
    const tile = (await run('ogrinfo', ['-ro', '-al', '-so', `MVT:${tileUrl}`], {})).stdout;
    expect(tile).toMatch(/Layer name: pipes/);
    const tileCount = Number(/Feature Count: (\d+)/.exec(tile)?.[1]);
    expect(tileCount).toBeGreaterThan(0);
  }, 120_000);
});
