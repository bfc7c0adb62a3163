import { describe, expect, it } from 'vitest';
import { as, login, useDemoServer } from '../../testing/app.ts';
import { demoWeatherTimes } from '../../demo/weather.ts';

const demo = useDemoServer();

/** An Open-Meteo JSON answer (UTC) for a place, hour by hour from `start`. */
function openMeteo(lon: number, lat: number, start: string, hours: { precipitation?: number; temperature?: number; wind?: number }[]) {
  const time = hours.map((_, i) => new Date(Date.parse(start) + i * 3_600_000).toISOString().slice(0, 16));
  return JSON.stringify({
    latitude: lat, longitude: lon, utc_offset_seconds: 0, hourly_units: { wind_speed_10m: 'm/s', wind_gusts_10m: 'm/s' },
    hourly: { time, precipitation: hours.map((h) => h.precipitation ?? 0), temperature_2m: hours.map((h) => h.temperature ?? 15), wind_speed_10m: hours.map((h) => h.wind ?? 2), wind_gusts_10m: hours.map((h) => (h.wind ?? 2) * 1.5) },
  });
}

function upload(fileName: string, content: string, fields: Record<string, string>) {
  const boundary = '----weatherTest';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  const payload = Buffer.from(`${parts}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/json\r\n\r\n${content}\r\n--${boundary}--\r\n`);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('weather files, derived warnings and what they touch', () => {
  it('a rainstorm over the city is a red warning naming the waterlogging points whose trigger it met and the drainage network', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const areas = (await api({ method: 'GET', url: '/api/risk-areas/areas?kind=waterlogging' })).json().result.list as { id: number; name: string; status: string; triggerRainMm: number; triggerHours: number; geometry: { coordinates: number[] } }[];
    const [lon, lat] = areas[0].geometry.coordinates;
    // 60 mm in one hour, then 45 mm in two: 105 mm in 3 h.
    const file = openMeteo(lon, lat, '2026-07-10T00:00:00Z', [{}, { precipitation: 60 }, { precipitation: 25 }, { precipitation: 20 }, {}, {}]);
    const response = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('rain.json', file, { kind: 'observed', name: '滨江站', code: 'BJ-TEST' }) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result).toMatchObject({ hours: 6, warnings: 1 });
    const [warning] = (await api({ method: 'GET', url: '/api/weather/warnings?from=2026-07-10T00:00:00Z&to=2026-07-11T00:00:00Z' })).json().result;
    expect(warning).toMatchObject({ type: 'rainstorm', level: 'I', value: 105, source: 'derived', basis: 'observed' });
    expect(warning.levels.map((l: { level: string }) => l.level)).toEqual(['II', 'I']);
    const expected = areas.filter((a) => a.status !== 'remediated' && (a.triggerHours === 1 ? 60 : a.triggerHours <= 3 ? 105 : 105) >= a.triggerRainMm).map((a) => a.name).sort();
    expect(warning.touches.riskAreas.filter((a: { kind: string }) => a.kind === 'waterlogging').map((a: { name: string }) => a.name).sort()).toEqual(expected);
    expect(warning.touches.riskAreas.find((a: { kind: string }) => a.kind === 'void')).toBeTruthy();
    expect(warning.touches.pipes[0]).toMatchObject({ networkType: 'drainage' });
    expect(warning.touches.pipes[0].count).toBeGreaterThan(0);

    // The same hours again (a corrected file): the place keeps one set of hours and one warning.
    const again = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('rain.json', file, { kind: 'observed', code: 'BJ-TEST' }) });
    expect(again.json().result).toMatchObject({ hours: 6, warnings: 1 });
    const place = (await api({ method: 'GET', url: '/api/weather/places' })).json().result.find((p: { code: string }) => p.code === 'BJ-TEST');
    expect(place.name).toBe('滨江站');
    const hours = (await api({ method: 'GET', url: `/api/weather/places/${place.id}/hours?from=2026-07-10T00:00:00Z&to=2026-07-10T23:00:00Z` })).json().result;
    expect(hours.map((h: { precipitation: number }) => h.precipitation)).toEqual([0, 60, 25, 20, 0, 0]);
  });

  it('a cold wave names the shallow water pipes; a bad file is refused whole with its rows', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const [area] = (await api({ method: 'GET', url: '/api/risk-areas/areas?kind=void' })).json().result.list;
    const [lon, lat] = area.geometry.coordinates;
    // Local days start at 16:00 UTC: a daily minimum of 10 °C, then of -3 °C.
    const hours = Array.from({ length: 48 }, (_, i) => ({ temperature: i < 24 ? 10 + (i % 24 === 6 ? 0 : 5) : -3 + (i % 24 === 6 ? 0 : 4) }));
    const cold = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('cold.json', openMeteo(lon, lat, '2026-01-09T16:00:00Z', hours), { code: 'COLD-TEST' }) });
    expect(cold.statusCode, cold.body).toBe(200);
    const [warning] = (await api({ method: 'GET', url: '/api/weather/warnings?from=2026-01-10T00:00:00Z&to=2026-01-12T00:00:00Z' })).json().result;
    expect(warning).toMatchObject({ type: 'coldWave', level: 'II', value: 13 });
    expect(warning.touches.pipes).toEqual([expect.objectContaining({ networkType: 'water', why: 'shallowWater' })]);

    const placesBefore = (await api({ method: 'GET', url: '/api/weather/places' })).json().result.length;
    const bad = JSON.parse(openMeteo(lon, lat, '2026-02-01T00:00:00Z', [{}, {}, {}]));
    bad.hourly.temperature_2m[1] = 'cold';
    const refused = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('bad.json', JSON.stringify(bad), { code: 'BAD-TEST' }) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('file: 1 problem(s), first: row 2 2026-02-01T01:00 temperature_2m: "cold" is not a number; nothing was written');
    expect(refused.json().result.problems).toHaveLength(1);
    expect((await api({ method: 'GET', url: '/api/weather/places' })).json().result.length).toBe(placesBefore);
    const wrongKind = await api({ method: 'POST', url: '/api/weather/uploads', ...upload('rain.txt', 'x', {}) });
    expect(wrongKind.json().message).toBe('file: rain.txt is not an Open-Meteo JSON or CSV, NOAA ISD CSV, station CSV or CAP XML file');
  });

  it('keeps each enterprise to its own places and warnings; viewers read, do not import', async () => {
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: '/api/weather/places' })).json().result).toEqual([]);
    expect((await gas({ method: 'GET', url: '/api/weather/warnings' })).json().result).toEqual([]);
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const [place] = (await water({ method: 'GET', url: '/api/weather/places' })).json().result;
    const [warning] = (await water({ method: 'GET', url: '/api/weather/warnings' })).json().result;
    expect((await gas({ method: 'GET', url: `/api/weather/places/${place.id}/hours?from=2026-07-10T00:00:00Z&to=2026-07-11T00:00:00Z` })).statusCode).toBe(404);
    expect((await gas({ method: 'GET', url: `/api/weather/warnings/${warning.id}` })).statusCode).toBe(404);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'GET', url: `/api/weather/warnings/${warning.id}` })).statusCode).toBe(200);
    expect((await viewer({ method: 'POST', url: '/api/weather/uploads', ...upload('x.json', '{}', {}) })).statusCode).toBe(403);
  });
});

