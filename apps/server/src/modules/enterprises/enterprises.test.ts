import { describe, expect, it } from 'vitest';
import { creditCodeCheckChar } from '@console/contract';
import { DEMO_ENTERPRISES } from '../../demo/seed.ts';
import { as, login, useDemoServer } from '../../testing/app.ts';

const demo = useDemoServer();

const json = (payload: unknown) => ({ payload: payload as Record<string, unknown> });
const validCode = (body: string) => body + creditCodeCheckChar(body);
const profile = (name: string, code: string) => ({
  enterpriseName: name,
  creditCode: code,
  contact: '周敏',
  contactPhone: '13911112222',
  address: '杭州市上城区解放路 8 号',
});

describe('GET /api/enterprise/getUserEnterprises', () => {
  it('lists every enterprise of the user with isVerified and userType', async () => {
    const both = (await as(demo.app, await login(demo.app, 'both'))({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
    expect(both).toEqual([
      { id: demo.ids.water, enterpriseName: DEMO_ENTERPRISES.water.name, isVerified: '1', userType: 'member', status: 'verified' },
      { id: demo.ids.gas, enterpriseName: DEMO_ENTERPRISES.gas.name, isVerified: '1', userType: 'admin', status: 'verified' },
    ]);
    const newcomer = (await as(demo.app, await login(demo.app, 'newcomer'))({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
    expect(newcomer).toEqual([{ id: demo.ids.drainage, enterpriseName: DEMO_ENTERPRISES.drainage.name, isVerified: '0', userType: 'admin', status: 'pending' }]);
    const platform = (await as(demo.app, await login(demo.app, 'platform'))({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
    expect(platform).toEqual([]);
  });
});

describe('registering an enterprise and its verification', () => {
  it('starts unverified with the registrant as admin; a platform administrator verifies it', async () => {
    const token = await login(demo.app, 'viewer');
    const created = await as(demo.app, token)({ method: 'POST', url: '/api/enterprise/register', ...json(profile('萧山供水有限公司', validCode('91330109MA2C00011'))) });
    expect(created.json()).toMatchObject({ success: true, result: { status: 'pending' } });
    const id = created.json().result.id;
    let mine = (await as(demo.app, token)({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
    expect(mine.find((e: { id: number }) => e.id === id)).toMatchObject({ isVerified: '0', userType: 'admin' });

    // Nobody works in it before verification.
    const early = await as(demo.app, token, id)({ method: 'GET', url: '/api/enterprise/info' });
    expect(early.statusCode).toBe(403);

    expect((await as(demo.app, token)({ method: 'GET', url: '/api/platform/enterprises' })).statusCode).toBe(403);
    const platform = await login(demo.app, 'platform');
    const pending = (await as(demo.app, platform)({ method: 'GET', url: '/api/platform/enterprises' })).json().result;
    expect(pending.map((e: { id: number }) => e.id)).toEqual(expect.arrayContaining([id, demo.ids.drainage]));
    expect(pending.find((e: { id: number }) => e.id === id).registrant).toBe('viewer');
    expect((await as(demo.app, platform)({ method: 'POST', url: `/api/platform/enterprises/${id}/verify` })).json().success).toBe(true);
    expect((await as(demo.app, platform)({ method: 'POST', url: `/api/platform/enterprises/${id}/verify` })).statusCode).toBe(409);

    mine = (await as(demo.app, token)({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
    expect(mine.find((e: { id: number }) => e.id === id)).toMatchObject({ isVerified: '1', status: 'verified' });
    expect((await as(demo.app, token, id)({ method: 'GET', url: '/api/enterprise/info' })).json().result.enterpriseName).toBe('萧山供水有限公司');
  });

  it('lets a platform administrator reject one, with a reason', async () => {
    const token = await login(demo.app, 'member');
    const created = await as(demo.app, token)({ method: 'POST', url: '/api/enterprise/register', ...json(profile('临平燃气有限公司', validCode('91330113MA2C00022'))) });
    const id = created.json().result.id;
    const platform = await login(demo.app, 'platform');
    await as(demo.app, platform)({ method: 'POST', url: `/api/platform/enterprises/${id}/reject`, ...json({ reason: '资料不全' }) });
    const rejected = (await as(demo.app, platform)({ method: 'GET', url: '/api/platform/enterprises?status=rejected' })).json().result;
    expect(rejected.find((e: { id: number }) => e.id === id)).toMatchObject({ status: 'rejected', rejectReason: '资料不全' });
    expect((await as(demo.app, platform)({ method: 'POST', url: '/api/platform/enterprises/99999/verify' })).statusCode).toBe(404);
  });

  it('refuses a duplicate name or credit code (409) and a bad credit code (400), naming the field', async () => {
    const token = await login(demo.app, 'member');
    const dupName = await as(demo.app, token)({ method: 'POST', url: '/api/enterprise/register', ...json(profile(DEMO_ENTERPRISES.water.name, validCode('91330109MA2C00033'))) });
    expect(dupName.statusCode).toBe(409);
    expect(dupName.json().message).toMatch(/^enterpriseName:/);
    const dupCode = await as(demo.app, token)({ method: 'POST', url: '/api/enterprise/register', ...json(profile('新名字有限公司', DEMO_ENTERPRISES.gas.creditCode)) });
    expect(dupCode.statusCode).toBe(409);
    expect(dupCode.json().message).toMatch(/^creditCode:/);
    const body = validCode('91330109MA2C00044');
    const wrongCheck = body.slice(0, 17) + (body[17] === '0' ? '1' : '0');
    const badCode = await as(demo.app, token)({ method: 'POST', url: '/api/enterprise/register', headers: { 'Accept-Language': 'zh-CN' }, ...json(profile('又一家有限公司', wrongCheck)) });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().message).toBe('creditCode: 不是有效的统一社会信用代码');
  });
});

describe('joining an enterprise', () => {
  it('search, apply, and an admin approves with a role', async () => {
    const member = await login(demo.app, 'member');
    const found = (await as(demo.app, member)({ method: 'GET', url: '/api/enterprise/search?name=燃气' })).json().result;
    expect(found.map((e: { id: number }) => e.id)).toContain(demo.ids.gas);
    // Unverified enterprises are not found.
    const hidden = (await as(demo.app, member)({ method: 'GET', url: '/api/enterprise/search?name=排水' })).json().result;
    expect(hidden).toEqual([]);

    expect((await as(demo.app, member)({ method: 'POST', url: '/api/enterprise/apply', ...json({ enterpriseId: demo.ids.gas }) })).json().success).toBe(true);
    const twice = await as(demo.app, member)({ method: 'POST', url: '/api/enterprise/apply', ...json({ enterpriseId: demo.ids.gas }) });
    expect(twice.statusCode).toBe(409);
    expect((await as(demo.app, member)({ method: 'POST', url: '/api/enterprise/apply', ...json({ enterpriseId: demo.ids.water }) })).statusCode).toBe(409);
    expect((await as(demo.app, member)({ method: 'POST', url: '/api/enterprise/apply', ...json({ enterpriseId: demo.ids.drainage }) })).statusCode).toBe(404);
    // Still pending: not in the list, in the applications.
    let mine = (await as(demo.app, member)({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
    expect(mine.map((e: { id: number }) => e.id)).not.toContain(demo.ids.gas);
    expect((await as(demo.app, member)({ method: 'GET', url: '/api/enterprise/applications' })).json().result[0]).toMatchObject({ enterpriseId: demo.ids.gas, status: 'pending' });
    expect((await as(demo.app, member, demo.ids.gas)({ method: 'GET', url: '/api/enterprise/info' })).statusCode).toBe(403);

    const gasAdmin = await login(demo.app, 'both');
    const requests = (await as(demo.app, gasAdmin, demo.ids.gas)({ method: 'GET', url: '/api/enterprise/joinRequests' })).json().result;
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ username: 'member', status: 'pending' });
    const approved = await as(demo.app, gasAdmin, demo.ids.gas)({ method: 'POST', url: `/api/enterprise/joinRequests/${requests[0].id}/approve`, ...json({ role: 'viewer' }) });
    expect(approved.json().success).toBe(true);
    expect((await as(demo.app, gasAdmin, demo.ids.gas)({ method: 'POST', url: `/api/enterprise/joinRequests/${requests[0].id}/approve` })).statusCode).toBe(409);

    mine = (await as(demo.app, member)({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
    expect(mine.find((e: { id: number }) => e.id === demo.ids.gas)).toMatchObject({ isVerified: '1', userType: 'viewer' });
    const perms = (await as(demo.app, member, demo.ids.gas)({ method: 'GET', url: '/api/getUserPermission' })).json().result;
    expect(perms.userType).toBe('viewer');
  });

  it('a rejected applicant may apply again', async () => {
    const viewer = await login(demo.app, 'viewer');
    await as(demo.app, viewer)({ method: 'POST', url: '/api/enterprise/apply', ...json({ enterpriseId: demo.ids.gas, message: '请批准' }) });
    const gasAdmin = await login(demo.app, 'both');
    const [request] = (await as(demo.app, gasAdmin, demo.ids.gas)({ method: 'GET', url: '/api/enterprise/joinRequests' })).json().result;
    expect(request.message).toBe('请批准');
    await as(demo.app, gasAdmin, demo.ids.gas)({ method: 'POST', url: `/api/enterprise/joinRequests/${request.id}/reject` });
    expect((await as(demo.app, viewer)({ method: 'GET', url: '/api/enterprise/applications' })).json().result[0].status).toBe('rejected');
    expect((await as(demo.app, viewer)({ method: 'POST', url: '/api/enterprise/apply', ...json({ enterpriseId: demo.ids.gas }) })).json().success).toBe(true);
  });
});

describe('members', () => {
  it('admins list members, change roles and remove members, never the last admin', async () => {
    const admin = await login(demo.app, 'admin');
    const api = as(demo.app, admin, demo.ids.water);
    const members = (await api({ method: 'GET', url: '/api/enterprise/members' })).json().result;
    expect(members.map((m: { username: string }) => m.username)).toEqual(['admin', 'member', 'viewer', 'both']);
    const adminId = members[0].userId;
    const bothId = members[3].userId;

    const lastDemote = await api({ method: 'PUT', url: `/api/enterprise/members/${adminId}/role`, ...json({ role: 'member' }) });
    expect(lastDemote.statusCode).toBe(409);
    expect(lastDemote.json().message).toBe('userId: an enterprise must keep at least one administrator');
    expect((await api({ method: 'DELETE', url: `/api/enterprise/members/${adminId}` })).statusCode).toBe(409);

    expect((await api({ method: 'PUT', url: `/api/enterprise/members/${bothId}/role`, ...json({ role: 'admin' }) })).json().success).toBe(true);
    expect((await api({ method: 'PUT', url: `/api/enterprise/members/${adminId}/role`, ...json({ role: 'member' }) })).json().success).toBe(true);
    const both = await login(demo.app, 'both');
    expect((await as(demo.app, both, demo.ids.water)({ method: 'PUT', url: `/api/enterprise/members/${adminId}/role`, ...json({ role: 'admin' }) })).json().success).toBe(true);
    expect((await as(demo.app, both, demo.ids.water)({ method: 'PUT', url: `/api/enterprise/members/${bothId}/role`, ...json({ role: 'member' }) })).json().success).toBe(true);

    const badRole = await api({ method: 'PUT', url: `/api/enterprise/members/${bothId}/role`, ...json({ role: 'owner' }) });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().message).toMatch(/^role:/);
    expect((await api({ method: 'PUT', url: '/api/enterprise/members/99999/role', ...json({ role: 'member' }) })).statusCode).toBe(404);
  });

  it('admins add registered users by phone number or username, with a role', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const byPhone = await api({ method: 'POST', url: '/api/enterprise/members', ...json({ account: '13800000003', role: 'viewer' }) });
    expect(byPhone.json()).toMatchObject({ success: true, message: '张伟 joined the enterprise' });
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.gas);
    expect((await viewer({ method: 'GET', url: '/api/enterprise/info' })).statusCode).toBe(200);
    expect((await viewer({ method: 'POST', url: '/api/pipelines', ...json({}) })).statusCode).toBe(403);

    const again = await api({ method: 'POST', url: '/api/enterprise/members', ...json({ account: 'viewer' }), headers: { 'Accept-Language': 'zh-CN' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('account：张伟 已是本企业成员');
    const nobody = await api({ method: 'POST', url: '/api/enterprise/members', ...json({ account: '13999999999' }) });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().message).toBe('account: no user has this username or phone number');
    expect((await api({ method: 'POST', url: '/api/enterprise/members', ...json({ account: '' }) })).json().message).toBe('account: is required');

    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    expect((await member({ method: 'POST', url: '/api/enterprise/members', ...json({ account: 'viewer' }) })).statusCode).toBe(403);

    const byName = await api({ method: 'POST', url: '/api/enterprise/members', ...json({ account: 'newcomer' }) });
    expect(byName.json().success).toBe(true);
    const members = (await api({ method: 'GET', url: '/api/enterprise/members' })).json().result;
    const newcomer = members.find((m: { username: string }) => m.username === 'newcomer');
    expect(newcomer).toMatchObject({ role: 'member', status: 'active' });
    // Leave the demo as the other tests expect it.
    expect((await api({ method: 'DELETE', url: `/api/enterprise/members/${newcomer.userId}` })).json().success).toBe(true);
  });

  it('removing a member takes the enterprise away from them', async () => {
    const gasAdmin = await login(demo.app, 'both');
    const api = as(demo.app, gasAdmin, demo.ids.gas);
    const members = (await api({ method: 'GET', url: '/api/enterprise/members' })).json().result;
    const memberRow = members.find((m: { username: string }) => m.username === 'member');
    expect((await api({ method: 'DELETE', url: `/api/enterprise/members/${memberRow.userId}` })).json().success).toBe(true);
    const member = await login(demo.app, 'member');
    expect((await as(demo.app, member, demo.ids.gas)({ method: 'GET', url: '/api/enterprise/info' })).statusCode).toBe(403);
  });
});

describe('enterprise profile and map settings', () => {
  it('admins edit the profile; members and viewers read it', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const current = (await admin({ method: 'GET', url: '/api/enterprise/info' })).json().result;
    const edited = await admin({ method: 'PUT', url: '/api/enterprise/info', ...json({ ...current, address: '滨江区网商路 699 号', description: '供水管网 1,200 km' }) });
    expect(edited.json().result).toMatchObject({ address: '滨江区网商路 699 号', description: '供水管网 1,200 km' });
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'GET', url: '/api/enterprise/info' })).json().result.address).toBe('滨江区网商路 699 号');
  });

  it('defaults to srid 4326 and ArcGIS, validates and saves settings', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    // The demo draws on the built-in vector basemap.
    const builtIn = (await admin({ method: 'GET', url: '/api/enterprise/mapSettings' })).json().result;
    expect(builtIn).toMatchObject({ serviceType: 'XYZ', serviceUrl: '/api/tiles/basemap/{grid}/{z}/{x}/{y}.pbf', srid: 3857 });
    // An enterprise that saved nothing gets the spec's defaults.
    const owner = await login(demo.app, 'member');
    const created = (await as(demo.app, owner)({ method: 'POST', url: '/api/enterprise/register', ...json(profile('富阳水务有限公司', validCode('91330111MA2C00055'))) })).json().result;
    await as(demo.app, await login(demo.app, 'platform'))({ method: 'POST', url: `/api/platform/enterprises/${created.id}/verify` });
    const defaults = (await as(demo.app, owner, created.id)({ method: 'GET', url: '/api/enterprise/mapSettings' })).json().result;
    expect(defaults).toEqual({ serviceType: 'ArcGIS', srid: 4326, tileSize: 256, zoomLevel: 10 });
    const schemaDefaults = (await admin({ method: 'PUT', url: '/api/enterprise/mapSettings', ...json({ serviceUrl: 'https://gis.example.com/arcgis/rest/services/a/MapServer' }) })).json().result;
    expect(schemaDefaults).toMatchObject({ serviceType: 'ArcGIS', srid: 4326 });

    const settings = {
      serviceType: 'ArcGIS',
      serviceUrl: 'https://gis.example.com/arcgis/rest/services/basemap/MapServer',
      srid: 4326,
      resolutions: [0.0109863, 0.0054931, 0.0027466],
      origin: [-180, 90],
      extent: [119.9, 30.1, 120.4, 30.4],
      tileSize: 256,
      zoomLevel: 12,
      layerName: 'basemap',
    };
    const saved = await admin({ method: 'PUT', url: '/api/enterprise/mapSettings', ...json(settings) });
    expect(saved.json().result).toEqual(settings);
    expect((await admin({ method: 'GET', url: '/api/enterprise/mapSettings' })).json().result).toEqual(settings);

    // The spec's client form-encodes: lists may come as comma separated text.
    const form = await admin({
      method: 'PUT',
      url: '/api/enterprise/mapSettings',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'serviceType=XYZ&serviceUrl=/tiles/{z}/{x}/{y}.png&srid=3857&resolutions=4,2,1&zoomLevel=3',
    });
    expect(form.json().result).toMatchObject({ serviceType: 'XYZ', srid: 3857, resolutions: [4, 2, 1], zoomLevel: 3, tileSize: 256 });

    const increasing = await admin({ method: 'PUT', url: '/api/enterprise/mapSettings', ...json({ ...settings, resolutions: [1, 2, 3] }) });
    expect(increasing.statusCode).toBe(400);
    expect(increasing.json().message).toBe('resolutions: must be strictly decreasing');
    const badSrid = await admin({ method: 'PUT', url: '/api/enterprise/mapSettings', headers: { 'Accept-Language': 'zh-CN' }, ...json({ ...settings, srid: 2000 }) });
    expect(badSrid.json().message).toBe('srid: 只能是 4326 或 3857');
    const noUrl = await admin({ method: 'PUT', url: '/api/enterprise/mapSettings', ...json({ serviceType: 'WMTS' }) });
    expect(noUrl.json().message).toBe('serviceUrl: is required for this service type');
    const badExtent = await admin({ method: 'PUT', url: '/api/enterprise/mapSettings', ...json({ ...settings, extent: [120.4, 30.1, 119.9, 30.4] }) });
    expect(badExtent.json().message).toMatch(/^extent:/);
    expect((await admin({ method: 'PUT', url: '/api/enterprise/mapSettings', ...json({ serviceType: 'none' }) })).json().success).toBe(true);
  });
});

describe('roles and permissions', () => {
  it("answers 403 for each role's forbidden actions", async () => {
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const profileBody = json(profile(DEMO_ENTERPRISES.water.name, DEMO_ENTERPRISES.water.creditCode));
    const forbidden = [
      [member, { method: 'PUT', url: '/api/enterprise/info', ...profileBody }],
      [member, { method: 'PUT', url: '/api/enterprise/mapSettings', ...json({ serviceType: 'none' }) }],
      [member, { method: 'PUT', url: '/api/enterprise/members/1/role', ...json({ role: 'admin' }) }],
      [member, { method: 'DELETE', url: '/api/enterprise/members/1' }],
      [member, { method: 'POST', url: '/api/enterprise/joinRequests/1/approve' }],
      [viewer, { method: 'PUT', url: '/api/enterprise/mapSettings', ...json({ serviceType: 'none' }) }],
      [viewer, { method: 'POST', url: '/api/enterprise/joinRequests/1/reject' }],
      [viewer, { method: 'PUT', url: '/api/enterprise/info', ...profileBody }],
    ] as const;
    for (const [api, request] of forbidden) {
      const response = await api(request as never);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(403);
      expect(response.json()).toMatchObject({ success: false, code: 403, message: 'You have no permission to do this' });
    }
    expect((await member({ method: 'GET', url: '/api/enterprise/members' })).statusCode).toBe(200);
    expect((await viewer({ method: 'GET', url: '/api/enterprise/mapSettings' })).statusCode).toBe(200);
  });

  it('checks the Enterprise-Id header', async () => {
    const admin = await login(demo.app, 'admin');
    const bad = await as(demo.app, admin)({ method: 'GET', url: '/api/enterprise/info', headers: { 'Enterprise-Id': 'abc' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Enterprise-Id/);
    expect((await as(demo.app, admin, 99999)({ method: 'GET', url: '/api/enterprise/info' })).statusCode).toBe(403);
    // Without the header the first verified enterprise is current.
    expect((await as(demo.app, admin)({ method: 'GET', url: '/api/enterprise/info' })).json().result.id).toBe(demo.ids.water);
    // A user with no verified enterprise has no current one.
    const newcomer = await login(demo.app, 'newcomer');
    expect((await as(demo.app, newcomer)({ method: 'GET', url: '/api/enterprise/info' })).statusCode).toBe(403);
    expect((await as(demo.app, newcomer, demo.ids.drainage)({ method: 'GET', url: '/api/enterprise/info' })).statusCode).toBe(403);
  });
});

describe('tenant isolation', () => {
  /**
   * Every route of the API, taken from the OpenAPI document, called by the admin of the water
   * utility who names the gas utility: each either refuses with 403 or (for routes that do not
   * work in an enterprise) answers without anything of the gas utility in it.
   */
  it('no route gives a member of one enterprise anything of another', async () => {
    const doc = (await demo.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const waterAdmin = await login(demo.app, 'admin');
    const gasProfile = (await as(demo.app, await login(demo.app, 'both'), demo.ids.gas)({ method: 'GET', url: '/api/enterprise/info' })).json().result;
    const notEnterpriseScoped = new Set([
      'GET /api/health',
      'GET /api/ready',
      'GET /api/getEncryptedString',
      'POST /api/checkLogin',
      'GET /api/getUserPermission',
      'GET /api/user/info',
      'POST /api/logout',
      'POST /api/user/changPassword',
      'PUT /api/user/changPassword',
      'GET /api/sendSMS',
      'POST /api/auth/register',
      'POST /api/auth/forge-password',
      'GET /api/enterprise/getUserEnterprises',
      'POST /api/enterprise/register',
      'GET /api/enterprise/search',
      'POST /api/enterprise/apply',
      'GET /api/enterprise/applications',
      'GET /api/settings',
      // The built-in basemap is public map data, no tenant's.
      'GET /api/tiles/basemap/{grid}/{z}/{x}/{y}.pbf',
      'GET /api/tiles/info',
      'GET /api/tiles/basemap.json',
      'GET /api/tiles/basemap/style.json',
      // A user's own personal access tokens (each bound to an enterprise the user is a verified member of).
      'GET /api/open-data/tokens',
      'POST /api/open-data/tokens',
      'DELETE /api/open-data/tokens/{id}',
      // A user's own layer choices: the same in every enterprise, with nothing of any tenant in them.
      'GET /api/preferences/poiOverlayLayers',
      'PUT /api/preferences/poiOverlayLayers',
    ]);
    let checked = 0;
    // Logout revokes the token: call it last.
    const paths = Object.entries(doc.paths as Record<string, Record<string, unknown>>).sort(([a], [b]) => Number(a === '/api/logout') - Number(b === '/api/logout'));
    for (const [path, methods] of paths) {
      for (const method of Object.keys(methods)) {
        const route = `${method.toUpperCase()} ${path}`;
        const url = path.replace(/\{[^}]+\}/g, '1');
        const response = await as(demo.app, waterAdmin, demo.ids.gas)({ method: method.toUpperCase() as 'GET', url, payload: method === 'get' ? undefined : {} });
        if (route === 'GET /api/getUserPermission') expect(response.statusCode).toBe(403);
        if (notEnterpriseScoped.has(route) || path.startsWith('/api/platform/')) {
          expect(response.body, route).not.toContain(gasProfile.creditCode);
          // The search is a directory of verified enterprises' names, for applying to join.
          if (route !== 'GET /api/enterprise/search') expect(response.body, route).not.toContain(DEMO_ENTERPRISES.gas.name);
        } else {
          expect(response.statusCode, route).toBe(403);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });
});
