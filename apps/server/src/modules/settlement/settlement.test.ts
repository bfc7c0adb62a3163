import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTLEMENT_THRESHOLDS, type ImportJobView, type SettlementDataset, type SettlementPoint, type SettlementResultDetail, type SettlementRunProfile, type SettlementWindow } from '@console/contract';
import { queryRows } from '../../db/client.ts';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { judgeSegment, type PointColumns } from './analysis.ts';
import { getDataset, pointWindow } from './service.ts';
import { nonEmpty } from '../../testing/lists.ts';

// Every CSV here is read by the worker threads a big delivery gets; GeoJSON, Shapefile and KML in the job's own thread.
const demo = useDemoServer({ parallelImportBytes: 1 });
type Api = ReturnType<typeof as>;

const DATES = ['20230105', '20230117', '20230129', '20230210'];
const FIXTURES = resolve(import.meta.dirname, '../../../test-fixtures/imports');

/** An EGMS L2b point CSV: the product's columns, then one column per date. */
function egmsL2(rows: { pid: string; lat: number | string; lon: number | string; v: number | string; d: (number | string)[] }[]) {
  const header = ['pid', 'mp_type', 'latitude', 'longitude', 'easting', 'northing', 'height', 'height_wgs84', 'line', 'pixel', 'rmse', 'temporal_coherence', 'amplitude_dispersion', 'incidence_angle', 'track_angle', 'los_east', 'los_north', 'los_up', 'mean_velocity', 'mean_velocity_std', 'acceleration', 'acceleration_std', 'seasonality', 'seasonality_std', ...DATES];
  const lines = rows.map((r) => [r.pid, 'PS', r.lat, r.lon, 0, 0, 12.5, 40.1, 1, 2, 0.9, 0.87, 0.2, 39, -10, 0.6, -0.1, 0.78, r.v, 0.4, 0.01, 0.02, 1.1, 0.3, ...r.d].join(','));
  return `${header.join(',')}\n${lines.join('\n')}\n`;
}

