import { describe, expect, it } from 'vitest';
import type { ImportJobView } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { nonEmpty } from '../../testing/lists.ts';

const demo = useDemoServer();
type Api = ReturnType<typeof as>;

const square = (lon: number, lat: number, d: number) => ({ type: 'Polygon', coordinates: [[[lon - d, lat - d], [lon + d, lat - d], [lon + d, lat + d], [lon - d, lat + d], [lon - d, lat - d]]] });
const wkt = (lon: number, lat: number, d: number) => `"POLYGON ((${lon - d} ${lat - d}, ${lon + d} ${lat - d}, ${lon + d} ${lat + d}, ${lon - d} ${lat + d}, ${lon - d} ${lat - d}))"`;

async function project(api: Api, code: string) {
  return ((await api({ method: 'GET', url: '/api/projects' })).json().result as { id: number; code: string; area: { coordinates: number[][][] } }[]).find((p) => p.code === code)!;
}

async function analyse(api: Api, fileName: string, content: string) {
  const analysed = await api({ method: 'POST', url: '/api/acquisitions/imports', ...multipartFile('file', fileName, content) });
  expect(analysed.statusCode, analysed.body).toBe(200);
  return analysed.json().result as ImportJobView;
}

async function importScenes(api: Api, fileName: string, content: string, options: Record<string, unknown> = {}) {
  const job = await analyse(api, fileName, content);
  const started = await api({ method: 'POST', url: `/api/acquisitions/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, ...options } });
  expect(started.statusCode, started.body).toBe(200);
  await demo.app.imports.settled(job.id);
  return (await api({ method: 'GET', url: `/api/acquisitions/imports/${job.id}` })).json().result as ImportJobView;
}

const sceneCount = async (api: Api) => ((await api({ method: 'GET', url: '/api/acquisitions' })).json().result as unknown[]).length;

describe('acquisitions', () => {
  it('keeps scenes with their footprint and the projects it covers', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const leak = await project(api, 'BJ-LEAK-2026');
    const [lon, lat] = leak.area.coordinates[0][0];
    const body = { satellite: 'SAOCOM-1A', productId: 'S1A_OPER_SAR_EOSSP__CORE_L1A_OLVF_20260315T101200', acquiredAt: '2026-03-15T10:12:00Z', orbitDirection: 'descending', mode: 'StripMap', polarisation: 'quad', footprint: square(lon, lat, 0.3), status: 'delivered' };
    const created = await api({ method: 'POST', url: '/api/acquisitions', payload: body });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().result.projects.map((p: { id: number }) => p.id)).toContain(leak.id);
    expect((await api({ method: 'POST', url: '/api/acquisitions', payload: body })).json().message).toBe('productId: this enterprise already has an acquisition with this product id');
    const far = await api({ method: 'POST', url: '/api/acquisitions', payload: { ...body, productId: 'FAR-1', footprint: square(100, 40, 0.3) } });
    expect(far.json().result.projects).toEqual([]);
    const listed = (await api({ method: 'GET', url: `/api/acquisitions?projectId=${leak.id}` })).json().result;
    const productIds = listed.map((a: { productId: string }) => a.productId);
    expect(productIds).toContain(body.productId);
    expect(productIds).not.toContain('FAR-1');
    // The demo's year of SAOCOM scenes covers the project too.
    expect(listed.filter((a: { satellite: string }) => a.satellite.startsWith('SAOCOM')).length).toBeGreaterThan(10);
    const bad = await api({ method: 'POST', url: '/api/acquisitions', payload: { ...body, productId: 'X', acquiredAt: 'yesterday', orbitDirection: 'sideways' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/acquiredAt: must be a date and time.*orbitDirection:/);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'POST', url: '/api/acquisitions', payload: { ...body, productId: 'V' } })).statusCode).toBe(403);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: `/api/acquisitions/${created.json().result.id}` })).statusCode).toBe(404);
  });
});

describe('editing scenes', () => {
  it('members change a scene as processing goes on; admins delete; another enterprise sees none of it', async () => {
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const body = { satellite: 'SAOCOM-1B', productId: 'EDIT-1', acquiredAt: '2026-05-01T10:00:00Z', orbitDirection: 'ascending', mode: 'TOPSAR Narrow', polarisation: 'dual', footprint: square(120.2, 30.2, 0.2), status: 'acquired' };
    const id = (await member({ method: 'POST', url: '/api/acquisitions', payload: body })).json().result.id;
    await member({ method: 'POST', url: '/api/acquisitions', payload: { ...body, productId: 'EDIT-2' } });

    const edited = await member({ method: 'PUT', url: `/api/acquisitions/${id}`, payload: { ...body, status: 'processing' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().result).toMatchObject({ id, status: 'processing' });
    const clash = await member({ method: 'PUT', url: `/api/acquisitions/${id}`, payload: { ...body, productId: 'EDIT-2' } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('productId: this enterprise already has an acquisition with this product id');
    const bad = await member({ method: 'PUT', url: `/api/acquisitions/${id}`, payload: { ...body, status: 'lost' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^status: /);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'PUT', url: `/api/acquisitions/${id}`, payload: body })).statusCode).toBe(403);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'PUT', url: `/api/acquisitions/${id}`, payload: body })).statusCode).toBe(404);
    expect((await gas({ method: 'DELETE', url: `/api/acquisitions/${id}` })).statusCode).toBe(404);
    expect((await member({ method: 'DELETE', url: `/api/acquisitions/${id}` })).statusCode).toBe(403);

    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    expect((await admin({ method: 'DELETE', url: `/api/acquisitions/${id}` })).statusCode).toBe(200);
    expect((await admin({ method: 'GET', url: `/api/acquisitions/${id}` })).statusCode).toBe(404);
    expect((await admin({ method: 'DELETE', url: `/api/acquisitions/${id}` })).statusCode).toBe(404);
    expect((await admin({ method: 'PUT', url: `/api/acquisitions/${id}`, payload: body })).statusCode).toBe(404);
  });
});

describe('coverage', () => {
  it("gives each project the share of its area the taken scenes cover, with its last and next acquisition", async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const coverage = (await api({ method: 'GET', url: '/api/acquisitions/coverage' })).json().result as { code: string; coveredShare: number; last: { acquiredAt: string } | null; next: { acquiredAt: string; satellite: string } | null }[];
    expect(coverage.map((c) => c.code).sort()).toEqual(['BJ-LEAK-2026', 'JN-INSAR-2026']);
    const leak = coverage.find((c) => c.code === 'BJ-LEAK-2026')!;
    // The demo's scenes cover the whole city; the December scene is still planned.
    expect(leak.coveredShare).toBe(1);
    expect(leak.last).not.toBeNull();
    expect(leak.next).toMatchObject({ satellite: 'SAOCOM-1A', acquiredAt: expect.stringMatching(/^2026-12-05/) });
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: '/api/acquisitions/coverage' })).json().result.map((c: { code: string }) => c.code)).toEqual(['GAS-N-2026']);
  });
});


describe('scene list import', () => {
  it('reads a catalogue CSV with Chinese headers and WKT footprints; a listed product id is updated', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const leak = await project(api, 'BJ-LEAK-2026');
    const [lon, lat] = leak.area.coordinates[0][0];
    const before = await sceneCount(api);
    const csv = [
      '产品编号,卫星,成像时间,升降轨,成像模式,极化,状态,WKT',
      `CAT-0001,SAOCOM-1B,2026-02-10 22:14:05,降轨,SM,QP,已交付,${wkt(lon, lat, 0.2)}`,
      `CAT-0002,SAOCOM-1B,2026/02/26 22:14,ASC,TN,DP,processing,${wkt(lon, lat, 0.2)}`,
    ].join('\n');
    const job = await importScenes(api, 'catalogue.csv', csv);
    expect(job.suggestedMapping).toMatchObject({ productId: '产品编号', satellite: '卫星', acquiredAt: '成像时间', orbitDirection: '升降轨', mode: '成像模式', polarisation: '极化', status: '状态' });
    expect(job.status, JSON.stringify(job.problems)).toBe('succeeded');
    expect(job.result).toMatchObject({ inserted: 2, updated: 0 });
    expect(await sceneCount(api)).toBe(before + 2);
    const listed = (await api({ method: 'GET', url: `/api/acquisitions?projectId=${leak.id}` })).json().result as { productId: string; acquiredAt: string; orbitDirection: string; mode: string; polarisation: string; status: string }[];
    expect(listed.find((a) => a.productId === 'CAT-0001')).toMatchObject({ acquiredAt: '2026-02-10T22:14:05.000Z', orbitDirection: 'descending', mode: 'StripMap', polarisation: 'quad', status: 'delivered' });
    expect(listed.find((a) => a.productId === 'CAT-0002')).toMatchObject({ acquiredAt: '2026-02-26T22:14:00.000Z', orbitDirection: 'ascending', mode: 'TOPSAR Narrow', polarisation: 'dual', status: 'processing' });

    // The next export of the catalogue: scene 2 is delivered now, scene 3 is new.
    const again = await importScenes(api, 'catalogue.csv', [csv.split('\n')[0], csv.split('\n')[2].replace('processing', 'delivered'), `CAT-0003,SAOCOM-1B,2026-03-14 22:14,D,SM,QP,planned,${wkt(lon, lat, 0.2)}`].join('\n'));
    expect(again.result).toMatchObject({ inserted: 1, updated: 1 });
    expect(await sceneCount(api)).toBe(before + 3);
    const scenes = (await api({ method: 'GET', url: '/api/acquisitions' })).json().result as { productId: string; status: string }[];
    expect(scenes.find((a) => a.productId === 'CAT-0002')!.status).toBe('delivered');
  });

  it('takes values the file lacks from the mapping step; bad scenes fail the whole file, by row and field, in the reader\'s language', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const before = await sceneCount(api);
    const feature = (properties: Record<string, unknown>, geometry: unknown = square(120.2, 30.2, 0.2)) => ({ type: 'Feature', properties, geometry });
    const good = { type: 'FeatureCollection', features: [feature({ product_id: 'GJ-1', sensing_time: '2026-04-01T10:00:00+08:00' }), feature({ product_id: 'GJ-2', sensing_time: '2026-04-17T10:00:00Z' })] };
    const missing = await importScenes(api, 'scenes.geojson', JSON.stringify(good));
    expect(missing.status).toBe('failed');
    expect(missing.problems.map((p) => p.field)).toEqual(expect.arrayContaining(['orbitDirection', 'mode', 'polarisation', 'satellite']));
    const filled = await importScenes(api, 'scenes.geojson', JSON.stringify(good), { satellite: 'SAOCOM-1A', orbitDirection: 'descending', mode: 'StripMap', polarisation: 'quad', status: 'planned' });
    expect(filled.status, JSON.stringify(filled.problems)).toBe('succeeded');
    expect(filled.result).toMatchObject({ inserted: 2 });
    const scenes = (await api({ method: 'GET', url: '/api/acquisitions?status=planned' })).json().result as { productId: string; acquiredAt: string }[];
    expect(scenes.find((a) => a.productId === 'GJ-1')!.acquiredAt).toBe('2026-04-01T02:00:00.000Z');

    const bad = {
      type: 'FeatureCollection',
      features: [
        feature({ product_id: 'B-1', sensing_time: 'yesterday', orbit: 'sideways' }),
        feature({ product_id: 'B-2', sensing_time: '2026-04-01 10:00' }, { type: 'Point', coordinates: [120.2, 30.2] }),
        feature({ product_id: 'B-3', sensing_time: '2026-04-01 10:00' }, square(200, 30, 0.2)),
        feature({ product_id: 'B-4', sensing_time: '2026-04-01 10:00' }),
        feature({ product_id: 'B-4', sensing_time: '2026-04-02 10:00' }),
        feature({ product_id: '', sensing_time: '2026-04-01 10:00' }),
      ],
    };
    const defaults = { satellite: 'SAOCOM-1A', orbitDirection: 'descending', mode: 'StripMap', polarisation: 'quad' };
    const failed = await importScenes(api, 'bad.geojson', JSON.stringify(bad), defaults);
    expect(failed.status).toBe('failed');
    const said = failed.problems.map((p) => `${p.row}|${p.field}|${p.reason}`);
    expect(said).toEqual([
      '1|orbitDirection (orbit)|"sideways" is not one of: ascending, descending',
      '1|acquiredAt (sensing_time)|must be a date and time like 2026-01-31T08:30:00Z',
      '2|geometry|is a Point where a polygon (Polygon or MultiPolygon) belongs',
      '3|geometry|coordinates out of range (longitude -180..180, latitude -90..90)',
      '5|productId|product B-4 is in the file more than once',
      '6|productId (product_id)|is required',
    ]);
    expect(await sceneCount(api)).toBe(before + 2);
    const report = (await api({ method: 'GET', url: `/api/acquisitions/imports/${failed.id}`, headers: { 'Accept-Language': 'zh-CN' } })).json().result as ImportJobView;
    expect(report.problems[0].reason).toBe('“sideways”不是可用的值：ascending, descending');
  });

  it('lists the recent scene imports of the enterprise', async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const recent = (await api({ method: 'GET', url: '/api/acquisitions/imports' })).json().result as ImportJobView[];
    expect(recent.length).toBeGreaterThan(0);
    expect(nonEmpty(recent).every((job) => job.kind === 'acquisitions')).toBe(true);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: '/api/acquisitions/imports' })).json().result).toEqual([]);
  });

  it('needs the product id and time fields mapped; viewers cannot import; other enterprises cannot see the job', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const job = await analyse(api, 'x.csv', `id,when,WKT\nA,2026-01-01,${wkt(120, 30, 0.1)}`);
    const start = await api({ method: 'POST', url: `/api/acquisitions/imports/${job.id}/start`, payload: { mapping: { productId: 'id' } } });
    expect(start.statusCode).toBe(400);
    expect(start.json().message).toBe('mapping.acquiredAt: choose the field that holds it');
    const wrong = await api({ method: 'POST', url: `/api/acquisitions/imports/${job.id}/start`, payload: { mapping: { productId: 'id', acquiredAt: 'time' } } });
    expect(wrong.json().message).toBe('mapping.acquiredAt: the file has no field "time"');
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'POST', url: '/api/acquisitions/imports', ...multipartFile('file', 'x.csv', 'id\n') })).statusCode).toBe(403);
    expect((await viewer({ method: 'GET', url: `/api/acquisitions/imports/${job.id}` })).statusCode).toBe(200);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: `/api/acquisitions/imports/${job.id}` })).statusCode).toBe(404);
    expect((await gas({ method: 'POST', url: `/api/acquisitions/imports/${job.id}/start`, payload: { mapping: { productId: 'id', acquiredAt: 'when' } } })).statusCode).toBe(404);
    // A POI import job is not a scene import job.
    const pois = await api({ method: 'POST', url: '/api/leaks/imports', ...multipartFile('file', 'p.csv', 'lon,lat\n120.2,30.2\n') });
    expect((await api({ method: 'GET', url: `/api/acquisitions/imports/${pois.json().result.id}` })).statusCode).toBe(404);
  });
});