describe("the demo's weather", () => {
  it('runs to the hour the demo was made, with rain ahead in its forecast and the official rainstorm of the last June', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const now = Date.now();
    const place = (await api({ method: 'GET', url: '/api/weather/places' })).json().result.find((p: { code: string }) => p.code === 'BJ-58457');
    const hours = async (kind: string, from: number, to: number) =>
      (await api({ method: 'GET', url: `/api/weather/places/${place.id}/hours?kind=${kind}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}` })).json().result as { time: string; precipitation: number }[];
    const observed = await hours('observed', now - 2 * 86_400_000, now);
    expect(observed.length).toBeGreaterThanOrEqual(47);
    expect(now - Date.parse(observed.at(-1)!.time)).toBeLessThan(2 * 3_600_000);
    const ahead = await hours('forecast', now, now + 7 * 86_400_000);
    expect(ahead.reduce((sum, h) => sum + h.precipitation, 0)).toBeGreaterThanOrEqual(52);
    const warnings = (await api({ method: 'GET', url: `/api/weather/warnings?from=${new Date(now - 400 * 86_400_000).toISOString()}&to=${new Date(now + 7 * 86_400_000).toISOString()}` })).json().result as { source: string; basis: string; type: string; level: string; start: string }[];
    expect(warnings.find((w) => w.basis === 'forecast' && w.type === 'rainstorm' && Date.parse(w.start) > now)).toBeTruthy();
    const official = warnings.find((w) => w.source === 'official' && w.type === 'rainstorm')!;
    expect(official.level).toBe('II'); // raised from yellow to orange
    expect(official.start.slice(5, 10)).toBe('06-18');
    expect(now - Date.parse(official.start)).toBeLessThan(370 * 86_400_000);
  });

  it('places every episode inside its year of observations, in its season, whatever day the demo is made', () => {
    for (let day = 0; day < 2 * 366; day++) {
      const now = Date.UTC(2027, 0, 1, 13, 30) + day * 86_400_000;
      const times = demoWeatherTimes(now);
      for (const [name, at, monthDay] of [['rainstorm', times.rainstorm, '06-18'], ['coldWave', times.coldWave, '01-21'], ['typhoon', times.typhoon, '08-12']] as const) {
        expect(times.end - at, `${name} on ${new Date(now).toISOString()}`).toBeGreaterThanOrEqual(2 * 86_400_000);
        expect(times.end - at, `${name} on ${new Date(now).toISOString()}`).toBeLessThan(368 * 86_400_000);
        expect(new Date(at).toISOString().slice(5, 10)).toBe(monthDay);
      }
      expect(times.forecastRain).toBeGreaterThan(now + 86_400_000);
      expect(times.forecastRain + 6 * 3_600_000).toBeLessThan(times.end + 7 * 86_400_000);
    }
  });
});