async function importDataset(api: Api, fileName: string, content: string | Buffer, options: Record<string, unknown> = {}) {
  const analysed = await api({ method: 'POST', url: '/api/settlement/imports', ...multipartFile('file', fileName, content) });
  expect(analysed.statusCode, analysed.body).toBe(200);
  const job = analysed.json().result as ImportJobView;
  const started = await api({ method: 'POST', url: `/api/settlement/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, name: fileName, ...options } });
  expect(started.statusCode, started.body).toBe(200);
  await demo.app.imports.settled(job.id);
  return (await api({ method: 'GET', url: `/api/settlement/imports/${job.id}` })).json().result as ImportJobView;
}

async function analysed(api: Api, datasetId: number): Promise<SettlementDataset> {
  for (let i = 0; i < 200; i++) {
    const dataset = (await api({ method: 'GET', url: `/api/settlement/datasets/${datasetId}` })).json().result as SettlementDataset;
    if (dataset.analysis.status !== 'running' && dataset.analysis.status !== 'none') return dataset;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('analysis did not end');
}

/** Metres per degree of longitude by the textbook series (independent of the code under test). */
const metresPerDegreeLon = (lat: number) => {
  const phi = (lat * Math.PI) / 180;
  return 111_412.84 * Math.cos(phi) - 93.5 * Math.cos(3 * phi) + 0.118 * Math.cos(5 * phi);
};

/** Metres per degree of latitude by the textbook series (independent of the code under test). */
const metresPerDegreeLat = (lat: number) => {
  const phi = (lat * Math.PI) / 180;
  return 111_132.92 - 559.82 * Math.cos(2 * phi) + 1.175 * Math.cos(4 * phi) - 0.0023 * Math.cos(6 * phi);
};

const pointTables = async () =>
  Number((await queryRows<{ n: number }>(demo.database.db, sql`select count(*)::int as n from pg_tables where tablename like 'settlement_points_d%'`))[0].n);

describe('the demo dataset', () => {
  it('is there at first start: points, cells, series, averages and ranked pipe results', async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const [dataset] = (await api({ method: 'GET', url: '/api/settlement/datasets' })).json().result as SettlementDataset[];
    expect(dataset).toMatchObject({ sensor: 'Sentinel-1', orbit: 'ascending', direction: 'vertical', pointCount: 10_000 });
    expect(dataset.dates.length).toBeGreaterThanOrEqual(60);
    expect(dataset.velocity.min).toBeLessThan(-15);
    expect(dataset.velocity.max).toBeGreaterThan(3);
    expect(dataset.analysis.status).toBe('done');
    expect(dataset.analysis.summary!.alarm).toBeGreaterThan(0);

    const [w, s, e, n] = dataset.bbox;
    const cells = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/window?bbox=${w},${s},${e},${n}&resolution=100` })).json().result as SettlementWindow;
    expect(cells).toMatchObject({ kind: 'cells', cellM: 400 });
    expect(cells.count.reduce((a, b) => a + b, 0)).toBe(10_000);
    const mid = [(w + e) / 2, (s + n) / 2];
    const window = `${mid[0] - 0.003},${mid[1] - 0.003},${mid[0] + 0.003},${mid[1] + 0.003}`;
    const points = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/window?bbox=${window}&resolution=2` })).json().result as SettlementWindow;
    expect(points.kind).toBe('points');
    expect(points.ids.length).toBeGreaterThan(0);
    expect(nonEmpty(points.lon).every((lon) => lon >= mid[0] - 0.003 && lon <= mid[0] + 0.003)).toBe(true);

    const point = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/points/${points.ids[0]}` })).json().result as SettlementPoint;
    expect(point.displacement).toHaveLength(dataset.dates.length);
    expect(point.displacement[0]).toBe(0);

    // The dataset's box holds its easternmost and northernmost points on its edges, which the
    // half-open rule leaves out (geo/sql.ts): a square a hair wider holds them all.
    const edge = (await api({ method: 'POST', url: `/api/settlement/datasets/${dataset.id}/average`, payload: { area: { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] } } })).json().result;
    expect(edge.count).toBeLessThan(10_000);
    const hair = 1e-7;
    const square = { type: 'Polygon', coordinates: [[[w - hair, s - hair], [e + hair, s - hair], [e + hair, n + hair], [w - hair, n + hair], [w - hair, s - hair]]] };
    const average = (await api({ method: 'POST', url: `/api/settlement/datasets/${dataset.id}/average`, payload: { area: square } })).json().result;
    expect(average.count).toBe(10_000);
    expect(average.displacement).toHaveLength(dataset.dates.length);
    expect(average.meanVelocity).toBeCloseTo(dataset.velocity.mean, 1);

    // Worst first: alarms, then warnings, each by lowest velocity; every flagged one says why.
    const page = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results?pageSize=50` })).json().result;
    expect(page.total).toBe(dataset.analysis.summary!.segments);
    expect(page.totalExact).toBe(true);
    const deep = await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results?page=600&pageSize=20` });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().message).toMatch(/^page: /);
    const levels = page.list.map((r: { level: string }) => ['none', 'warn', 'alarm'].indexOf(r.level));
    expect(levels).toEqual([...levels].sort((a, b) => b - a));
    expect(page.list[0].level).toBe('alarm');
    expect(page.list[0].crossed.length).toBeGreaterThan(0);
    // The corridor project holds the subsidence corridor: fewer segments, alarms among them.
    const corridor = ((await api({ method: 'GET', url: '/api/projects' })).json().result as { id: number; code: string }[]).find((p) => p.code === 'JN-INSAR-2026')!;
    const inProject = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results?projectId=${corridor.id}&level=alarm` })).json().result;
    expect(inProject).toMatchObject({ totalExact: true });
    expect(inProject.total).toBeGreaterThan(0);
    expect(inProject.total).toBeLessThan(dataset.analysis.summary!.alarm);
    const detail = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results/${page.list[0].pipeRowId}` })).json().result as SettlementResultDetail;
    expect(detail.profile.length).toBeGreaterThan(0);
    expect(detail.points[0].offsetM).toBeLessThanOrEqual(DEFAULT_SETTLEMENT_THRESHOLDS.bufferM);
    expect(detail.asOf).toBe(dataset.dates[dataset.dates.length - 1]);
  });

  it('thins a window with more points than are sent evenly over the window, not from one corner', async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const [listed] = (await api({ method: 'GET', url: '/api/settlement/datasets' })).json().result as SettlementDataset[];
    const dataset = await getDataset(demo.database.db, demo.ids.water, listed.id);
    const bbox = [dataset.minx, dataset.miny, dataset.maxx, dataset.maxy];
    const window = await pointWindow(demo.database.db, dataset, { bbox, resolution: 1 }, 1000);
    expect(window).toMatchObject({ kind: 'points', truncated: true, every: 10 });
    expect(window.ids.length).toBeGreaterThan(900);
    expect(window.ids.length).toBeLessThanOrEqual(1000);
    // Each quarter of the window keeps its share of the points.
    const midLon = (bbox[0] + bbox[2]) / 2, midLat = (bbox[1] + bbox[3]) / 2;
    const quarters = [0, 0, 0, 0];
    window.lon.forEach((lon, i) => quarters[(lon < midLon ? 0 : 1) + (window.lat[i] < midLat ? 0 : 2)]++);
    for (const n of quarters) expect(n).toBeGreaterThan(window.ids.length / 8);
  });

  it('is invisible to another enterprise', async () => {
    const water = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const [dataset] = (await water({ method: 'GET', url: '/api/settlement/datasets' })).json().result as SettlementDataset[];
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: '/api/settlement/datasets' })).json().result).toEqual([]);
    for (const url of [`/api/settlement/datasets/${dataset.id}`, `/api/settlement/datasets/${dataset.id}/window?bbox=0,0,180,90&resolution=100`, `/api/settlement/datasets/${dataset.id}/results`, `/api/settlement/datasets/${dataset.id}/points/1`]) {
      expect((await gas({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    for (const url of [`/api/settlement/datasets/${dataset.id}/results/export?format=csv`, `/api/settlement/datasets/${dataset.id}/results/flagged`, `/api/settlement/datasets/${dataset.id}/results/1`, `/api/settlement/datasets/${dataset.id}/results/1/run`]) {
      expect((await gas({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    const square = { type: 'Polygon', coordinates: [[[120, 30], [121, 30], [121, 31], [120, 31], [120, 30]]] };
    expect((await gas({ method: 'POST', url: `/api/settlement/datasets/${dataset.id}/average`, payload: { area: square } })).statusCode).toBe(404);
    expect((await gas({ method: 'DELETE', url: `/api/settlement/datasets/${dataset.id}` })).statusCode).toBe(404);
    expect((await gas({ method: 'POST', url: `/api/settlement/datasets/${dataset.id}/analyse` })).statusCode).toBe(404);
    // Thresholds of another enterprise's project cannot be set.
    const [project] = (await water({ method: 'GET', url: '/api/projects' })).json().result as { id: number }[];
    const gasAdmin = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gasAdmin({ method: 'PUT', url: '/api/settlement/thresholds', payload: { ...DEFAULT_SETTLEMENT_THRESHOLDS, projectId: project.id } })).statusCode).toBe(404);
  });
});

describe('settlement import', () => {
  it('reads an EGMS L2 CSV: dates from the column names, series stored and read back exactly', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const csv = egmsL2([
      { pid: 'A1', lat: 30.21, lon: 120.21, v: -3.2, d: [0, -0.4, -1.25, -1.9] },
      { pid: 'A2', lat: 30.2101, lon: 120.2101, v: 1.5, d: [0, 0.3, '', 0.55] },
    ]);
    const job = await importDataset(api, 'EGMS_L2b_142_0001_IW2_VV_2023.csv', csv, { sensor: 'Sentinel-1', orbit: 'ascending', track: '142', referencePoint: 'REF-7' });
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', rowsWritten: 2 });
    expect(job.suggestedMapping).toMatchObject({ pointId: 'pid', velocity: 'mean_velocity', velocityStd: 'mean_velocity_std', coherence: 'temporal_coherence', height: 'height' });
    const dataset = (await api({ method: 'GET', url: `/api/settlement/datasets/${job.result!.datasetId}` })).json().result as SettlementDataset;
    expect(dataset).toMatchObject({ pointCount: 2, track: '142', referencePoint: 'REF-7', dates: ['2023-01-05', '2023-01-17', '2023-01-29', '2023-02-10'], referenceDate: '2023-01-05' });
    const window = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/window?bbox=120.2,30.2,120.22,30.22&resolution=1` })).json().result as SettlementWindow;
    const points = await Promise.all(window.ids.map(async (id) => (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/points/${id}` })).json().result as SettlementPoint));
    const a1 = points.find((p) => p.pointId === 'A1')!;
    expect(a1).toMatchObject({ lon: 120.21, lat: 30.21, velocity: -3.2, coherence: 0.87, height: 12.5, displacement: [0, -0.4, -1.25, -1.9] });
    expect(points.find((p) => p.pointId === 'A2')!.displacement).toEqual([0, 0.3, null, 0.55]);
    // Displacement between the first and last date, for the time slider.
    const moved = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/window?bbox=120.2,30.2,120.22,30.22&resolution=1&from=0&to=3` })).json().result as SettlementWindow;
    expect([...moved.value].sort()).toEqual([-1.9, 0.55]);
    const wrongDate = await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/window?bbox=120.2,30.2,120.22,30.22&resolution=1&from=0&to=9` });
    expect(wrongDate.statusCode).toBe(400);
    expect(wrongDate.json().message).toMatch(/^from\/to: /);

    expect((await api({ method: 'DELETE', url: `/api/settlement/datasets/${dataset.id}` })).statusCode).toBe(403);
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const tables = await pointTables();
    expect((await admin({ method: 'DELETE', url: `/api/settlement/datasets/${dataset.id}` })).statusCode).toBe(200);
    expect(await pointTables()).toBe(tables - 1);
    expect((await admin({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}` })).statusCode).toBe(404);
  });

  it('reads EGMS L3 (ortho) in EPSG:3035: the grid origin lands on 10 E 52 N', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const csv = `pid,easting,northing,height,rmse,mean_velocity,mean_velocity_std,acceleration,acceleration_std,seasonality,seasonality_std,20200110,20200122\nL3a,4321000,3210000,50,0.5,-1.2,0.3,0,0,0,0,0,-0.2\nL3b,4321100,3210000,50,0.5,-1.1,0.3,0,0,0,0,0,-0.1\n`;
    const job = await importDataset(api, 'EGMS_L3_E43N32_100km_U.csv', csv);
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', detectedSrid: 3035 });
    const dataset = (await api({ method: 'GET', url: `/api/settlement/datasets/${job.result!.datasetId}` })).json().result as SettlementDataset;
    const [minx, miny, maxx] = dataset.bbox;
    expect(minx).toBeCloseTo(10, 7);
    expect(miny).toBeCloseTo(52, 7);
    // 100 m east at 52 N is 100 / (111,320 x cos 52 deg) ~ 0.00146 degrees of longitude.
    expect(maxx - minx).toBeCloseTo(100 / (111_320 * Math.cos((52 * Math.PI) / 180)), 4);
  });

  it.each(['settlement-points.geojson', 'settlement-points.zip', 'settlement-points.kml'])('reads points from %s (Chinese, pinyin and dated field names; Gauss-Kruger reprojected)', async (file) => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const job = await importDataset(api, file, await readFile(resolve(FIXTURES, file)));
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', rowsWritten: 3 });
    expect(job.suggestedMapping).toMatchObject({ pointId: expect.stringMatching(/^(点号|pid)$/), velocity: expect.stringMatching(/^(形变速率|vel)$/), coherence: expect.stringMatching(/^(相干性|coh)$/) });
    const dataset = (await api({ method: 'GET', url: `/api/settlement/datasets/${job.result!.datasetId}` })).json().result as SettlementDataset;
    expect(dataset.dates).toEqual(['2023-01-05', '2023-01-17', '2023-01-29']);
    const window = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/window?bbox=120.19,30.19,120.21,30.21&resolution=1` })).json().result as SettlementWindow;
    const points = await Promise.all(window.ids.map(async (id) => (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/points/${id}` })).json().result as SettlementPoint));
    const g1 = points.find((p) => p.pointId === 'G1')!;
    expect(g1).toMatchObject({ velocity: -6.5, coherence: 0.91, displacement: [0, -0.2, -0.45] });
    expect(g1.lon).toBeCloseTo(120.2001, 6);
    expect(g1.lat).toBeCloseTo(30.2001, 6);
  });

  it('refuses bad rows one by one and writes nothing', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const before = (await api({ method: 'GET', url: '/api/settlement/datasets' })).json().result.length;
    const tables = await pointTables();
    const csv = egmsL2([
      { pid: 'B1', lat: 30.2, lon: 120.2, v: '', d: [0, 1, 2, 3] },
      { pid: 'B2', lat: 30.2, lon: 120.2, v: 'fast', d: [0, 1, 2, 3] },
      { pid: 'B3', lat: 30.2, lon: 120.2, v: -1, d: [0, 'x', 2, 3] },
      { pid: 'B4', lat: 95, lon: 120.2, v: -1, d: [0, 1, 2, 3] },
      { pid: 'B5', lat: 30.2, lon: 120.2, v: -1, d: [0, 1, 2, 3] },
      { pid: 'B5', lat: 30.2, lon: 120.2, v: -1, d: [0, 1, 2, 3] },
    ]);
    const job = await importDataset(api, 'bad.csv', csv);
    expect(job.status).toBe('failed');
    const reasons = job.problems.map((p) => `${p.row} ${p.field}: ${p.reason}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
      '1 velocity (mean_velocity): has no velocity',
      '2 velocity (mean_velocity): "fast" is not a number',
      '3 20230117: "x" is not a number',
      expect.stringMatching(/^4 geometry: /),
        '6 pointId: point B5 is in the file more than once',
      ]),
    );
    expect(job.problemCount).toBe(5);
    expect((await api({ method: 'GET', url: '/api/settlement/datasets' })).json().result.length).toBe(before);
    expect(await pointTables()).toBe(tables);

    const line = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { pid: 'L1', velocity: -1, '2023-01-05': 0 }, geometry: { type: 'LineString', coordinates: [[120.2, 30.2], [120.3, 30.3]] } }] };
    const lineJob = await importDataset(api, 'line.geojson', JSON.stringify(line));
    expect(lineJob.problems.map((p) => `${p.row} ${p.field}: ${p.reason}`)).toEqual(['1 geometry: is a LineString where a point belongs']);

    // A file without dates is refused at upload, before the mapping step.
    for (const [lang, words] of [['en-US', /no displacement columns named by date/], ['zh-CN', /以日期命名/]] as const) {
      const body = multipartFile('file', 'nodates.csv', 'pid,lon,lat,velocity\nC1,120.2,30.2,-1\n');
      const noDates = await api({ method: 'POST', url: '/api/settlement/imports', payload: body.payload, headers: { ...body.headers, 'accept-language': lang } });
      expect(noDates.statusCode).toBe(400);
      expect(noDates.json().message).toMatch(words);
    }
  });
});

