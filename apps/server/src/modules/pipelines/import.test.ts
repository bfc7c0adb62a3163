import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportJobView } from '@console/contract';
import { as, createTestApp, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { encodeTileLine } from '../../geo/tileLine.ts';
import { sql } from 'drizzle-orm';
import { isServerDatabase } from '../../db/copy.ts';
import { pipePartition } from './import.ts';

const demo = useDemoServer();
const FIXTURES = resolve(import.meta.dirname, '../../../test-fixtures/imports');
const fixture = (name: string) => readFileSync(resolve(FIXTURES, name));

type Api = ReturnType<typeof as>;

async function upload(api: Api, fileName: string, content: Buffer | string) {
  const response = await api({ method: 'POST', url: '/api/pipelines/imports', ...multipartFile('file', fileName, content) });
  return response;
}

/** Uploads, starts with the suggested mapping (plus overrides) and waits for the job to end. */
async function importFile(api: Api, fileName: string, content: Buffer | string, options: Record<string, unknown> = {}, server = demo): Promise<ImportJobView> {
  const analysed = await upload(api, fileName, content);
  expect(analysed.statusCode, analysed.body).toBe(200);
  const job = analysed.json().result as ImportJobView;
  const started = await api({ method: 'POST', url: `/api/pipelines/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, ...options } });
  expect(started.statusCode, started.body).toBe(200);
  await server.app.imports.settled(job.id);
  return (await api({ method: 'GET', url: `/api/pipelines/imports/${job.id}` })).json().result;
}

async function pipeCount(api: Api, keyword = '') {
  return (await api({ method: 'GET', url: `/api/pipelines?pageSize=1&keyword=${keyword}` })).json().result.total as number;
}

async function pipe(api: Api, pipeId: string) {
  const list = (await api({ method: 'GET', url: `/api/pipelines?keyword=${pipeId}` })).json().result.list;
  return list.find((p: { pipeId: string }) => p.pipeId === pipeId);
}

const ORIGINAL = JSON.parse(fixture('network.geojson').toString()).features as { geometry: { coordinates: number[][] } }[];

/** Every imported line lies where the source GeoJSON (WGS 84) put it, within about 10 cm. */
async function expectOriginalPositions(api: Api) {
  for (const [index, feature] of ORIGINAL.entries()) {
    const stored = await pipe(api, `IMP-${String(index + 1).padStart(3, '0')}`);
    expect(stored.geometry.type).toBe('LineString');
    stored.geometry.coordinates.forEach((p: number[], i: number) => {
      expect(p[0]).toBeCloseTo(feature.geometry.coordinates[i][0], 6);
      expect(p[1]).toBeCloseTo(feature.geometry.coordinates[i][1], 6);
    });
  }
}

/** Features each wrong in its own way, and one good one (row 1). */
function badFeatures() {
  const line = [[120.21, 30.21], [120.211, 30.21]];
  return [
    { properties: { id: 'OK-1', type: 'water' }, geometry: { type: 'LineString', coordinates: line } },
    { properties: { id: 'POLY-1', type: 'water' }, geometry: { type: 'Polygon', coordinates: [[[120.2, 30.2], [120.21, 30.2], [120.21, 30.21], [120.2, 30.2]]] } },
    { properties: { id: 'FAR-1', type: 'water' }, geometry: { type: 'LineString', coordinates: [[120.2, 30.2], [120.2, 130.2]] } },
    { properties: { id: '', type: 'water' }, geometry: { type: 'LineString', coordinates: line } },
    { properties: { id: 'TYPE-1', type: 'oil' }, geometry: { type: 'LineString', coordinates: line } },
    { properties: { id: 'DN-1', type: 'gas', dn: 'big' }, geometry: { type: 'LineString', coordinates: line } },
    { properties: { id: 'NOGEOM-1', type: 'gas' }, geometry: null },
    { properties: { id: 'SHORT-1', type: 'water' }, geometry: { type: 'LineString', coordinates: [[120.2, 30.2]] } },
    { properties: { id: 'EMPTY-1', type: 'water' }, geometry: { type: 'MultiLineString', coordinates: [] } },
  ].map((f) => ({ type: 'Feature', ...f }));
}

const BAD_FEATURE_PROBLEMS = [
  { row: 2, featureId: 'POLY-1', field: 'geometry', reason: 'is a Polygon where a line (LineString or MultiLineString) belongs' },
  { row: 3, featureId: 'FAR-1', field: 'geometry', reason: expect.stringMatching(/longitude|latitude|range/i) },
  { row: 4, featureId: null, field: 'pipeId (id)', reason: 'is required' },
  { row: 5, featureId: 'TYPE-1', field: 'networkType (type)', reason: '"oil" is not a network type (water, gas, drainage, heat, power, telecom)' },
  { row: 6, featureId: 'DN-1', field: 'diameterMm (dn)', reason: expect.any(String) },
  { row: 7, featureId: 'NOGEOM-1', field: 'geometry', reason: 'has no geometry' },
  { row: 8, featureId: 'SHORT-1', field: 'geometry', reason: 'a line needs at least 2 positions' },
  { row: 9, featureId: 'EMPTY-1', field: 'geometry', reason: 'a line needs at least 2 positions' },
];

describe('pipe imports', () => {
  it('reads a GeoJSON, suggests the mapping from Chinese field names and writes every pipe', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const before = await pipeCount(api);
    const analysed = (await upload(api, 'network.geojson', fixture('network.geojson'))).json().result as ImportJobView;
    expect(analysed).toMatchObject({ status: 'analysed', format: 'geojson', detectedSrid: 4326, geometryTypes: ['LineString'] });
    expect(analysed.fields.map((f) => f.name)).toEqual(['编号', '管线类型', '材质', '管径', '建设年代', '埋深', '权属单位']);
    expect(analysed.fields[0].samples).toEqual(['IMP-001', 'IMP-002', 'IMP-003']);
    expect(analysed.suggestedMapping).toEqual({ pipeId: '编号', networkType: '管线类型', material: '材质', diameterMm: '管径', installYear: '建设年代', depthM: '埋深', owner: '权属单位' });
    expect(await pipeCount(api)).toBe(before); // analysing writes nothing

    const job = await importFile(api, 'network.geojson', fixture('network.geojson'));
    expect(job).toMatchObject({ status: 'succeeded', rowsRead: 12, rowsWritten: 12, result: { inserted: 12, updated: 0, deleted: 0 }, problemCount: 0, progress: 1 });
    expect(job.result!.extent![0]).toBeCloseTo(120.205, 6);
    expect(job.result!.extent![3]).toBeCloseTo(30.2082, 6); // the V-shaped pipes rise 0.0002° above their row
    expect(await pipeCount(api)).toBe(before + 12);
    expect(await pipe(api, 'IMP-001')).toMatchObject({ networkType: 'water', material: 'ductile iron', diameterMm: 100, installYear: 2000, depthM: 1.1, owner: '滨江水务' });
    expect(await pipe(api, 'IMP-012')).toMatchObject({ networkType: 'drainage', material: 'cast iron', diameterMm: 300 });
    await expectOriginalPositions(api);
  });

  it.each([
    ['network-cgcs2000.zip', 4490],
    ['network-utm51n.zip', 32651],
    ['network-webmercator.zip', 3857],
    ['network-gk120.zip', 4549],
  ])('reprojects the zipped Shapefile %s (EPSG:%i) to WGS 84', async (file, srid) => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const before = await pipeCount(api);
    const analysed = (await upload(api, file, fixture(file))).json().result as ImportJobView;
    expect(analysed).toMatchObject({ format: 'shapefile', detectedSrid: srid });
    expect(analysed.suggestedMapping.pipeId).toBeDefined();
    expect(analysed.suggestedMapping.diameterMm).toBeDefined();
    const job = await importFile(api, file, fixture(file), { mode: 'upsert' });
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', result: { inserted: 0, updated: 12, deleted: 0 } });
    expect(await pipeCount(api)).toBe(before);
    expect(await pipe(api, 'IMP-005')).toMatchObject({ networkType: 'water', material: 'ductile iron', diameterMm: 100, owner: '滨江水务' });
    await expectOriginalPositions(api);
  });

  it('reads GBK attribute names of a Shapefile whose .cpg says CP936', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const analysed = (await upload(api, 'network-cgcs2000.zip', fixture('network-cgcs2000.zip'))).json().result as ImportJobView;
    expect(analysed.fields.map((f) => f.name)).toContain('权属单位');
    expect(analysed.fields.find((f) => f.name === '材质')!.samples).toContain('球墨铸铁');
  });

  it.each(['network.kml', 'network.csv'])('imports %s', async (file) => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const job = await importFile(api, file, fixture(file), { mode: 'upsert' });
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', format: file.endsWith('kml') ? 'kml' : 'csv', result: { updated: 12 } });
    await expectOriginalPositions(api);
  });

  it('refuses a corrupt zip and a file of another kind, keeping nothing', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const jobsBefore = (await api({ method: 'GET', url: '/api/pipelines/imports' })).json().result.length;
    const corrupt = await upload(api, 'corrupt.zip', fixture('corrupt.zip'));
    expect(corrupt.statusCode, corrupt.body).toBe(400);
    expect(corrupt.json().message).toBe('file: not a valid zip archive (damaged or cut short?)');
    const docx = multipartFile('file', 'pipes.docx', 'x');
    const word = await api({ method: 'POST', url: '/api/pipelines/imports', payload: docx.payload, headers: { ...docx.headers, 'Accept-Language': 'zh-CN' } });
    expect(word.statusCode).toBe(400);
    expect(word.json().message).toBe('file：pipes.docx 不是 GeoJSON、Shapefile 压缩包、KML/KMZ 或 CSV 文件');
    const other = multipartFile('file', 'network.geojson', 'x');
    const wrongBoundary = await api({ method: 'POST', url: '/api/pipelines/imports', payload: docx.payload, headers: other.headers });
    expect(wrongBoundary.statusCode).toBe(400);
    const empty = await upload(api, 'empty.geojson', '{"type":"FeatureCollection","features":[]}');
    expect(empty.json().message).toBe('file: holds no features');
    const broken = await upload(api, 'broken.geojson', '{"type":"FeatureCollection","features":[{"type":"Feature",');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^file: cannot be read as GeoJSON/);
    const noFile = await api({ method: 'POST', url: '/api/pipelines/imports', payload: {} });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toMatch(/^file: /);
    expect((await api({ method: 'GET', url: '/api/pipelines/imports' })).json().result.length).toBe(jobsBefore);
  });

  it('asks for the coordinate system of a Shapefile without .prj before starting, and the same upload starts with the one chosen', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const before = await pipeCount(api);
    const analysed = (await upload(api, 'no-prj.zip', fixture('no-prj.zip'))).json().result as ImportJobView;
    expect(analysed).toMatchObject({ detectedSrid: null, detectedCrs: null });
    const start = (body: Record<string, unknown>) => api({ method: 'POST', url: `/api/pipelines/imports/${analysed.id}/start`, payload: { mapping: analysed.suggestedMapping, mode: 'upsert', ...body } });
    const noCrs = await start({});
    expect(noCrs.statusCode).toBe(400);
    expect(noCrs.json().message).toBe('srid: the file does not say its coordinate system (no .prj): choose one');
    const wrongSrid = await start({ srid: 1234 });
    expect(wrongSrid.json().message).toBe('srid: not a coordinate system we can read (EPSG code)');
    // Nothing started: the same upload starts once the coordinate system is chosen.
    expect((await start({ srid: 32651 })).statusCode).toBe(200);
    await demo.app.imports.settled(analysed.id);
    const chosen = (await api({ method: 'GET', url: `/api/pipelines/imports/${analysed.id}` })).json().result as ImportJobView;
    expect(chosen.status).toBe('succeeded');
    expect(await pipeCount(api)).toBe(before);
    await expectOriginalPositions(api);
  });

  it('reads a zipped Shapefile with upper-case names and a DBF Date install field (MSSJ)', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const analysed = (await upload(api, 'PIPES.ZIP', fixture('upper-case-dates.zip'))).json().result as ImportJobView;
    expect(analysed.suggestedMapping).toMatchObject({ pipeId: 'GXBH', installYear: 'MSSJ' });
    expect(analysed.fields.find((f) => f.name === 'MSSJ')!.samples[0]).toMatch(/^\d{4}-06-01$/);
    const job = await importFile(api, 'PIPES.ZIP', fixture('upper-case-dates.zip'), { mode: 'upsert' });
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', result: { updated: 12 } });
    const [first] = ORIGINAL as unknown as { properties: Record<string, unknown> }[];
    const stored = await pipe(api, String(first.properties['编号']));
    expect(stored.installYear).toBe(first.properties['建设年代']);
    await expectOriginalPositions(api);
  });

  it("imports a KMZ written by GDAL's LIBKML driver (doc.kml linking layers/network.kml)", async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const job = await importFile(api, 'network-libkml.kmz', fixture('network-libkml.kmz'), { mode: 'upsert' });
    expect(job, JSON.stringify(job.problems)).toMatchObject({ status: 'succeeded', format: 'kml', result: { updated: 12 } });
    await expectOriginalPositions(api);
  });

  it('says an empty file is empty, and a broken KML is not well-formed, never showing parser text or server paths', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    for (const name of ['empty.kml', 'empty.csv', 'empty.geojson']) {
      const answer = await upload(api, name, '');
      expect(answer.json().message, name).toBe('file: the file is empty');
    }
    expect((await upload(api, 'blank.csv', '\n\n')).json().message).toBe('file: the file is empty');
    const broken = await upload(api, 'broken.kml', '<kml><Document><Placemark></Document>');
    expect(broken.json().message).toBe('file: not a well-formed KML (XML) document (line 1)');
    // A shapefile whose .dbf is not there: the message names the file, not where the server keeps it.
    const noDbf = await upload(api, 'PIPES.zip', fixture('shp-without-dbf.zip'));
    expect(noDbf.statusCode).toBe(400);
    expect(noDbf.json().message).toMatch(/^file: .*PIPES/);
    expect(noDbf.body).not.toMatch(/\/tmp\/|imports\/|unpacked|ENOENT/);
  });
  it('fails a file with bad features as a whole, reporting each row and why', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const before = await pipeCount(api);
    const job = await importFile(api, 'bad.geojson', JSON.stringify({ type: 'FeatureCollection', features: badFeatures() }));
    expect(job.status).toBe('failed');
    expect(job.result).toBeNull();
    expect(job.problems).toEqual(BAD_FEATURE_PROBLEMS);
    expect(job.problemCount).toBe(8);
    expect(await pipeCount(api)).toBe(before); // OK-1 was fine, yet nothing is written
    expect(await pipeCount(api, 'OK-1')).toBe(0);

    const zh = (await api({ method: 'GET', url: `/api/pipelines/imports/${job.id}`, headers: { 'Accept-Language': 'zh-CN' } })).json().result;
    expect(zh.problems[0].reason).toBe('是 Polygon，此处需要线（LineString 或 MultiLineString）');
  });

  it('refuses ids already in the network when adding, and ids twice in the file', async () => {
    const api = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const existing = (await api({ method: 'GET', url: '/api/pipelines?pageSize=1' })).json().result.list[0];
    const line = { type: 'LineString', coordinates: [[120.21, 30.21], [120.211, 30.21]] };
    const csv = `pipe_id,network_type,wkt\n${existing.pipeId},water,"LINESTRING (120.21 30.21, 120.211 30.21)"\nNEW-1,water,"LINESTRING (120.21 30.21, 120.211 30.21)"\n`;
    const clash = await importFile(api, 'clash.csv', csv);
    expect(clash.status).toBe('failed');
    expect(clash.problems).toEqual([{ row: 1, featureId: existing.pipeId, field: 'pipeId', reason: `pipe id ${existing.pipeId} is already in the network (choose "add or update" to update it)` }]);
    const twice = await importFile(api, 'twice.geojson', JSON.stringify({ type: 'FeatureCollection', features: [1, 2].map(() => ({ type: 'Feature', properties: { id: 'DUP-1', type: 'water' }, geometry: line })) }));
    expect(twice.problems).toEqual([{ row: 1, featureId: 'DUP-1', field: 'pipeId', reason: 'pipe id DUP-1 is in the file more than once' }]);
    expect(await pipeCount(api, 'NEW-1')).toBe(0);
    expect(await pipeCount(api, 'DUP-1')).toBe(0);
  });

  it('replaces the whole network when asked, and moves the map on', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const before = await pipeCount(api);
    expect(before).toBeGreaterThan(12);
    const version = async () => (await api({ method: 'GET', url: '/api/tiles/pipes/3857/16/54651/26995.pbf' })).rawPayload.length;
    const tileBefore = await version();
    const job = await importFile(api, 'network.geojson', fixture('network.geojson'), { mode: 'replace', networkType: 'gas' });
    expect(job.result).toMatchObject({ inserted: 12, updated: 0, deleted: before });
    expect(await pipeCount(api)).toBe(12);
    expect(await version()).not.toBe(tileBefore);
    // Swapped in settled: its statistics taken, and (vacuumed before the swap) every page
    // all-visible. On a server another session's open snapshot may keep the loaded rows from being
    // visible to all yet, so pages all-visible are asserted on the embedded database only.
    const [settled] = ((await demo.database.db.execute(sql`select c.relpages, c.relallvisible, c.reltuples::int as tuples
      from pg_class c where c.oid = ${pipePartition(demo.ids.gas)}::regclass`)) as unknown as { rows: { relpages: number; relallvisible: number; tuples: number }[] }).rows;
    expect(settled.relpages).toBeGreaterThan(0);
    expect(settled.tuples).toBe(12);
    if (demo.database.kind === 'pglite') expect(settled.relallvisible).toBe(settled.relpages);
  });

  it('starts a job once, one job at a time, only for members who may import, and only in its enterprise', async () => {
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const analysed = (await upload(member, 'network.geojson', fixture('network.geojson'))).json().result as ImportJobView;
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await upload(viewer, 'network.geojson', fixture('network.geojson'))).statusCode).toBe(403);
    expect((await viewer({ method: 'POST', url: `/api/pipelines/imports/${analysed.id}/start`, payload: { mapping: analysed.suggestedMapping } })).statusCode).toBe(403);
    expect((await viewer({ method: 'GET', url: `/api/pipelines/imports/${analysed.id}` })).statusCode).toBe(200);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: `/api/pipelines/imports/${analysed.id}` })).statusCode).toBe(404);
    expect((await gas({ method: 'POST', url: `/api/pipelines/imports/${analysed.id}/start`, payload: { mapping: analysed.suggestedMapping } })).statusCode).toBe(404);

    const noId = await member({ method: 'POST', url: `/api/pipelines/imports/${analysed.id}/start`, payload: { mapping: { networkType: '管线类型' } } });
    expect(noId.json().message).toBe('mapping.pipeId: choose the field that holds the pipe id');
    const unknown = await member({ method: 'POST', url: `/api/pipelines/imports/${analysed.id}/start`, payload: { mapping: { pipeId: 'GXBH' } } });
    expect(unknown.json().message).toBe('mapping.pipeId: the file has no field "GXBH"');

    const start = () => member({ method: 'POST', url: `/api/pipelines/imports/${analysed.id}/start`, payload: { mapping: analysed.suggestedMapping, mode: 'upsert' } });
    expect((await start()).statusCode).toBe(200);
    const again = await start();
    expect(again.statusCode).toBe(409);
    await demo.app.imports.settled(analysed.id);

    // Three uploads started at once, each twice: one job runs, every other start is refused.
    const uploads = await Promise.all([0, 1, 2].map(async () => (await upload(member, 'network.geojson', fixture('network.geojson'))).json().result as ImportJobView));
    const starts = await Promise.all([...uploads, ...uploads].map((job) => member({ method: 'POST', url: `/api/pipelines/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, mode: 'upsert' } })));
    expect(starts.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(starts.filter((r) => r.statusCode === 409)).toHaveLength(5);
    for (const job of uploads) await demo.app.imports.settled(job.id);
  });

  it('a job whose server died ends as interrupted at the next start, its staged rows and files dropped, and imports go on', async () => {
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const analysed = (await upload(member, 'network.geojson', fixture('network.geojson'))).json().result as ImportJobView;
    // As a crash leaves it: writing, staged rows in the table, its heartbeat stopped a moment ago.
    const { importJobs, pipeImportRows } = await import('../../db/schema.ts');
    const { eq, sql } = await import('drizzle-orm');
    const db = demo.database.db;
    await db.update(importJobs).set({ status: 'writing', heartbeatAt: sql`now() - interval '2 seconds'` }).where(eq(importJobs.id, analysed.id));
    await db.execute(sql`insert into pipe_import_rows (job_id, "row", pipe_id, network_type, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select ${analysed.id}, g, 'CRASH-' || g, 'water', '{"type":"LineString","coordinates":[[120,30],[120.001,30]]}'::jsonb, ${encodeTileLine({ type: 'LineString', coordinates: [[120, 30], [120.001, 30]] })}::bytea, 96, 120, 30, 120.001, 30 from generate_series(1, 500) g`);
    const [job] = await db.select().from(importJobs).where(eq(importJobs.id, analysed.id));
    // Another server still sees a live heartbeat: the job blocks new imports.
    const other = (await upload(member, 'network.geojson', fixture('network.geojson'))).json().result as ImportJobView;
    const blocked = await member({ method: 'POST', url: `/api/pipelines/imports/${other.id}/start`, payload: { mapping: other.suggestedMapping, mode: 'upsert' } });
    expect(blocked.statusCode).toBe(409);

    const { failInterruptedJobs } = await import('../imports/jobs.ts');
    await failInterruptedJobs(db, true);
    const after = (await member({ method: 'GET', url: `/api/pipelines/imports/${analysed.id}` })).json().result as ImportJobView;
    expect(after.status).toBe('failed');
    expect(after.problems[0].reason).toMatch(/interrupted/);
    expect(await db.select().from(pipeImportRows).where(eq(pipeImportRows.jobId, analysed.id))).toEqual([]);
    const { existsSync } = await import('node:fs');
    expect(existsSync(job.workDir)).toBe(false);
    const started = await member({ method: 'POST', url: `/api/pipelines/imports/${other.id}/start`, payload: { mapping: other.suggestedMapping, mode: 'upsert' } });
    expect(started.statusCode, started.body).toBe(200);
    await demo.app.imports.settled(other.id);

    // On a shared PostgreSQL server, a job whose heartbeat stopped half a minute ago no longer blocks.
    const third = (await upload(member, 'network.geojson', fixture('network.geojson'))).json().result as ImportJobView;
    await db.update(importJobs).set({ status: 'validating', heartbeatAt: sql`now() - interval '31 seconds'` }).where(eq(importJobs.id, third.id));
    const fourth = (await upload(member, 'network.geojson', fixture('network.geojson'))).json().result as ImportJobView;
    expect((await member({ method: 'POST', url: `/api/pipelines/imports/${fourth.id}/start`, payload: { mapping: fourth.suggestedMapping, mode: 'upsert' } })).statusCode).toBe(200);
    await demo.app.imports.settled(fourth.id);
    expect(((await member({ method: 'GET', url: `/api/pipelines/imports/${third.id}` })).json().result as ImportJobView).status).toBe('failed');
  });
});

