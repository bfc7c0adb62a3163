import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { ImportJobView } from '@console/contract';
import { as, createTestApp, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { nonEmpty } from '../../testing/lists.ts';
import { readSpreadsheetElsewhere } from '../../testing/spreadsheets.ts';

const demo = useDemoServer();
type Api = ReturnType<typeof as>;

const square = (lon: number, lat: number, d: number) => ({ type: 'Polygon', coordinates: [[[lon - d, lat - d], [lon + d, lat - d], [lon + d, lat + d], [lon - d, lat + d], [lon - d, lat - d]]] });

async function project(api: Api, code: string) {
  return ((await api({ method: 'GET', url: '/api/projects' })).json().result as { id: number; code: string; area: { coordinates: number[][][] } }[]).find((p) => p.code === code)!;
}

/** Midpoints of a few water pipes inside the project: where a leak POI would be placed. */
async function pipeMidpoints(api: Api, projectId: number, count: number) {
  const list = (await api({ method: 'GET', url: `/api/pipelines?projectId=${projectId}&networkType=water&pageSize=${count}` })).json().result.list as { geometry: { coordinates: number[][] } }[];
  return list.map((p) => {
    const [a, b] = p.geometry.coordinates;
    return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  });
}

async function importDelivery(api: Api, fileName: string, content: string, options: Record<string, unknown>) {
  const analysed = await api({ method: 'POST', url: '/api/leaks/imports', ...multipartFile('file', fileName, content) });
  expect(analysed.statusCode, analysed.body).toBe(200);
  const job = analysed.json().result as ImportJobView;
  const started = await api({ method: 'POST', url: `/api/leaks/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, ...options } });
  expect(started.statusCode, started.body).toBe(200);
  await demo.app.imports.settled(job.id);
  return (await api({ method: 'GET', url: `/api/leaks/imports/${job.id}` })).json().result as ImportJobView;
}

describe('POI list', () => {
  it("filters POIs by their delivery's date, the same rule as the metrics", async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const leak = await project(api, 'BJ-LEAK-2026');
    const list = async (query: string) => (await api({ method: 'GET', url: `/api/leaks/pois?projectId=${leak.id}&${query}` })).json().result.total as number;
    const metrics = async (query: string) => (await api({ method: 'GET', url: `/api/leaks/metrics?projectId=${leak.id}&${query}` })).json().result.delivered as number;
    // The demo delivers 36 POIs on 2026-03-02, 32 on 2026-06-01 and 30 on 2026-08-31.
    expect(await list('from=2026-06-01&to=2026-06-01')).toBe(32);
    expect(await list('from=2026-06-02&to=2026-08-31')).toBe(30);
    expect(await list('to=2026-03-01')).toBe(0);
    expect(await metrics('from=2026-06-01&to=2026-08-31')).toBe(await list('from=2026-06-01&to=2026-08-31'));
    const bad = await api({ method: 'GET', url: `/api/leaks/pois?from=June` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^from: /);
  });
});

describe('POI deliveries and the field workflow', () => {
  it('imports a delivery: points become circles, polygons stay, each POI knows its pipes; bad rows fail it whole', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const leak = await project(api, 'BJ-LEAK-2026');
    const [a, b, c] = await pipeMidpoints(api, leak.id, 3);
    const csv = `poi_id,lon,lat,radius,priority,estimated_leak\nP-001,${a[0]},${a[1]},,高,2.5\nP-002,${b[0]},${b[1]},150,low,\nP-003,${c[0]},${c[1]},80,2,0.8\n`;
    const job = await importDelivery(api, 'delivery-2026-03.csv', csv, { projectId: leak.id, name: '2026年3月交付' });
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', rowsWritten: 3 });
    const deliveryId = job.result!.deliveryId;
    const page = (await api({ method: 'GET', url: `/api/leaks/pois?deliveryId=${deliveryId}` })).json().result;
    expect(page.total).toBe(3);
    const [p1, p2, p3] = page.list;
    expect(p1).toMatchObject({ poiNo: 'P-001', priority: 'high', radiusM: 100, estimatedLeakM3h: 2.5, status: 'new' });
    expect(p2).toMatchObject({ poiNo: 'P-002', priority: 'low', radiusM: 150, estimatedLeakM3h: null });
    expect(p3).toMatchObject({ priority: 'medium', radiusM: 80 });
    expect(p1.geometry.coordinates[0]).toHaveLength(65);
    // The POI is centred on a water pipe's midpoint: at least 2 x r minus the block's jitter of water inside.
    expect(p1.pipes.lengthM.water).toBeGreaterThan(150);
    expect(p1.pipes.count).toBeGreaterThan(0);

    const polygonDelivery = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Z-1' }, geometry: square(a[0], a[1], 0.0005) }] };
    const polygonJob = await importDelivery(api, 'zones.geojson', JSON.stringify(polygonDelivery), { projectId: leak.id, name: 'zones' });
    const zone = (await api({ method: 'GET', url: `/api/leaks/pois?deliveryId=${polygonJob.result!.deliveryId}` })).json().result.list[0];
    expect(zone).toMatchObject({ poiNo: 'Z-1', radiusM: null, geometry: square(a[0], a[1], 0.0005) });

    const deliveriesBefore = (await api({ method: 'GET', url: `/api/leaks/deliveries?projectId=${leak.id}` })).json().result.length;
    const bad = `poi_id,wkt,priority\nB-1,"POINT (${a[0]} ${a[1]})",high\nB-2,"LINESTRING (120.2 30.2, 120.3 30.3)",high\nB-3,"POINT (${a[0]} ${a[1]})",urgent\nB-1,"POINT (${a[0]} ${a[1]})",low\n`;
    const failed = await importDelivery(api, 'bad.csv', bad, { projectId: leak.id, name: 'bad' });
    expect(failed.status).toBe('failed');
    expect(failed.problems).toEqual([
      { row: 2, featureId: 'B-2', field: 'geometry', reason: 'is a LineString where a point or polygon belongs' },
      { row: 3, featureId: 'B-3', field: 'priority (priority)', reason: '"urgent" is not a priority (high, medium, low)' },
      { row: 4, featureId: 'B-1', field: 'poiNo', reason: 'POI B-1 is in the file more than once' },
    ]);
    expect((await api({ method: 'GET', url: `/api/leaks/deliveries?projectId=${leak.id}` })).json().result.length).toBe(deliveriesBefore);
  });

  it('walks a POI from new to repaired, refuses what the workflow does not allow, and keeps the history', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const leak = await project(api, 'BJ-LEAK-2026');
    const points = await pipeMidpoints(api, leak.id, 2);
    const csv = `poi_id,lon,lat\nW-1,${points[0][0]},${points[0][1]}\nW-2,${points[1][0]},${points[1][1]}\n`;
    const job = await importDelivery(api, 'work.csv', csv, { projectId: leak.id, name: 'workflow' });
    const [first, second] = (await api({ method: 'GET', url: `/api/leaks/pois?deliveryId=${job.result!.deliveryId}` })).json().result.list;
    const members = (await api({ method: 'GET', url: '/api/enterprise/members' })).json().result as { userId: number; username: string }[];
    const crew = members.find((m) => m.username === 'member')!;

    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'POST', url: '/api/leaks/pois/assign', payload: { poiIds: [first.id], assigneeId: crew.userId } })).statusCode).toBe(403);
    const gasOnly = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gasOnly({ method: 'GET', url: `/api/leaks/pois/${first.id}` })).statusCode).toBe(404);

    const early = await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/start` });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('POI W-1 is new: it cannot be started now');
    const zh = await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/start`, headers: { 'Accept-Language': 'zh-CN' } });
    expect(zh.json().message).toBe('兴趣点 W-1 当前为“新建”，不能执行“开始排查”');

    expect((await api({ method: 'POST', url: '/api/leaks/pois/assign', payload: { poiIds: [first.id], assigneeId: 999999 } })).json().message).toBe('assigneeId: not an active member of this enterprise');
    const assigned = await api({ method: 'POST', url: '/api/leaks/pois/assign', payload: { poiIds: [first.id, second.id], assigneeId: crew.userId, dueDate: '2026-12-01' } });
    expect(assigned.json().success).toBe(true);
    expect((await api({ method: 'GET', url: `/api/leaks/pois?deliveryId=${job.result!.deliveryId}&status=assigned&assigneeId=${crew.userId}` })).json().result.total).toBe(2);

    expect((await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/start` })).json().result.status).toBe('investigating');
    const noType = await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/finding`, payload: { result: 'leakFound' } });
    expect(noType.json().message).toBe('leakType: is required');
    const found = await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/finding`, payload: { result: 'leakFound', leakType: 'joint', surfacing: false, pipeMaterial: 'ductile iron', pipeDiameterMm: 150, flowM3h: 1.5, depthM: 1.4, notes: '听漏仪确认' } });
    expect(found.json().result).toMatchObject({ status: 'leakFound', finding: { leakType: 'joint', surfacing: false, flowM3h: 1.5 } });
    expect(found.json().result.foundAt).not.toBeNull();
    expect((await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/finding`, payload: { result: 'noLeak' } })).statusCode).toBe(409);
    expect((await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/repair`, payload: { notes: '更换接口' } })).json().result.status).toBe('repaired');
    expect((await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/reopen`, payload: {} })).json().message).toBe('reason: is required');
    const reopened = (await api({ method: 'POST', url: `/api/leaks/pois/${first.id}/reopen`, payload: { reason: '修复后仍有渗水' } })).json().result;
    expect(reopened.status).toBe('investigating');
    expect(reopened.history.map((h: { action: string }) => h.action)).toEqual(['reopen', 'repair', 'finding', 'start', 'assign', 'imported']);
    expect(reopened.history[0]).toMatchObject({ fromStatus: 'repaired', toStatus: 'investigating', details: { reason: '修复后仍有渗水' }, userName: '李娜' });
    expect(reopened.assigneeName).toBe('李娜');

    // A bulk action is all or nothing: one POI that may not take it refuses them all.
    expect((await api({ method: 'POST', url: `/api/leaks/pois/${second.id}/start` })).statusCode).toBe(200);
    expect((await api({ method: 'POST', url: `/api/leaks/pois/${second.id}/finding`, payload: { result: 'noLeak', notes: '未发现异常' } })).json().result.status).toBe('noLeak');
    const bulk = await api({ method: 'POST', url: '/api/leaks/pois/assign', payload: { poiIds: [first.id, second.id], assigneeId: crew.userId } });
    expect(bulk.statusCode).toBe(409);
    expect(bulk.json().message).toBe('POI W-2 is closed without a leak: it cannot be assigned now');
  });

  it('computes the survey metrics of a project and period (hand-computed fixture)', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const leak = await project(api, 'BJ-LEAK-2026');
    const points = await pipeMidpoints(api, leak.id, 20);
    // A project of its own around four POIs, so other tests' POIs do not count.
    const box = { type: 'Polygon', coordinates: [[[120.0, 30.0], [120.5, 30.0], [120.5, 30.5], [120.0, 30.5], [120.0, 30.0]]] };
    const created = await api({ method: 'POST', url: '/api/projects', payload: { name: '指标测试', code: 'METRICS-1', city: '杭州市', area: box, networkTypes: ['water'] } });
    const projectId = created.json().result.id;
    const picks = [points[4], points[9], points[14], points[19]];
    const csv = `poi_id,lon,lat\n${picks.map((p, i) => `M-${i + 1},${p[0]},${p[1]}`).join('\n')}\n`;
    const job = await importDelivery(api, 'metrics.csv', csv, { projectId, name: 'metrics' });
    const list = (await api({ method: 'GET', url: `/api/leaks/pois?deliveryId=${job.result!.deliveryId}` })).json().result.list as { id: number; pipes: { lengthM: { water?: number } } }[];
    const crew = ((await api({ method: 'GET', url: '/api/enterprise/members' })).json().result as { userId: number; username: string }[]).find((m) => m.username === 'member')!;
    await api({ method: 'POST', url: '/api/leaks/pois/assign', payload: { poiIds: list.slice(0, 3).map((p) => p.id), assigneeId: crew.userId } });
    for (const p of list.slice(0, 3)) await api({ method: 'POST', url: `/api/leaks/pois/${p.id}/start` });
    const finding = (id: number, body: Record<string, unknown>) => api({ method: 'POST', url: `/api/leaks/pois/${id}/finding`, payload: body });
    await finding(list[0].id, { result: 'leakFound', leakType: 'joint', surfacing: false, pipeMaterial: 'ductile iron', pipeDiameterMm: 100, flowM3h: 2 });
    await finding(list[1].id, { result: 'leakFound', leakType: 'main', surfacing: true, pipeMaterial: 'PE', pipeDiameterMm: 400, flowM3h: 1 });
    await finding(list[2].id, { result: 'noLeak' });
    await api({ method: 'POST', url: `/api/leaks/pois/${list[0].id}/repair`, payload: {} });

    const metrics = (await api({ method: 'GET', url: `/api/leaks/metrics?projectId=${projectId}` })).json().result;
    const surveyedKm = list.slice(0, 3).reduce((s, p) => s + (p.pipes.lengthM.water ?? 0), 0) / 1000;
    expect(metrics).toMatchObject({
      delivered: 4,
      investigated: 3,
      confirmed: 2,
      confirmationRate: 0.667, // 2 of 3
      crewDays: 1, // one crew, one day
      leaksPerCrewDay: 2,
      surveyedKm: Math.round(surveyedKm * 100) / 100,
      leaksPerKm: Math.round((2 / surveyedKm) * 100) / 100,
      nonSurfacingShare: 0.5,
      byType: { joint: 1, main: 1 },
      byMaterial: { 'ductile iron': 1, PE: 1 },
      byDiameterClass: { '<=100': 1, '301-600': 1 },
      waterSavedM3PerDay: 48, // the repaired 2 m3/h leak, all day
      waterSavedM3PerYear: 17520,
      byStatus: { repaired: 1, leakFound: 1, noLeak: 1, new: 1 },
    });
    expect(metrics.daysToInvestigation).toBeGreaterThanOrEqual(0);
    expect(metrics.daysToInvestigation).toBeLessThan(1);
    expect(metrics.daysToRepair).toBeLessThan(1);
    // A period before the delivery holds nothing.
    expect((await api({ method: 'GET', url: `/api/leaks/metrics?projectId=${projectId}&to=2020-01-01` })).json().result).toMatchObject({ delivered: 0, confirmationRate: null, leaksPerKm: null });
  });
});

describe('POI exports', () => {
  it('exports the filtered POIs with their findings as GeoJSON, CSV and XLSX', async () => {
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const leak = await project(viewer, 'BJ-LEAK-2026');
    const filter = `projectId=${leak.id}&status=repaired`;
    const count = (await viewer({ method: 'GET', url: `/api/leaks/pois?${filter}` })).json().result.total;
    expect(count).toBeGreaterThan(0);
    const geojson = (await viewer({ method: 'GET', url: `/api/leaks/pois/export?${filter}&format=geojson` })).json();
    expect(geojson.features).toHaveLength(count);
    expect(geojson.features[0].geometry.type).toBe('Polygon');
    expect(nonEmpty(geojson.features).every((f: { properties: { status: string; leakType: string | null; repairedAt: string | null } }) => f.properties.status === 'repaired' && f.properties.leakType && f.properties.repairedAt)).toBe(true);
    const csv = await viewer({ method: 'GET', url: `/api/leaks/pois/export?${filter}&format=csv` });
    expect(csv.headers['content-disposition']).toBe('attachment; filename="pois.csv"');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('poiNo,delivery,status,priority,assignee,dueDate,centerLon,centerLat,radiusM,estimatedLeakM3h,waterPipeM,leakType,surfacing,pipeMaterial,pipeDiameterMm,flowM3h,depthM,notes,investigatedAt,foundAt,repairedAt,wkt');
    expect(lines).toHaveLength(count + 1);
    expect(lines[1]).toMatch(/"POLYGON \(\(/);
    const xlsx = await viewer({ method: 'GET', url: `/api/leaks/pois/export?${filter}&format=xlsx` });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as never);
    expect(book.getWorksheet('pois')!.rowCount).toBe(count + 1);
    for (const table of Object.values(await readSpreadsheetElsewhere(xlsx.rawPayload)).filter((t) => t !== null)) {
      expect(table.rows).toBe(count);
      expect(table.columns.slice(0, 3)).toEqual(['poiNo', 'delivery', 'status']);
    }
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: '/api/leaks/pois/export?format=geojson' })).json().features).toEqual([]);
  });
});

/** A 1 x 1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('POI photos', () => {
  it('keeps photos of a POI on disk, serves them within the enterprise, and refuses what is not an image', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const leak = await project(api, 'BJ-LEAK-2026');
    const [p] = await pipeMidpoints(api, leak.id, 1);
    const job = await importDelivery(api, 'photo.csv', `poi_id,lon,lat\nF-1,${p[0]},${p[1]}\n`, { projectId: leak.id, name: 'photos' });
    const poi = (await api({ method: 'GET', url: `/api/leaks/pois?deliveryId=${job.result!.deliveryId}` })).json().result.list[0];

    const added = await api({ method: 'POST', url: `/api/leaks/pois/${poi.id}/photos`, ...multipartFile('file', '现场.png', PNG) });
    expect(added.json().result).toMatchObject({ fileName: '现场.png', mimetype: 'image/png', size: PNG.length });
    const image = await api({ method: 'GET', url: `/api/leaks/photos/${added.json().result.id}` });
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(image.rawPayload, PNG)).toBe(0);
    expect((await api({ method: 'GET', url: `/api/leaks/pois/${poi.id}/photos` })).json().result).toHaveLength(1);
    expect((await api({ method: 'GET', url: `/api/leaks/pois/${poi.id}` })).json().result.history[0]).toMatchObject({ action: 'photo', details: { fileName: '现场.png' } });

    const fake = await api({ method: 'POST', url: `/api/leaks/pois/${poi.id}/photos`, ...multipartFile('file', 'photo.jpg', 'not an image') });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().message).toBe('file: a photo must be a JPEG, PNG, WebP or HEIC image');
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'POST', url: `/api/leaks/pois/${poi.id}/photos`, ...multipartFile('file', 'a.png', PNG) })).statusCode).toBe(403);
    expect((await viewer({ method: 'GET', url: `/api/leaks/photos/${added.json().result.id}` })).statusCode).toBe(200);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: `/api/leaks/photos/${added.json().result.id}` })).statusCode).toBe(404);
    // Members add photos but do not delete them (the role table); admins do.
    expect((await api({ method: 'DELETE', url: `/api/leaks/photos/${added.json().result.id}` })).statusCode).toBe(403);
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    expect((await admin({ method: 'DELETE', url: `/api/leaks/photos/${added.json().result.id}` })).json().success).toBe(true);
    expect((await api({ method: 'GET', url: `/api/leaks/photos/${added.json().result.id}` })).statusCode).toBe(404);
  });

  it('deleting a delivery takes its POIs, history and photo files with it; only admins delete, within their enterprise', async () => {
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const leak = await project(member, 'BJ-LEAK-2026');
    const [p, q] = await pipeMidpoints(member, leak.id, 2);
    const job = await importDelivery(member, 'gone.csv', `poi_id,lon,lat\nG-1,${p[0]},${p[1]}\nG-2,${q[0]},${q[1]}\n`, { projectId: leak.id, name: 'to delete' });
    const deliveryId = job.result!.deliveryId!;
    const [poi] = (await member({ method: 'GET', url: `/api/leaks/pois?deliveryId=${deliveryId}` })).json().result.list;
    await member({ method: 'POST', url: `/api/leaks/pois/${poi.id}/photos`, ...multipartFile('file', 'site.png', PNG) });
    const photoDir = join(demo.dataDir, 'photos', String(demo.ids.water));
    const photosBefore = (await readdir(photoDir)).length;

    expect((await member({ method: 'DELETE', url: `/api/leaks/deliveries/${deliveryId}` })).statusCode).toBe(403);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'DELETE', url: `/api/leaks/deliveries/${deliveryId}` })).statusCode).toBe(404);
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    expect((await admin({ method: 'DELETE', url: `/api/leaks/deliveries/${deliveryId}` })).statusCode).toBe(200);
    expect((await admin({ method: 'GET', url: `/api/leaks/pois?deliveryId=${deliveryId}` })).json().result.total).toBe(0);
    expect((await admin({ method: 'GET', url: `/api/leaks/pois/${poi.id}` })).statusCode).toBe(404);
    expect((await admin({ method: 'GET', url: '/api/leaks/deliveries' })).json().result.map((d: { id: number }) => d.id)).not.toContain(deliveryId);
    expect((await readdir(photoDir)).length).toBe(photosBefore - 1);
    const again = await admin({ method: 'DELETE', url: `/api/leaks/deliveries/${deliveryId}` });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a photo over PHOTO_LIMIT_MB with 413', async () => {
    const small = await createTestApp({ photoLimit: 50 });
    try {
      const ids = (await as(small.app, await login(small.app, 'admin'))({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
      const api = as(small.app, await login(small.app, 'admin'), ids[0].id);
      const leak = await project(api, 'BJ-LEAK-2026');
      const [p] = await pipeMidpoints(api, leak.id, 1);
      const analysed = (await api({ method: 'POST', url: '/api/leaks/imports', ...multipartFile('file', 'one.csv', `poi_id,lon,lat\nL-1,${p[0]},${p[1]}\n`) })).json().result;
      await api({ method: 'POST', url: `/api/leaks/imports/${analysed.id}/start`, payload: { mapping: analysed.suggestedMapping, projectId: leak.id, name: 'limit' } });
      await small.app.imports.settled(analysed.id);
      const poi = (await api({ method: 'GET', url: '/api/leaks/pois' })).json().result.list[0];
      const response = await api({ method: 'POST', url: `/api/leaks/pois/${poi.id}/photos`, ...multipartFile('file', 'big.png', Buffer.concat([PNG, Buffer.alloc(100)])) });
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe('file: a photo may be at most 0 MB');
    } finally {
      await small.close();
    }
  });
});