describe('pipes joined', () => {
  it('counts a point 19.9 m from the pipe and leaves one at 20.1 m (geodesic metres)', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    // A lone east-west pipe far from the demo city, and points north of its middle.
    const lat = 31.5;
    const line = { type: 'LineString', coordinates: [[121.0, lat], [121.002, lat]] };
    const created = await admin({ method: 'POST', url: '/api/pipelines', payload: { pipeId: 'JOIN-1', networkType: 'water', geometry: line } });
    expect(created.statusCode, created.body).toBe(200);
    const north = (m: number) => lat + m / metresPerDegreeLat(lat);
    const csv = `pid,lon,lat,velocity,20240101,20240113\nIN,121.001,${north(19.9)},-12,0,-0.5\nOUT,121.001,${north(20.1)},-30,0,-1\nFAR,121.001,${north(60)},-30,0,-1\n`;
    const job = await importDataset(admin, 'join.csv', csv);
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded' });
    const dataset = await analysed(admin, job.result!.datasetId!);
    expect(dataset.analysis).toMatchObject({ status: 'done', summary: { segments: 1, alarm: 1 } });
    const [result] = (await admin({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results` })).json().result.list;
    expect(result).toMatchObject({ pipeId: 'JOIN-1', pointCount: 1, meanVelocity: -12, level: 'alarm' });
    expect(result.crossed).toEqual([{ metric: 'velocity', level: 'alarm', value: -12, threshold: -10, by: 2 }]);
    const detail = (await admin({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results/${result.pipeRowId}` })).json().result as SettlementResultDetail;
    expect(detail.points).toHaveLength(1);
    expect(detail.points[0]).toMatchObject({ pointId: 'IN' });
    expect(detail.points[0].offsetM).toBeCloseTo(19.9, 2);
    expect(detail.points[0].alongM).toBeCloseTo(detail.lengthM / 2, 0);

    // Wider buffer from the enterprise's thresholds: the next analysis takes the 20.1 m point too.
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const thresholds = { ...DEFAULT_SETTLEMENT_THRESHOLDS, bufferM: 25, projectId: 0 };
    expect((await member({ method: 'PUT', url: '/api/settlement/thresholds', payload: thresholds })).statusCode).toBe(403);
    expect((await admin({ method: 'PUT', url: '/api/settlement/thresholds', payload: thresholds })).statusCode).toBe(200);
    expect((await admin({ method: 'POST', url: `/api/settlement/datasets/${dataset.id}/analyse` })).statusCode).toBe(200);
    const again = await analysed(admin, dataset.id);
    expect(again.analysis.summary!.thresholds.bufferM).toBe(25);
    const [wider] = (await admin({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results` })).json().result.list;
    expect(wider).toMatchObject({ pointCount: 2, meanVelocity: -21, minVelocity: -30 });
    await admin({ method: 'PUT', url: '/api/settlement/thresholds', payload: { ...DEFAULT_SETTLEMENT_THRESHOLDS, projectId: 0 } });
  });

  it('profiles a run of connected segments: followed both ways, turned to run on, stopped at a junction', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const lat = 31.6;
    const pipe = async (pipeId: string, coordinates: number[][]) => {
      const created = await admin({ method: 'POST', url: '/api/pipelines', payload: { pipeId, networkType: 'water', geometry: { type: 'LineString', coordinates } } });
      expect(created.statusCode, created.body).toBe(200);
      return created.json().result.id as number;
    };
    // A - B - C east along one street (B digitised backwards), then a junction: D1 on east, D2 north.
    const a = await pipe('RUN-A', [[121.1, lat], [121.102, lat]]);
    const b = await pipe('RUN-B', [[121.104, lat], [121.102, lat]]);
    const c = await pipe('RUN-C', [[121.104, lat], [121.106, lat]]);
    const d1 = await pipe('RUN-D1', [[121.106, lat], [121.108, lat]]);
    await pipe('RUN-D2', [[121.106, lat], [121.106, lat + 0.002]]);
    // Points 5 m north of the street every 0.0005 degrees, sinking faster eastwards (-2 to -12 mm/yr).
    const north = lat + 5 / metresPerDegreeLat(lat);
    const rows = Array.from({ length: 13 }, (_, i) => `R${i},${(121.1 + i * 0.0005).toFixed(4)},${north},${(-2 - (10 * i) / 12).toFixed(2)},0,-1`);
    const job = await importDataset(admin, 'run.csv', `pid,lon,lat,velocity,20240101,20240113\n${rows.join('\n')}\n`);
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded' });
    const datasetId = job.result!.datasetId!;

    const run = (await admin({ method: 'GET', url: `/api/settlement/datasets/${datasetId}/results/${b}/run` })).json().result as SettlementRunProfile;
    // The run keeps the picked segment's direction: B was digitised east to west.
    expect(run.segments.map((s) => s.pipeRowId)).toEqual([c, b, a]);
    const segmentM = 0.002 * metresPerDegreeLon(lat);
    expect(run.lengthM).toBeCloseTo(3 * segmentM, 0);
    expect(run.segments[1].fromM).toBeCloseTo(segmentM, 0);
    expect(run.capped).toBe(false);
    // C and A are turned to run on from B: the line goes east to west throughout.
    const lons = (run.geometry as { coordinates: number[][] }).coordinates.map((c) => c[0]);
    expect(lons).toEqual([...lons].sort((x, y) => y - x));
    expect(run.pointCount).toBe(13);
    expect(run.profile[0].median).toBeLessThan(-10);
    expect(run.profile.at(-1)!.median).toBeGreaterThan(-4);

    // From D1 the run stops at once: its west end is a junction of three, its east end a dead end.
    const alone = (await admin({ method: 'GET', url: `/api/settlement/datasets/${datasetId}/results/${d1}/run` })).json().result as SettlementRunProfile;
    expect(alone.segments.map((s) => s.pipeRowId)).toEqual([d1]);
    // Another enterprise's pipe is not found through a dataset of this one.
    const gasPipe = await queryRows<{ id: number }>(demo.database.db, sql`select id from pipes where enterprise_id = ${demo.ids.gas} limit 1`);
    expect((await admin({ method: 'GET', url: `/api/settlement/datasets/${datasetId}/results/${gasPipe[0].id}/run` })).statusCode).toBe(404);
  });

  it('judges a segment: warning at 70 % of the alarm, differential per 100 m from stretch medians', () => {
    const points: PointColumns = {
      count: 8,
      ids: Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8]),
      pointIds: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      lon: new Float64Array(8),
      lat: new Float64Array(8),
      // Four points in the first 50 m at -4 mm/yr, four in the next 50 m at -10.
      velocity: Float32Array.from([-4, -4, -4, -4, -10, -10, -10, -10]),
      velocityStd: new Float32Array(8).fill(NaN),
      cumulative: Float32Array.from([-5, -5, -5, -5, -25, -25, -25, -25]),
    };
    const near = [10, 20, 30, 40, 60, 70, 80, 90].map((alongM, index) => ({ index, alongM, offsetM: 5 }));
    const finding = judgeSegment(1, near, 100, points, DEFAULT_SETTLEMENT_THRESHOLDS);
    expect(finding).toMatchObject({ pointCount: 8, meanVelocity: -7, minVelocity: -10, maxCumulative: -25, differential: 12 });
    expect(finding.crossed).toEqual([
      { metric: 'velocity', level: 'warn', value: -7, threshold: -7, by: 0 },
      { metric: 'cumulative', level: 'warn', value: -25, threshold: -21, by: 4 },
      { metric: 'differential', level: 'alarm', value: 12, threshold: 5, by: 7 },
    ]);
    expect(finding.level).toBe('alarm');
    expect(finding.profile.map((b) => [b.fromM, b.toM, b.count, b.median])).toEqual([[0, 50, 4, -4], [50, 100, 4, -10]]);
  });

  it('counts a differential only beyond twice the combined noise of the stretches, on ground that moves', () => {
    // Two stretches of 50 m with four points each, as a utility's EGMS file gives them (velocity and its std, mm/yr).
    const judge = (first: number[], second: number[], std: number | null, thresholds = DEFAULT_SETTLEMENT_THRESHOLDS) => {
      const velocity = [...first, ...second];
      const points: PointColumns = {
        count: 8,
        ids: Float64Array.from(velocity.map((_, i) => i + 1)),
        pointIds: velocity.map((_, i) => `p${i}`),
        lon: new Float64Array(8),
        lat: new Float64Array(8),
        velocity: Float32Array.from(velocity),
        velocityStd: new Float32Array(8).fill(std ?? NaN),
        cumulative: new Float32Array(8),
      };
      const near = [10, 20, 30, 40, 60, 70, 80, 90].map((alongM, index) => ({ index, alongM, offsetM: 5 }));
      return judgeSegment(1, near, 100, points, thresholds);
    };
    // Quiet ground (-0.6 against -2.4 mm/yr, std 1): 1.8 apart is within 2 x sqrt(1 + 1) = 2.83, no warning.
    const quiet = judge([-0.6, -0.6, -0.6, -0.6], [-2.4, -2.4, -2.4, -2.4], 1);
    expect(quiet).toMatchObject({ differential: 0, level: 'none', crossed: [] });
    // Up and down within the noise (+1.9 against -1.9, std 1): 3.8 apart, but neither moves beyond 2 std.
    expect(judge([1.9, 1.9, 1.9, 1.9], [-1.9, -1.9, -1.9, -1.9], 1)).toMatchObject({ differential: 0, level: 'none' });
    // A settling stretch beside a still one (-1 against -8, std 1): 7 apart over 50 m, 14 per 100 m, an alarm.
    const settling = judge([-1, -1, -1, -1], [-8, -8, -8, -8], 1);
    expect(settling.differential).toBe(14);
    expect(settling.crossed).toContainEqual({ metric: 'differential', level: 'alarm', value: 14, threshold: 5, by: 9 });
    // No std in the file: the stretch's own spread (IQR / 1.349) is its noise. Medians -5 and -10,
    // spreads 3.71 and 0.37: 5 apart is within 7.45. A tight stretch at -1.5 against -10: 17 per 100 m.
    expect(judge([-1, -3, -7, -9], [-9, -10, -10, -11], null).differential).toBe(0);
    expect(judge([-1, -1.5, -1.5, -2], [-9, -10, -10, -11], null).differential).toBe(17);
    // The thresholds the user set still decide the level: an alarm at 20 per 100 m makes 14 a warning (from 14).
    const lenient = judge([-1, -1, -1, -1], [-8, -8, -8, -8], 1, { ...DEFAULT_SETTLEMENT_THRESHOLDS, differentialAlarm: 20 });
    expect(lenient.crossed).toContainEqual({ metric: 'differential', level: 'warn', value: 14, threshold: 14, by: 0 });
  });
});

describe('bands', () => {
  it('has defaults, and admins set them with each error naming its field', async () => {
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    expect((await member({ method: 'GET', url: '/api/settlement/bands' })).json().result.breaks).toEqual([-10, -5, -2, 2]);
    const bands = { breaks: [-20, -5, 5], colors: ['#a50026', '#fdae61', '#1a9850', '#4575b4'] };
    expect((await member({ method: 'PUT', url: '/api/settlement/bands', payload: bands })).statusCode).toBe(403);
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const bad = await admin({ method: 'PUT', url: '/api/settlement/bands', payload: { breaks: [5, -5], colors: ['#a50026', 'red'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/breaks: must be strictly ascending|colors\.1: must be a colour/);
    expect((await admin({ method: 'PUT', url: '/api/settlement/bands', payload: bands })).statusCode).toBe(200);
    expect((await member({ method: 'GET', url: '/api/settlement/bands' })).json().result).toEqual(bands);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: '/api/settlement/bands' })).json().result.breaks).toEqual([-10, -5, -2, 2]);
  });
});