describe('upload limit', () => {
  it('refuses a file over UPLOAD_LIMIT_MB with 413, naming the field', async () => {
    const small = await createTestApp({ uploadLimit: 1024 });
    try {
      const ids = (await as(small.app, await login(small.app, 'admin'))({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
      const api = as(small.app, await login(small.app, 'admin'), ids[0].id);
      const response = await api({ method: 'POST', url: '/api/pipelines/imports', ...multipartFile('file', 'network.geojson', fixture('network.geojson')) });
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe('file: larger than the upload limit of 0 MB');
    } finally {
      await small.close();
    }
  });
});

describe('pipe imports of a big file (read by worker threads)', () => {
  const threaded = useDemoServer({ parallelImportBytes: 1 });

  it('writes every pipe where the file puts it, reports bad features by row, and reads a CSV the same way', async () => {
    const api = as(threaded.app, await login(threaded.app, 'member'), threaded.ids.water);
    const before = await pipeCount(api);
    const job = await importFile(api, 'network.geojson', fixture('network.geojson'), {}, threaded);
    expect(job).toMatchObject({ status: 'succeeded', rowsRead: 12, rowsWritten: 12, result: { inserted: 12, updated: 0, deleted: 0 }, problemCount: 0 });
    expect(await pipe(api, 'IMP-001')).toMatchObject({ networkType: 'water', material: 'ductile iron', diameterMm: 100, installYear: 2000, depthM: 1.1, owner: '滨江水务' });
    await expectOriginalPositions(api);

    const bad = await importFile(api, 'bad.geojson', JSON.stringify({ type: 'FeatureCollection', features: badFeatures() }), {}, threaded);
    expect(bad).toMatchObject({ status: 'failed', problemCount: 8 });
    expect(bad.problems).toEqual(BAD_FEATURE_PROBLEMS);

    const csv = await importFile(api, 'more.csv', 'pipe_id,network_type,wkt\nCSV-1,water,"LINESTRING (120.21 30.21, 120.211 30.21)"\nCSV-2,drainage,"LINESTRING (120.21 30.22, 120.211 30.22)"\n', {}, threaded);
    expect(csv).toMatchObject({ status: 'succeeded', rowsWritten: 2 });
    expect(await pipe(api, 'CSV-2')).toMatchObject({ networkType: 'drainage' });
    expect(await pipeCount(api)).toBe(before + 14);
  });

  it('keeps 2-D positions as the file gives them and drops a height wherever it starts', async () => {
    const api = as(threaded.app, await login(threaded.app, 'member'), threaded.ids.water);
    const features = [
      { id: 'Z-FLAT', coordinates: [[120.21, 30.24], [120.211, 30.24], [120.212, 30.241]] },
      { id: 'Z-FIRST', coordinates: [[120.21, 30.25, 12.5], [120.211, 30.25], [120.212, 30.251]] },
      { id: 'Z-LATER', coordinates: [[120.21, 30.26], [120.211, 30.26], [120.212, 30.261, 8]] },
    ].map(({ id, coordinates }) => ({ type: 'Feature', properties: { id, type: 'water' }, geometry: { type: 'LineString', coordinates } }));
    const job = await importFile(api, 'heights.geojson', JSON.stringify({ type: 'FeatureCollection', features }), {}, threaded);
    expect(job).toMatchObject({ status: 'succeeded', rowsWritten: 3 });
    for (const f of features) {
      const stored = (await pipe(api, f.properties.id)).geometry;
      expect(stored).toEqual({ type: 'LineString', coordinates: f.geometry.coordinates.map(([x, y]) => [x, y]) });
    }
  });

  it('replacing a network: a file with an id twice or a bad feature changes nothing; a good one replaces it whole', async () => {
    const api = as(threaded.app, await login(threaded.app, 'both'), threaded.ids.gas);
    const before = await pipeCount(api);
    const line = { type: 'LineString', coordinates: [[120.21, 30.21], [120.211, 30.21]] };
    const feature = (id: string, type = 'gas') => ({ type: 'Feature', properties: { id, type }, geometry: line });
    const twice = await importFile(api, 'twice.geojson', JSON.stringify({ type: 'FeatureCollection', features: [feature('R-1'), feature('R-2'), feature('R-1'), feature('R-2'), feature('R-3')] }), { mode: 'replace' }, threaded);
    expect(twice).toMatchObject({ status: 'failed', problemCount: 2 });
    expect(twice.problems).toEqual([
      { row: 1, featureId: 'R-1', field: 'pipeId', reason: 'pipe id R-1 is in the file more than once' },
      { row: 2, featureId: 'R-2', field: 'pipeId', reason: 'pipe id R-2 is in the file more than once' },
    ]);
    const bad = await importFile(api, 'bad.geojson', JSON.stringify({ type: 'FeatureCollection', features: [feature('R-1'), feature('R-1'), feature('R-9', 'oil')] }), { mode: 'replace' }, threaded);
    expect(bad.problems).toEqual([{ row: 3, featureId: 'R-9', field: 'networkType (type)', reason: '"oil" is not a network type (water, gas, drainage, heat, power, telecom)' }]);
    expect(await pipeCount(api)).toBe(before);
    expect(await pipeCount(api, 'R-')).toBe(0);

    const good = await importFile(api, 'good.geojson', JSON.stringify({ type: 'FeatureCollection', features: [feature('R-1'), feature('R-2')] }), { mode: 'replace' }, threaded);
    expect(good).toMatchObject({ status: 'succeeded', rowsRead: 2, rowsWritten: 2, result: { inserted: 2, updated: 0, deleted: before } });
    expect(good.result!.extent![0]).toBeCloseTo(120.21, 6);
    expect(await pipeCount(api)).toBe(2);
    await expectNetworkIntact(threaded.ids.gas);
  });

  it('a replacing import waits for a long reader of the network, then swaps it in; the other enterprises keep theirs', async () => {
    const api = as(threaded.app, await login(threaded.app, 'both'), threaded.ids.gas);
    const waterBefore = await rowsOf<{ count: number }>(sql`select count(*)::int as count from pipes where enterprise_id = ${threaded.ids.water}`);
    const db = threaded.database.db;
    // On PostgreSQL a reader on a connection of its own holds the network through its transaction.
    const pool = isServerDatabase(db) ? (db as unknown as { $client: import('pg').Pool }).$client : null;
    const reader = await pool?.connect();
    await reader?.query('begin; select count(*) from pipes');
    const line = { type: 'LineString', coordinates: [[120.22, 30.22], [120.221, 30.22]] };
    const features = ['W-1', 'W-2', 'W-3'].map((id) => ({ type: 'Feature', properties: { id, type: 'gas', material: 'PE' }, geometry: line }));
    const upload = (await api({ method: 'POST', url: '/api/pipelines/imports', ...multipartFile('file', 'wait.geojson', JSON.stringify({ type: 'FeatureCollection', features })) })).json().result as ImportJobView;
    expect((await api({ method: 'POST', url: `/api/pipelines/imports/${upload.id}/start`, payload: { mapping: upload.suggestedMapping, mode: 'replace' } })).statusCode).toBe(200);
    if (reader && pool) {
      try {
        // Asked on a connection of its own: within the reader's transaction the activity view stays as first read.
        const swapsWaiting = async () =>
          (await pool.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n;
        await expect.poll(swapsWaiting, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
        // Past the swap's first wait for its lock (2 s): it lets the reader by and tries again rather than failing.
        await new Promise((resolve) => setTimeout(resolve, 2500));
        expect(((await api({ method: 'GET', url: `/api/pipelines/imports/${upload.id}` })).json().result as ImportJobView).status).toBe('writing');
        await expect.poll(swapsWaiting, { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
      } finally {
        await reader.query('commit');
        reader.release();
      }
    }
    await threaded.app.imports.settled(upload.id);
    expect(((await api({ method: 'GET', url: `/api/pipelines/imports/${upload.id}` })).json().result as ImportJobView).status).toBe('succeeded');
    expect(await pipeCount(api)).toBe(3);
    expect(await rowsOf(sql`select count(*)::int as count from pipes where enterprise_id = ${threaded.ids.water}`)).toEqual(waterBefore);
    await expectNetworkIntact(threaded.ids.gas);
    await expectNetworkIntact(threaded.ids.water);
  });

  const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await threaded.database.db.execute(query)) as unknown as { rows: T[] }).rows;

  /** The enterprise's kept counts are its pipes', its partition has every index the network has, and no loaded table is left. */
  async function expectNetworkIntact(enterpriseId: number) {
    const counted = await rowsOf(sql`select network_type, coalesce(material, '') as material, count(*)::int as pipes from pipes where enterprise_id = ${enterpriseId} group by 1, 2 order by 1, 2`);
    expect(await rowsOf(sql`select network_type, material, pipes::int as pipes from pipe_counts where enterprise_id = ${enterpriseId} order by 1, 2`)).toEqual(counted);
    const [indexes] = await rowsOf<{ parent: number; partition: number }>(sql`select
      (select count(*)::int from pg_index where indrelid = 'pipes'::regclass) as parent,
      (select count(*)::int from pg_index where indrelid = ${pipePartition(enterpriseId)}::regclass) as partition`);
    expect(indexes.partition).toBe(indexes.parent);
    expect(await rowsOf(sql`select relname from pg_class where relname like 'pipes\_load\_%'`)).toEqual([]);
  }
});
