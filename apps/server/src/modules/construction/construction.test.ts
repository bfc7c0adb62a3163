import { describe, expect, it } from 'vitest';
import type { ImportJobView } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { metresPerDegree } from '../../geo/local.ts';

const demo = useDemoServer();
type Api = ReturnType<typeof as>;

// A quiet place far from the demo city, so only the fixture's pipes are near the fixture's sites.
const LAT = 31.3;
const [M_LON, M_LAT] = metresPerDegree(LAT);
const east = (lon: number, metres: number) => lon + metres / M_LON;
const north = (lat: number, metres: number) => lat + metres / M_LAT;

/** A square site `sideM` wide with its south-west corner at [lon, lat]. */
function squareSite(lon: number, lat: number, sideM: number) {
  const e = east(lon, sideM), n = north(lat, sideM);
  return { type: 'Polygon' as const, coordinates: [[[lon, lat], [e, lat], [e, n], [lon, n], [lon, lat]]] };
}

/** A north-south pipe `offsetM` east of the square site's east edge, longer than the site. */
async function pipeBeside(api: Api, pipeId: string, lon: number, lat: number, sideM: number, offsetM: number, networkType: string, pressureClass?: string) {
  const x = east(lon, sideM + offsetM);
  const response = await api({
    method: 'POST',
    url: '/api/pipelines',
    payload: { pipeId, networkType, pressureClass, diameterMm: 200, geometry: { type: 'LineString', coordinates: [[x, north(lat, -40)], [x, north(lat, sideM + 40)]] } },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function createSite(api: Api, payload: Record<string, unknown>) {
  const response = await api({ method: 'POST', url: '/api/construction/sites', payload: { name: '工地', buildType: 'road', ...payload } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}

async function importSites(api: Api, fileName: string, content: string, options: Record<string, unknown> = {}) {
  const analysed = await api({ method: 'POST', url: '/api/construction/imports', ...multipartFile('file', fileName, content) });
  expect(analysed.statusCode, analysed.body).toBe(200);
  const job = analysed.json().result as ImportJobView;
  const started = await api({ method: 'POST', url: `/api/construction/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, ...options } });
  expect(started.statusCode, started.body).toBe(200);
  await demo.app.imports.settled(job.id);
  return (await api({ method: 'GET', url: `/api/construction/imports/${job.id}` })).json().result as ImportJobView;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('construction sites measured against the pipes', () => {
  it('measures distances from the site edge and the gas protection ranges by pressure class', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    // Four sites 1 km apart, each 20 m square with one gas pipe beside it.
    const cases = [
      { key: 'M', offsetM: 0.4, pressure: '中压A', zone: 'protection', rangeM: 0.5 },
      { key: 'S', offsetM: 1.4, pressure: 'sub-high', zone: 'protection', rangeM: 1.5 },
      { key: 'H1', offsetM: 4.9, pressure: '高压', zone: 'protection', rangeM: 5 },
      { key: 'H2', offsetM: 5.1, pressure: 'high', zone: 'control', rangeM: 50 },
    ];
    for (const [i, c] of cases.entries()) {
      const lon = 121.6 + i * 0.01;
      await pipeBeside(api, `FIX-GAS-${c.key}`, lon, LAT, 20, c.offsetM, 'gas', c.pressure);
      const site = await createSite(api, { siteNo: `FIX-${c.key}`, geometry: squareSite(lon, LAT, 20) });
      expect(site.measure.nearest.gas.pipeId).toBe(`FIX-GAS-${c.key}`);
      expect(Math.abs(site.measure.nearest.gas.distanceM - c.offsetM)).toBeLessThan(0.01);
      expect(site.measure.gas).toMatchObject({ zone: c.zone, rangeM: c.rangeM });
      expect(site.insideGasProtection).toBe(c.zone === 'protection');
      // Inside a protection range is always high; 5.1 m from a road site falls in the 5-10 m band.
      expect(site.criticality).toBe(c.zone === 'protection' ? 'high' : 'medium');
      expect(site.measure.corridorCount).toEqual({ gas: 1 });
    }
    const inside = (await api({ method: 'GET', url: '/api/construction/sites?insideGasProtection=true&keyword=FIX-' })).json().result;
    expect(inside.list.map((s: { siteNo: string }) => s.siteNo).sort()).toEqual(['FIX-H1', 'FIX-M', 'FIX-S']);
    const summary = (await api({ method: 'GET', url: '/api/construction/summary' })).json().result;
    expect(summary.insideGasProtection).toBeGreaterThanOrEqual(3);

    // A point site with a radius: the circle's edge is what is measured.
    const lon = 121.6;
    const point = await createSite(api, { siteNo: 'FIX-P', point: [east(lon, -30), north(LAT, 10)], radiusM: 10, buildType: 'other' });
    expect(Math.abs(point.measure.nearest.gas.distanceM - (20 + 0.4 + 30 - 10))).toBeLessThan(0.02);
    expect(point.criticality).toBe('none');
    expect(point.measure.corridorCount).toEqual({});
  });

  it('refuses a bad site with the field named, in the language asked', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const missing = await api({ method: 'POST', url: '/api/construction/sites', payload: { name: 'x', buildType: 'road' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('geometry: is required');
    const radius = await api({ method: 'POST', url: '/api/construction/sites', headers: { 'Accept-Language': 'zh-CN' }, payload: { name: 'x', buildType: 'road', point: [121.6, LAT] } });
    expect(radius.json().message).toBe('radiusM: 不能为空');
    const order = await api({ method: 'POST', url: '/api/construction/sites', payload: { name: 'x', buildType: 'road', point: [121.6, LAT], radiusM: 5, plannedStart: '2026-05-01', plannedEnd: '2026-04-01' } });
    expect(order.json().message).toBe('plannedEnd: must not be before the start date');
    await createSite(api, { siteNo: 'DUP-1', point: [121.9, LAT], radiusM: 5 });
    const taken = await api({ method: 'POST', url: '/api/construction/sites', payload: { siteNo: 'DUP-1', name: 'x', buildType: 'road', point: [121.95, LAT], radiusM: 5 } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('siteNo: DUP-1 is already used by another site');
  });

  it('works a case from review to closed, refuses steps its status does not allow, keeps the watch log and history', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const lon = 121.7, lat = 31.35;
    const site = await createSite(api, { siteNo: 'CASE-1', point: [lon, lat], radiusM: 15 });
    expect(site.status).toBe('review');
    const early = await api({ method: 'POST', url: `/api/construction/sites/${site.id}/brief`, payload: { briefedBy: '王工' } });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('site CASE-1 is to review and cannot be briefed');
    const zh = await api({ method: 'POST', url: `/api/construction/sites/${site.id}/close`, headers: { 'Accept-Language': 'zh-CN' }, payload: {} });
    expect(zh.json().message).toBe('工地 CASE-1 当前为“待研判”，不能关闭');

    expect((await api({ method: 'POST', url: `/api/construction/sites/${site.id}/judge`, payload: { result: 'threat', notes: '开挖距燃气管 3 米' } })).json().result.status).toBe('threat');
    const briefed = (await api({ method: 'POST', url: `/api/construction/sites/${site.id}/brief`, payload: { briefedBy: '王工', briefedAt: '2026-11-20T09:00:00Z' } })).json().result;
    expect(briefed).toMatchObject({ status: 'briefed', briefedBy: '王工' });
    expect((await api({ method: 'POST', url: `/api/construction/sites/${site.id}/guard`, payload: { guard: '赵师傅' } })).json().result.status).toBe('guarded');
    const watched = (await api({ method: 'POST', url: `/api/construction/sites/${site.id}/watch`, payload: { person: '赵师傅', remark: '机械开挖已停止，人工探沟' } })).json().result;
    expect(watched.site.watchLog).toHaveLength(1);
    const photoUrl = `/api/construction/sites/${site.id}/watch/${watched.logId}/photos`;
    for (let i = 0; i < 3; i++) expect((await api({ method: 'POST', url: photoUrl, ...multipartFile('file', `p${i}.png`, PNG) })).statusCode).toBe(200);
    const fourth = await api({ method: 'POST', url: photoUrl, ...multipartFile('file', 'p3.png', PNG) });
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json().message).toBe('file: a watch log entry holds at most 3 photos');
    const notImage = await api({ method: 'POST', url: photoUrl, ...multipartFile('file', 'x.png', 'not an image') });
    expect(notImage.statusCode).toBe(400);

    const closed = (await api({ method: 'POST', url: `/api/construction/sites/${site.id}/close`, payload: { notes: '管线段施工完毕' } })).json().result;
    expect(closed.status).toBe('closed');
    expect(closed.files.filter((f: { watchLogId: number | null }) => f.watchLogId === watched.logId)).toHaveLength(3);
    expect((await api({ method: 'POST', url: `/api/construction/sites/${site.id}/reopen`, payload: {} })).json().message).toBe('reason: is required');
    const reopened = (await api({ method: 'POST', url: `/api/construction/sites/${site.id}/reopen`, payload: { reason: '又开始开挖' } })).json().result;
    expect(reopened.status).toBe('review');
    expect(reopened.history.map((h: { action: string }) => h.action)).toEqual(['reopen', 'close', 'watch', 'guard', 'brief', 'judge', 'created']);

    // Viewers read; other enterprises do not see the site at all.
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'GET', url: `/api/construction/sites/${site.id}` })).statusCode).toBe(404);
    expect((await viewer({ method: 'POST', url: '/api/construction/sites', payload: { name: 'x', buildType: 'road', point: [lon, lat], radiusM: 5 } })).statusCode).toBe(403);
    const water = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    expect((await water({ method: 'POST', url: `/api/construction/sites/${site.id}/judge`, payload: { result: 'noThreat' } })).statusCode).toBe(404);
    expect((await water({ method: 'GET', url: '/api/construction/sites?keyword=CASE-1' })).json().result.total).toBe(0);
    expect((await water({ method: 'GET', url: `/api/construction/files/${closed.files[0].id}` })).statusCode).toBe(404);
    expect((await api({ method: 'GET', url: `/api/construction/files/${closed.files[0].id}` })).statusCode).toBe(200);
  });

  it('a new detection within 30 m of a closed case reopens it instead of making a duplicate', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const lon = 121.75, lat = 31.35;
    const site = await createSite(api, { siteNo: 'DET-1', point: [lon, lat], radiusM: 10, source: 'satellite' });
    await api({ method: 'POST', url: `/api/construction/sites/${site.id}/judge`, payload: { result: 'noThreat' } });
    await api({ method: 'POST', url: `/api/construction/sites/${site.id}/close`, payload: {} });
    // 25 m from the circle's edge: the same case.
    const again = await createSite(api, { point: [east(lon, 35), lat], radiusM: 0 + 1, source: 'satellite', detectedAt: '2026-11-01', changeType: 'excavation' });
    expect(again).toMatchObject({ id: site.id, merged: true, status: 'review', detectedAt: '2026-11-01' });
    expect(again.history[0]).toMatchObject({ action: 'redetected', fromStatus: 'closed', toStatus: 'review' });
    // 40 m away: a new case.
    const other = await createSite(api, { point: [east(lon, 51), lat], radiusM: 1, source: 'satellite' });
    expect(other.merged).toBe(false);
    expect(other.id).not.toBe(site.id);
  });

  it('imports a delivery all or nothing, with field suggestions in Chinese, and measures it; a pipe import measures the sites again', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const lon = 121.8, lat = 31.4;
    const good = `编号,施工类型,发现日期,半径,经度,纬度\nIMP-1,地铁,2026-10-01,20,${lon},${lat}\nIMP-2,road,20261002,,${east(lon, 500)},${lat}\n`;
    const job = await importSites(api, 'sites.csv', good);
    expect(job.suggestedMapping).toMatchObject({ siteNo: '编号', buildType: '施工类型', detectedAt: '发现日期', radiusM: '半径' });
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', result: { inserted: 2, updated: 0 } });
    const listed = (await api({ method: 'GET', url: '/api/construction/sites?keyword=IMP-' })).json().result.list;
    expect(listed.map((s: { siteNo: string; buildType: string; radiusM: number }) => [s.siteNo, s.buildType, s.radiusM])).toEqual([['IMP-1', 'metro', 20], ['IMP-2', 'road', 20]]);
    expect(listed[0].criticality).toBe('none');

    const before = (await api({ method: 'GET', url: '/api/construction/sites?keyword=IMP-' })).json().result.total;
    const bad = `编号,施工类型,发现日期,经度,纬度\nB-1,road,2026-10-01,${east(lon, 900)},${lat}\nB-2,spaceship,2026-10-01,${lon},${lat}\nB-3,road,2026-13-01,${lon},${lat}\nB-4,road,,${lon},95\nB-1,road,,${lon},${lat}\n`;
    const failed = await importSites(api, 'bad.csv', bad);
    expect(failed.status).toBe('failed');
    expect(failed.problems.map((p) => [p.row, p.field])).toEqual([[2, 'buildType (施工类型)'], [3, 'detectedAt (发现日期)'], [4, 'geometry'], [5, 'siteNo']]);
    expect((await api({ method: 'GET', url: '/api/construction/sites?keyword=B-' })).json().result.total).toBe(0);
    expect((await api({ method: 'GET', url: '/api/construction/sites?keyword=IMP-' })).json().result.total).toBe(before);

    // A gas main imported 3 m from IMP-1's edge: the site is measured again with the network.
    const x = east(lon, 23);
    const pipes = `pipe_id,network_type,pressure_class,wkt\nIMP-GAS-1,gas,high,"LINESTRING (${x} ${north(lat, -50)}, ${x} ${north(lat, 50)})"\n`;
    const analysed = (await api({ method: 'POST', url: '/api/pipelines/imports', ...multipartFile('file', 'gas.csv', pipes) })).json().result as ImportJobView;
    await api({ method: 'POST', url: `/api/pipelines/imports/${analysed.id}/start`, payload: { mapping: analysed.suggestedMapping, mode: 'append' } });
    await demo.app.imports.settled(analysed.id);
    const remeasured = (await api({ method: 'GET', url: '/api/construction/sites?keyword=IMP-1' })).json().result.list[0];
    expect(Math.abs(remeasured.nearestM - 3)).toBeLessThan(0.05);
    expect(remeasured).toMatchObject({ insideGasProtection: true, criticality: 'high' });

    // The main moved 10 m further by hand: the site is measured again at once.
    const gasPipe = (await api({ method: 'GET', url: '/api/pipelines?keyword=IMP-GAS-1' })).json().result.list[0];
    const x2 = east(lon, 33);
    const moved = await api({ method: 'PUT', url: `/api/pipelines/${gasPipe.id}`, payload: { pipeId: 'IMP-GAS-1', networkType: 'gas', pressureClass: 'high', geometry: { type: 'LineString', coordinates: [[x2, north(lat, -50)], [x2, north(lat, 50)]] } } });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = (await api({ method: 'GET', url: '/api/construction/sites?keyword=IMP-1' })).json().result.list[0];
    expect(Math.abs(after.nearestM - 13)).toBeLessThan(0.05);
    // A metro site 10-15 m from a pipe is medium by the default matrix.
    expect(after).toMatchObject({ insideGasProtection: false, criticality: 'medium' });
  });

  it('exports the filtered sites as GeoJSON, CSV and XLSX; admins change the matrix and every site is judged again', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const geojson = await api({ method: 'GET', url: '/api/construction/sites/export?format=geojson&keyword=FIX-' });
    expect(geojson.statusCode).toBe(200);
    const collection = JSON.parse(geojson.body);
    expect(collection.features.map((f: { id: string }) => f.id)).toContain('FIX-M');
    expect(collection.features.find((f: { id: string }) => f.id === 'FIX-M').properties).toMatchObject({ insideGasProtection: true, gasPipeId: 'FIX-GAS-M' });
    const csv = await api({ method: 'GET', url: '/api/construction/sites/export?format=csv&keyword=FIX-H2' });
    expect(csv.body.split('\n')[0]).toMatch(/^\ufeff?siteNo,name,buildType,status,criticality,nearestM/);
    expect(csv.body).toContain('POLYGON');
    const xlsx = await api({ method: 'GET', url: '/api/construction/sites/export?format=xlsx' });
    expect(xlsx.headers['content-type']).toMatch(/spreadsheetml/);

    const settings = (await api({ method: 'GET', url: '/api/construction/settings' })).json().result;
    const refused = await api({ method: 'PUT', url: '/api/construction/settings', payload: { ...settings, bandsM: [5, 4, 15] } });
    expect(refused.json().message).toBe('bandsM: must be strictly ascending');
    const saved = await api({ method: 'PUT', url: '/api/construction/settings', payload: { ...settings, matrix: { ...settings.matrix, road: ['high', 'high', 'high'] } } });
    expect(saved.statusCode, saved.body).toBe(200);
    const h2 = (await api({ method: 'GET', url: '/api/construction/sites?keyword=FIX-H2' })).json().result.list[0];
    expect(h2.criticality).toBe('high');
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    expect((await member({ method: 'PUT', url: '/api/construction/settings', payload: settings })).statusCode).toBe(403);
  });
});
