import { describe, expect, it } from 'vitest';
import { as, login, useDemoServer } from '../../testing/app.ts';

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
    expect(water.list.every((p: { networkType: string }) => p.networkType === 'water')).toBe(true);
    const gasInWater = (await api({ method: 'GET', url: '/api/pipelines?networkType=gas' })).json().result;
    expect(gasInWater.total).toBe(0);

    const big = (await api({ method: 'GET', url: '/api/pipelines?diameterMin=400&diameterMax=600&pageSize=500' })).json().result;
    expect(big.list.every((p: { diameterMm: number }) => p.diameterMm >= 400 && p.diameterMm <= 600)).toBe(true);
    const old = (await api({ method: 'GET', url: '/api/pipelines?installYearMax=1990&pageSize=500' })).json().result;
    expect(old.list.every((p: { installYear: number }) => p.installYear <= 1990)).toBe(true);
    const { materials } = (await api({ method: 'GET', url: '/api/pipelines/facets' })).json().result;
    expect(materials).toContain('ductile iron');
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
    expect(collection.features.every((f: { properties: { diameterMm: number } }) => f.properties.diameterMm >= 300)).toBe(true);

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
    expect(sheet.getRow(2).getCell(2).value).toBe('water');

    const gas = (await as(demo.app, await login(demo.app, 'both'), demo.ids.gas)({ method: 'GET', url: '/api/pipelines/export?format=geojson' })).json();
    expect(gas.features.every((f: { properties: { networkType: string } }) => f.properties.networkType === 'gas')).toBe(true);
    expect((await viewer({ method: 'GET', url: '/api/pipelines/export?format=shp' })).statusCode).toBe(400);
  });
});
