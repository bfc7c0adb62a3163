import { describe, expect, it } from 'vitest';
import { as, login, useDemoServer } from '../../testing/app.ts';

const demo = useDemoServer();

const square = (x: number, y: number, d: number) => ({
  type: 'Polygon',
  coordinates: [[[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]],
});

const project = (overrides: Record<string, unknown> = {}) => ({
  name: '西兴街道漏损普查',
  code: 'XX-2026',
  city: '杭州市',
  district: '滨江区',
  area: square(120.15, 30.15, 0.03),
  networkTypes: ['water'],
  startDate: '2026-02-01',
  endDate: '2026-11-30',
  status: 'active',
  ...overrides,
});

describe('projects', () => {
  it("lists the enterprise's projects with pipe length in their area by network type", async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const list = (await admin({ method: 'GET', url: '/api/projects' })).json().result;
    expect(list.map((p: { code: string }) => p.code)).toEqual(['BJ-LEAK-2026', 'JN-INSAR-2026']);
    const [leak] = list;
    expect(leak.pipeLengthM.water).toBeGreaterThan(10_000);
    expect(leak.pipeLengthM.gas).toBeUndefined();
    expect(leak.bbox).toHaveLength(4);
    const gas = (await as(demo.app, await login(demo.app, 'both'), demo.ids.gas)({ method: 'GET', url: '/api/projects' })).json().result;
    expect(gas.map((p: { code: string }) => p.code)).toEqual(['GAS-N-2026']);
    expect(gas[0].pipeLengthM.gas).toBeGreaterThan(1000);
    expect(gas[0].pipeLengthM.water).toBeUndefined();
  });

  it("counts each project's POIs by status, the same as the POI list does", async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const [leak, insar] = (await admin({ method: 'GET', url: '/api/projects' })).json().result;
    const one = (await admin({ method: 'GET', url: `/api/projects/${leak.id}` })).json().result;
    expect(one.poiCounts).toEqual(leak.poiCounts);
    for (const status of ['new', 'assigned', 'investigating', 'leakFound', 'noLeak', 'repaired']) {
      const total = (await admin({ method: 'GET', url: `/api/leaks/pois?projectId=${leak.id}&status=${status}` })).json().result.total;
      expect(leak.poiCounts[status] ?? 0, status).toBe(total);
    }
    // The demo has worked through part of the survey: some POIs are still open, some repaired.
    expect(leak.poiCounts.new).toBeGreaterThan(0);
    expect(leak.poiCounts.repaired).toBeGreaterThan(0);
    expect(insar.poiCounts).toEqual({});
  });

  it("keeps each project's pipe length between changes, the same as the pipe list's, and measures again after a change", async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const projects = async () => (await admin({ method: 'GET', url: '/api/projects' })).json().result as { id: number; code: string; pipeLengthM: Record<string, number> }[];
    const leak = (await projects()).find((p) => p.code === 'BJ-LEAK-2026')!;
    // The pipe list of the project adds up to the same length (the same rule, in SQL both times).
    let sum = 0;
    for (let page = 1; ; page++) {
      const listed = (await admin({ method: 'GET', url: `/api/pipelines?projectId=${leak.id}&networkType=water&pageSize=500&page=${page}` })).json().result;
      sum += (listed.list as { lengthM: number }[]).reduce((total, pipe) => total + pipe.lengthM, 0);
      if (page * 500 >= listed.total) break;
    }
    expect(sum).toBeGreaterThan(10_000);
    expect(leak.pipeLengthM.water).toBe(Math.round(sum));
    // Kept: the stored figure is read back, not measured again, while nothing changes.
    const { projects: table } = await import('../../db/schema.ts');
    const { eq } = await import('drizzle-orm');
    await demo.database.db.update(table).set({ pipeLengthM: { water: 1 } }).where(eq(table.id, leak.id));
    demo.app.changes.publish({ enterpriseId: demo.ids.water });
    expect((await projects()).find((p) => p.id === leak.id)!.pipeLengthM).toEqual({ water: 1 });
    // A new pipe in the area changes the network's version: the length is measured again.
    const [west, south] = (await admin({ method: 'GET', url: `/api/projects/${leak.id}` })).json().result.bbox;
    const geometry = { type: 'LineString', coordinates: [[west + 0.001, south + 0.001], [west + 0.002, south + 0.001]] };
    const added = await admin({ method: 'POST', url: '/api/pipelines', payload: { pipeId: 'FIG-1', networkType: 'water', geometry } });
    expect(added.statusCode, added.body).toBe(200);
    const after = (await projects()).find((p) => p.id === leak.id)!;
    expect(after.pipeLengthM.water).toBe(Math.round(sum + added.json().result.lengthM));
    await admin({ method: 'DELETE', url: `/api/pipelines/${added.json().result.id}` });
    expect((await projects()).find((p) => p.id === leak.id)!.pipeLengthM.water).toBe(Math.round(sum));
  });

  it('counts a pipe when its midpoint is inside the area', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const created = await admin({ method: 'POST', url: '/api/projects', payload: project({ code: 'EMPTY-1', area: square(121.5, 31.5, 0.01) }) });
    expect(created.json().result.pipeLengthM).toEqual({});
    await admin({ method: 'DELETE', url: `/api/projects/${created.json().result.id}` });
  });

  it('creates, edits, searches and deletes; codes are unique per enterprise', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const created = await admin({ method: 'POST', url: '/api/projects', payload: project() });
    expect(created.json()).toMatchObject({ success: true, result: { name: '西兴街道漏损普查', status: 'active', networkTypes: ['water'] } });
    const id = created.json().result.id;
    const dup = await admin({ method: 'POST', url: '/api/projects', payload: project() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/^code:/);
    // The same code in another enterprise is fine.
    const gasAdmin = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gasAdmin({ method: 'POST', url: '/api/projects', payload: project({ networkTypes: ['gas'] }) })).statusCode).toBe(200);

    const edited = await admin({ method: 'PUT', url: `/api/projects/${id}`, payload: project({ status: 'closed', description: '已完成' }) });
    expect(edited.json().result).toMatchObject({ status: 'closed', description: '已完成' });
    const found = (await admin({ method: 'GET', url: '/api/projects?keyword=西兴' })).json().result;
    expect(found.map((p: { id: number }) => p.id)).toEqual([id]);
    expect((await admin({ method: 'GET', url: '/api/projects?status=closed' })).json().result).toHaveLength(1);
    expect((await admin({ method: 'DELETE', url: `/api/projects/${id}` })).json().success).toBe(true);
    expect((await admin({ method: 'GET', url: `/api/projects/${id}` })).statusCode).toBe(404);
  });

  it('accepts a form-encoded body with the area as GeoJSON text', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const body = new URLSearchParams({ name: '表单项目', code: 'FORM-1', city: '杭州市', area: JSON.stringify(square(120.2, 30.2, 0.01)), networkTypes: 'water,drainage' });
    const created = await admin({ method: 'POST', url: '/api/projects', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() });
    expect(created.json().result).toMatchObject({ code: 'FORM-1', networkTypes: ['water', 'drainage'], status: 'planned' });
    await admin({ method: 'DELETE', url: `/api/projects/${created.json().result.id}` });
  });

  it('names each bad field', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const open = await admin({ method: 'POST', url: '/api/projects', payload: project({ area: { type: 'Polygon', coordinates: [[[120, 30], [120.1, 30], [120.1, 30.1], [120, 30.1]]] } }) });
    expect(open.statusCode).toBe(400);
    expect(open.json().message).toBe('area.coordinates.0: a polygon ring must end where it starts');
    const far = await admin({ method: 'POST', url: '/api/projects', payload: project({ area: square(200, 30, 1) }) });
    expect(far.json().message).toMatch(/coordinates out of range/);
    const line = await admin({ method: 'POST', url: '/api/projects', payload: project({ area: { type: 'LineString', coordinates: [[120, 30], [121, 31]] } }) });
    expect(line.statusCode).toBe(400);
    expect(line.json().message).toMatch(/^area\.type:/);
    const dates = await admin({ method: 'POST', url: '/api/projects', headers: { 'Accept-Language': 'zh-CN' }, payload: project({ startDate: '2026-05-01', endDate: '2026-01-01' }) });
    expect(dates.json().message).toBe('endDate: 不能早于开始日期');
    const types = await admin({ method: 'POST', url: '/api/projects', payload: project({ networkTypes: ['oil'] }) });
    expect(types.json().message).toMatch(/^networkTypes\.0:/);
  });

  it('members add and edit but do not delete; viewers only read; other enterprises see nothing', async () => {
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const created = await member({ method: 'POST', url: '/api/projects', payload: project({ code: 'MEMBER-1' }) });
    expect(created.statusCode).toBe(200);
    const id = created.json().result.id;
    expect((await member({ method: 'PUT', url: `/api/projects/${id}`, payload: project({ code: 'MEMBER-1', name: '改名' }) })).statusCode).toBe(200);
    expect((await member({ method: 'DELETE', url: `/api/projects/${id}` })).statusCode).toBe(403);
    expect((await viewer({ method: 'POST', url: '/api/projects', payload: project({ code: 'VIEWER-1' }) })).statusCode).toBe(403);
    expect((await viewer({ method: 'PUT', url: `/api/projects/${id}`, payload: project({ code: 'MEMBER-1' }) })).statusCode).toBe(403);
    expect((await viewer({ method: 'GET', url: `/api/projects/${id}` })).statusCode).toBe(200);

    const gasAdmin = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gasAdmin({ method: 'GET', url: `/api/projects/${id}` })).statusCode).toBe(404);
    expect((await gasAdmin({ method: 'PUT', url: `/api/projects/${id}`, payload: project({ code: 'X' }) })).statusCode).toBe(404);
    expect((await gasAdmin({ method: 'DELETE', url: `/api/projects/${id}` })).statusCode).toBe(404);
    expect((await gasAdmin({ method: 'GET', url: '/api/projects' })).body).not.toContain('MEMBER-1');
  });
});
