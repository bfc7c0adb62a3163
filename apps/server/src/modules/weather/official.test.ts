import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { claimSources, fetchNow, runClaimed } from './provider.ts';
import { expectedRain } from './official.ts';

const demo = useDemoServer();
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const upload = (fileName: string, text: string, fields: Record<string, string> = {}) => {
  const body = multipartFile('file', fileName, text);
  // Fields before the file, as the console's upload sends them.
  const boundary = body.headers['content-type'].split('boundary=')[1];
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  return { payload: Buffer.concat([Buffer.from(parts), body.payload]), headers: body.headers };
};
type Warning = { id: number; source: string; sender: string; type: string; level: string; start: string; end: string; cancelledAt: string | null; identifier: string; levels: { level: string }[]; updates: { msgType: string; identifier: string }[]; touches: { riskAreas: { kind: string; name: string; why: string; rainMm?: number }[]; pipes: { networkType: string }[] } };

describe('official warnings (CAP 1.2): kept beside derived ones, updates and cancellations on the first issue', () => {
  it('an orange rainstorm upgraded to red is one warning with both messages; its cancellation ends it; a second upload changes nothing', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    // The city observatory's (the demo keeps the district observatory's own).
    const official = async () => ((await api({ method: 'GET', url: '/api/weather/warnings?from=2026-06-17T00:00:00Z&to=2026-06-19T00:00:00Z' })).json().result as Warning[]).filter((w) => w.source === 'official' && w.sender === '杭州市气象台');

    const response = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('hangzhou-rainstorm.xml', fixture('cap-rainstorm.xml')) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result).toEqual({ issued: 1, updated: 1, cancelled: 0, known: 0, skipped: [{ identifier: '33010041600000_20260618070000_TEST', status: 'Exercise' }] });
    const [warning] = await official();
    expect(warning).toMatchObject({ type: 'rainstorm', level: 'I', identifier: '33010041600000_20260618060000', start: '2026-06-17T22:00:00.000Z', end: '2026-06-18T12:00:00.000Z', cancelledAt: null });
    expect(warning.levels.map((l) => l.level)).toEqual(['II', 'I']);
    expect(warning.updates.map((u) => u.msgType)).toEqual(['Alert', 'Update']);
    // Red: 100 mm in 3 h expected, so every waterlogging point triggered at <= 100 mm in 3+ h or its share in less.
    const areas = (await api({ method: 'GET', url: '/api/risk-areas/areas?kind=waterlogging' })).json().result.list as { name: string; status: string; triggerRainMm: number; triggerHours: number; geometry: { coordinates: number[] } }[];
    const inPolygon = (a: (typeof areas)[number]) => a.geometry.coordinates[0] >= 120.1 && a.geometry.coordinates[0] <= 120.3 && a.geometry.coordinates[1] >= 30.15 && a.geometry.coordinates[1] <= 30.25;
    const expected = areas.filter((a) => a.status !== 'remediated' && inPolygon(a) && expectedRain('I', a.triggerHours) >= a.triggerRainMm).map((a) => a.name).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(warning.touches.riskAreas.filter((a) => a.why === 'triggerMet').map((a) => a.name).sort()).toEqual(expected);
    expect(warning.touches.pipes.map((p) => p.networkType)).toEqual(['drainage']);

    const cancel = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('cancel.xml', fixture('cap-cancel.xml')) });
    expect(cancel.json().result).toMatchObject({ issued: 0, updated: 0, cancelled: 1 });
    const [cancelled] = await official();
    expect(cancelled).toMatchObject({ id: warning.id, level: 'I', cancelledAt: '2026-06-18T07:00:00.000Z', end: '2026-06-18T07:00:00.000Z' });
    expect(cancelled.updates.map((u) => u.msgType)).toEqual(['Alert', 'Update', 'Cancel']);

    const again = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('again.xml', fixture('cap-rainstorm.xml')) });
    expect(again.json().result).toMatchObject({ issued: 0, updated: 0, known: 2 });
    expect(await official()).toHaveLength(1);
  });

  it('a signal lowered is kept at its new level; a lift that names no message ends the sender\'s warning of its kind in force', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const message = (identifier: string, msgType: string, headline: string, references = '') => `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>${identifier}</identifier><sender>萧山区气象台</sender><sent>2026-07-02T${identifier.slice(-5)}:00+08:00</sent>
  <status>Actual</status><msgType>${msgType}</msgType><scope>Public</scope>${references ? `<references>萧山区气象台,${references},2026-07-02T08:00:00+08:00</references>` : ''}
  <info><category>Met</category><event>暴雨</event><urgency>Immediate</urgency><severity>Severe</severity><certainty>Likely</certainty>
    <expires>2026-07-02T23:00:00+08:00</expires><headline>${headline}</headline>
    <area><areaDesc>萧山区</areaDesc><polygon>30.15,120.10 30.15,120.30 30.25,120.30 30.25,120.10 30.15,120.10</polygon></area></info></alert>`;
    const send = async (name: string, xml: string) => (await api({ method: 'POST', url: '/api/weather/uploads', ...upload(name, xml) })).json().result;
    expect(await send('issued.xml', message('XS-08:00', 'Alert', '萧山区气象台发布暴雨橙色预警信号'))).toMatchObject({ issued: 1 });
    expect(await send('lowered.xml', message('XS-10:00', 'Update', '萧山区气象台将暴雨橙色预警信号降级为黄色', 'XS-08:00'))).toMatchObject({ updated: 1 });
    const mine = async () => ((await api({ method: 'GET', url: '/api/weather/warnings?from=2026-07-01T00:00:00Z&to=2026-07-03T00:00:00Z' })).json().result as Warning[]).filter((w) => w.sender === '萧山区气象台');
    expect((await mine())[0]).toMatchObject({ level: 'III', cancelledAt: null });
    expect((await mine())[0].levels.map((l) => l.level)).toEqual(['II', 'III']);
    expect(await send('lifted.xml', message('XS-12:00', 'Alert', '萧山区气象台解除暴雨黄色预警信号'))).toMatchObject({ issued: 0, cancelled: 1 });
    const [ended] = await mine();
    expect(ended).toMatchObject({ level: 'III', cancelledAt: '2026-07-02T04:00:00.000Z' });
  });

  it('a warning without a polygon needs a project or place; a bad file writes nothing', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const noArea = fixture('cap-rainstorm.xml')
      .replace(/<polygon>[^<]*<\/polygon>/g, '')
      .replaceAll('20260618', '20260719')
      .replaceAll('2026-06-18', '2026-07-19');
    const refused = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('gale.xml', noArea) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('file: 1 problem(s), first: 33010041600000_20260719060000 area: the warning gives no polygon or circle; choose the project or place it is for; nothing was written');
    const before = (await api({ method: 'GET', url: '/api/weather/warnings?from=2026-07-18T00:00:00Z&to=2026-07-20T00:00:00Z' })).json().result.filter((w: Warning) => w.source === 'official').length;
    expect(before).toBe(0);
    const [project] = (await api({ method: 'GET', url: '/api/projects' })).json().result;
    const kept = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('gale.xml', noArea, { projectId: String(project.id) }) });
    expect(kept.json().result).toMatchObject({ issued: 1, updated: 1 });
    const [warning] = (await api({ method: 'GET', url: '/api/weather/warnings?from=2026-07-18T00:00:00Z&to=2026-07-20T00:00:00Z' })).json().result.filter((w: Warning) => w.source === 'official');
    expect(warning.area).toEqual(project.area);
  });

  it('a station CSV of two stations keeps two places with their current values', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const response = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('stations.csv', fixture('station-hourly.csv')) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result).toMatchObject({ places: 2, hours: 4 });
    const places = (await api({ method: 'GET', url: '/api/weather/places' })).json().result as { code: string; latest: { time: string; temperature: number } | null }[];
    expect(places.find((p) => p.code === 'K1001')!.latest).toMatchObject({ time: '2026-06-18T10:00:00.000Z', temperature: 24.9 });
    const isd = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('58457.csv', fixture('isd-58457.csv')) });
    expect(isd.json().result).toMatchObject({ places: 1, hours: 4 });
  });

  it("the demo holds the district observatory's warnings: the June rainstorm raised and lifted, a fog, a cold wave in force touching shallow water pipes", async () => {
    const api = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const demoWarnings = ((await api({ method: 'GET', url: '/api/weather/warnings' })).json().result as (Warning & { event: string })[]).filter((w) => w.sender === '滨江区气象台');
    expect(demoWarnings.map((w) => [w.type, w.level, w.event, w.cancelledAt !== null, w.updates.length])).toEqual([
      ['coldWave', 'IV', '寒潮', false, 1],
      ['other', 'III', '大雾', false, 1],
      ['rainstorm', 'II', '暴雨', true, 3],
    ]);
    expect(demoWarnings[0].touches.pipes).toEqual([expect.objectContaining({ networkType: 'water', why: 'shallowWater' })]);
  });

  it('keeps official warnings and the source to their enterprise; only admins set the source', async () => {
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect(((await gas({ method: 'GET', url: '/api/weather/warnings' })).json().result as Warning[]).filter((w) => w.source === 'official')).toEqual([]);
    // The same message in another enterprise is its own warning.
    const mine = await gas({ method: 'POST', url: '/api/weather/uploads', ...upload('rain.xml', fixture('cap-rainstorm.xml')) });
    expect(mine.json().result).toMatchObject({ issued: 1, updated: 1, known: 0 });
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'PUT', url: '/api/weather/source', payload: { provider: 'files' } })).statusCode).toBe(403);
    expect((await viewer({ method: 'GET', url: '/api/weather/source' })).json().result).toMatchObject({ provider: 'files' });
  });
});

