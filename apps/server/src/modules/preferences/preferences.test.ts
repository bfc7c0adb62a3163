import { describe, expect, it } from 'vitest';
import type { PoiOverlayLayers } from '@console/contract';
import { as, login, useDemoServer } from '../../testing/app.ts';

const demo = useDemoServer();

const layers: PoiOverlayLayers = {
  basemap: { visible: true, opacity: 0.6 },
  areas: { visible: false, opacity: 1 },
  pipes: { visible: true, opacity: 0.8, networks: ['water'] },
  pois: { visible: true, opacity: 0.9, statuses: ['new', 'assigned'], priorities: ['high'] },
  footprints: { visible: false, opacity: 0.5, statuses: ['delivered'] },
};

describe('preferences', () => {
  it("keeps each user's overlay layers for them alone, checked by shape", async () => {
    const member = as(demo.app, await login(demo.app, 'member'));
    const url = '/api/preferences/poiOverlayLayers';
    expect((await member({ method: 'GET', url })).json().result).toBeNull();

    const bad = await member({ method: 'PUT', url, payload: { ...layers, pois: { ...layers.pois, opacity: 2, statuses: ['lost'] } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/pois\.opacity: .*1.*; pois\.statuses\.0: /);
    const zh = await member({ method: 'PUT', url, payload: { ...layers, basemap: undefined }, headers: { 'Accept-Language': 'zh-CN' } });
    expect(zh.json().message).toBe('basemap: 不能为空');
    expect((await member({ method: 'GET', url })).json().result).toBeNull();

    expect((await member({ method: 'PUT', url, payload: layers })).statusCode).toBe(200);
    expect((await member({ method: 'GET', url })).json().result).toEqual(layers);
    const changed = { ...layers, basemap: { visible: false, opacity: 0.3 } };
    await member({ method: 'PUT', url, payload: changed });
    expect((await member({ method: 'GET', url })).json().result).toEqual(changed);

    const viewer = as(demo.app, await login(demo.app, 'viewer'));
    expect((await viewer({ method: 'GET', url })).json().result).toBeNull();
    expect((await demo.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await member({ method: 'GET', url: '/api/preferences/somethingElse' })).statusCode).toBe(404);
  });
});
