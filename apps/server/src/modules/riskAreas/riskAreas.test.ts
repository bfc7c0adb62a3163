import { describe, expect, it } from 'vitest';
import type { ImportJobView } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { metresPerDegree } from '../../geo/local.ts';

const demo = useDemoServer();

/** A multipart body with a "kind" field before the file, as the console sends a site file. */
function multipartKindFile(kind: string, content: Buffer) {
  const boundary = '----consoleKind';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
type Api = ReturnType<typeof as>;

const LAT = 31.45;
const [M_LON, M_LAT] = metresPerDegree(LAT);
const east = (lon: number, m: number) => lon + m / M_LON;
const north = (lat: number, m: number) => lat + m / M_LAT;

/** An east-west pipe through [lon, lat], `lengthM` long. */
async function pipeAt(api: Api, pipeId: string, networkType: string, lon: number, lat: number, lengthM: number) {
  const response = await api({ method: 'POST', url: '/api/pipelines', payload: { pipeId, networkType, diameterMm: 150, geometry: { type: 'LineString', coordinates: [[east(lon, -lengthM / 2), lat], [east(lon, lengthM / 2), lat]] } } });
  expect(response.statusCode, response.body).toBe(200);
}

async function createArea(api: Api, payload: Record<string, unknown>) {
  const response = await api({ method: 'POST', url: '/api/risk-areas/areas', payload: { name: '易涝点', kind: 'waterlogging', level: 'III', ...payload } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}

describe('risk-prone areas and their pipes', () => {
  it('counts the pipes inside an area or within its buffer, by network and length', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const lon = 121.5;
    await pipeAt(api, 'RA-W-IN', 'water', lon, LAT, 100);
    await pipeAt(api, 'RA-D-30', 'drainage', lon, north(LAT, 30), 80);
    await pipeAt(api, 'RA-W-70', 'water', lon, north(LAT, 70), 60);
    // A 20 m square over the first pipe.
    const square = { type: 'Polygon', coordinates: [[[east(lon, -10), north(LAT, -10)], [east(lon, 10), north(LAT, -10)], [east(lon, 10), north(LAT, 10)], [east(lon, -10), north(LAT, 10)], [east(lon, -10), north(LAT, -10)]]] };
    const area = await createArea(api, { name: '测试下穿通道 RA-1', geometry: square, triggerRainMm: 50, triggerHours: 3 });
    expect(area.pipes).toMatchObject({ bufferM: 50, inside: 1, count: { water: 1, drainage: 1 } });
    // Lengths as the pipe list keeps them (great-circle, within 0.3 % of the ellipsoid's).
    expect(area.pipes.lengthM.water).toBeCloseTo(100, -0.5);
    expect(area.pipes.lengthM.drainage).toBeCloseTo(80, -0.5);
    const held = (await api({ method: 'GET', url: `/api/risk-areas/areas/${area.id}/pipes` })).json().result;
    expect(held.total).toBe(2);
    expect(held.list.map((p: { pipeId: string; distanceM: number }) => [p.pipeId, Math.round(p.distanceM * 100) / 100])).toEqual([['RA-W-IN', 0], ['RA-D-30', 20]]);
    expect(area.pipeLines).toHaveLength(2);
    // A void as a point, with a 75 m buffer, reaches the third pipe too.
    const hole = await createArea(api, { name: '空洞 K-1', kind: 'void', level: 'II', point: [lon, north(LAT, 5)], bufferM: 75, voidAreaM2: 6.5, burialDepthM: 1.2, clearHeightM: 0.6 });
    expect(hole.pipes.count).toEqual({ water: 2, drainage: 1 });
    expect(hole).toMatchObject({ voidAreaM2: 6.5, burialDepthM: 1.2, clearHeightM: 0.6 });
    const listed = (await api({ method: 'GET', url: '/api/risk-areas/areas?networkType=drainage&keyword=RA-1' })).json().result;
    expect(listed.total).toBe(1);

    const bad = await api({ method: 'POST', url: '/api/risk-areas/areas', payload: { name: 'x', kind: 'waterlogging', level: 'V', point: [lon, LAT] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^level: /);
    const halfTrigger = await api({ method: 'POST', url: '/api/risk-areas/areas', payload: { name: 'x', kind: 'waterlogging', level: 'I', point: [lon, LAT], triggerRainMm: 50 } });
    expect(halfTrigger.json().message).toBe('triggerHours: is required');
  });

  it('remediates an area, refuses steps its status does not allow, reopens with a reason; other tenants see nothing', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const area = await createArea(api, { name: '江南大道积水点', point: [121.52, LAT] });
    const early = await api({ method: 'POST', url: `/api/risk-areas/areas/${area.id}/finish`, payload: {} });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('江南大道积水点 is identified and cannot be marked remediated');
    expect((await api({ method: 'POST', url: `/api/risk-areas/areas/${area.id}/start`, payload: { notes: '增设雨水口' } })).json().result.status).toBe('remediating');
    expect((await api({ method: 'POST', url: `/api/risk-areas/areas/${area.id}/finish`, payload: {} })).json().result.status).toBe('remediated');
    expect((await api({ method: 'POST', url: `/api/risk-areas/areas/${area.id}/reopen`, payload: {} })).json().message).toBe('reason: is required');
    const reopened = (await api({ method: 'POST', url: `/api/risk-areas/areas/${area.id}/reopen`, payload: { reason: '暴雨后再次积水' } })).json().result;
    expect(reopened.status).toBe('identified');
    expect(reopened.history.map((h: { action: string }) => h.action)).toEqual(['reopen', 'finish', 'start', 'created']);

    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: `/api/risk-areas/areas/${area.id}` })).statusCode).toBe(404);
    expect((await gas({ method: 'POST', url: `/api/risk-areas/areas/${area.id}/start`, payload: {} })).statusCode).toBe(404);
    expect((await gas({ method: 'GET', url: '/api/risk-areas/areas?keyword=江南大道积水点' })).json().result.total).toBe(0);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'GET', url: `/api/risk-areas/areas/${area.id}` })).statusCode).toBe(200);
    expect((await viewer({ method: 'POST', url: `/api/risk-areas/areas/${area.id}/start`, payload: {} })).statusCode).toBe(403);
  });

  it('imports a register all or nothing with Chinese field names, and a subsidence zone from a settlement result', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const lon = 121.55;
    const good = `名称,类型,等级,降雨阈值,降雨时长,经度,纬度\n长河路积水点,易涝点,二级,40,1,${lon},${LAT}\n浦沿路空洞,空洞,一级,,,${east(lon, 200)},${LAT}\n`;
    const analysed = (await api({ method: 'POST', url: '/api/risk-areas/imports', ...multipartFile('file', 'register.csv', good) })).json().result as ImportJobView;
    expect(analysed.suggestedMapping).toMatchObject({ name: '名称', kind: '类型', level: '等级', triggerRainMm: '降雨阈值', triggerHours: '降雨时长' });
    await api({ method: 'POST', url: `/api/risk-areas/imports/${analysed.id}/start`, payload: { mapping: analysed.suggestedMapping } });
    await demo.app.imports.settled(analysed.id);
    expect((await api({ method: 'GET', url: `/api/risk-areas/imports/${analysed.id}` })).json().result).toMatchObject({ status: 'succeeded', rowsWritten: 2 });
    const imported = (await api({ method: 'GET', url: '/api/risk-areas/areas?keyword=长河路积水点' })).json().result.list[0];
    expect(imported).toMatchObject({ kind: 'waterlogging', level: 'II', triggerRainMm: 40, triggerHours: 1, source: 'survey' });

    // Words nothing knows are asked about only when they are the file's only problems: with a row
    // placed off the globe the file fails, and the words are listed with it.
    const bad = `名称,类型,等级,经度,纬度\n甲,易涝点,五级,${lon},${LAT}\n乙,火山,一级,${lon},${LAT}\n丙,易涝点,一级,999,${LAT}\n`;
    const failedJob = (await api({ method: 'POST', url: '/api/risk-areas/imports', ...multipartFile('file', 'bad.csv', bad) })).json().result as ImportJobView;
    await api({ method: 'POST', url: `/api/risk-areas/imports/${failedJob.id}/start`, payload: { mapping: failedJob.suggestedMapping } });
    await demo.app.imports.settled(failedJob.id);
    const failed = (await api({ method: 'GET', url: `/api/risk-areas/imports/${failedJob.id}` })).json().result as ImportJobView;
    expect(failed.status).toBe('failed');
    expect(failed.problems.map((p) => [p.row, p.field])).toEqual([[1, 'level (等级)'], [2, 'kind (类型)'], [3, 'geometry']]);
    expect((await api({ method: 'GET', url: '/api/risk-areas/areas?keyword=甲' })).json().result.total).toBe(0);

    // The demo's settlement dataset flags segments: one becomes a subsidence zone over its pipe.
    const [dataset] = (await api({ method: 'GET', url: '/api/settlement/datasets' })).json().result;
    const flagged = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results?level=alarm&pageSize=1` })).json().result.list[0];
    const zone = await api({ method: 'POST', url: '/api/risk-areas/areas/from-settlement', payload: { datasetId: dataset.id, pipeRowId: flagged.pipeRowId } });
    expect(zone.statusCode, zone.body).toBe(200);
    expect(zone.json().result).toMatchObject({ kind: 'subsidence', level: 'II', source: 'insar' });
    expect(zone.json().result.pipes.inside).toBeGreaterThanOrEqual(1);
    const zonePipes = (await api({ method: 'GET', url: `/api/risk-areas/areas/${zone.json().result.id}/pipes?pageSize=200` })).json().result;
    expect(zonePipes.list.map((p: { pipeRowId: number }) => p.pipeRowId)).toContain(flagged.pipeRowId);
  });

  it('exports the areas with their pipes', async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const geojson = JSON.parse((await api({ method: 'GET', url: '/api/risk-areas/areas/export?format=geojson&keyword=RA-1' })).body);
    expect(geojson.features).toHaveLength(1);
    expect(geojson.features[0].properties).toMatchObject({ kind: 'waterlogging', pipesInside: 1, waterPipes: 1, drainagePipes: 1 });
    const csv = (await api({ method: 'GET', url: '/api/risk-areas/areas/export?format=csv' })).body;
    expect(csv).toMatch(/^\ufeff?name,kind,level,status/);
  });
});

describe('tenant isolation of the construction and risk-area routes', () => {
  it("answers 404 for every route given another enterprise's site, area, file or dataset, and lists none of them", async () => {
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const site = (await gas({ method: 'POST', url: '/api/construction/sites', payload: { siteNo: 'ISO-1', name: '隔离', buildType: 'road', point: [121.9, 31.6], radiusM: 5 } })).json().result;
    await gas({ method: 'POST', url: `/api/construction/sites/${site.id}/judge`, payload: { result: 'threat' } });
    await gas({ method: 'POST', url: `/api/construction/sites/${site.id}/brief`, payload: { briefedBy: '甲' } });
    await gas({ method: 'POST', url: `/api/construction/sites/${site.id}/guard`, payload: { guard: '乙' } });
    const { logId } = (await gas({ method: 'POST', url: `/api/construction/sites/${site.id}/watch`, payload: { person: '乙', remark: '无异常' } })).json().result;
    const siteFile = (await gas({ method: 'POST', url: `/api/construction/sites/${site.id}/files`, ...multipartKindFile('photo', png) })).json();
    const area = (await gas({ method: 'POST', url: '/api/risk-areas/areas', payload: { name: '隔离区', kind: 'collapse', level: 'II', point: [121.9, 31.6] } })).json().result;
    const areaFile = (await gas({ method: 'POST', url: `/api/risk-areas/areas/${area.id}/files`, ...multipartFile('file', 'p.png', png) })).json().result;
    const [waterDataset] = (await water({ method: 'GET', url: '/api/settlement/datasets' })).json().result;

    const siteBody = { name: 'x', buildType: 'road', point: [121.9, 31.6], radiusM: 5 };
    const attempts: [string, string, Record<string, unknown>?][] = [
      ['GET', `/api/construction/sites/${site.id}`],
      ['PUT', `/api/construction/sites/${site.id}`, siteBody],
      ['DELETE', `/api/construction/sites/${site.id}`],
      ['POST', `/api/construction/sites/${site.id}/judge`, { result: 'noThreat' }],
      ['POST', `/api/construction/sites/${site.id}/brief`, { briefedBy: 'x' }],
      ['POST', `/api/construction/sites/${site.id}/guard`, { guard: 'x' }],
      ['POST', `/api/construction/sites/${site.id}/watch`, { person: 'x', remark: 'x' }],
      ['POST', `/api/construction/sites/${site.id}/close`, {}],
      ['POST', `/api/construction/sites/${site.id}/reopen`, { reason: 'x' }],
      ['GET', `/api/risk-areas/areas/${area.id}`],
      ['PUT', `/api/risk-areas/areas/${area.id}`, { name: 'x', kind: 'void', level: 'I', point: [121.9, 31.6] }],
      ['DELETE', `/api/risk-areas/areas/${area.id}`],
      ['POST', `/api/risk-areas/areas/${area.id}/start`, {}],
      ['POST', `/api/risk-areas/areas/${area.id}/finish`, {}],
      ['POST', `/api/risk-areas/areas/${area.id}/reopen`, { reason: 'x' }],
      ['GET', `/api/risk-areas/files/${areaFile.id}`],
      ['DELETE', `/api/risk-areas/files/${areaFile.id}`],
    ];
    for (const [method, url, payload] of attempts) {
      const response = await water({ method: method as 'GET', url, payload });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await water({ method: 'POST', url: `/api/construction/sites/${site.id}/files`, ...multipartKindFile('plan', png) })).statusCode).toBe(404);
    for (const url of [`/api/construction/sites/${site.id}/watch/${logId}/photos`, `/api/risk-areas/areas/${area.id}/files`]) {
      expect((await water({ method: 'POST', url, ...multipartFile('file', 'p.png', png) })).statusCode, url).toBe(404);
    }
    const gasFiles = (await gas({ method: 'GET', url: `/api/construction/sites/${site.id}` })).json().result.files;
    for (const file of gasFiles) {
      expect((await water({ method: 'GET', url: `/api/construction/files/${file.id}` })).statusCode).toBe(404);
      expect((await water({ method: 'DELETE', url: `/api/construction/files/${file.id}` })).statusCode).toBe(404);
    }
    expect(siteFile.success).toBe(true);
    // A settlement result of the water utility cannot become the gas utility's zone.
    expect((await gas({ method: 'POST', url: '/api/risk-areas/areas/from-settlement', payload: { datasetId: waterDataset.id, pipeRowId: 1 } })).statusCode).toBe(404);
    for (const url of ['/api/construction/sites?keyword=ISO-1', '/api/risk-areas/areas?keyword=隔离区']) expect((await water({ method: 'GET', url })).json().result.total, url).toBe(0);
    const exported = JSON.parse((await water({ method: 'GET', url: '/api/construction/sites/export?format=geojson' })).body);
    expect(exported.features.map((f: { id: string }) => f.id)).not.toContain('ISO-1');
    // Nothing of the gas utility's was changed by the attempts.
    expect((await gas({ method: 'GET', url: `/api/construction/sites/${site.id}` })).json().result.status).toBe('guarded');
    expect((await gas({ method: 'GET', url: `/api/risk-areas/areas/${area.id}` })).json().result.status).toBe('identified');
  });
});