describe('the Open-Meteo provider, against a local stub serving a recorded answer', () => {
  let stub: Server;
  let base: string;
  const requests: string[] = [];
  let broken = false;
  beforeAll(async () => {
    stub = createServer((request, response) => {
      requests.push(request.url!);
      if (broken) return void response.writeHead(503).end('down');
      response.writeHead(200, { 'content-type': 'application/json' }).end(fixture('open-meteo-forecast-gmt.json'));
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => stub.close(() => resolve())));

  it('fetches each project area: past hours as observed, the rest as forecast, with the forecast rainstorm derived', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    expect((await api({ method: 'PUT', url: '/api/weather/source', payload: { provider: 'openMeteo', url: 'ftp://x' } })).json().message).toMatch(/^url: give the service's http\(s\) address/);
    const saved = await api({ method: 'PUT', url: '/api/weather/source', payload: { provider: 'openMeteo', url: base, everyMinutes: 60 } });
    expect(saved.statusCode, saved.body).toBe(200);
    const projects = ((await api({ method: 'GET', url: '/api/projects' })).json().result as { code: string; area: unknown }[]).filter((p) => p.area);

    const outcome = await fetchNow(demo.database.db, demo.ids.water, 'test', undefined, new Date('2026-07-10T00:00:00Z'));
    expect(outcome).toEqual({ projects: projects.length, hours: 96 * projects.length, error: null });
    expect(requests).toHaveLength(projects.length);
    const asked = new URL(requests[0], base);
    expect(asked.pathname).toBe('/v1/forecast');
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ hourly: 'precipitation,temperature_2m,wind_speed_10m,wind_gusts_10m', wind_speed_unit: 'ms', timezone: 'GMT', past_days: '2', forecast_days: '7' });

    const place = ((await api({ method: 'GET', url: '/api/weather/places' })).json().result as { id: number; code: string; latest: { time: string } }[]).find((p) => p.code === `project-${projects[0].code}`)!;
    expect(place.latest.time).toBe('2026-07-10T00:00:00.000Z');
    const forecast = (await api({ method: 'GET', url: `/api/weather/places/${place.id}/hours?kind=forecast&from=2026-07-10T00:00:00Z&to=2026-07-13T00:00:00Z` })).json().result;
    expect(forecast).toHaveLength(47);
    const warnings = (await api({ method: 'GET', url: '/api/weather/warnings?from=2026-07-10T00:00:00Z&to=2026-07-12T00:00:00Z' })).json().result as { basis: string; type: string; level: string; value: number }[];
    expect(warnings.filter((w) => w.basis === 'forecast')).toContainEqual(expect.objectContaining({ type: 'rainstorm', level: 'II', value: 90.6 }));
    const source = (await api({ method: 'GET', url: '/api/weather/source' })).json().result;
    expect(source).toMatchObject({ provider: 'openMeteo', url: base, lastError: null, fetching: false });
    expect(source.lastFetchAt).toBeTruthy();
  });

  it('one instance fetches at a time: of two claiming at once only one gets the lease; a failing service is recorded, not thrown', async () => {
    const db = demo.database.db;
    const [a, b] = await Promise.all([claimSources(db, 'instance-a', { enterpriseId: demo.ids.water }), claimSources(db, 'instance-b', { enterpriseId: demo.ids.water })]);
    expect(a.length + b.length).toBe(1);
    // Not due: fetched a moment ago, every 60 minutes.
    expect(await claimSources(db, 'instance-c', { due: true })).toEqual([]);
    broken = true;
    const held = a.length ? 'instance-a' : 'instance-b';
    const outcome = await runClaimed(db, (a[0] ?? b[0])!, held);
    expect(outcome.error).toBe(`127.0.0.1:${new URL(base).port} answered HTTP 503`);
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    expect((await api({ method: 'GET', url: '/api/weather/source' })).json().result).toMatchObject({ lastError: outcome.error, fetching: false });
    const failed = await api({ method: 'POST', url: '/api/weather/source/fetch' });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toBe(`The weather service could not be read: ${outcome.error}`);
    broken = false;
  });
});
