import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { as, login, useDemoServer } from '../../testing/app.ts';
import { pipePages } from './service.ts';
import { nonEmpty } from '../../testing/lists.ts';
import { readSpreadsheetElsewhere } from '../../testing/spreadsheets.ts';

const demo = useDemoServer();

const pipe = (overrides: Record<string, unknown> = {}) => ({
  pipeId: 'W-TEST-1',
  networkType: 'water',
  material: 'PE',
  diameterMm: 110,
  installYear: 2020,
  depthM: 1.2,
  geometry: { type: 'LineString', coordinates: [[120.2, 30.2], [120.201, 30.2]] },
  ...overrides,
});

describe('pipelines', () => {
  it('pages the water utility network and filters it', async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const page = (await api({ method: 'GET', url: '/api/pipelines?pageSize=5' })).json().result;
    expect(page.list).toHaveLength(5);
    expect(page.total).toBeGreaterThan(1000);
    expect(page.list[0]).toMatchObject({ networkType: expect.stringMatching(/water|drainage/), lengthM: expect.any(Number) });

    const water = (await api({ method: 'GET', url: '/api/pipelines?networkType=water&pageSize=500' })).json().result;
    expect(nonEmpty(water.list).every((p: { networkType: string }) => p.networkType === 'water')).toBe(true);
    const gasInWater = (await api({ method: 'GET', url: '/api/pipelines?networkType=gas' })).json().result;
    expect(gasInWater.total).toBe(0);

    const big = (await api({ method: 'GET', url: '/api/pipelines?diameterMin=400&diameterMax=600&pageSize=500' })).json().result;
    expect(nonEmpty(big.list).every((p: { diameterMm: number }) => p.diameterMm >= 400 && p.diameterMm <= 600)).toBe(true);
    const old = (await api({ method: 'GET', url: '/api/pipelines?installYearMax=1990&pageSize=500' })).json().result;
    expect(nonEmpty(old.list).every((p: { installYear: number }) => p.installYear <= 1990)).toBe(true);
    const { materials, networks } = (await api({ method: 'GET', url: '/api/pipelines/facets' })).json().result;
    expect(materials).toContain('ductile iron');
    // The networks the enterprise has pipes of, in the product's order: the water utility's water and drainage.
    expect(networks).toEqual(['water', 'drainage']);
    const gasApi = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gasApi({ method: 'GET', url: '/api/pipelines/facets' })).json().result.networks).toEqual(['gas']);
    const ductile = (await api({ method: 'GET', url: '/api/pipelines?material=ductile%20iron' })).json().result;
    expect(ductile.total).toBeGreaterThan(0);
    expect(ductile.total).toBeLessThan(page.total);
  });

  it("filters to a project's area and agrees with the project's figures", async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const [project] = (await api({ method: 'GET', url: '/api/projects' })).json().result;
    const inside = (await api({ method: 'GET', url: `/api/pipelines?projectId=${project.id}&networkType=water&pageSize=500` })).json().result;
    expect(inside.total).toBeGreaterThan(0);
    const all = [];
    for (let pageNo = 1; (pageNo - 1) * 500 < inside.total; pageNo++) {
      all.push(...(await api({ method: 'GET', url: `/api/pipelines?projectId=${project.id}&networkType=water&pageSize=500&page=${pageNo}` })).json().result.list);
    }
    const sum = all.reduce((s: number, p: { lengthM: number }) => s + p.lengthM, 0);
    expect(Math.abs(sum - project.pipeLengthM.water)).toBeLessThan(2);
    const gasProject = (await as(demo.app, await login(demo.app, 'both'), demo.ids.gas)({ method: 'GET', url: '/api/projects' })).json().result[0];
    expect((await api({ method: 'GET', url: `/api/pipelines?projectId=${gasProject.id}` })).statusCode).toBe(404);
  });

  it('adds, edits and deletes a pipe, computing its length; ids are unique per enterprise', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const created = (await admin({ method: 'POST', url: '/api/pipelines', payload: pipe() })).json();
    expect(created.success).toBe(true);
    // 0.001 degree of longitude at 30.2 N is about 96 m.
    expect(created.result.lengthM).toBeGreaterThan(95);
    expect(created.result.lengthM).toBeLessThan(97);
    expect((await admin({ method: 'POST', url: '/api/pipelines', payload: pipe() })).statusCode).toBe(409);
    const edited = (await admin({ method: 'PUT', url: `/api/pipelines/${created.result.id}`, payload: pipe({ material: 'steel', diameterMm: '150' }) })).json().result;
    expect(edited).toMatchObject({ material: 'steel', diameterMm: 150 });
    expect((await admin({ method: 'GET', url: '/api/pipelines?keyword=W-TEST' })).json().result.total).toBe(1);
    // A keyword is found in any case; one without cased letters (digits) by a plain LIKE, alike.
    const found = async (keyword: string) => ((await admin({ method: 'GET', url: `/api/pipelines?keyword=${encodeURIComponent(keyword)}&pageSize=100` })).json().result.list as { pipeId: string }[]).map((p) => p.pipeId);
    expect(await found('w-test')).toEqual(['W-TEST-1']);
    expect(await found('TEST-1')).toEqual(['W-TEST-1']);
    expect(await found('ST-1')).toContain('W-TEST-1');
    const total = async (keyword: string) => (await admin({ method: 'GET', url: `/api/pipelines?keyword=${keyword}` })).json().result.total;
    const [{ count }] = await rowsOf<{ count: number }>(sql`select count(*)::int as count from pipes where enterprise_id = ${demo.ids.water} and pipe_id ilike '%00012%'`);
    expect(count).toBeGreaterThan(0);
    expect(await total('00012')).toBe(count);
    expect((await admin({ method: 'DELETE', url: `/api/pipelines/${created.result.id}` })).json().success).toBe(true);
    expect((await admin({ method: 'GET', url: `/api/pipelines/${created.result.id}` })).statusCode).toBe(404);
  });

  it('names bad fields: polygon where a line belongs, coordinates out of range, unknown type', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const polygon = await admin({ method: 'POST', url: '/api/pipelines', payload: pipe({ geometry: { type: 'Polygon', coordinates: [[[120, 30], [121, 30], [121, 31], [120, 30]]] } }) });
    expect(polygon.statusCode).toBe(400);
    expect(polygon.json().message).toMatch(/^geometry\.type:/);
    const far = await admin({ method: 'POST', url: '/api/pipelines', payload: pipe({ geometry: { type: 'LineString', coordinates: [[120, 30], [120, 95]] } }) });
    expect(far.json().message).toBe('geometry.coordinates.1: coordinates out of range (longitude -180..180, latitude -90..90)');
    const type = await admin({ method: 'POST', url: '/api/pipelines', payload: pipe({ networkType: 'oil' }) });
    expect(type.json().message).toMatch(/^networkType:/);
  });

  it('viewers only read; members do not delete; other enterprises see nothing', async () => {
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const created = (await member({ method: 'POST', url: '/api/pipelines', payload: pipe({ pipeId: 'W-MEMBER-1' }) })).json().result;
    expect((await member({ method: 'DELETE', url: `/api/pipelines/${created.id}` })).statusCode).toBe(403);
    expect((await viewer({ method: 'POST', url: '/api/pipelines', payload: pipe({ pipeId: 'W-VIEWER-1' }) })).statusCode).toBe(403);
    const gasAdmin = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gasAdmin({ method: 'GET', url: `/api/pipelines/${created.id}` })).statusCode).toBe(404);
    expect((await gasAdmin({ method: 'DELETE', url: `/api/pipelines/${created.id}` })).statusCode).toBe(404);
    expect((await gasAdmin({ method: 'GET', url: '/api/pipelines?keyword=W-MEMBER' })).json().result.total).toBe(0);
  });
});

type Listed = { pipeId: string };
const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await demo.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const ids = (page: { list: Listed[] }) => page.list.map((p) => p.pipeId);

/** The maintained counts and the counts of the pipes themselves, per enterprise, network type and material. */
async function countsAgree() {
  const kept = await rowsOf(sql`select enterprise_id, network_type, material, pipes::int, round(length_m::numeric, 1)::float8 as length_m from pipe_counts order by 1, 2, 3`);
  const actual = await rowsOf(sql`
    select enterprise_id, network_type, coalesce(material, '') as material, count(*)::int as pipes, round(sum(length_m)::numeric, 1)::float8 as length_m
    from pipes group by 1, 2, 3 order by 1, 2, 3`);
  expect(kept).toEqual(actual);
}

describe('pipe list at any size', () => {
  it('pages by key forward, backward and to the end, the same rows as pages by number', async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const get = async (query: string) => (await api({ method: 'GET', url: `/api/pipelines?networkType=water&pageSize=7&${query}` })).json().result;
    const byNumber = [];
    const first = await get('page=1');
    expect(first).toMatchObject({ totalExact: true, page: 1, hasPrev: false, hasNext: true });
    for (let page = 1; page <= 4; page++) byNumber.push(ids(await get(`page=${page}`)));
    // Forward by key from page 1, then back again.
    const forward = [ids(first)];
    for (let page = 2; page <= 4; page++) {
      const next = await get(`after=${encodeURIComponent(forward.at(-1)!.at(-1)!)}&page=${page}`);
      expect(next).toMatchObject({ page, hasPrev: true, hasNext: true });
      forward.push(ids(next));
    }
    expect(forward).toEqual(byNumber);
    const back = await get(`before=${encodeURIComponent(forward[3][0])}&page=3`);
    expect(ids(back)).toEqual(byNumber[2]);
    const toFirst = await get(`before=${encodeURIComponent(forward[1][0])}&page=1`);
    expect(toFirst).toMatchObject({ hasPrev: false, hasNext: true });
    expect(ids(toFirst)).toEqual(byNumber[0]);
    // The last page: the last pipe ids in order, and its number when the total is exact.
    const last = await get('last=true');
    const lastPage = Math.ceil(first.total / 7);
    expect(last).toMatchObject({ page: lastPage, hasPrev: true, hasNext: false });
    expect(ids(last)).toEqual(ids(await get(`page=${lastPage}`)));
    expect(ids(last)).toEqual([...ids(last)].sort());
    const past = await get(`after=${encodeURIComponent(ids(last).at(-1)!)}`);
    expect(past).toMatchObject({ list: [], hasNext: false });
  });

  it('counts exactly from the kept counts, up to 10,000 otherwise, and refuses a deep page by number', async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const get = async (query: string) => (await api({ method: 'GET', url: `/api/pipelines?${query}` })).json();
    // More than 10,000 pipes: copies of one, ids W-BULK-1 ...
    await demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select enterprise_id, 'W-BULK-' || n, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy
      from pipes, generate_series(1, 10000) n where enterprise_id = ${demo.ids.water} and pipe_id = (select min(pipe_id) from pipes where enterprise_id = ${demo.ids.water})`);
    const all = (await get('pageSize=1')).result;
    const [{ count }] = await rowsOf<{ count: number }>(sql`select count(*)::int as count from pipes where enterprise_id = ${demo.ids.water}`);
    expect(all).toMatchObject({ total: count, totalExact: true });
    expect(count).toBeGreaterThan(10_000);
    // A keyword every id holds: more than 10,000, counted no further.
    const every = (await get('keyword=-&pageSize=5')).result;
    expect(every).toMatchObject({ total: 10_000, totalExact: false, hasNext: true });
    expect(every.list).toHaveLength(5);
    const water = (await get('networkType=water&material=PE&pageSize=1')).result;
    const [{ pe }] = await rowsOf<{ pe: number }>(sql`select count(*)::int as pe from pipes where enterprise_id = ${demo.ids.water} and network_type = 'water' and material = 'PE'`);
    expect(water).toMatchObject({ total: pe, totalExact: true });

    const deep = await api({ method: 'GET', url: '/api/pipelines?page=502&pageSize=20', headers: { 'Accept-Language': 'en-US' } });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().message).toMatch(/^page: is past row 10,000/);
    const deepZh = await api({ method: 'GET', url: '/api/pipelines?page=502&pageSize=20', headers: { 'Accept-Language': 'zh-CN' } });
    expect(deepZh.json().message).toMatch(/^page: 超过第 10,000 行/);
    expect((await get('page=501&pageSize=20')).success).toBe(true);
    await demo.database.db.execute(sql`delete from pipes where pipe_id like 'W-BULK-%'`);
  });

  it('keeps the counts and the materials offered in step with every change to the pipes', async () => {
    await countsAgree();
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const created = (await admin({ method: 'POST', url: '/api/pipelines', payload: pipe({ pipeId: 'W-COUNT-1', material: 'clay' }) })).json().result;
    await countsAgree();
    const facets = async () => (await admin({ method: 'GET', url: '/api/pipelines/facets' })).json().result.materials;
    expect(await facets()).toContain('clay');
    await admin({ method: 'PUT', url: `/api/pipelines/${created.id}`, payload: pipe({ pipeId: 'W-COUNT-1', material: 'steel', networkType: 'drainage' }) });
    await countsAgree();
    expect(await facets()).not.toContain('clay');
    await admin({ method: 'POST', url: '/api/pipelines', payload: pipe({ pipeId: 'W-COUNT-2', material: undefined }) });
    await countsAgree();
    await admin({ method: 'DELETE', url: `/api/pipelines/${created.id}` });
    await countsAgree();
    // Statements over many rows at once (as imports and removals are).
    await demo.database.db.execute(sql`update pipes set material = 'PE' where enterprise_id = ${demo.ids.water} and material = 'PVC'`);
    await countsAgree();
    await demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select enterprise_id, pipe_id || '-COPY', network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy from pipes where enterprise_id = ${demo.ids.water} and network_type = 'drainage'
      on conflict (enterprise_id, pipe_id) do update set material = 'steel'`);
    await demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select enterprise_id, pipe_id, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy from pipes where enterprise_id = ${demo.ids.water} and pipe_id like '%-COPY'
      on conflict (enterprise_id, pipe_id) do update set material = 'concrete', length_m = excluded.length_m * 2`);
    await countsAgree();
    await demo.database.db.execute(sql`delete from pipes where pipe_id like '%-COPY'`);
    await countsAgree();
  });
});

describe('pipeline export', () => {
  it('exports the filtered network as GeoJSON, CSV with WKT and XLSX, the same rows each time', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const filter = 'networkType=water&diameterMin=300';
    const total = (await viewer({ method: 'GET', url: `/api/pipelines?${filter}` })).json().result.total;
    expect(total).toBeGreaterThan(0);

    const geojson = await viewer({ method: 'GET', url: `/api/pipelines/export?${filter}&format=geojson` });
    expect(geojson.headers['content-disposition']).toBe('attachment; filename="pipes.geojson"');
    const collection = geojson.json();
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features).toHaveLength(total);
    expect(collection.features[0]).toMatchObject({ type: 'Feature', geometry: { type: 'LineString' }, properties: { networkType: 'water' } });
    expect(nonEmpty(collection.features).every((f: { properties: { diameterMm: number } }) => f.properties.diameterMm >= 300)).toBe(true);

    const csv = await viewer({ method: 'GET', url: `/api/pipelines/export?${filter}&format=csv` });
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('pipeId,networkType,material,diameterMm,pressureClass,installYear,depthM,owner,lengthM,wkt');
    expect(lines).toHaveLength(total + 1);
    expect(lines[1]).toMatch(/,"LINESTRING \(120\.\d+ 30\.\d+, 120\.\d+ 30\.\d+\)"$/);

    const xlsx = await viewer({ method: 'GET', url: `/api/pipelines/export?${filter}&format=xlsx` });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as never);
    const sheet = workbook.getWorksheet('pipes')!;
    expect(sheet.rowCount).toBe(total + 1);
    expect(sheet.getRow(1).getCell(1).text).toBe('pipeId');
    expect(sheet.getRow(2).getCell(2).text).toBe('water');
    // Text is written inline (t="inlineStr"), not as formula results: GDAL, pandas and LibreOffice
    // read the header as the column names and every other row as a record (GDAL read the header as a feature before).
    const elsewhere = await readSpreadsheetElsewhere(xlsx.rawPayload);
    for (const table of Object.values(elsewhere).filter((t) => t !== null)) {
      expect(table.rows).toBe(total);
      expect(table.columns.slice(0, 4)).toEqual(['pipeId', 'networkType', 'material', 'diameterMm']);
    }
    const gas = (await as(demo.app, await login(demo.app, 'both'), demo.ids.gas)({ method: 'GET', url: '/api/pipelines/export?format=geojson' })).json();
    expect(nonEmpty(gas.features).every((f: { properties: { networkType: string } }) => f.properties.networkType === 'gas')).toBe(true);
    expect((await viewer({ method: 'GET', url: '/api/pipelines/export?format=shp' })).statusCode).toBe(400);
  });

  it('reads an export page by page after the last key: every row once, in pipe id order', async () => {
    const filters = { networkType: 'water' as const, diameterMin: 300 };
    const pages = [];
    for await (const page of await pipePages(demo.database.db, demo.ids.water, filters, 7)) pages.push(page);
    const ids = pages.flat().map((p) => p.pipeId);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect(ids).toHaveLength((await viewer({ method: 'GET', url: '/api/pipelines?networkType=water&diameterMin=300' })).json().result.total);
    expect(pages.length).toBeGreaterThan(2);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});
